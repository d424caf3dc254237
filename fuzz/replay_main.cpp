// replay_main.cpp — runs a fuzz target's LLVMFuzzerTestOneInput over files, without libFuzzer:
// the seed corpus and every input that once crashed (fuzz/regressions.cpp) become ordinary ctest
// tests in any build, gcc and ASan included (fuzz/replay.cmake).
//
//   replay_fuzz_X PATH...   each PATH a file, or a folder whose files (not README*, not
//                           recursively) are replayed in name order
// Exit 0 when every input returned; a crash, sanitizer report or contract check ends the process
// as it would under libFuzzer. A PATH that does not exist is an error (exit 2): a typo must not
// turn a regression test into a test of nothing.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

std::vector<uint8_t> readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> inputs;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg = argv[i];
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            std::vector<fs::path> files;
            for (const fs::directory_entry& e : fs::directory_iterator(arg))
                if (e.is_regular_file() && e.path().filename().string().rfind("README", 0) != 0)
                    files.push_back(e.path());
            std::sort(files.begin(), files.end());
            inputs.insert(inputs.end(), files.begin(), files.end());
        } else if (fs::is_regular_file(arg, ec)) {
            inputs.push_back(arg);
        } else {
            std::fprintf(stderr, "replay: %s: no such file or folder\n", argv[i]);
            return 2;
        }
    }
    double slowest = 0.0;
    std::string slowest_name;
    for (const fs::path& path : inputs) {
        const std::vector<uint8_t> bytes = readAll(path);
        std::fprintf(stderr, "replay: %s (%zu bytes)\n", path.c_str(), bytes.size());
        const auto start = std::chrono::steady_clock::now();
        // libFuzzer never passes a null pointer, even for an empty input.
        static const uint8_t kEmpty = 0;
        LLVMFuzzerTestOneInput(bytes.empty() ? &kEmpty : bytes.data(), bytes.size());
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds > slowest) {
            slowest = seconds;
            slowest_name = path.string();
        }
    }
    std::printf("replay: %zu inputs, slowest %.3f s (%s)\n", inputs.size(), slowest, slowest_name.c_str());
    return 0;
}
