// One crowd recorded into its owner's frames; see crowd_renderer.h.
#include "crowd_renderer.h"
#include "frame_resources.h"

#include "../gpu/passes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

namespace throng::render {

namespace {

// A setup build() refuses (not a GPU failure): it goes back as the Error (bad input, or
// unsupported where the device lacks what the setup needs).
struct Refused {
    Error error;
};

} // namespace

glm::vec3 lightFromAngles(float azimuth_degrees, float elevation_degrees) {
    const float a = glm::radians(azimuth_degrees), e = glm::radians(elevation_degrees);
    return -glm::vec3(std::sin(a) * std::cos(e), std::sin(e), std::cos(a) * std::cos(e));
}

bool parseSunAngles(const std::string& text, float& azimuth_degrees, float& elevation_degrees) {
    char tail = 0;
    return std::sscanf(text.c_str(), "%f,%f%c", &azimuth_degrees, &elevation_degrees, &tail) == 2 &&
           std::isfinite(azimuth_degrees) && std::abs(azimuth_degrees) <= 3600.0f && elevation_degrees >= 5.0f &&
           elevation_degrees <= 90.0f;
}

double FrameSample::passMs(const std::string& name) const {
    for (size_t i = 0; i < pass_names.size() && i < gpu_pass_ms.size(); ++i)
        if (pass_names[i] == name) return gpu_pass_ms[i];
    return 0.0;
}

CrowdRenderer::CrowdRenderer(gpu::Allocator& allocator, const GpuAsset& asset, const CrowdRendererSetup& setup)
    : allocator_(&allocator), asset_(&asset), setup_(setup), records_(setup.members) {
    records_.resize(std::max<size_t>(setup.capacity, setup.members.size()), gpu::shader::InstanceRecord{});
    setup_.members.clear(); // records_ has them
    if (asset.ranges.size() > 1)
        for (const AssetRange& r : asset.ranges) model_clips_.push_back({r.first_clip, r.clip_count});
}

CrowdRenderer::~CrowdRenderer() {
    // The passes and the technique read the crowd: free them first, the crowd last.
    slots_.clear();
    raster_.reset();
    impostors_.reset();
    technique_.reset();
    motion_.reset();
    history_.reset();
    crowd_.reset();
    ground_.reset(); // reads the shadow map
    shadows_.reset();
}

Result<std::unique_ptr<CrowdRenderer>> CrowdRenderer::create(gpu::Allocator& allocator, const GpuAsset& asset,
                                                             const CrowdRendererSetup& setup) {
    std::unique_ptr<CrowdRenderer> r(new CrowdRenderer(allocator, asset, setup));
    try {
        r->build();
    } catch (const Refused& e) {
        return e.error;
    } catch (const gpu::DeviceLost&) { // nothing more can be drawn: the caller ends with it (r frees)
        throw;
    } catch (const gpu::GpuError& e) { // out of memory: r frees what it made
        vkDeviceWaitIdle(allocator.context->device);
        return e.error();
    }
    return r;
}

void CrowdRenderer::build() {
    const gpu::Context& ctx = *allocator_->context;
    const CrowdRendererSetup& s = setup_;
    if (s.shadows.enabled())
        if (Status st = checkShadowSettings(ctx, s.shadows); !st) throw Refused{st.error()};
    if (mixed()) { // a crowd of several models (asset_library.h): what draws it so far
        if (std::string problem = mixedCrowdProblem(s.technique); !problem.empty()) throw Refused{{problem}};
        if (!ctx.indirect_count) // its culling pass sorts the members by model for the draws
            throw Refused{
                {"a crowd of several models needs drawIndirectCount, which this device lacks", ErrorKind::Unsupported}};
    }
    // Boxes by what each member wears, grown as the technique grows the clips' (layers play any
    // clip: then the clips' boxes, every part in them, as they are).
    PartBoxes part_boxes;
    if (s.layers.empty() && !asset_->part_boxes.empty()) {
        part_boxes = asset_->part_boxes;
        part_boxes.own = techniqueCullBounds(s.technique, part_boxes.own, s.swim);
        part_boxes.parts = techniqueCullBounds(s.technique, part_boxes.parts, s.swim);
    }
    crowd_ = std::make_unique<CrowdGpu>(*allocator_, *asset_, records_,
                                        techniqueCullBounds(s.technique, s.clip_bounds, s.swim, !s.layers.empty()),
                                        s.frames_in_flight, nullptr, s.shadows.enabled(), s.model_capacity, part_boxes);
    if (s.velocity_format != VK_FORMAT_UNDEFINED)
        history_ =
            std::make_unique<MemberHistory>(*allocator_, crowd_->instances(), crowd_->members(), s.frames_in_flight);
    if (s.shadows.enabled()) shadows_ = std::make_unique<ShadowMap>(*allocator_, s.shadows, s.frames_in_flight);
    if (s.ground || (shadows_ != nullptr && s.shadows.ground))
        ground_ = std::make_unique<Ground>(*allocator_, targetFormats(), shadows_.get(),
                                           history_ ? history_->motions() : VK_NULL_HANDLE);
    if (s.motion) {
        if (std::string problem = simulationProblem(s.technique); !problem.empty()) throw Refused{{problem}};
        motion_ = s.motion(*allocator_, crowd_->instances());
    }

    TechniqueSetup ts;
    ts.allocator = allocator_;
    ts.asset = asset_;
    ts.instances = &records_;
    ts.crowd = crowd_.get();
    ts.color_format = s.color_format;
    ts.depth_format = s.depth_format;
    ts.velocity_format = s.velocity_format;
    ts.history = history_.get();
    ts.frames_in_flight = s.frames_in_flight;
    ts.swim = s.swim;
    if (mixed())
        ts.sources = poseSources(s.model_sources, asset_->ranges, asset_->joint_count);
    else if (s.baked != nullptr)
        ts.sources = poseSources(&s.baked->source);
    if (s.baked != nullptr) {
        if (const TechniqueInfo* info = findTechnique(s.technique); info != nullptr && info->needs_cpu_mesh)
            mesh_ = cpuMesh(*s.baked);
        ts.mesh = &mesh_;
    }
    ts.encoding = s.encoding;
    ts.skinning = s.skinning;
    ts.layers = s.layers;
    ts.bone_precision = s.bone_precision;
    ts.storage_buffer_limit = s.hooks.storage_buffer_limit;
    ts.capture = s.hooks.capture;
    ts.shadows = shadows_.get();
    Result<std::unique_ptr<Technique>> created = createTechnique(s.technique, ts);
    if (!created) throw Refused{created.error()};
    technique_ = std::move(created).value();

    if (s.raster != Raster::Hardware) {
        if (std::string problem = rasterProblem(s.raster); !problem.empty()) {
            const std::string why =
                std::string(s.fallback ? "raster " : "--raster ") + toString(s.raster) + ": " + problem;
            // Compute is refused unless the caller falls back (the viewer); Auto always falls back,
            // quietly where the device has no compute rasterizer at all (auto is the default).
            if (!s.fallback && s.raster == Raster::Compute) // the device's lack, or the technique's
                throw Refused{{why, allocator_->context->int64_atomics ? ErrorKind::BadInput : ErrorKind::Unsupported}};
            if (s.raster == Raster::Compute || allocator_->context->int64_atomics)
                notes_.push_back(why + "; the hardware draws this crowd");
        } else {
            raster_ = makeRaster();
            raster_mode_ = s.raster;
        }
    }
    if (s.cull.impostor_px > 0.0f) {
        if (std::string problem = impostorProblem(); !problem.empty()) {
            if (!s.fallback) throw Refused{{"--impostors: " + problem}};
            notes_.push_back("impostors: " + problem + "; members are drawn as meshes");
        } else {
            impostors_ = makeImpostors();
            if (s.baked->impostors.skinning != s.skinning)
                notes_.push_back(std::string("impostors: their pictures were baked with ") +
                                 toString(s.baked->impostors.skinning) + " skinning, the crowd skins " +
                                 toString(s.skinning) +
                                 ": members change their pose slightly as they become "
                                 "impostors (bake --impostors --skinning " +
                                 toString(s.skinning) + ")");
        }
    }
    slots_.resize(s.frames_in_flight);
    for (Slot& slot : slots_) {
        if (!ctx.timestamps) continue;
        VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qci.queryCount = gpu::kPassTimestamps;
        VkQueryPool pool = VK_NULL_HANDLE;
        VK_CHECK(vkCreateQueryPool(ctx.device, &qci, gpu::hostCallbacks(ctx.device), &pool));
        slot.queries = gpu::Unique<VkQueryPool>(ctx.device, pool);
    }
}

namespace {

// Runs `build`: out of GPU memory is a failure with its message (nothing was made), a lost device
// goes on to the caller.
template <class Build> Status built(Build&& build) {
    try {
        build();
    } catch (const gpu::DeviceLost&) {
        throw;
    } catch (const gpu::GpuError& e) {
        return Status::failure(e.error());
    }
    return {};
}

} // namespace

std::string CrowdRenderer::rasterProblem(Raster mode) const {
    if (mode == Raster::Hardware) return {};
    if (setup_.baked == nullptr) return "no CPU-side asset to build clusters from";
    if (std::string problem = computeRasterProblem(*allocator_->context, setup_.technique, *setup_.baked,
                                                   records_.size(), asset_->ranges);
        !problem.empty())
        return problem;
    return computeSourceProblem(*allocator_->context, setup_.technique, *technique_);
}

std::string CrowdRenderer::impostorProblem() const {
    if (mixed()) return "a crowd of several models has no impostors yet (issue #25)";
    if (setup_.baked == nullptr) return "no CPU-side asset to read the pictures from";
    if (std::string problem = render::impostorProblem(*setup_.baked); !problem.empty()) return problem;
    // Impostors are the members the culling pass sends to their region: without that pass, none.
    if (!technique_->drawsCulled()) return "technique " + setup_.technique + " draws every member, not through culling";
    if (!setup_.cull.active()) return "culling and LOD are off (impostors are chosen by culling)";
    if (!crowd_->canCull()) return "this device lacks drawIndirectCount (impostors are chosen by culling on the GPU)";
    return {};
}

std::unique_ptr<ComputeRaster> CrowdRenderer::makeRaster() const {
    const CrowdRendererSetup& s = setup_;
    return std::make_unique<ComputeRaster>(*allocator_, s.technique, *s.baked, *asset_, *crowd_, s.extent,
                                           s.color_format, s.depth_format, s.frames_in_flight,
                                           RasterOptions{s.vertex_cache_bytes, s.cull.lod, s.swim, shadows_.get(),
                                                         s.skinning, history_ ? history_->previous() : VK_NULL_HANDLE,
                                                         s.velocity_format},
                                           technique_.get());
}

gpu::TargetFormats CrowdRenderer::targetFormats() const {
    return {setup_.color_format, setup_.depth_format, setup_.velocity_format};
}

std::unique_ptr<ImpostorPass> CrowdRenderer::makeImpostors() const {
    const CrowdRendererSetup& s = setup_;
    return std::make_unique<ImpostorPass>(*allocator_, *s.baked, asset_->clips.buffer, asset_->looks.buffer, *crowd_,
                                          targetFormats(), s.frames_in_flight, history_.get());
}

Status CrowdRenderer::setRaster(Raster mode) {
    if (mode == Raster::Hardware) {
        raster_.reset();
        return {};
    }
    if (std::string problem = rasterProblem(mode); !problem.empty()) return Status::failure(problem);
    if (raster_ != nullptr) { // the same buffers serve Compute and Auto
        raster_mode_ = mode;
        return {};
    }
    if (Status st = built([&] {
            raster_ = makeRaster();
            readyPyramidLevelZero();
        });
        !st) {
        raster_.reset();
        return st;
    }
    raster_mode_ = mode;
    return {};
}

Status CrowdRenderer::setImpostors(float pixels) {
    if (!(pixels > 0.0f)) {
        impostors_.reset();
        setup_.cull.impostor_px = 0.0f;
        return {};
    }
    const float before = setup_.cull.impostor_px;
    setup_.cull.impostor_px = pixels;
    if (impostors_ != nullptr) return {};
    std::string problem = impostorProblem();
    if (problem.empty()) problem = built([&] { impostors_ = makeImpostors(); }).message;
    if (!problem.empty()) setup_.cull.impostor_px = before;
    return problem.empty() ? Status{} : Status::failure(problem);
}

void CrowdRenderer::setCull(const CullSettings& cull) {
    const float impostor_px = setup_.cull.impostor_px;
    setup_.cull = cull;
    setup_.cull.impostor_px = impostor_px;
}

Status CrowdRenderer::setTargets(VkExtent2D extent) {
    for (Slot& slot : slots_) { // over the depth image replaced (a new image may reuse its handle)
        slot.pyramid.reset();
        slot.pyramid_depth = VK_NULL_HANDLE;
    }
    if (extent.width == setup_.extent.width && extent.height == setup_.extent.height) return {};
    setup_.extent = extent;
    if (raster_ == nullptr) return {};
    raster_.reset();
    return built([&] { raster_ = makeRaster(); });
}

void CrowdRenderer::markChanged(uint32_t first, uint32_t count) {
    if (count == 0) return;
    const uint32_t end = std::min<uint32_t>(first + count, capacity());
    if (changed_first_ == changed_end_) {
        changed_first_ = first;
        changed_end_ = end;
    } else {
        changed_first_ = std::min(changed_first_, first);
        changed_end_ = std::max(changed_end_, end);
    }
}

void CrowdRenderer::teleported(uint32_t member) {
    if (history_ != nullptr) history_->teleported(member);
}

void CrowdRenderer::moved(uint32_t from, uint32_t to) {
    if (history_ != nullptr) history_->moved(from, to);
}

void CrowdRenderer::setLiveMembers(uint32_t live) {
    crowd_->setLiveMembers(live);
    member_area_stale_ = true;
}

TechniqueStats CrowdRenderer::update(uint32_t slot, const glm::mat4& view_projection, float time,
                                     const glm::vec3& light_direction) {
    Slot& f = slots_[slot];
    f.view_projection = view_projection;
    f.time = time;
    f.light = light_direction;
    f.upload_count = 0;
    if (changed_end_ > changed_first_) {
        // This slot's previous frame has finished: its staging buffer is free to write.
        if (!f.staging->buffer)
            f.staging = gpu::ownBuffer(*allocator_, records_.size() * sizeof(gpu::shader::InstanceRecord),
                                       VK_BUFFER_USAGE_TRANSFER_SRC_BIT, gpu::MemoryUse::Upload);
        const size_t bytes = size_t(changed_end_ - changed_first_) * sizeof(gpu::shader::InstanceRecord);
        std::memcpy(static_cast<uint8_t*>(f.staging->mapped()) + changed_first_ * sizeof(gpu::shader::InstanceRecord),
                    records_.data() + changed_first_, bytes);
        f.upload_first = changed_first_;
        f.upload_count = changed_end_ - changed_first_;
        changed_first_ = changed_end_ = 0;
        member_area_stale_ = true;
    }
    if ((shadows_ != nullptr || ground_ != nullptr) && member_area_stale_ && !givenArea()) {
        member_area_ = memberArea(std::span(records_).first(crowd_->liveMembers()), setup_.clip_bounds, model_clips_);
        member_area_stale_ = false;
    }
    if (shadows_ != nullptr) shadows_->update(slot, light_direction, area());
    technique_->update(slot, time);
    f.cpu = technique_->stats();
    return f.cpu;
}

void CrowdRenderer::ensurePyramid(Slot& f, const gpu::FrameTargets& targets) {
    if (f.pyramid != nullptr && f.pyramid_depth == targets.depth && f.pyramid->extent().width == targets.extent.width &&
        f.pyramid->extent().height == targets.extent.height)
        return;
    if (!pyramid_pipelines_) pyramid_pipelines_ = createPyramidPipelines(*allocator_->context);
    f.pyramid.reset();
    f.pyramid_depth = VK_NULL_HANDLE;
    f.pyramid = std::make_unique<DepthPyramid>(*allocator_, targets.depth, targets.depth_view, targets.extent,
                                               pyramid_pipelines_);
    f.pyramid_depth = targets.depth;
}

void CrowdRenderer::prepareTargets(const gpu::FrameTargets& targets, bool depth_sampled) {
    if (clearedByCompute(targets) && clear_ == nullptr) clear_ = std::make_unique<TargetClear>(*allocator_);
    if (!allocator_->context->depth_pyramid || !depth_sampled || targets.depth == VK_NULL_HANDLE) return;
    for (Slot& slot : slots_) ensurePyramid(slot, targets);
    readyPyramidLevelZero();
}

// The pyramid's level 0 from the compute rasterizer's visibility buffer (compute) and from both
// (auto): made here, not when a frame first records it, so that frames allocate nothing.
void CrowdRenderer::readyPyramidLevelZero() const {
    if (!pyramid_pipelines_ || raster_ == nullptr) return;
    pyramid_pipelines_->levelZero(*allocator_->context, false);
    pyramid_pipelines_->levelZero(*allocator_->context, true);
}

void CrowdRenderer::record(VkCommandBuffer cmd, uint32_t slot, const gpu::FrameTargets& targets, bool depth_sampled,
                           std::span<const gpu::Pass> after) {
    const auto start = std::chrono::steady_clock::now();
    const gpu::Context& ctx = *allocator_->context;
    Slot& f = slots_[slot];
    const CullSettings& cull = setup_.cull;
    // Occlusion culling: a pyramid over this slot's depth image (its last frame has finished, so
    // one over another image may replace it, and its level 0 may read another rasterizer's
    // visibility buffer), kept while occlusion is off.
    const bool occlusion = ctx.depth_pyramid && depth_sampled && cull.cull && cull.occlusion &&
                           (technique_->drawsCulled() || raster_ != nullptr) && crowd_->canCull();
    if (occlusion) {
        ensurePyramid(f, targets);
        if (raster_ != nullptr) f.pyramid->bindVisibility(raster_->visibilityBuffer());
    }

    std::vector<gpu::Pass> passes;
    // The colour and velocity targets cleared by compute where they can be (target_clear.h): the
    // passes after it load them.
    const bool compute_clear = clearedByCompute(targets);
    if (compute_clear) {
        if (clear_ == nullptr) clear_ = std::make_unique<TargetClear>(*allocator_);
        passes.push_back(clear_->pass(targets));
    }
    // Motion vectors: the records as the last frame drew them, before anything changes them.
    if (history_ != nullptr) passes.push_back(history_->copyPass());
    if (f.upload_count > 0) {
        const VkBuffer from = f.staging->buffer, to = crowd_->instances();
        const VkBufferCopy region{VkDeviceSize(f.upload_first) * sizeof(gpu::shader::InstanceRecord),
                                  VkDeviceSize(f.upload_first) * sizeof(gpu::shader::InstanceRecord),
                                  VkDeviceSize(f.upload_count) * sizeof(gpu::shader::InstanceRecord)};
        passes.push_back({"members", gpu::PassKind::Transfer, gpu::PassTargets::ColorDepth,
                          [from, to, region](VkCommandBuffer c) { vkCmdCopyBuffer(c, from, to, 1, &region); }, 0,
                          frame::Members});
    }
    if (history_ != nullptr)
        if (std::optional<gpu::Pass> teleport = history_->teleportPass()) passes.push_back(std::move(*teleport));
    CrowdFrame frame;
    frame.crowd = crowd_.get();
    frame.motion = motion_.get();
    frame.technique = technique_.get();
    frame.pyramid = occlusion ? f.pyramid.get() : nullptr;
    frame.raster = raster_.get();
    frame.raster_mode = rasterMode();
    frame.impostors = impostors_.get();
    frame.shadows = shadows_.get();
    frame.ground = ground_.get();
    frame.ground_area = area();
    frame.constants = crowdConstants(f.view_projection, f.time, *asset_, f.light);
    frame.cull = cull;
    frame.viewport = targets.extent;
    frame.history = history_.get();
    const float drawn_at = addCrowdPasses(passes, slot, frame);
    if (history_ != nullptr) // the next frame copies the records only if this one wrote them
        history_->drew(f.view_projection, drawn_at, f.upload_count > 0 || (motion_ && motion_->lastSteps() > 0));
    passes.insert(passes.end(), after.begin(), after.end());
    f.passes = gpu::passNames(passes);
    f.sim_steps = motion_ ? motion_->lastSteps() : 0;

    gpu::FrameSlot timing;
    timing.cmd = cmd;
    timing.queries = f.queries.get();
    if (timing.queries != VK_NULL_HANDLE) vkCmdResetQueryPool(cmd, timing.queries, 0, gpu::kPassTimestamps);
    gpu::writeTimestamp(cmd, timing, 0);
    gpu::recordPasses(cmd, timing, passes, compute_clear ? afterComputeClear(targets) : targets);
    f.record_ms = millisecondsSince(start);
}

FrameSample CrowdRenderer::collect(uint32_t slot) const {
    const Slot& f = slots_[slot];
    FrameSample sample;
    sample.pass_names = f.passes;
    sample.cpu = f.cpu;
    sample.cpu_record_ms = f.record_ms;
    sample.sim_steps = f.sim_steps;
    sample.drawn = crowd_->counts(slot);
    if (f.passes.empty()) return sample; // nothing recorded in this slot yet
    gpu::FrameSlot timing;
    timing.queries = f.queries.get();
    std::vector<double> ms = gpu::readPassTimes(*allocator_->context, timing, f.passes.size());
    if (!ms.empty()) {
        sample.gpu_frame_ms = ms.back();
        ms.pop_back();
        sample.gpu_pass_ms = std::move(ms);
    }
    return sample;
}

VertexCacheStats CrowdRenderer::vertexCacheStats() const {
    return raster_ ? raster_->cacheStats() : VertexCacheStats{};
}

} // namespace throng::render
