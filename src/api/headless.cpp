// throng/headless.h over the headless renderer (src/render/renderer.h), the crowd layouts and
// views, and the simulation.
#include <throng/headless.h>

#include "../gpu/bandwidth.h"
#include "../gpu/context.h"
#include "../render/renderer.h"
#include "../render/views.h"
#include "../sim/motion.h"
#include "headless_device.h"

#include <glm/gtc/packing.hpp>

#include <algorithm>
#include <cmath>
#include <optional>

namespace throng {

namespace {

CrowdCounts toCounts(const render::CullCounts& c) {
    CrowdCounts out;
    out.in_frustum = c.in_frustum;
    out.occluded = c.occluded;
    out.impostors = c.impostors;
    out.splats = c.splats;
    for (size_t l = 0; l < out.per_lod.size() && l < c.per_lod.size(); ++l) out.per_lod[l] = c.per_lod[l];
    out.triangles = c.triangles;
    return out;
}

JobFrame toFrame(const render::FrameSample& f) {
    JobFrame out;
    out.pass_names = f.pass_names;
    out.gpu_pass_ms = f.gpu_pass_ms;
    out.gpu_frame_ms = f.gpu_frame_ms;
    out.sample_ms = f.cpu.sample_ms;
    out.skin_ms = f.cpu.skin_ms;
    out.upload_ms = f.cpu.upload_ms;
    out.upload_bytes = f.cpu.upload_bytes;
    out.record_ms = f.cpu_record_ms;
    out.drawn = toCounts(f.drawn);
    out.sim_steps = f.sim_steps;
    return out;
}

} // namespace

std::vector<std::string> techniqueNames() {
    std::vector<std::string> names;
    for (std::string_view n : render::techniqueNames()) names.emplace_back(n);
    return names;
}

bool techniqueReadsMembersOnGpu(const std::string& technique) { return render::techniqueReadsMembersOnGpu(technique); }
bool techniqueTakesLayers(const std::string& technique) { return render::techniqueTakesLayers(technique); }

double JobFrame::passMs(const std::string& name) const {
    for (size_t i = 0; i < pass_names.size() && i < gpu_pass_ms.size(); ++i)
        if (pass_names[i] == name) return gpu_pass_ms[i];
    return 0.0;
}

namespace {

// The crowd's records as the GPU reads them (orientation as halves, tint as 8-bit channels),
// clips numbered as each member's own model numbers them (a library numbers all models' clips).
std::vector<LaidOutMember> laidOut(const render::Crowd& crowd, const render::AssetLibrary* library) {
    std::vector<LaidOutMember> out;
    out.reserve(crowd.instances.size());
    for (const gpu::shader::InstanceRecord& r : crowd.instances) {
        LaidOutMember m;
        m.position = glm::vec3(r.position_scale);
        m.scale = r.position_scale.w;
        m.rotation = render::unpackQuaternion(r.orientation);
        m.model = gpu::shader::throngAssetOf(r.clips);
        const uint32_t first_clip =
            library != nullptr && m.model < library->ranges.size() ? library->ranges[m.model].first_clip : 0;
        m.clip = gpu::shader::throngClipA(r.clips) - first_clip;
        m.blend_clip = gpu::shader::throngClipB(r.clips) - first_clip;
        m.blend = r.blend;
        m.time_offset = r.time_offset;
        m.speed = r.speed;
        m.tint = glm::unpackUnorm4x8(r.color);
        out.push_back(m);
    }
    return out;
}

} // namespace

Result<CrowdJobResult> renderCrowd(HeadlessDevice& device, const BakedAsset& asset, const CrowdJob& job) {
    const BakedAsset* one[] = {&asset};
    return renderCrowd(device, one, job);
}

Result<CrowdJobResult> renderCrowd(HeadlessDevice& device, std::span<const BakedAsset* const> models,
                                   const CrowdJob& job) {
    gpu::Context& ctx = headlessContext(device);
    if (models.empty()) return Error{"a crowd needs at least one model"};
    if (!job.model_shares.empty()) {
        if (job.model_shares.size() != models.size())
            return Error{std::to_string(job.model_shares.size()) + " shares for " + std::to_string(models.size()) +
                         " models"};
        for (float share : job.model_shares)
            if (!(share > 0.0f) || !std::isfinite(share)) return Error{"a model's share is not a positive number"};
    }
    // Several models: one asset of them all (a library of one is the model itself: not copied).
    std::optional<render::AssetLibrary> library;
    if (models.size() > 1) {
        Result<render::AssetLibrary> built = render::buildAssetLibrary(models);
        if (!built) return built.error();
        library = std::move(built).value();
    }
    const BakedAsset& asset = library ? library->asset : *models[0];
    const AnimationStorage storage = job.animation;
    const ViewKind view = job.view;
    // Only a program can set these out of range (the command line parses names).
    if (storage > AnimationStorage::StorageBuffer)
        return Error{"animation storage " + std::to_string(int(storage)) +
                     " is not auto, image, texel-buffer or buffer"};
    if (view > ViewKind::Street) return Error{"view " + std::to_string(int(view)) + " is not overview or street"};
    if (job.camera)
        if (std::string problem = cameraProblem(*job.camera); !problem.empty()) return Error{problem};
    if (std::string problem = optionsProblem(job); !problem.empty()) return Error{problem};
    if (!(job.model_size >= 0.0f && job.model_size <= 1e6f))
        return Error{"model_size " + std::to_string(job.model_size) + ": a size in units from 0 (as made) to 1e6"};
    render::RenderSettings s;
    static_cast<CrowdOptions&>(s) = job; // the crowd's options as given
    s.baked = &asset;
    if (library) s.model_sources = library->sources;
    s.width = job.width;
    s.height = job.height;
    s.time = job.time;
    s.frames = job.frames;
    s.frame_step = job.frame_step;
    s.settle_seconds = job.settle_seconds;
    s.readback = job.readback;
    s.velocity = job.velocity;
    s.taa = job.taa;
    if (!(glm::length(job.light_direction) > 0.0f) || !std::isfinite(glm::length(job.light_direction)))
        return Error{"light direction is zero or not finite"};
    s.light_direction = job.light_direction;
    s.progress = job.progress;

    // Freed on every path in reverse order, after the catch's wait for the GPU (a failed frame may
    // leave work in flight): the asset, then the allocator (each frees itself).
    gpu::Allocator allocator;
    gpu::createAllocator(allocator, ctx);
    std::optional<render::GpuAsset> gpu_asset;
    try {
        Result<render::GpuAsset> uploaded = library ? render::uploadLibrary(allocator, *library, storage)
                                                    : render::uploadAsset(allocator, asset, storage);
        if (!uploaded) return uploaded.error();
        gpu_asset = std::move(uploaded).value();
        render::CrowdLayout layout;
        layout.count = job.members;
        layout.seed = job.seed;
        layout.model_size = job.model_size;
        layout.volume = render::techniqueSwims(job.technique); // a school of fish swims in a volume
        const render::Crowd crowd =
            library ? render::makeCrowd(*library, layout, job.model_shares) : render::makeCrowd(asset, layout);
        if (job.simulate) {
            Result<render::MotionFactory> motion =
                library ? sim::gpuMotion(ctx, models, *library, crowd, sim::kindFor(job.technique), job.seed)
                        : sim::gpuMotion(ctx, asset, crowd, sim::kindFor(job.technique), job.seed);
            if (!motion) return motion.error();
            s.motion = std::move(motion).value();
        }
        const float aspect = float(job.width) / float(job.height);
        const Camera camera = !job.camera               ? render::crowdCamera(view, crowd, aspect)
                              : rangeToFit(*job.camera) ? cameraFitting(*job.camera, crowd.bounds.min, crowd.bounds.max)
                                                        : *job.camera;
        const glm::mat4 vp = viewProjection(camera, aspect);
        Result<render::RenderOutput> rendered = render::renderCrowd(allocator, *gpu_asset, crowd, vp, s);
        if (!rendered) return rendered.error();
        render::RenderOutput& r = rendered.value();
        CrowdJobResult out;
        out.warnings = gpu_asset->warnings;
        out.gpu_memory_bytes = allocator.peak_reserved;
        out.rgba = std::move(r.rgba);
        out.velocity = std::move(r.velocity);
        out.width = r.width;
        out.height = r.height;
        for (const render::PassTiming& p : r.passes) out.passes.push_back({p.name, p.gpu_ms});
        for (const render::FrameSample& f : r.frames) out.frames.push_back(toFrame(f));
        out.gpu_times = r.gpu_times;
        out.triangles = r.triangles;
        out.submitted_triangles = r.submitted_triangles;
        out.drawn = toCounts(r.drawn);
        const render::VertexCacheStats& c = r.vertex_cache;
        out.vertex_cache = {c.capacity_bytes,   c.cached_members,   c.cached_vertices,
                            c.uncached_members, c.cache_pass_bytes, c.raster_read_bytes};
        out.technique = r.technique;
        out.raster = r.raster;
        out.warnings.insert(out.warnings.end(), r.notes.begin(), r.notes.end());
        out.camera = camera;
        out.view_projection = vp;
        if (job.report_members) out.members = laidOut(crowd, library ? &*library : nullptr);
        return out;
    } catch (const gpu::GpuError& e) {
        vkDeviceWaitIdle(ctx.device);
        return e.error();
    }
}

Result<double> measureCopyBandwidth(HeadlessDevice& device) {
    gpu::Context& ctx = headlessContext(device);
    gpu::Allocator allocator; // frees itself
    gpu::createAllocator(allocator, ctx);
    Result<double> result = 0.0;
    try {
        VkDeviceSize heap = 0;
        for (uint32_t h = 0; h < ctx.memory.memoryHeapCount; ++h)
            if (ctx.memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
                heap = std::max(heap, ctx.memory.memoryHeaps[h].size);
        result = gpu::measureCopyBandwidth(
            allocator, std::clamp<VkDeviceSize>(heap / 128, VkDeviceSize(64) << 20, VkDeviceSize(1) << 30));
    } catch (const gpu::GpuError& e) {
        vkDeviceWaitIdle(ctx.device);
        result = e.error();
    }
    return result;
}

} // namespace throng
