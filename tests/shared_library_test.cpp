// The shared build (-DBUILD_SHARED_LIBS=ON, cmake/shared_libraries.cmake): each component is one
// library with a versioned soname that exports throng's public API and nothing else, and needs
// only its own dependencies. Read from the built libraries with binutils (nm, readelf).
#include "test_util.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

// What `command` printed on stdout.
std::string output(const std::string& command) { return throng::test::runCommand(command).out; }

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) out.push_back(line);
    return out;
}

// Every public header's text, where each exported name must be declared.
std::string publicHeaders() {
    std::string all;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(THRONG_SOURCE_DIR) + "/include/throng")) {
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        all += text.str();
    }
    return all;
}

struct Library {
    const char* file;
    const char* soname;
    std::vector<std::string> must_not_need; // libraries of the other components' dependencies
};

} // namespace

TEST(SharedLibraries, ExportThePublicApiAloneUnderAVersionedSoname) {
    const std::string headers = publicHeaders();
    const std::string dir = THRONG_BINARY_DIR;
    const Library libraries[] = {
        {"libthrong.so", "libthrong.so.0.1", {"assimp", "tinygltf", "vulkan", "meshoptimizer", "tinyexr"}},
        {"libthrong-offline.so", "libthrong-offline.so.0.1", {"vulkan"}},
        {"libthrong-render.so", "libthrong-render.so.0.1", {"assimp", "tinygltf", "tinyexr"}},
    };
    size_t total = 0;
    for (const Library& library : libraries) {
        SCOPED_TRACE(library.file);
        const std::string path = dir + "/" + library.file;
        ASSERT_TRUE(std::filesystem::exists(path)) << path;
        const std::string dynamic = output("readelf -d " + path);
        EXPECT_NE(dynamic.find("Library soname: [" + std::string(library.soname) + "]"), std::string::npos) << dynamic;
        // readelf pads its type column: "(NEEDED)             Shared library: [libc.so.6]".
        EXPECT_NE(dynamic.find("Shared library: [libstdc++"), std::string::npos) << dynamic; // the check reads lines
        for (const std::string& other : library.must_not_need)
            EXPECT_EQ(dynamic.find("Shared library: [lib" + other), std::string::npos) << dynamic;
        // Defined dynamic symbols, demangled: the version node (an absolute symbol) and throng's API.
        size_t exported = 0;
        const std::regex symbol("[0-9a-f]+ ([A-Za-z]) (.*)@@THRONG_0\\.1");
        for (const std::string& line : lines(output("nm -D --defined-only -C " + path))) {
            if (std::regex_match(line, std::regex("[0-9a-f]+ A THRONG_0\\.1"))) continue; // the version itself
            std::smatch m;
            ASSERT_TRUE(std::regex_match(line, m, symbol)) << "not of version THRONG_0.1: " << line;
            const std::string name = m[2];
            ++exported;
            ASSERT_EQ(name.rfind("throng::", 0), 0u) << "exported outside namespace throng: " << name;
            // The function's own name (before its parameters; a constructor's or operator's class
            // name), declared in a public header: none of src/'s namespaces or helpers leaks out.
            const std::string qualified = name.substr(0, name.find('('));
            std::string last = qualified.substr(qualified.rfind("::") + 2);
            last = last.substr(0, last.find('[')); // [abi:cxx11]
            if (last.rfind('~', 0) == 0) last.erase(0, 1);
            if (last.rfind("operator", 0) == 0) last = "operator";
            for (const char* internal : {"::detail::", "::render::", "::gpu::", "::sim::", "::texture::",
                                         "::exporter::", "::shapes::", "::view::", "::walker_colors::"})
                EXPECT_EQ(qualified.find(internal), std::string::npos) << "an internal namespace: " << name;
            EXPECT_TRUE(std::regex_search(headers, std::regex("\\b" + last + "\\b")))
                << "exported but declared in no public header: " << name;
        }
        EXPECT_GT(exported, 20u);
        total += exported;
        std::printf("%s: %zu symbols exported\n", library.file, exported);
    }
    std::printf("%zu symbols exported in all\n", total);
}
