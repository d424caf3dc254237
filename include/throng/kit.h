// throng/kit.h — kit files: a model assembled from parts in slots (issue #25; docs/FORMAT.md,
// "Kit files"; docs/MIXED_CROWDS.md).
//
// A kit file is JSON naming a base model and its parts:
//
//   {"base": "builtin:walker",
//    "parts": [{"model": "coat.glb", "slot": "top", "share": 0.5},
//              {"model": "builtin:hat", "slot": "hat", "share": 0.3, "joint": "head",
//               "offset": [0, 0.2, 0]}]}
//
// Models are files relative to the kit file's folder, or builtin:NAME. A part without "joint" is
// skinned to the base's skeleton: every joint its vertices use must be a skinning joint of the
// base by name, bound where the base binds it (within 1e-3 of the base's size); its meshes keep
// their weights, remapped to the base's palette. A part with "joint" is rigid on that joint of
// the base, placed by "offset" (3, 6 or 7 numbers: X, Y, Z, then degrees about x, y, z, then a
// uniform scale; attachmentOffset in throng/attach.h), as --attach places a prop. "slot" (empty
// or left out: worn on its own share), "share" (0 to 1, default 1) and "name" (default: the
// model's file name) are Part's (throng/model.h).
//
// "looks" (optional; throng/looks.h) colour materials by member: each names the materials it
// colours (every material of the assembled kit, base's and parts' alike, of each name given),
// its colours ("#rrggbb", sRGB as paint programs write them, or [r, g, b] linear numbers) and
// optionally their shares (non-negative weights; left out: equal):
//
//   "looks": [{"name": "top", "materials": ["Shirt"], "colors": ["#b35045", "#3f5089", [0.8, 0.8, 0.8]],
//              "shares": [2, 1, 1]}]
//
// and optionally texture variants ("textures": image files, PNG or JPEG, from the kit's folder,
// one per colour; "colors" may then be left out: white): the members of colour i sample texture
// i in place of the materials' own base-colour texture (Look::textures):
//
//   "looks": [{"name": "suit", "materials": ["Suit"], "textures": ["suit.png", "suit-red.png"]}]
//
// A kit of a base and looks alone gives a model colour and texture variation. importModel() reads a file ending in
// .json that is not glTF as a kit, so every command takes one where it takes a model; `throng bake kit.json -o
// kit.throng` stores the parts (section PART), the looks (LOOK, LKTX) and their textures (TEXR).
#pragma once

#include <throng/api.h>
#include <throng/model.h>
#include <throng/result.h>

#include <string>
#include <string_view>
#include <vector>

THRONG_API_BEGIN
namespace throng {

struct KitPartSpec {
    std::string name, model, slot, joint;
    float share = 1.0f;
    glm::mat4 offset{1.0f};
};

struct KitLookSpec {
    std::string name;
    std::vector<std::string> materials; // material names
    std::vector<glm::vec3> colors;      // linear RGB (empty with textures: white, one per texture)
    std::vector<float> shares;          // empty: equal
    std::vector<std::string> textures;  // image files (texture variants, Look::textures), from the kit's folder
};

struct KitSpec {
    std::string base;
    std::vector<KitPartSpec> parts;
    std::vector<KitLookSpec> looks;
};

// The kit file's text. Errors (one line, naming the part and the field): not JSON, not an
// object, unknown keys, a missing or empty "base" or part "model", values of the wrong type, a
// share outside [0, 1], an offset not of 3, 6 or 7 finite numbers or of a scale <= 0, more than
// kMaxParts parts, names past Part's limits; a look without "name", "materials" or "colors" (or
// "textures"), a colour neither "#rrggbb" nor three numbers, textures not as many as colours,
// what validateLook() refuses, more than kMaxLooks.
Result<KitSpec> parseKit(std::string_view json_text);

// The model of `spec`: its base with every part's meshes, materials and textures appended and
// its Part. `folder`: where relative model paths start. Errors (one line): a model that does
// not import (its error), a part that is itself a kit, a joint the base does not have (the
// message lists the base's), a skinned part's joint bound elsewhere than the base's (how far), a
// look's material the kit does not have (the message lists the kit's), a look's texture file
// that cannot be read or does not decode as an image, what validate() refuses.
Result<Model> assembleKit(const KitSpec& spec, const std::string& folder);

// parseKit of the file at `path`, then assembleKit from its folder. Files past 1 MiB are refused.
Result<Model> importKit(const std::string& path);

} // namespace throng
THRONG_API_END
