// throng/builtin.h — the built-in creatures, generated in code (no file needed).
//
//   builtin:fish    a fish for the procedural swim: body along +z, centred at the origin,
//                   length 2, vertex colours, one joint (the body), no clips.
//   builtin:walker  a rigged humanoid generated in code with looping clips `walk` and `idle`.
//   builtin:sword   a prop for attachments (throng/attach.h): grip at the origin, blade along +z.
//   builtin:hat     a prop: brim underside at y = 0, crown up to 0.13.
//
// All are deterministic: the same build always produces the same Model, bit for bit.
#pragma once

#include <throng/model.h>

#include <span>
#include <string_view>

namespace throng {

std::span<const std::string_view> builtinNames(); // {"fish", "hat", "sword", "walker"}

// name without the "builtin:" prefix; an unknown name is an Error listing the known ones.
Result<Model> makeBuiltin(std::string_view name);

Model makeFish();
Model makeWalker();
Model makeSword();
Model makeHat();

} // namespace throng
