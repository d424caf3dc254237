// throng — command-line entry point. Subcommands live one per file (info.cpp, animate.cpp, bake.cpp, render.cpp).
#include "commands.h"

#include "../../src/view/viewer.h"

#include <CLI/CLI.hpp>

#include <cstdio>

namespace {

// "WxH" with each side in 16 .. 16384; prints the error itself.
bool parseSize(const std::string& text, uint32_t& width, uint32_t& height) {
    unsigned w = 0, h = 0;
    char tail = 0;
    if (std::sscanf(text.c_str(), "%ux%u%c", &w, &h, &tail) != 2 || w < 16 || h < 16 || w > 16384 || h > 16384) {
        std::fprintf(stderr, "throng: error: --size %s: expected WxH, each 16 .. 16384\n", text.c_str());
        return false;
    }
    width = w;
    height = h;
    return true;
}

} // namespace

int main(int argc, char** argv) {
    CLI::App app{"throng: animate and render huge crowds of skinned characters"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "throng 0.1.0");

    throng::cli::InfoOptions info;
    CLI::App* info_cmd = app.add_subcommand("info", "Describe a model: meshes, joints, skins, clips, bounds, warnings");
    info_cmd->add_option("model", info.source, "Model file (.gltf .glb .fbx .dae ...) or builtin:NAME (fish, walker)")->required();
    info_cmd->add_flag("--json", info.json, "Print one JSON object instead of text");

    throng::cli::AnimateOptions anim;
    CLI::App* anim_cmd = app.add_subcommand("animate", "Animate a model on the CPU and check the float path against the double reference");
    anim_cmd->add_option("model", anim.source, "Model file or builtin:NAME")->required();
    anim_cmd->add_option("--clip", anim.clip, "Clip name (default: every clip)");
    anim_cmd->add_option("--frames", anim.frames, "Sample times per clip")->check(CLI::Range(1, 100000));

    throng::cli::BakeCliOptions bake;
    CLI::App* bake_cmd = app.add_subcommand("bake", "Bake every clip into a .throng file (animation texture + mesh) for the GPU");
    bake_cmd->add_option("model", bake.source, "Model file or builtin:NAME")->required();
    bake_cmd->add_option("-o,--output", bake.output, "The .throng file to write")->required();
    bake_cmd->add_option("--fps", bake.fps, "Frames per second to sample (1 .. 1000)");
    bake_cmd->add_option("--precision", bake.precision, "Animation texel precision: float or half")->check(CLI::IsMember({"float", "half"}));
    bake_cmd->add_flag("--vat", bake.vat, "Also bake vertex animation textures (every vertex's position and normal per frame) for technique vat");

    throng::cli::RenderOptions render;
    std::string size = "1280x720";
    CLI::App* render_cmd = app.add_subcommand("render", "Render a crowd headless to a PNG and print device, triangles and GPU time per pass");
    render_cmd->add_option("--model", render.model, "A .throng file, a model file or builtin:NAME (default builtin:walker)");
    render_cmd->add_option("--instances", render.instances, "Crowd size")->check(CLI::Range(1u, 16u << 20));
    render_cmd->add_option("--technique", render.technique, "Animation technique: cpu, palette, palette-ubo, bonetex, baked, vat, procedural (fish swim), static");
    render_cmd->add_option("--swim", render.swim,
                           "procedural: amounts, e.g. side=0.04,pivot=0.12,wave=0.12,twist=0.25,frequency=3.14,beats=1.5,mask_head=0.6,mask_tail=-0.6");
    render_cmd->add_option("--encoding", render.encoding, "palette: joints as 3x4 matrices or quaternion + translation")->check(CLI::IsMember({"mat", "quat"}));
    render_cmd->add_option("--time", render.time, "Time of the image, seconds");
    render_cmd->add_option("--size", size, "Image size WxH (default 1280x720)");
    render_cmd->add_option("--seed", render.seed, "Crowd layout and variation seed");
    render_cmd->add_option("--frames", render.frames, "Frames rendered; GPU times are the median after the first")->check(CLI::Range(1u, 10000u));
    render_cmd->add_option("--fps", render.fps, "Bake rate when the model is not a .throng file");
    render_cmd->add_option("--precision", render.precision, "baked: bake precision when the model is not a .throng file; bonetex: texel precision")->check(CLI::IsMember({"float", "half"}));
    render_cmd->add_option("--animation", render.animation, "baked: where the animation lives on the GPU: auto, image, texel-buffer or buffer")
        ->check(CLI::IsMember({"auto", "image", "texel-buffer", "buffer"}));
    render_cmd->add_option("--device", render.device, "Use the Vulkan device whose name contains this");
    render_cmd->add_flag("--validate", render.validate, "Enable the Vulkan validation layers; any error fails the run");
    render_cmd->add_option("--out", render.output, "PNG to write (default crowd.png)");

    throng::cli::BenchOptions bench;
    std::string bench_size = "1280x720";
    CLI::App* bench_cmd = app.add_subcommand("bench", "Measure every technique at several crowd sizes (JSON/CSV; plot with tools/plot_bench.py)");
    bench_cmd->add_option("--model", bench.model, "A .throng file, a model file or builtin:NAME (default builtin:walker)");
    bench_cmd->add_option("--techniques", bench.techniques,
                          "Comma-separated techniques, or all; NAME@VARIANT picks palette@quat, palette-ubo@quat, bonetex@half, "
                          "baked@image|texel-buffer|buffer");
    bench_cmd->add_option("--instances", bench.instances, "Comma-separated crowd sizes (default 100,1000)");
    bench_cmd->add_option("--frames", bench.frames, "Timed frames per configuration")->check(CLI::Range(1u, 100000u));
    bench_cmd->add_option("--warmup", bench.warmup, "Frames before timing")->check(CLI::Range(0u, 100000u));
    bench_cmd->add_option("--size", bench_size, "Image size WxH");
    bench_cmd->add_option("--seed", bench.seed, "Crowd seed");
    bench_cmd->add_option("--json", bench.json, "Write the report as JSON");
    bench_cmd->add_option("--csv", bench.csv, "Write the report as CSV");
    bench_cmd->add_option("--device", bench.device, "Use the Vulkan device whose name contains this");
    bench_cmd->add_flag("--validate", bench.validate, "Enable the Vulkan validation layers");

    throng::view::ViewerOptions view;
    std::string view_size = "1280x720";
    CLI::App* view_cmd = app.add_subcommand("view", "Open the crowd in a window: technique switcher, FPS counter, time ruler, debug console (backtick)");
    view_cmd->add_option("model", view.model, "A .throng file, a model file or builtin:NAME (default builtin:walker)");
    view_cmd->add_option("--instances", view.instances, "Crowd size")->check(CLI::Range(1u, 10'000'000u));
    view_cmd->add_option("--technique", view.technique, "Technique at start: cpu, palette, palette-ubo, bonetex, baked, vat, procedural, static");
    view_cmd->add_option("--encoding", view.encoding, "palette: joints as 3x4 matrices or quaternion + translation")->check(CLI::IsMember({"mat", "quat"}));
    view_cmd->add_option("--precision", view.precision, "bonetex texels and the baked animation: float or half")->check(CLI::IsMember({"float", "half"}));
    view_cmd->add_option("--fps", view.fps, "Bake rate when the model is not a .throng file");
    view_cmd->add_option("--seed", view.seed, "Crowd layout and variation seed");
    view_cmd->add_option("--present", view.present, "fifo (vsync, default), mailbox or immediate")->check(CLI::IsMember({"fifo", "mailbox", "immediate"}));
    view_cmd->add_option("--exec", view.exec, "Console commands separated by ';', one per frame, e.g. \"technique cpu; wait 10; screenshot a.png\"");
    view_cmd->add_option("--frames", view.frames, "Quit after this many frames (default: when the window closes)");
    view_cmd->add_flag("--console", view.console, "Start with the debug console open (backtick toggles it)");
    view_cmd->add_option("--size", view_size, "Window size WxH (default 1280x720)");
    view_cmd->add_option("--device", view.device, "Use the Vulkan device whose name contains this");
    view_cmd->add_flag("--validate", view.validate, "Enable the Vulkan validation layers; any error makes the exit code 1");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    if (info_cmd->parsed()) return throng::cli::runInfo(info);
    if (anim_cmd->parsed()) return throng::cli::runAnimate(anim);
    if (bake_cmd->parsed()) return throng::cli::runBake(bake);
    if (render_cmd->parsed()) {
        if (!parseSize(size, render.width, render.height)) return 1;
        return throng::cli::runRender(render);
    }
    if (view_cmd->parsed()) {
        if (!parseSize(view_size, view.width, view.height)) return 1;
        return throng::cli::runView(view);
    }
    if (bench_cmd->parsed()) {
        if (!parseSize(bench_size, bench.width, bench.height)) return 1;
        return throng::cli::runBench(bench);
    }
    return 2;
}
