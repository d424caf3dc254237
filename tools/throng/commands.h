// The throng CLI's subcommands. Each returns the process exit code and prints its own errors
// as one line: "throng: error: SOURCE: what is wrong".
#pragma once

#include <string>

namespace throng::cli {

struct InfoOptions {
    std::string source;  // file path or builtin:NAME
    bool json = false;
};
int runInfo(const InfoOptions& options);

struct AnimateOptions {
    std::string source;
    std::string clip;    // empty: every clip
    int frames = 30;     // sample times per clip, spread over [0, duration]
};
int runAnimate(const AnimateOptions& options);

void printError(const std::string& source, const std::string& message);

} // namespace throng::cli
