// `throng render`: a crowd, headless, to a PNG, with one summary line.
#include "commands.h"

#include "../../src/gpu/png.h"
#include "../../src/render/renderer.h"
#include "../../src/render/views.h"
#include "../../src/sim/motion.h"

#include <throng/bake.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace throng::cli {

namespace {

// "name=value,..." over the fields of SwimParams; false (and a message) on anything else.
bool parseSwim(const std::string& text, gpu::shader::SwimParams& swim, std::string& error) {
    struct Field {
        const char* name;
        float* value;
    };
    const Field fields[] = {{"side", &swim.side},           {"pivot", &swim.pivot},
                            {"wave", &swim.wave},           {"twist", &swim.twist},
                            {"frequency", &swim.frequency}, {"beats", &swim.beats_per_second},
                            {"mask_head", &swim.mask_head}, {"mask_tail", &swim.mask_tail}};
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, end - start);
        const size_t eq = item.find('=');
        const Field* field = nullptr;
        for (const Field& f : fields)
            if (eq != std::string::npos && item.compare(0, eq, f.name) == 0 && std::strlen(f.name) == eq) field = &f;
        char* tail = nullptr;
        const float v = field != nullptr ? std::strtof(item.c_str() + eq + 1, &tail) : 0.0f;
        if (field == nullptr || tail == item.c_str() + eq + 1 || *tail != '\0' || !std::isfinite(v)) {
            error = "--swim: '" + item +
                    "' is not one of side, pivot, wave, twist, frequency, beats, mask_head, mask_tail = number";
            return false;
        }
        *field->value = v;
        start = end + 1;
    }
    if (!(swim.mask_tail < swim.mask_head)) {
        error = "--swim: mask_tail must be below mask_head (the head is at +z)";
        return false;
    }
    return true;
}

// A .throng file loads as it is; anything else is imported and baked in memory (with vertex
// animation only for technique vat: it costs 2 texels per vertex per frame).
Result<BakedAsset> loadAsset(const RenderOptions& o) {
    BakeOptions bake_options;
    bake_options.fps = o.fps;
    bake_options.precision = o.precision == "half" ? Precision::Float16 : Precision::Float32;
    bake_options.vat = o.technique == "vat";
    bake_options.impostors.enabled = o.crowd.impostor_px > 0.0f;
    Result<LoadedAsset> loaded = throng::loadAsset(o.model, bake_options);
    if (!loaded) return loaded.error();
    if (loaded.value().model) // the model's image files that could not be read, as info and bake word it
        for (const std::string& w : missingTextures(*loaded.value().model))
            std::fprintf(stderr, "throng: warning: %s: %s\n", o.model.c_str(), w.c_str());
    return std::move(loaded).value().baked;
}

} // namespace

Status checkRenderOptions(const RenderOptions& o) {
    gpu::shader::SwimParams swim = render::defaultSwim();
    std::string error;
    return parseSwim(o.swim, swim, error) ? Status{} : Status::failure(error);
}

int runRender(const RenderOptions& o) {
    gpu::shader::SwimParams swim = render::defaultSwim();
    std::string swim_error;
    if (!parseSwim(o.swim, swim, swim_error)) { // checked by the parser already (cli.cpp)
        printError(o.model, swim_error);
        return 2;
    }
    if (!checkOutput(o.output)) return 1;
    Result<BakedAsset> asset = loadAsset(o);
    if (!asset) {
        printError(o.model, asset.error().message);
        return 1;
    }
    gpu::ContextOptions context_options;
    context_options.validation = o.validate;
    context_options.device_substring = o.device;
    Result<std::unique_ptr<gpu::Context>> context = gpu::createContext(context_options);
    if (!context) {
        printError(o.model, context.error().message);
        return 1;
    }
    gpu::Context& ctx = *context.value();
    int code = 0;
    try {
        gpu::Allocator allocator;
        gpu::createAllocator(allocator, ctx);
        render::AnimationStorage storage = render::AnimationStorage::Auto;
        render::parseAnimationStorage(o.animation, storage); // CLI11 admits only the names it knows
        Result<render::GpuAsset> gpu_asset = render::uploadAsset(allocator, asset.value(), storage);
        if (!gpu_asset) {
            printError(o.model, gpu_asset.error().message);
            gpu::destroyAllocator(allocator);
            gpu::destroyContext(ctx);
            return 1;
        }
        for (const std::string& w : gpu_asset.value().warnings)
            std::fprintf(stderr, "throng: warning: %s\n", w.c_str());
        render::CrowdOptions crowd_options;
        crowd_options.count = o.instances;
        crowd_options.seed = o.seed;
        crowd_options.volume = o.technique == "procedural"; // a school of fish swims in a volume
        const render::Crowd crowd = render::makeCrowd(asset.value(), crowd_options);
        render::RenderSettings settings;
        settings.width = o.width;
        settings.height = o.height;
        settings.time = o.time;
        settings.frames = o.frames;
        // Progress on stderr once a run is long (a large crowd on lavapipe takes minutes): after a
        // second on a terminal, after ten seconds into a log.
        const auto started = std::chrono::steady_clock::now();
        const double after = isatty(STDERR_FILENO) ? 1.0 : 10.0;
        settings.progress = [started, after](uint32_t frame, uint32_t frames) {
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
            if (seconds >= after) std::fprintf(stderr, "render: frame %u/%u (%.1f s)\n", frame + 1, frames, seconds);
        };
        settings.technique = o.technique;
        settings.swim = swim;
        settings.baked = &asset.value();
        settings.bone_precision = o.precision == "half" ? Precision::Float16 : Precision::Float32;
        settings.encoding =
            o.encoding == "quat" ? render::PaletteEncoding::Quaternion : render::PaletteEncoding::Matrix;
        settings.cull = {o.crowd.cull,       o.crowd.lod, o.crowd.lod_error, o.crowd.occlusion, o.crowd.coarse_skinning,
                         o.crowd.impostor_px};
        render::parseRasterMode(o.crowd.raster, settings.raster); // the command line admits only the three names
        settings.raster_options.vertex_cache_bytes = vertexCacheBytes(o.crowd);
        if (o.crowd.simulate) {
            Result<render::MotionFactory> motion =
                sim::gpuMotion(ctx, asset.value(), crowd, sim::kindFor(o.technique), o.seed);
            if (!motion) throw gpu::GpuError(motion.error().message);
            settings.motion = std::move(motion).value();
        }
        render::ViewKind view = render::ViewKind::Overview;
        render::parseViewKind(o.crowd.view, view); // CLI11 admits only the names it knows
        const glm::mat4 vp = render::crowdViewProjection(view, crowd, float(o.width) / float(o.height));
        const Result<render::RenderOutput> rendered =
            render::renderCrowd(allocator, gpu_asset.value(), crowd, vp, settings);
        render::destroyAsset(allocator, gpu_asset.value());
        const VkDeviceSize peak = allocator.peak_reserved;
        gpu::destroyAllocator(allocator);
        if (!rendered) {
            printError(o.model, rendered.error().message);
            gpu::destroyContext(ctx);
            return 1;
        }
        const render::RenderOutput& out = rendered.value();
        if (Status s = gpu::writePng(o.output, out.rgba, out.width, out.height); !s) {
            printError(o.output, s.message);
            code = 1;
        } else {
            std::string passes;
            for (const render::PassTiming& p : out.passes) {
                char text[64];
                std::snprintf(text, sizeof text, "%s%s %.3f ms", passes.empty() ? "" : ", ", p.name.c_str(), p.gpu_ms);
                passes += text;
            }
            if (passes.empty()) passes = "times unavailable (no timestamps)";
            std::string lods;
            for (size_t l = 0; l < out.drawn.per_lod.size(); ++l)
                if (out.drawn.per_lod[l] > 0)
                    lods += (lods.empty() ? "" : " ") + std::to_string(l) + ":" + std::to_string(out.drawn.per_lod[l]);
            if (out.drawn.impostors > 0)
                lods += (lods.empty() ? "" : " ") + std::string("impostors:") + std::to_string(out.drawn.impostors);
            std::printf("throng render: %s | %s x %u (%s, %s view%s) | %u in view, %u hidden, by LOD %s | %.2f M of "
                        "%.2f M triangles drawn | GPU %s | "
                        "%.0f MiB GPU memory | %s %ux%u\n",
                        ctx.device_name.c_str(), o.model.c_str(), o.instances, o.technique.c_str(),
                        o.crowd.view.c_str(), o.crowd.simulate ? ", simulated" : "", out.drawn.in_frustum,
                        out.drawn.occluded, lods.empty() ? "-" : lods.c_str(), double(out.triangles) * 1e-6,
                        double(out.submitted_triangles) * 1e-6, passes.c_str(), double(peak) / (1 << 20),
                        o.output.c_str(), out.width, out.height);
        }
    } catch (const gpu::GpuError& e) {
        printError(o.model, e.what());
        code = 1;
    }
    gpu::destroyContext(ctx); // first: the layers report objects left alive at vkDestroyDevice
    if (gpu::reportValidationErrors(ctx)) code = 1;
    return code;
}

} // namespace throng::cli
