// The CLI as a user runs it: `throng info` text and JSON, and the one-line error contract.
#include "gltf_builder.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

using throng::test::CliRun;

CliRun run(const std::string& args) { return throng::test::runThrong(args); }

} // namespace

TEST(Cli, InfoBuiltinWalker) {
    const CliRun r = run("info builtin:walker");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("builtin:walker"), std::string::npos);
    EXPECT_NE(r.out.find("walk"), std::string::npos);
    EXPECT_NE(r.out.find("idle"), std::string::npos);
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(Cli, InfoJsonIsOneObjectWithTheFacts) {
    const CliRun r = run("info builtin:walker --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["source"], "builtin:walker");
    EXPECT_GE(j["joints"].get<int>(), 15);
    EXPECT_GE(j["vertices"].get<int>(), 2000);
    EXPECT_EQ(j["clips"].size(), 2u);
    EXPECT_TRUE(j["bounds"]["diagonal"].get<double>() > 0.0);
    EXPECT_TRUE(j["warnings"].is_array());
}

TEST(Cli, InfoSharedModelJson) {
    THRONG_ASSET(path, "Fox/Fox.glb");
    const CliRun r = run("info --json " + path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["joints"], 24);
    EXPECT_EQ(j["vertices"], 1728);
    ASSERT_EQ(j["clips"].size(), 3u);
    EXPECT_EQ(j["clips"][0]["name"], "Survey");
    EXPECT_NEAR(j["clips"][0]["duration"].get<double>(), 3.417, 1e-3);
    EXPECT_GT(j["clips"][0]["keyframes"].get<int>(), 0);
}

TEST(Cli, ErrorIsOneLineAndExitsOne) {
    const auto dir = throng::test::scratchDir("cli_error");
    const std::string empty = (dir / "empty.glb").string();
    std::ofstream(empty).close();
    for (const std::string& source : {empty, (dir / "missing.fbx").string(), std::string("builtin:nope")}) {
        const CliRun r = run("info " + source);
        EXPECT_EQ(r.exit_code, 1) << source;
        EXPECT_EQ(r.err.rfind("throng: error: " + source + ": ", 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_TRUE(r.out.empty());
    }
}

TEST(Cli, AnimateChecksTheFloatPathAgainstTheReference) {
    const CliRun r = run("animate builtin:walker --frames 4");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("walk"), std::string::npos);
    EXPECT_NE(r.out.find("max error"), std::string::npos);
    const CliRun bad = run("animate builtin:walker --clip nope");
    EXPECT_EQ(bad.exit_code, 1);
    EXPECT_NE(bad.err.find("no clip named 'nope'"), std::string::npos);
}

TEST(Cli, UsageErrorsDoNotCrash) {
    EXPECT_NE(run("").exit_code, 0);
    EXPECT_NE(run("info").exit_code, 0);
    EXPECT_NE(run("frobnicate").exit_code, 0);
    EXPECT_EQ(run("--version").exit_code, 0);
}
