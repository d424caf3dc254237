// Helpers shared by the tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace throng::test {

// The code under test runs under AddressSanitizer: tests that sweep or bound time step or allow
// more there, and crashes of a contained child read differently. The build says so
// (THRONG_UNDER_ASAN, tests/CMakeLists.txt: the test file itself may be built without it), or
// the compiler does for this file (gcc with __SANITIZE_ADDRESS__, clang with __has_feature).
#if defined(THRONG_UNDER_ASAN) || defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

// THRONG_ASSETS_DIR and THRONG_REQUIRE_ASSETS come from CMake (the one setting for the
// shared models, default ../shared/assets).
inline std::string assetsDir() { return THRONG_ASSETS_DIR; }
inline constexpr bool kRequireAssets = THRONG_REQUIRE_ASSETS;

inline std::string assetPath(const std::string& relative) {
    return (std::filesystem::path(assetsDir()) / relative).string();
}

// Every shared model (../shared/assets/README.md), relative to assetsDir().
inline constexpr const char* kSharedModels[] = {
    "RiggedSimple/RiggedSimple.glb",
    "CesiumMan/CesiumMan.glb",
    "Fox/Fox.glb",
    "RobotExpressive/RobotExpressive.glb",
    "RecursiveSkeletons/RecursiveSkeletons.glb",
    "AnimationWithSkeleton_FBX/animation_with_skeleton.fbx",
    "RiggedSimple_Collada/RiggedSimple.dae",
};

// A scratch folder, emptied at creation. It lives under a folder named after the running test,
// because ctest runs the tests as parallel processes.
inline std::filesystem::path scratchDir(const std::string& name) {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string test = info != nullptr ? std::string(info->test_suite_name()) + "." + info->name() : "no_test";
    for (char& c : test)
        if (c == '/') c = '_';
    auto dir = std::filesystem::path(THRONG_TEST_SCRATCH) / test / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// What a run of the throng executable printed, and how it ended.
struct CliRun {
    int exit_code = -1;
    std::string out, err;
};

// Runs `command` through the shell, capturing stdout and stderr through files in the running
// test's scratch folder.
inline CliRun runCommand(const std::string& command) {
    static int calls = 0;
    const auto dir = scratchDir("run" + std::to_string(calls++));
    const std::string out = (dir / "out.txt").string(), err = (dir / "err.txt").string();
    const int status = std::system((command + " >" + out + " 2>" + err).c_str());
    auto slurp = [](const std::string& path) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    };
    CliRun r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

#if defined(THRONG_EXE) // the executable's path; a THRONG_CPU_RUNTIME_ONLY build has none
// Runs `throng ARGS` (THRONG_EXE, shell words) through the shell, after `prefix` when given
// (e.g. xvfb-run, env -u ...).
inline CliRun runThrong(const std::string& args, const std::string& prefix = "") {
    return runCommand((prefix.empty() ? "" : prefix + " ") + std::string(THRONG_EXE) + " " + args);
}

// `throng ARGS` after `display` (an xvfb-run prefix): again, up to three times, when xvfb-run
// itself failed around it (under load it sometimes cannot remove its temporary folder and exits
// 5, whatever throng did).
inline CliRun runThrongInDisplay(const std::string& args, const std::string& display) {
    CliRun r;
    for (int attempt = 0; attempt < 3; ++attempt) {
        r = runThrong(args, display);
        if (r.err.find("xvfb-run: error:") == std::string::npos) break;
    }
    return r;
}
#endif

} // namespace throng::test

// Declares `std::string var` holding the path of a shared model, or skips the test with a
// message when it is missing (fails instead when assets are required, as in CI).
#define THRONG_ASSET(var, relative)                                                                                    \
    const std::string var = ::throng::test::assetPath(relative);                                                       \
    if (!std::filesystem::exists(var)) {                                                                               \
        if (::throng::test::kRequireAssets) FAIL() << "required test model missing: " << var;                          \
        GTEST_SKIP() << "test model not found (set THRONG_ASSETS_DIR): " << var;                                       \
    }
