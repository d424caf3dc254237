// cli.h — the throng command line as a function of argv: parsing, value checks and warnings,
// with no side effects (no output, no files), so it can be tested and fuzzed in process.
//
// Exit codes (README, "Errors"): 0 success, 1 an error in the input, output, device or
// environment, 2 a usage mistake. Every error is one line, "throng: error: ...".
#pragma once

#include "commands.h"

#include <throng/view.h>

#include <string>
#include <vector>

namespace throng::cli {

enum class Subcommand { None, Info, Animate, Bake, Render, Bench, View };

struct CommandLine {
    Subcommand subcommand = Subcommand::None;
    InfoOptions info;
    AnimateOptions animate;
    BakeCliOptions bake;
    RenderOptions render;
    BenchOptions bench;
    view::ViewerOptions view;
    std::vector<std::string> warnings; // options the chosen technique or input ignores, one line each
};

struct ParseResult {
    int exit_code = -1; // -1: run `command`; else exit with this code after printing
    std::string out;    // for stdout (help, version)
    std::string error;  // one line, without the "throng: error: " prefix (exit code 2)
    CommandLine command;
};

// Never throws, never prints, never exits.
ParseResult parseCommandLine(int argc, const char* const* argv);

} // namespace throng::cli
