// fuzz_gltf.cpp — libFuzzer target: the glTF front door, importGltfBytes() (tinygltf and our
// accessor, skin, hierarchy and animation checks, in process).
//
// The input is a whole file: read as GLB when it starts with "glTF", as .gltf JSON otherwise. The
// base folder is empty, so a uri naming an external file is refused (data: uris still load).
//
// Besides crashes, leaks and sanitizer reports it checks the importer's contract (import.h): a
// model it returns passes validate(), an error is one non-empty line.
#include <throng/import.h>
#include <throng/model.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>

namespace {

[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_gltf: contract broken: %s: %s\n", what, detail.c_str());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const bool binary = size >= 4 && std::memcmp(data, "glTF", 4) == 0;
    throng::Result<throng::Model> model =
        throng::importGltfBytes(std::span<const uint8_t>(data, size), binary, /*base_dir=*/"", "fuzz");
    if (model) {
        if (throng::Status s = throng::validate(model.value()); !s)
            contractBroken("importGltfBytes returned a model that fails validate()", s.message);
    } else {
        const std::string& message = model.error().message;
        if (message.empty()) contractBroken("empty error message", "");
        if (message.find('\n') != std::string::npos) contractBroken("error message of several lines", message);
    }
    return 0;
}
