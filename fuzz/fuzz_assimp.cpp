// fuzz_assimp.cpp — libFuzzer target: the assimp front door through the containment,
// detail::importContained() (src/import/contain.h, docs/HARDENING.md): assimp runs in a forked
// child with limits on memory and time, its Model comes back over a pipe (model_wire.h) and is
// validated in the parent.
//
// The input's first byte picks the file's extension (kExtensions[byte % count]); the rest is the
// file, written to a per-process temporary folder and imported from there. So a seed is one
// selector byte followed by a model file (fuzz/corpus_gen.cpp writes them).
//
// Slow by design: a file write and a fork per input. libFuzzer sees the coverage of the parent
// only (the wire decoder, validate()); assimp itself is not instrumented (Debian's libassimp) and
// our conversion code (assimp.cpp) counts in the child's memory. What this target proves is that
// no input gets past the containment: the parent never crashes, leaks, hangs or accepts a model
// that fails validate(). Inputs whose import ended with "the importer stopped" (a crash, abort,
// sanitizer report, time-out or memory limit in the child) are copied into the folder named by
// THRONG_FUZZ_STOPPED_DIR when set (fuzz/run.sh sets it); to see where one stopped, replay it
// with THRONG_FUZZ_IN_PROCESS=1, which calls importAssimp() in the fuzzer's own process:
//   THRONG_FUZZ_IN_PROCESS=1 build/fuzz/fuzz/fuzz_assimp INPUT
// THRONG_FUZZ_VERBOSE=1 prints how each import ended.
//
// Besides crashes, leaks and sanitizer reports it checks the contract (contain.h, import.h): a
// model returned passes validate(), an error is one non-empty line.
#include <throng/import.h>
#include <throng/model.h>

#include "../src/import/contain.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

// Tighter than the defaults (8 GiB, 120 s): the child must end well within libFuzzer's
// -timeout=10, and the inputs are a few KB, which assimp reads in milliseconds. assimp 5.2 loops
// forever on some of them (a PLY header without end_header, a NUL in an SMD node list: see
// fuzz/regressions.cpp), and mutations find those often, so every second here counts.
constexpr throng::detail::ContainLimits kLimits{uint64_t(1) << 30, 1.0};

// Formats assimp reads (Debian 12: assimp 5.2), text and binary, by extension.
constexpr const char* kExtensions[] = {".obj", ".dae", ".ply", ".stl",     ".x",   ".fbx",  ".off", ".3ds",
                                       ".bvh", ".smd", ".ac",  ".md5mesh", ".ase", ".ms3d", ".b3d", ".lwo"};
constexpr size_t kExtensionCount = sizeof(kExtensions) / sizeof(kExtensions[0]);

[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_assimp: contract broken: %s: %s\n", what, detail.c_str());
    std::abort();
}

// One folder per process (libFuzzer -jobs/-fork run several), removed at exit. Never destroyed
// (reachable through the pointer), so the exit handler cannot outlive it.
const std::string& scratchDir() {
    static const std::string* dir = [] {
        std::string pattern = (std::filesystem::temp_directory_path() / "throng-fuzz-assimp-XXXXXX").string();
        if (mkdtemp(pattern.data()) == nullptr) {
            std::perror("fuzz_assimp: mkdtemp");
            std::abort();
        }
        return new std::string(pattern);
    }();
    static const bool cleanup = std::atexit([] {
                                    std::error_code ec;
                                    std::filesystem::remove_all(*dir, ec);
                                }) == 0;
    (void)cleanup;
    return *dir;
}

bool writeFile(const std::string& path, const uint8_t* data, size_t size) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) return false;
    const bool ok = std::fwrite(data, 1, size, f) == size;
    return std::fclose(f) == 0 && ok;
}

void keepStopped(const uint8_t* data, size_t size) {
    static unsigned kept = 0;
    const char* dir = std::getenv("THRONG_FUZZ_STOPPED_DIR");
    if (dir == nullptr || *dir == '\0' || kept >= 1000) return;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::string path = std::string(dir) + "/stopped-" + std::to_string(getpid()) + "-" + std::to_string(kept++);
    (void)writeFile(path, data, size);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string path = scratchDir() + "/input" + kExtensions[data[0] % kExtensionCount];
    if (!writeFile(path, data + 1, size - 1)) {
        std::perror("fuzz_assimp: writing the input");
        std::abort();
    }
    static const bool in_process = std::getenv("THRONG_FUZZ_IN_PROCESS") != nullptr;
    throng::Result<throng::Model> model =
        in_process ? throng::importAssimp(path) : throng::detail::importContained(path, kLimits);
    std::remove(path.c_str());
    static const bool verbose = std::getenv("THRONG_FUZZ_VERBOSE") != nullptr;
    if (verbose)
        std::fprintf(stderr, "fuzz_assimp: %s: %s\n", path.c_str(), model ? "imported" : model.error().message.c_str());
    if (model) {
        if (throng::Status s = throng::validate(model.value()); !s)
            contractBroken("the import returned a model that fails validate()", s.message);
    } else {
        const std::string& message = model.error().message;
        if (message.empty()) contractBroken("empty error message", "");
        if (message.find('\n') != std::string::npos) contractBroken("error message of several lines", message);
        if (message.find("the importer stopped") != std::string::npos) keepStopped(data, size);
    }
    return 0;
}
