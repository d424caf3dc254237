// The public render API (include/throng/render.h) over the renderer's internals: a Context over
// the host's device, throng's sub-allocator on it, the asset on the GPU and one
// render::CrowdRenderer, plus the member handles.
#include <throng/render.h>

#include <throng/events.h>

#include "../gpu/context.h"
#include "../gpu/passes.h"
#include "../render/crowd_renderer.h"
#include "../render/gpu_asset.h"
#include "../sim/motion.h"

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace throng {

// --- DeviceFeatures ---------------------------------------------------------------------------

DeviceFeatures::DeviceFeatures(VkPhysicalDevice physical) {
    VkPhysicalDeviceVulkan13Features have13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features have12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &have13};
    VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &have12};
    vkGetPhysicalDeviceFeatures2(physical, &have);
    v13_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    v13_.dynamicRendering = have13.dynamicRendering;
    v13_.synchronization2 = have13.synchronization2;
    v12_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13_};
    v12_.drawIndirectCount = have12.drawIndirectCount;
    v12_.shaderBufferInt64Atomics = have12.shaderBufferInt64Atomics;
    v12_.hostQueryReset = have12.hostQueryReset;
    features_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12_};
    features_.features.multiDrawIndirect = have.features.multiDrawIndirect;
    features_.features.drawIndirectFirstInstance = have.features.drawIndirectFirstInstance;
    features_.features.shaderInt64 = have.features.shaderInt64;
    features_.features.shaderInt16 = have.features.shaderInt16;
}

// --- CrowdRenderer ------------------------------------------------------------------------------

namespace {

constexpr uint32_t kIdSlotBits = 24; // MemberId: generation << 24 | id slot
constexpr uint32_t kMaxMembers = 1u << kIdSlotBits;
constexpr uint32_t kNoIndex = ~0u;

// The record of `m`, whose model's clips start at `first_clip` of the crowd's.
gpu::shader::InstanceRecord toRecord(const Member& m, uint32_t first_clip) {
    gpu::shader::InstanceRecord r{};
    r.position_scale = glm::vec4(m.position, m.scale);
    r.orientation = render::packQuaternion(glm::angleAxis(m.heading, glm::vec3(0.0f, 1.0f, 0.0f)));
    r.clips = gpu::shader::throngClips(first_clip + m.clip, first_clip + m.blend_clip, m.model);
    r.color = render::packColor(m.tint);
    r.time_offset = m.time_offset;
    r.speed = m.speed;
    r.blend = std::clamp(m.blend, 0.0f, 1.0f);
    return r;
}

} // namespace

struct CrowdRenderer::State {
    std::unique_ptr<gpu::Context> context;
    gpu::Allocator allocator;
    render::GpuAsset asset;
    std::unique_ptr<render::CrowdRenderer> renderer;
    const BakedAsset* baked = nullptr;                // the asset, or the library's (several models)
    std::optional<render::AssetLibrary> library;      // several models: them concatenated
    std::vector<uint32_t> model_live, model_capacity; // per model: its members now, at most
    CrowdRendererDesc desc;
    // Members: record index i < live holds the member of id slot id_of[i]; index_of[id slot] is
    // its record (kNoIndex when free), generation[id slot] tells stale ids apart.
    std::vector<Member> members; // per record index
    std::vector<uint32_t> id_of, index_of, generation, free_ids;
    uint32_t live = 0;
    std::vector<double> update_ms; // per slot
    Error error; // the first failure (a GPU's, or a bad slot, target or light); none while its message is empty
    std::shared_ptr<sim::EventMirror> events; // simulated with simulation_events: the events of its steps
    double clock = 0.0;                       // the last frame's FrameInput::time

    ~State() {
        renderer.reset();
        asset.release(); // before its allocator
        if (context) {
            gpu::destroyAllocator(allocator);
            gpu::destroyContext(*context);
        }
    }
    // The record index of `id`, or kNoIndex.
    uint32_t indexOf(MemberId id) const {
        const uint32_t slot = id.value & (kMaxMembers - 1);
        if (slot >= index_of.size() || generation[slot] != id.value >> kIdSlotBits) return kNoIndex;
        return index_of[slot];
    }
    // The member's model and clips, and room for it in its model when it joins it (`joins`).
    Status checkMember(const Member& m, bool joins) const {
        if (m.model >= asset.ranges.size())
            return Status::failure("model " + std::to_string(m.model) + " past the crowd's " +
                                   std::to_string(asset.ranges.size()));
        // InstanceRecord::clips holds 12 bits a clip: a crowd plays its first THRONG_MAX_CLIPS.
        const render::AssetRange& r = asset.ranges[m.model];
        const uint32_t clips = uint32_t(std::clamp<int64_t>(int64_t(THRONG_MAX_CLIPS) - r.first_clip, 1, r.clip_count));
        if (m.clip >= clips || m.blend_clip >= clips)
            return Status::failure("clip " + std::to_string(std::max(m.clip, m.blend_clip)) + " past the " +
                                   std::to_string(clips) + " its model plays");
        if (joins && model_live[m.model] >= model_capacity[m.model])
            return Status::failure(asset.ranges.size() > 1
                                       ? "model " + std::to_string(m.model) + " is full (max_members " +
                                             std::to_string(model_capacity[m.model]) + ")"
                                       : "the crowd is full (max_members " + std::to_string(model_capacity[m.model]) +
                                             ")");
        return {};
    }
    gpu::shader::InstanceRecord record(const Member& m, MemberId id) const {
        gpu::shader::InstanceRecord r = toRecord(m, asset.ranges[m.model].first_clip);
        // Its props (attach.h) and colours stay its own wherever its record moves.
        r.key = m.key != 0 ? m.key : id.value + 1;
        return r;
    }
};

Result<std::unique_ptr<CrowdRenderer>> CrowdRenderer::create(const RenderDevice& device,
                                                             const CrowdRendererDesc& desc) {
    if (desc.asset == nullptr && desc.models.empty()) return Error{"CrowdRendererDesc::asset is required"};
    if (desc.asset != nullptr && !desc.models.empty())
        return Error{"CrowdRendererDesc: asset or models, not both (one model: asset)"};
    if (desc.models.size() > kMaxCrowdModels)
        return Error{std::to_string(desc.models.size()) + " models; a crowd holds at most " +
                     std::to_string(kMaxCrowdModels)};
    uint64_t model_members = 0;
    for (size_t m = 0; m < desc.models.size(); ++m) {
        if (desc.models[m].asset == nullptr)
            return Error{"CrowdRendererDesc::models[" + std::to_string(m) + "]: asset is required"};
        if (desc.models[m].max_members == 0)
            return Error{"CrowdRendererDesc::models[" + std::to_string(m) + "]: max_members is 0"};
        model_members += desc.models[m].max_members;
    }
    if (!desc.models.empty() && model_members > kMaxMembers)
        return Error{"the models' max_members add up to " + std::to_string(model_members) + ", past " +
                     std::to_string(kMaxMembers)};
    if (desc.extent.width == 0 || desc.extent.height == 0) return Error{"CrowdRendererDesc::extent is required"};
    if (desc.frames_in_flight == 0 || desc.frames_in_flight > 8)
        return Error{"frames_in_flight must be 1 to 8, not " + std::to_string(desc.frames_in_flight)};
    if (desc.models.empty() && (desc.max_members == 0 || desc.max_members > kMaxMembers))
        return Error{"max_members must be 1 to " + std::to_string(kMaxMembers)};
    if (std::string problem = optionsProblem(desc); !problem.empty()) return Error{problem};
    if (desc.velocity_format != VK_FORMAT_UNDEFINED && desc.velocity_format != VK_FORMAT_R16G16_SFLOAT &&
        desc.velocity_format != VK_FORMAT_R32G32_SFLOAT)
        return Error{"velocity_format must be VK_FORMAT_R16G16_SFLOAT or VK_FORMAT_R32G32_SFLOAT (or UNDEFINED: none)"};
    gpu::HostDevice host;
    host.instance = device.instance;
    host.physical = device.physical_device;
    host.device = device.device;
    host.queue_family = device.queue_family;
    host.queue_index = device.queue_index;
    host.callbacks = device.allocation_callbacks;
    host.enabled = device.enabled_features;
    Result<std::unique_ptr<gpu::Context>> context = gpu::adoptDevice(host);
    if (!context) return context.error();

    std::unique_ptr<CrowdRenderer> r(new CrowdRenderer);
    r->state_ = std::make_unique<State>();
    State& s = *r->state_;
    s.context = std::move(context).value();
    gpu::createAllocator(s.allocator, *s.context);
    s.desc = desc;
    if (!desc.models.empty()) { // several models: one asset of them all
        std::vector<const BakedAsset*> assets;
        for (const CrowdModel& m : desc.models) assets.push_back(m.asset);
        Result<render::AssetLibrary> built = render::buildAssetLibrary(assets);
        if (!built) return built.error();
        s.library = std::move(built).value();
        s.baked = &s.library->asset;
        for (const CrowdModel& m : desc.models) s.model_capacity.push_back(m.max_members);
        s.desc.max_members = uint32_t(model_members);
    } else {
        s.baked = desc.asset;
        s.model_capacity = {desc.max_members};
    }
    s.model_live.assign(s.model_capacity.size(), 0);
    s.update_ms.assign(desc.frames_in_flight, 0.0);
    try {
        Result<render::GpuAsset> uploaded =
            s.library ? render::uploadLibrary(s.allocator, *s.library) : render::uploadAsset(s.allocator, *desc.asset);
        if (!uploaded) return uploaded.error();
        s.asset = std::move(uploaded).value();

        render::CrowdRendererSetup setup;
        static_cast<CrowdOptions&>(setup) = desc; // the crowd's options as the host gave them
        setup.baked = s.baked;
        if (s.library) setup.model_sources = s.library->sources;
        // The host's members come and go within each model's room; a simulated crowd's are dealt
        // by throng (each model's share its max_members), counted from the records.
        if (s.library && !desc.simulate) setup.model_capacity = s.model_capacity;
        setup.color_format = desc.color_format;
        setup.depth_format = desc.depth_format;
        setup.velocity_format = desc.velocity_format;
        setup.extent = desc.extent;
        setup.frames_in_flight = desc.frames_in_flight;
        if (desc.simulate) { // throng lays the crowd out: it brings its clip bounds
            render::CrowdLayout layout;
            layout.count = s.desc.max_members;
            layout.seed = desc.seed;
            layout.volume = render::techniqueSwims(desc.technique); // a school of fish swims in a volume
            std::vector<float> shares;
            std::vector<const BakedAsset*> assets;
            for (const CrowdModel& m : desc.models) {
                shares.push_back(float(m.max_members));
                assets.push_back(m.asset);
            }
            const render::Crowd crowd =
                s.library ? render::makeCrowd(*s.library, layout, shares) : render::makeCrowd(*desc.asset, layout);
            std::shared_ptr<sim::EventMirror>* events = desc.simulation_events ? &s.events : nullptr;
            Result<render::MotionFactory> motion =
                s.library ? sim::gpuMotion(*s.context, assets, *s.library, crowd, sim::kindFor(desc.technique),
                                           desc.seed, nullptr, 0.0, events)
                          : sim::gpuMotion(*s.context, *desc.asset, crowd, sim::kindFor(desc.technique), desc.seed,
                                           nullptr, 0.0, events);
            if (!motion) return motion.error();
            setup.motion = std::move(motion).value();
            setup.members = crowd.instances;
            setup.clip_bounds = crowd.clip_bounds;
            if (setup.shadows.area.min == setup.shadows.area.max) setup.shadows.area = crowd.bounds;
        } else {
            setup.clip_bounds = s.library ? render::clipCullBounds(*s.library) : render::clipCullBounds(*desc.asset);
        }
        setup.capacity = s.desc.max_members;
        Result<std::unique_ptr<render::CrowdRenderer>> created =
            render::CrowdRenderer::create(s.allocator, s.asset, setup);
        if (!created) return created.error();
        s.renderer = std::move(created).value();
        s.live = desc.simulate ? s.desc.max_members : 0;
        if (desc.simulate)
            for (const gpu::shader::InstanceRecord& rec : setup.members)
                ++s.model_live[gpu::shader::throngAssetOf(rec.clips)];
        s.renderer->setLiveMembers(s.live);
    } catch (const gpu::GpuError& e) {
        vkDeviceWaitIdle(s.context->device);
        return e.error();
    }
    return r;
}

CrowdRenderer::~CrowdRenderer() = default;

Result<MemberId> CrowdRenderer::addMember(const Member& m) {
    State& s = *state_;
    if (s.desc.simulate) return Error{"the crowd is simulated on the GPU: its members cannot be edited"};
    if (Status st = s.checkMember(m, true); !st) return Error{st.message};
    uint32_t slot;
    if (!s.free_ids.empty()) {
        slot = s.free_ids.back();
        s.free_ids.pop_back();
    } else {
        slot = uint32_t(s.index_of.size());
        s.index_of.push_back(kNoIndex);
        s.generation.push_back(0);
    }
    const uint32_t index = s.live++;
    s.index_of[slot] = index;
    if (s.id_of.size() <= index) s.id_of.resize(index + 1);
    if (s.members.size() <= index) s.members.resize(index + 1);
    s.id_of[index] = slot;
    s.members[index] = m;
    const MemberId id{s.generation[slot] << kIdSlotBits | slot};
    s.renderer->records()[index] = s.record(m, id);
    ++s.model_live[m.model];
    s.renderer->markChanged(index, 1);
    s.renderer->teleported(index); // new: no motion from what the record held before
    s.renderer->setLiveMembers(s.live);
    return id;
}

Status CrowdRenderer::setMember(MemberId id, const Member& m) {
    State& s = *state_;
    if (s.desc.simulate) return Status::failure("the crowd is simulated on the GPU: its members cannot be edited");
    const uint32_t index = s.indexOf(id);
    if (index == kNoIndex) return Status::failure("no member " + std::to_string(id.value));
    const uint32_t was = s.members[index].model;
    if (Status st = s.checkMember(m, m.model != was); !st) return st;
    --s.model_live[was];
    ++s.model_live[m.model];
    s.members[index] = m;
    s.renderer->records()[index] = s.record(m, id);
    s.renderer->markChanged(index, 1);
    return {};
}

double CrowdRenderer::clock() const {
    const State& s = *state_;
    return s.events ? s.events->time() : s.clock;
}

Result<std::vector<MemberEvent>> CrowdRenderer::eventsBetween(double t0, double t1) const {
    const State& s = *state_;
    std::vector<MemberEvent> out;
    if (s.desc.simulate) {
        if (!s.events) return Error{"a simulated crowd reports events with CrowdRendererDesc::simulation_events"};
        for (const sim::SimEvent& e : s.events->between(t0, t1)) {
            uint32_t model = 0; // the model whose clips hold the library's clip e.clip
            const std::vector<render::AssetRange>& models = s.asset.ranges; // where each model lies in the asset
            while (model + 1 < models.size() && e.clip >= models[model + 1].first_clip) ++model;
            out.push_back({MemberId{e.member}, model, e.clip - models[model].first_clip, e.event, e.time});
        }
        return out;
    }
    std::vector<EventHit> hits;
    for (uint32_t i = 0; i < s.live; ++i) {
        const Member& m = s.members[i];
        const uint32_t clip = m.blend < 0.5f ? m.clip : m.blend_clip;
        const size_t at = s.asset.ranges[m.model].first_clip + size_t(clip);
        if (at >= s.baked->clips.size()) continue;
        hits.clear();
        throng::eventsBetween(s.baked->clips[at], double(m.speed), double(m.time_offset), t0, t1, hits);
        const MemberId id{s.generation[s.id_of[i]] << kIdSlotBits | s.id_of[i]};
        for (const EventHit& h : hits) out.push_back({id, m.model, clip, h.event, h.time});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const MemberEvent& a, const MemberEvent& b) { return a.time < b.time; });
    return out;
}

Status CrowdRenderer::removeMember(MemberId id) {
    State& s = *state_;
    if (s.desc.simulate) return Status::failure("the crowd is simulated on the GPU: its members cannot be edited");
    const uint32_t index = s.indexOf(id);
    if (index == kNoIndex) return Status::failure("no member " + std::to_string(id.value));
    const uint32_t slot = id.value & (kMaxMembers - 1);
    // The last live member moves into the hole; the last record is zeroed (scale 0: invisible
    // where a frame draws every record).
    --s.model_live[s.members[index].model];
    const uint32_t last = --s.live;
    auto records = s.renderer->records();
    if (index != last) {
        records[index] = records[last];
        s.members[index] = s.members[last];
        s.id_of[index] = s.id_of[last];
        s.index_of[s.id_of[index]] = index;
        s.renderer->markChanged(index, 1);
        s.renderer->moved(last, index); // its motion from where the last frame drew it
    }
    records[last] = gpu::shader::InstanceRecord{};
    s.renderer->markChanged(last, 1);
    s.index_of[slot] = kNoIndex;
    s.generation[slot] = (s.generation[slot] + 1) & ((1u << (32 - kIdSlotBits)) - 1);
    s.free_ids.push_back(slot);
    s.renderer->setLiveMembers(s.live);
    return {};
}

std::optional<Member> CrowdRenderer::member(MemberId id) const {
    const uint32_t index = state_->indexOf(id);
    if (index == kNoIndex) return std::nullopt;
    return state_->members[index];
}

uint32_t CrowdRenderer::memberCount() const { return state_->live; }

Status CrowdRenderer::teleported(MemberId id) {
    const uint32_t index = state_->indexOf(id);
    if (index == kNoIndex) return Status::failure("no member " + std::to_string(id.value));
    state_->renderer->teleported(index);
    return {};
}

void CrowdRenderer::update(uint32_t slot, const FrameInput& input) {
    State& s = *state_;
    if (s.error.message.empty() && slot >= s.desc.frames_in_flight)
        s.error = Error{"frame slot " + std::to_string(slot) + " past frames_in_flight"};
    if (!s.error.message.empty()) return;
    s.clock = double(input.time);
    const auto start = std::chrono::steady_clock::now();
    const glm::vec3 light = input.light_direction;
    if (!(std::isfinite(light.x) && std::isfinite(light.y) && std::isfinite(light.z)) || glm::length(light) == 0.0f) {
        s.error = Error{"light direction is zero or not finite"};
        return;
    }
    try {
        s.renderer->update(slot, input.view_projection, input.time, light);
    } catch (const gpu::GpuError& e) {
        s.error = e.error();
    }
    s.update_ms[slot] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void CrowdRenderer::record(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& t) {
    State& s = *state_;
    gpu::FrameTargets targets;
    targets.color = t.color;
    targets.color_view = t.color_view;
    targets.depth = t.depth;
    targets.depth_view = t.depth_view;
    targets.extent = t.extent;
    targets.clear = t.clear;
    targets.color_layout = t.color_layout;
    targets.depth_layout = t.depth_layout;
    targets.velocity = t.velocity;
    targets.velocity_view = t.velocity_view;
    targets.velocity_layout = t.velocity_layout;
    targets.settle = true;
    const bool wants_velocity = s.desc.velocity_format != VK_FORMAT_UNDEFINED;
    if (s.error.message.empty() && wants_velocity != (t.velocity_view != VK_NULL_HANDLE))
        s.error = Error{wants_velocity ? "the renderer writes motion vectors: the target needs a velocity image"
                                       : "the target has a velocity image but the renderer has no velocity_format"};
    if (s.error.message.empty() && (t.extent.width != s.desc.extent.width || t.extent.height != s.desc.extent.height))
        s.error = Error{"the target is " + std::to_string(t.extent.width) + "x" + std::to_string(t.extent.height) +
                        ", the renderer's extent " + std::to_string(s.desc.extent.width) + "x" +
                        std::to_string(s.desc.extent.height)};
    if (s.error.message.empty() && slot >= s.desc.frames_in_flight)
        s.error = Error{"frame slot " + std::to_string(slot) + " past frames_in_flight"};
    if (s.error.message.empty()) {
        try {
            s.renderer->record(cmd, slot, targets, t.depth_sampled);
            return;
        } catch (const gpu::GpuError& e) {
            s.error = e.error();
        }
    }
    // Stopped: the targets still end as promised (cleared or kept, in their attachment layouts).
    gpu::FrameSlot none;
    none.cmd = cmd;
    gpu::recordPasses(cmd, none, {}, targets);
}

Status CrowdRenderer::setTargets(VkExtent2D extent) {
    State& s = *state_;
    if (extent.width == 0 || extent.height == 0)
        return Status::failure("setTargets: the extent " + std::to_string(extent.width) + "x" +
                               std::to_string(extent.height) + " is empty");
    if (!s.error.message.empty()) return Status::failure(s.error);
    Status rebuilt;
    try {
        rebuilt = s.renderer->setTargets(extent);
    } catch (const gpu::GpuError& e) {
        rebuilt = Status::failure(e.error());
    }
    if (!rebuilt) {
        s.error = rebuilt.error();
        return rebuilt;
    }
    s.desc.extent = extent;
    return {};
}

FrameStats CrowdRenderer::stats(uint32_t slot) const {
    const State& s = *state_;
    FrameStats out;
    out.error = s.error.message;
    out.error_kind = s.error.kind;
    out.members = s.live;
    // Stopped: the slot's last recording may be incomplete; its timestamps are not read.
    if (!s.error.message.empty() || slot >= s.desc.frames_in_flight) return out;
    const render::FrameSample sample = s.renderer->collect(slot);
    out.gpu_times = !sample.gpu_pass_ms.empty();
    for (size_t i = 0; i < sample.gpu_pass_ms.size(); ++i)
        out.passes.push_back({sample.pass_names[i], sample.gpu_pass_ms[i]});
    out.gpu_ms = sample.gpu_frame_ms;
    out.visible = sample.drawn.in_frustum;
    out.occluded = sample.drawn.occluded;
    out.impostors = sample.drawn.impostors;
    out.splats = sample.drawn.splats;
    for (size_t l = 0; l < out.per_lod.size() && l < sample.drawn.per_lod.size(); ++l)
        out.per_lod[l] = sample.drawn.per_lod[l];
    out.triangles = sample.drawn.triangles;
    out.cpu_update_ms = s.update_ms[slot];
    out.cpu_record_ms = sample.cpu_record_ms;
    return out;
}

std::string CrowdRenderer::technique() const { return std::string(state_->renderer->techniqueName()); }

static_assert(kDefaultLightDirection.x == render::kDefaultLight.x &&
                  kDefaultLightDirection.y == render::kDefaultLight.y &&
                  kDefaultLightDirection.z == render::kDefaultLight.z,
              "one default light");

glm::vec3 lightFromAngles(float azimuth_degrees, float elevation_degrees) {
    return render::lightFromAngles(azimuth_degrees, elevation_degrees);
}

bool parseSunAngles(const std::string& text, float& azimuth_degrees, float& elevation_degrees) {
    return render::parseSunAngles(text, azimuth_degrees, elevation_degrees);
}

} // namespace throng
