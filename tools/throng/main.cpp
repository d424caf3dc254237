// throng — command-line entry point. Subcommands live one per file (info.cpp, animate.cpp).
#include "commands.h"

#include <CLI/CLI.hpp>

#include <cstdio>

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

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    if (info_cmd->parsed()) return throng::cli::runInfo(info);
    if (anim_cmd->parsed()) return throng::cli::runAnimate(anim);
    return 2;
}
