// throng — command-line entry point: parse (cli.cpp), then one file per subcommand (info.cpp,
// animate.cpp, bake.cpp, render.cpp, bench.cpp, view.cpp).
#include "cli.h"

#include <throng/files.h>

#include <cstdio>

int main(int argc, char** argv) {
    throng::io::installInterruptCleanup(); // SIGINT/SIGTERM mid-write leave no temporary behind
    const throng::cli::ParseResult parsed = throng::cli::parseCommandLine(argc, argv);
    if (parsed.exit_code >= 0) {
        std::fputs(parsed.out.c_str(), stdout);
        if (!parsed.error.empty()) std::fprintf(stderr, "throng: error: %s\n", parsed.error.c_str());
        return parsed.exit_code;
    }
    const throng::cli::CommandLine& c = parsed.command;
    for (const std::string& w : c.warnings) std::fprintf(stderr, "throng: warning: %s\n", w.c_str());
    using throng::cli::Subcommand;
    switch (c.subcommand) {
    case Subcommand::Info: return throng::cli::runInfo(c.info);
    case Subcommand::Animate: return throng::cli::runAnimate(c.animate);
    case Subcommand::Bake: return throng::cli::runBake(c.bake);
    case Subcommand::Render: return throng::cli::runRender(c.render);
    case Subcommand::Bench: return throng::cli::runBench(c.bench);
    case Subcommand::View: return throng::cli::runView(c.view);
    case Subcommand::None: break;
    }
    return 2;
}
