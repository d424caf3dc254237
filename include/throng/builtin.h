// throng/builtin.h — the built-in creatures, generated in code (no file needed).
//
//   builtin:fish    a fish for the procedural swim: body along +z, centred at the origin,
//                   length 2, vertex colours, one joint (the body), no clips.
//   builtin:walker  a rigged humanoid generated in code with looping clips `walk` and `idle`.
//   builtin:strider the walker whose `walk` travels forward the way captured motion does: the
//                   hips advance by what the foot on the ground moves back, so that foot stays
//                   planted in the clip itself (root motion; bake --root-motion takes it out).
//   builtin:waver   the walker with a third clip, `wave`: standing, the right arm raised and
//                   waving (for layers: `--technique pose --layer wave@shoulder_r`).
//   builtin:kit     the walker with parts in four slots (Model::parts; issue #25's kits): hair
//                   (short, bun, long, mohawk), hat (brimmed, cap, top hat, helmet), bag
//                   (backpack, satchel, tall pack, drum) and face (glasses, beard, mask, eye
//                   patch), each part on its share of the members, one part of a slot at most;
//                   and looks (Model::looks, throng/looks.h): its body in materials skin, top,
//                   bottom, shoes and hair, the members' skin tones, tops, trousers and hair
//                   colours (the hair parts' and the beard's too) chosen from palettes.
//   builtin:sword   a prop for attachments (throng/attach.h): grip at the origin, blade along +z.
//   builtin:hat     a prop: brim underside at y = 0, crown up to 0.13.
//   builtin:twist   an open cylinder along +y (radius 0.25, height 2) on joints `base` (origin)
//                   and `top` (y = 1), weights passing from one to the other between y = 0.5
//                   and 1.5; clip `twist` turns `top` about +y from 0 to 180 degrees and back
//                   (4 s): what linear blending collapses and dual quaternions keep.
//
// All are deterministic: the same build always produces the same Model, bit for bit.
#pragma once

#include <throng/api.h>
#include <throng/model.h>

#include <span>
#include <string_view>

THRONG_API_BEGIN
namespace throng {

std::span<const std::string_view>
builtinNames(); // {"fish", "hat", "kit", "strider", "sword", "twist", "walker", "waver"}

// name without the "builtin:" prefix; an unknown name is an Error listing the known ones.
Result<Model> makeBuiltin(std::string_view name);

Model makeFish();
Model makeWalker();
Model makeStrider();
Model makeWaver();
Model makeKit();
Model makeSword();
Model makeHat();
Model makeTwist();

} // namespace throng
THRONG_API_END
