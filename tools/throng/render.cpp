// `throng render`: a crowd, headless, to a PNG, with one summary line.
#include "commands.h"

#include <throng/bake.h>
#include <throng/files.h>
#include <throng/headless.h>
#include <throng/image.h>
#include <throng/technique.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace throng::cli {

namespace {

// "name=value,..." over the fields of SwimParams; false (and a message) on anything else.
bool parseSwim(const std::string& text, SwimParams& swim, std::string& error) {
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
// animation only for a technique that needs it, vat: it costs 2 texels per vertex per frame).
Result<BakedAsset> loadAsset(const RenderOptions& o, const std::string& model) {
    BakeOptions bake_options;
    bake_options.fps = o.fps;
    bake_options.precision = o.precision == "half" ? Precision::Float16 : Precision::Float32;
    const TechniqueInfo* technique = findTechnique(o.technique);
    bake_options.vat = technique != nullptr && technique->needs_vat;
    bake_options.impostors.enabled = o.crowd.impostor_px > 0.0f;
    parseSkinning(o.crowd.skinning, bake_options.impostors.skinning); // as the crowd skins
    bake_options.root_motion = o.crowd.root_motion;
    if (Status s = eventsFromText(o.crowd.events, bake_options); !s) return Error{s.message};
    Result<LoadedAsset> loaded = throng::loadAsset(model, bake_options);
    if (!loaded) return loaded.error();
    if (loaded.value().model) // the model's image files that could not be read, as info and bake word it
        for (const std::string& w : missingTextures(*loaded.value().model))
            std::fprintf(stderr, "throng: warning: %s: %s\n", model.c_str(), w.c_str());
    if (Status s = attachFromText(loaded.value().baked, o.crowd.attach); !s) return Error{s.message};
    return std::move(loaded).value().baked;
}

// "walker.glb" or "walker.glb 60% + fish.glb 40%" for the summary line.
std::string modelNames(const std::vector<std::string>& models, const std::vector<float>& shares) {
    std::string out;
    for (size_t i = 0; i < models.size(); ++i) {
        out += (i > 0 ? " + " : "") + models[i];
        if (i < shares.size()) {
            char text[32];
            std::snprintf(text, sizeof text, " %.3g%%", double(shares[i]));
            out += text;
        }
    }
    return out;
}

} // namespace

Status parseModelList(const std::vector<std::string>& items, std::vector<std::string>& paths,
                      std::vector<float>& shares) {
    paths.clear();
    shares.clear();
    std::vector<float> given; // per model; 0: none given
    double taken = 0.0;
    size_t without = 0;
    for (const std::string& item : items) {
        const size_t at = item.rfind('@');
        float share = 0.0f;
        if (at != std::string::npos && item.size() > at + 2 && item.back() == '%') {
            const std::string number = item.substr(at + 1, item.size() - at - 2);
            char* tail = nullptr;
            share = std::strtof(number.c_str(), &tail);
            if (tail != number.c_str() + number.size() || !(share > 0.0f) || share > 100.0f)
                return Status::failure("'" + item +
                                       "': a model's share is a percentage above 0 and at most 100 (MODEL@SHARE%)");
            paths.push_back(item.substr(0, at));
            taken += share;
        } else {
            paths.push_back(item);
            ++without;
        }
        if (paths.back().empty()) return Status::failure("'" + item + "': no model before the share");
        given.push_back(share);
    }
    if (paths.size() > kMaxCrowdModels)
        return Status::failure(std::to_string(paths.size()) + " models; a crowd holds at most " +
                               std::to_string(kMaxCrowdModels));
    if (taken > 100.0 + 1e-3 || (without > 0 && taken >= 100.0 - 1e-3 && taken > 0.0))
        return Status::failure("the models' shares take " + std::to_string(int(std::lround(taken))) + "%" +
                               (without > 0 ? ", leaving nothing for the models without one" : ", more than all"));
    if (taken == 0.0 || paths.size() == 1) return {}; // equal shares
    const float rest = without > 0 ? float((100.0 - taken) / double(without)) : 0.0f;
    for (float g : given) shares.push_back(g > 0.0f ? g : rest);
    return {};
}

Status checkRenderOptions(const RenderOptions& o) {
    SwimParams swim = defaultSwim();
    std::string error;
    if (!parseSwim(o.swim, swim, error)) return Status::failure(error);
    // The vectors' picture would overwrite the crowd's.
    std::error_code ec;
    if (!o.velocity.empty() &&
        std::filesystem::weakly_canonical(o.velocity, ec) == std::filesystem::weakly_canonical(o.output, ec))
        return Status::failure("--velocity " + o.velocity + ": the same file as --out");
    if (!o.members.empty()) {
        const auto members = std::filesystem::weakly_canonical(o.members, ec);
        if (members == std::filesystem::weakly_canonical(o.output, ec))
            return Status::failure("--members " + o.members + ": the same file as --out");
        if (!o.velocity.empty() && members == std::filesystem::weakly_canonical(o.velocity, ec))
            return Status::failure("--members " + o.members + ": the same file as --velocity");
        if (o.crowd.simulate)
            return Status::failure("--members: a simulated crowd moves on the GPU; --members writes a crowd laid out "
                                   "once (leave out --simulate)");
    }
    return {};
}

int runRender(const RenderOptions& o) {
    SwimParams swim = defaultSwim();
    std::string swim_error;
    if (!parseSwim(o.swim, swim, swim_error)) { // checked by the parser already (cli.cpp)
        printError(o.model, swim_error);
        return 2;
    }
    if (!checkOutput(o.output)) return 1;
    if (!o.velocity.empty() && !checkOutput(o.velocity)) return 1;
    if (!o.members.empty() && !checkOutput(o.members)) return 1;
    std::vector<BakedAsset> assets;
    const std::vector<std::string> models = o.models.empty() ? std::vector<std::string>{o.model} : o.models;
    for (const std::string& model : models) {
        Result<BakedAsset> asset = loadAsset(o, model);
        if (!asset) {
            printError(model, asset.error().message);
            return 1;
        }
        assets.push_back(std::move(asset).value());
    }
    std::vector<const BakedAsset*> crowd_models;
    for (const BakedAsset& a : assets) crowd_models.push_back(&a);
    HeadlessDeviceOptions device_options;
    device_options.validation = o.validate;
    device_options.device_name = o.device;
    Result<std::unique_ptr<HeadlessDevice>> device = HeadlessDevice::create(device_options);
    if (!device) {
        printError(o.model, device.error().message);
        return 1;
    }
    CrowdJob job;
    job.technique = o.technique;
    job.swim = swim;
    parseJointEncoding(o.encoding, job.encoding); // the parser admits only mat and quat
    job.bone_precision = o.precision == "half" ? Precision::Float16 : Precision::Float32;
    parseAnimationStorage(o.animation, job.animation); // the parser admits only the names it knows
    job.members = o.instances;
    job.model_shares = o.shares;
    job.model_size = o.model_size;
    job.seed = o.seed;
    job.width = o.width;
    job.height = o.height;
    job.time = o.time;
    job.frames = o.frames;
    job.velocity = !o.velocity.empty();
    job.report_members = !o.members.empty();
    applyCrowdFlags(o.crowd, job);
    if (job.taa) job.frames = std::max(job.frames, kTaaFrames); // what it takes to converge
    // Progress on stderr once a run is long (a large crowd on lavapipe takes minutes): after a
    // second on a terminal, after ten seconds into a log.
    const auto started = std::chrono::steady_clock::now();
    const double after = isatty(STDERR_FILENO) ? 1.0 : 10.0;
    job.progress = [started, after](uint32_t frame, uint32_t frames) {
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (seconds >= after) std::fprintf(stderr, "render: frame %u/%u (%.1f s)\n", frame + 1, frames, seconds);
    };
    const std::string device_name = device.value()->name();
    const Result<CrowdJobResult> rendered = renderCrowd(*device.value(), crowd_models, job);
    int code = 0;
    const CrowdJobResult* out_ptr = rendered ? &rendered.value() : nullptr;
    if (out_ptr != nullptr)
        for (const std::string& w : out_ptr->warnings) std::fprintf(stderr, "throng: warning: %s\n", w.c_str());
    Status written;
    if (out_ptr != nullptr) written = writePng(o.output, out_ptr->rgba, out_ptr->width, out_ptr->height);
    float velocity_scale = 0.0f; // the picture's: the 99th percentile of the motion
    Status velocity_written;
    if (out_ptr != nullptr && written && job.velocity)
        velocity_written =
            writePng(o.velocity, velocityPicture(out_ptr->velocity, velocity_scale), out_ptr->width, out_ptr->height);
    Status members_written;
    if (out_ptr != nullptr && written && velocity_written && job.report_members) {
        const std::string text = membersJson(*out_ptr, models, job.time, job.light_direction);
        members_written = io::writeFileAtomic(o.members, text.data(), text.size());
    }
    if (!rendered) {
        printError(modelNames(models, {}), rendered.error().message);
        code = 1;
    } else if (!written) {
        printError(o.output, written.message);
        code = 1;
    } else if (!velocity_written) {
        printError(o.velocity, velocity_written.message);
        code = 1;
    } else if (!members_written) {
        printError(o.members, members_written.message);
        code = 1;
    } else {
        const CrowdJobResult& out = *out_ptr;
        std::string passes;
        for (const PassStats& p : out.passes) {
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
        if (out.drawn.splats > 0)
            lods += (lods.empty() ? "" : " ") + std::string("splats:") + std::to_string(out.drawn.splats);
        std::string skinning = o.crowd.skinning == "linear" ? "" : ", " + o.crowd.skinning + " skinning";
        for (const std::string& layer : o.crowd.layers) skinning += ", layer " + layer;
        // Who rasterized it: auto falls back to the hardware where it must.
        skinning = std::string(", raster ") + toString(out.raster) + skinning;
        const std::string view = o.crowd.camera.empty() ? o.crowd.view + " view" : "camera " + o.crowd.camera;
        std::printf("throng render: %s | %s x %u (%s, %s%s%s) | %u in view, %u hidden, by LOD %s | %.2f M of "
                    "%.2f M triangles drawn | GPU %s | "
                    "%.0f MiB GPU memory | %s %ux%u\n",
                    device_name.c_str(), modelNames(models, o.shares).c_str(), o.instances, o.technique.c_str(),
                    view.c_str(), o.crowd.simulate ? ", simulated" : "", skinning.c_str(), out.drawn.in_frustum,
                    out.drawn.occluded, lods.empty() ? "-" : lods.c_str(), double(out.triangles) * 1e-6,
                    double(out.submitted_triangles) * 1e-6, passes.c_str(), double(out.gpu_memory_bytes) / (1 << 20),
                    o.output.c_str(), out.width, out.height);
        if (job.report_members)
            std::printf("throng render: %zu members, the camera and the light in %s\n", out.members.size(),
                        o.members.c_str());
        if (job.velocity)
            std::printf("throng render: motion vectors of the last frame in %s (full brightness: %.2f px a frame)\n",
                        o.velocity.c_str(), double(velocity_scale));
    }
    // Last: the layers report objects left alive when the device goes.
    if (const uint32_t errors = HeadlessDevice::release(std::move(device).value()); errors > 0) {
        std::fprintf(stderr, "throng: error: %u Vulkan validation error(s)\n", errors);
        code = 1;
    }
    return code;
}

} // namespace throng::cli
