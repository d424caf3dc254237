// fuzz_kit.cpp — libFuzzer target: the kit file's reader, parseKit() (throng/kit.h).
//
// The input is the text of a kit file (JSON). Nothing is imported: assembling reads model files,
// which fuzz_gltf and fuzz_assimp cover. Besides crashes, leaks and sanitizer reports it checks
// the reader's contract: an error is one non-empty line; a kit it returns has a base, at most
// kMaxParts parts, each with a model, a share in [0, 1] and a finite offset, and parts that pass
// validateParts().
#include <throng/kit.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

[[noreturn]] void contractBroken(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_kit: contract broken: %s: %s\n", what, detail.c_str());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > (1u << 20)) return 0; // importKit refuses files past 1 MiB
    const throng::Result<throng::KitSpec> kit =
        throng::parseKit(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!kit) {
        const std::string& m = kit.error().message;
        if (m.empty() || m.find_first_of("\r\n") != std::string::npos) contractBroken("error not one line", m);
        return 0;
    }
    const throng::KitSpec& k = kit.value();
    if (k.base.empty()) contractBroken("kit without a base", "");
    if (k.parts.size() > throng::kMaxParts) contractBroken("too many parts", std::to_string(k.parts.size()));
    std::vector<throng::Part> parts;
    for (const throng::KitPartSpec& p : k.parts) {
        if (p.model.empty()) contractBroken("part without a model", p.name);
        if (!(p.share >= 0.0f && p.share <= 1.0f)) contractBroken("share out of range", std::to_string(p.share));
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r)
                if (!std::isfinite(p.offset[c][r])) contractBroken("offset not finite", p.name);
        parts.push_back({p.name, p.slot, p.share, 0, 1});
    }
    if (throng::Status s = throng::validateParts(parts); !s) contractBroken("parts break their rules", s.message);
    return 0;
}
