// builtin.cpp — the registry of built-in creatures (`builtin:NAME`), generated in code.
#include <throng/builtin.h>

#include <array>
#include <string>

namespace throng {
namespace {

constexpr std::array<std::string_view, 8> kNames = {"fish",  "hat",   "kit",    "strider",
                                                    "sword", "twist", "walker", "waver"};

} // namespace

std::span<const std::string_view> builtinNames() { return kNames; }

Result<Model> makeBuiltin(std::string_view name) {
    if (name == "fish") return makeFish();
    if (name == "walker") return makeWalker();
    if (name == "strider") return makeStrider();
    if (name == "waver") return makeWaver();
    if (name == "kit") return makeKit();
    if (name == "sword") return makeSword();
    if (name == "hat") return makeHat();
    if (name == "twist") return makeTwist();
    std::string known;
    for (std::string_view n : kNames) known += (known.empty() ? "" : ", ") + std::string(n);
    return Error{"unknown built-in model '" + std::string(name) + "' (known: " + known + ")"};
}

} // namespace throng
