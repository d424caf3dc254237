// Helpers shared by the tests.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace throng::test {

// THRONG_ASSETS_DIR and THRONG_REQUIRE_ASSETS come from CMake (the one setting for the
// shared models, default ../shared/assets).
inline std::string assetsDir() { return THRONG_ASSETS_DIR; }
inline constexpr bool kRequireAssets = THRONG_REQUIRE_ASSETS;

inline std::string assetPath(const std::string& relative) {
    return (std::filesystem::path(assetsDir()) / relative).string();
}

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

} // namespace throng::test

// Declares `std::string var` holding the path of a shared model, or skips the test with a
// message when it is missing (fails instead when assets are required, as in CI).
#define THRONG_ASSET(var, relative)                                                              \
    const std::string var = ::throng::test::assetPath(relative);                                 \
    if (!std::filesystem::exists(var)) {                                                         \
        if (::throng::test::kRequireAssets) FAIL() << "required test model missing: " << var;    \
        GTEST_SKIP() << "test model not found (set THRONG_ASSETS_DIR): " << var;                 \
    }
