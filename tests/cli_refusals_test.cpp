// One rule for the CLI's exit codes (issue #27, section 3): every usage mistake exits 2 with one
// line naming what is wrong, before anything runs; everything else that fails exits 1. The
// refusals are found in the code, not listed by hand:
// - every option of every subcommand, read from `throng SUB --help` (which CLI11 writes from the
//   parser): a typed option given a value of no type (a word for a number, a name outside its
//   set) and any option left without its value;
// - every refusal written in the CLI's sources (tools/throng/{cli,render,bench}.cpp: each
//   `usage(...)`, `Status::failure(...)` and `error = "..."` statement), named by its longest
//   string literal: the test fails for a refusal no command line below reaches, so a new check
//   comes with its own line here.
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

namespace {

using throng::test::CliRun;

std::string readSource(const std::string& relative) {
    std::ifstream in(std::string(THRONG_SOURCE_DIR) + "/" + relative);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

struct Refusal {
    std::string file;
    int line = 0;
    std::string key; // the statement's longest string literal
};

// The statement starting at `at` up to its ';' outside string literals, and its literals.
std::vector<std::string> literalsOfStatement(const std::string& text, size_t at) {
    std::vector<std::string> literals;
    std::string current;
    bool in_string = false;
    for (size_t i = at; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\' && i + 1 < text.size()) {
                current += text[++i];
            } else if (c == '"') {
                in_string = false;
                literals.push_back(current);
            } else {
                current += c;
            }
        } else if (c == '"' && !(i > 0 && text[i - 1] == '\'')) {
            in_string = true;
            current.clear();
        } else if (c == ';') {
            break;
        }
    }
    return literals;
}

std::vector<Refusal> refusalsInSources() {
    std::vector<Refusal> out;
    for (const std::string file : {"tools/throng/cli.cpp", "tools/throng/render.cpp", "tools/throng/bench.cpp"}) {
        const std::string text = readSource(file);
        EXPECT_FALSE(text.empty()) << file;
        for (const std::string marker : {"usage(", "Status::failure(", "error = \""}) {
            for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) {
                // Not a declaration or a comment: the call's own line.
                const size_t line_start = text.rfind('\n', at) + 1;
                const std::string before = text.substr(line_start, at - line_start);
                if (before.find("//") != std::string::npos || before.find("auto ") != std::string::npos) continue;
                std::vector<std::string> literals = literalsOfStatement(text, at);
                std::string key;
                for (const std::string& l : literals)
                    if (l.size() > key.size()) key = l;
                if (key.size() < 8) continue; // a message made elsewhere (parser, helper): reached through its own
                out.push_back({file, int(std::count(text.begin(), text.begin() + long(at), '\n')) + 1, key});
            }
        }
    }
    return out;
}

// Every usage mistake: exit 2, one line, "throng: error: ...".
void expectUsageError(const CliRun& r, const std::string& args, const std::string& names = "") {
    EXPECT_EQ(r.exit_code, 2) << "throng " << args << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "throng " << args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("throng: error: ", 0), 0u) << "throng " << args << "\n" << r.err;
    if (!names.empty()) {
        EXPECT_NE(r.err.find(names), std::string::npos) << "throng " << args << "\n" << r.err;
    }
}

std::vector<std::string> subcommands() {
    const CliRun help = throng::test::runThrong("--help");
    std::vector<std::string> out;
    bool listing = false;
    std::istringstream lines(help.out);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("Subcommands:", 0) == 0) listing = true;
        std::smatch m;
        if (listing && std::regex_match(line, m, std::regex("  ([a-z]+) .*"))) out.push_back(m[1]);
    }
    return out;
}

} // namespace

TEST(CliRefusals, EveryOptionGivenNoValueOrABadOneExitsTwo) {
    const std::vector<std::string> subs = subcommands();
    ASSERT_EQ(subs.size(), 6u) << "info, animate, bake, render, bench, view";
    size_t typed = 0, options = 0;
    for (const std::string& sub : subs) {
        const CliRun help = throng::test::runThrong(sub + " --help");
        ASSERT_EQ(help.exit_code, 0) << sub;
        std::istringstream lines(help.out);
        // "  --instances UINT:N=1000 ...", "  -o,--out TEXT=crowd.png ...", "  --validate  ..."
        const std::regex option("  (?:-[a-zA-Z],)?(--[a-z0-9-]+)(?: ([A-Z]+)([:=]\\S*)?)?( .*)?");
        for (std::string line; std::getline(lines, line);) {
            std::smatch m;
            if (!std::regex_match(line, m, option) || m[1] == "--help") continue;
            const std::string name = m[1], type = m[2], check = m[3];
            if (type.empty()) continue; // a flag
            ++options;
            // Left without its value (last on the line: nothing after it to take).
            expectUsageError(throng::test::runThrong(sub + " " + name), sub + " " + name, name);
            // A value of no type: numbers and booleans, and names outside a set ({a,b}).
            const bool checked = type != "TEXT" || check.rfind(":{", 0) == 0;
            if (!checked) continue;
            ++typed;
            const std::string args = sub + " " + name + " not-a-value";
            expectUsageError(throng::test::runThrong(args), args, name);
        }
        const std::string unknown = sub + " builtin:walker --no-such-option";
        expectUsageError(throng::test::runThrong(unknown), unknown, "--no-such-option");
    }
    EXPECT_GT(options, 60u) << "the help listings were read";
    EXPECT_GT(typed, 40u);
}

TEST(CliRefusals, EveryRefusalInTheSourcesExitsTwo) {
    const auto dir = throng::test::scratchDir("refusals");
    const std::string png = (dir / "x.png").string();
    std::string many_models;
    for (int i = 0; i < 257; ++i) many_models += " builtin:walker";
    // Command lines that reach the CLI's own checks (the parser's are above), each a usage mistake.
    const std::vector<std::string> mistakes = {
        "nosuch",
        "--no-such-option",
        "bake builtin:walker",
        "render --technique nosuch",
        "view --technique nosuch",
        "render --size 7x7",
        "bench --size 7x7",
        "render --swim bogus=1",
        "render --swim mask_head=-1,mask_tail=1",
        "render builtin:walker@150%",
        "render @50%",
        "render" + many_models,
        "render builtin:walker@60% builtin:strider@50%",
        "render builtin:walker@100% builtin:strider",
        "render --out " + png + " --velocity " + png,
        "render --out " + png + " --members " + png,
        "render --out " + png + " --velocity " + (dir / "v.png").string() + " --members " + (dir / "v.png").string(),
        "render --simulate --members " + (dir / "m.json").string(),
        "render --technique cpu --simulate",
        "render --technique cpu --skinning dual-quaternion",
        "render --technique baked --layer walk@hip",
        "bench --techniques nosuch",
        "bench --techniques cpu --simulate",
        "bench --instances 0",
    };
    std::vector<std::string> errors;
    for (const std::string& args : mistakes) {
        const CliRun r = throng::test::runThrong(args);
        expectUsageError(r, args);
        errors.push_back(r.err);
    }
    EXPECT_FALSE(std::filesystem::exists(png)) << "nothing drawn or written";
    const std::vector<Refusal> refusals = refusalsInSources();
    EXPECT_GT(refusals.size(), 12u) << "the sources were read";
    for (const Refusal& refusal : refusals) {
        const bool reached = std::any_of(errors.begin(), errors.end(), [&](const std::string& e) {
            return e.find(refusal.key) != std::string::npos;
        });
        EXPECT_TRUE(reached) << refusal.file << ":" << refusal.line << ": no command line here reaches the refusal \""
                             << refusal.key << "\"; add one to `mistakes`";
    }
}

// Everything else that fails is 1: what the files, the device or the run did.
TEST(CliRefusals, FailuresThatAreNotUsageExitOne) {
    const auto dir = throng::test::scratchDir("failures");
    for (const std::string& args :
         {"info " + (dir / "missing.glb").string(), "render " + (dir / "missing.throng").string(),
          "render --instances 4 --size 32x32 --out " + (dir / "no" / "such" / "x.png").string(),
          "bake builtin:walker -o " + dir.string()}) {
        const CliRun r = throng::test::runThrong(args);
        EXPECT_EQ(r.exit_code, 1) << "throng " << args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "throng " << args << "\n" << r.err;
    }
}
