// throng/builtin.h — the built-in creatures, generated in code (no file needed).
//
//   builtin:fish    a fish for the procedural swim: body along +z, centred at the origin,
//                   length 2, vertex colours, one joint (the body), no clips.
//   builtin:walker  a rigged humanoid generated in code with looping clips `walk` and `idle`.
//
// Both are deterministic: the same build always produces the same Model, bit for bit.
#pragma once

#include <throng/model.h>

#include <span>
#include <string_view>

namespace throng {

std::span<const std::string_view> builtinNames(); // {"fish", "walker"}

// name without the "builtin:" prefix; an unknown name is an Error listing the known ones.
Result<Model> makeBuiltin(std::string_view name);

Model makeFish();
Model makeWalker();

} // namespace throng
