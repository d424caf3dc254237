// `throng bake`: import a model, bake every clip, write the .throng file atomically and print a
// one-line summary (stdout); progress lines and warnings go to stderr.
#include "commands.h"

#include <glm/trigonometric.hpp>

#include <throng/bake.h>
#include <throng/events.h>
#include <throng/export.h>
#include <throng/files.h>
#include <throng/format.h>
#include <throng/import.h>
#include <throng/root_motion.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace throng::cli {

int runBake(const BakeCliOptions& options) {
    if (!options.output.empty() && !checkOutput(options.output)) return 1;
    if (!options.export_dir.empty()) { // before baking: a bad directory costs nothing
        if (Status s = checkExportDirectory(options.export_dir); !s) {
            printError(options.export_dir, s.message);
            return 1;
        }
    }
    Result<Model> loaded = importModel(options.source);
    if (!loaded) {
        printError(options.source, loaded.error().message);
        return 1;
    }
    const Model& model = loaded.value();

    BakeOptions bake_options;
    bake_options.fps = options.fps;
    bake_options.precision = options.precision == "half" ? Precision::Float16 : Precision::Float32;
    bake_options.vat = options.vat;
    bake_options.impostors.enabled = options.impostors;
    parseSkinning(options.skinning, bake_options.impostors.skinning); // the parser admits only the names it knows
    bake_options.lods = options.lods;
    bake_options.root_motion = options.root_motion;
    if (Status s = eventsFromText(options.events, bake_options); !s) {
        printError(options.source, s.message);
        return 1;
    }
    if (!options.max_error.empty()) { // checked by the parser: a positive number, maybe with '%'
        const bool share = options.max_error.back() == '%';
        const double v = std::strtod(options.max_error.c_str(), nullptr);
        const Bounds b = bindPoseBounds(model);
        bake_options.max_error = share ? v / 100.0 * double(glm::length(b.max - b.min)) : v;
        std::fprintf(stderr, "bake: error-bounded: at most %.3g model units of tweening error per clip\n",
                     bake_options.max_error);
    }
    bake_options.progress = [&model](size_t done, size_t total) {
        const std::string name = model.clips.empty() ? "rest" : model.clips[done - 1].name;
        std::fprintf(stderr, "bake: clip %zu/%zu '%s'\n", done, total, name.c_str());
    };
    BakeReport report;
    const auto start = std::chrono::steady_clock::now();
    Result<BakedAsset> baked = bake(model, bake_options, &report);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!baked) {
        printError(options.source, baked.error().message);
        return 1;
    }
    for (const ClipRateReport& r : report.rates)
        std::fprintf(stderr,
                     "bake: clip '%s': %u frames (%.1f fps), error %.3g%s, %zu bytes; at %g fps: %u frames, error "
                     "%.3g, %zu bytes\n",
                     r.name.c_str(), r.frames, r.fps, r.error, r.met ? "" : " (over the bound even at 1000 fps)",
                     r.bytes, double(options.fps), r.fixed_frames, r.fixed_error, r.fixed_bytes);
    for (const std::string& w : report.warnings)
        std::fprintf(stderr, "throng: warning: %s: %s\n", options.source.c_str(), w.c_str());

    const BakedAsset& asset = baked.value();
    for (const BakedClip& c : asset.clips) {
        if (c.events.empty()) continue;
        std::string list;
        for (size_t e = 0; e < c.events.size() && e < 6; ++e)
            list += (e > 0 ? ", " : "") + c.events[e].name + " " + std::to_string(c.events[e].time).substr(0, 5) + " s";
        std::fprintf(stderr, "bake: clip '%s': %zu event%s (%s%s)\n", c.name.c_str(), c.events.size(),
                     c.events.size() == 1 ? "" : "s", list.c_str(), c.events.size() > 6 ? ", ..." : "");
    }
    if (!asset.root_joint.empty())
        for (const BakedClip& c : asset.clips)
            std::fprintf(stderr,
                         "bake: clip '%s': root motion of joint '%s' taken out: %.4g units/s, %.4g degrees a cycle\n",
                         c.name.c_str(), asset.root_joint.c_str(), rootSpeed(c),
                         c.root_motion.empty() ? 0.0 : glm::degrees(double(c.root_motion.back().z)));
    if (!options.output.empty()) {
        if (Status s = writeThrong(asset, options.output); !s) {
            printError(options.output, s.message);
            return 1;
        }
    }
    uintmax_t export_bytes = 0;
    if (!options.export_dir.empty()) {
        Result<ExportReport> exported = exportForEngines(asset, options.export_dir);
        if (!exported) {
            printError(options.export_dir, exported.error().message);
            return 1;
        }
        const ExportReport& r = exported.value();
        std::string files;
        for (const std::string& f : r.files) {
            files += (files.empty() ? "" : ", ") + f;
            std::error_code size_ec;
            const uintmax_t size = std::filesystem::file_size(std::filesystem::path(options.export_dir) / f, size_ec);
            if (!size_ec) export_bytes += size;
        }
        std::fprintf(stderr, "bake: exported %s into %s (animation %u x %u texels", files.c_str(),
                     options.export_dir.c_str(), r.animation_width, r.animation_height);
        if (r.vat_width > 0)
            std::fprintf(stderr, ", vertex animation %u x %u, %u row%s a frame", r.vat_width, r.vat_height,
                         r.vat_rows_per_frame, r.vat_rows_per_frame == 1 ? "" : "s");
        std::fprintf(stderr, ")\n");
    }
    const std::string& written = options.output.empty() ? options.export_dir : options.output;
    std::error_code ec;
    const uintmax_t bytes = options.output.empty() ? export_bytes : std::filesystem::file_size(options.output, ec);
    uint64_t frames = 0;
    for (const BakedClip& c : asset.clips) frames += c.frame_count;
    std::printf(
        "%s: %zu clips, %llu frames, %u joints, %zu vertices, %s precision, %llu bytes on disk, baked in %.2f s",
        written.c_str(), asset.clips.size(), static_cast<unsigned long long>(frames), asset.joint_count,
        asset.vertices.size(), toString(asset.precision), static_cast<unsigned long long>(ec ? 0 : bytes), seconds);
    if (asset.precision == Precision::Float16) std::printf(", max half error %.2e of diagonal", report.max_half_error);
    if (asset.hasVat()) std::printf(", vertex animation %zu bytes", report.vat_bytes);
    if (!asset.impostors.empty())
        std::printf(", impostors %u x %u texels x %zu clips (%zu bytes, colour and normal)", report.impostor_width,
                    report.impostor_height, asset.impostors.frames.size(), report.impostor_bytes);
    // The LOD chain, as two lists: triangles per level, then each level's error (model units).
    std::printf(", %zu LOD%s", asset.lods.size(), asset.lods.size() == 1 ? "" : "s");
    for (const BakedLod& l : asset.lods) std::printf(" %llu", static_cast<unsigned long long>(l.triangleCount()));
    std::printf(" triangles, errors");
    for (const BakedLod& l : asset.lods) std::printf(" %.3g", double(l.error));
    std::printf("\n");
    return 0;
}

} // namespace throng::cli
