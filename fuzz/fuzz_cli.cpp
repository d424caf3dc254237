// fuzz_cli.cpp — libFuzzer target: the command line, cli::parseCommandLine() (tools/throng/cli.*),
// which is a pure function of argv: it never prints, exits or touches a file.
//
// The input is split into argv words at NUL and newline bytes (argv[0] is "throng"; at most
// kMaxWords words), so a seed is one word per line: "render\n--technique\nbaked\n--time\nnan".
//
// Besides crashes, leaks and sanitizer reports it checks the parser's contract (cli.h, README
// "Errors"): exit code -1 (run), 0, 1 or 2; a usage mistake (2) has exactly one non-empty line of
// error; warnings are one line each.
#include "../tools/throng/cli.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

constexpr size_t kMaxWords = 64;

[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_cli: contract broken: %s: %s\n", what, detail.c_str());
    std::abort();
}

bool oneLine(const std::string& s) { return !s.empty() && s.find_first_of("\r\n") == std::string::npos; }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::vector<std::string> words = {"throng"};
    std::string word;
    for (size_t i = 0; i <= size && words.size() < kMaxWords; ++i) {
        if (i == size || data[i] == '\0' || data[i] == '\n') {
            words.push_back(word);
            word.clear();
        } else {
            word.push_back(char(data[i]));
        }
    }
    std::vector<const char*> argv;
    for (const std::string& w : words) argv.push_back(w.c_str());
    argv.push_back(nullptr); // as main() gets it

    const throng::cli::ParseResult r = throng::cli::parseCommandLine(int(words.size()), argv.data());
    if (r.exit_code < -1 || r.exit_code > 2) contractBroken("exit code out of range", std::to_string(r.exit_code));
    if (r.exit_code == 2 && !oneLine(r.error)) contractBroken("usage error that is not one line", r.error);
    if (r.exit_code == -1) {
        if (r.command.subcommand == throng::cli::Subcommand::None) contractBroken("run without a subcommand", "");
        for (const std::string& w : r.command.warnings)
            if (!oneLine(w)) contractBroken("warning that is not one line", w);
    }
    return 0;
}
