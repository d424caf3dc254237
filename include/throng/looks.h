// throng/looks.h — colour variation across a crowd (issue #25, section 3; docs/MIXED_CROWDS.md).
//
// A look names some materials of a model (its slot: skin, top, trousers, ...) and a palette of
// colours with shares. Each member takes one colour of each look, by a seeded hash of its key
// (InstanceRecord::key, else its index) against the shares: the same integer hash on the CPU
// (lookColor below) and the GPU (throngLookPick in src/shaders/shared.h), so what a member
// wears can be known without drawing it. The colour multiplies the submesh's base colour,
// texture and vertex colours on every technique, through both rasterizers; it replaces the
// member's tint (InstanceRecord::color) on the submeshes it colours (a skin tone tinted green is
// no skin tone), which the others keep. Impostors keep a member's looks: their pictures store
// each texel's look (the one most of its samples have; a pixel takes its nearest texel's), so
// where materials meet within a texel (a hand a texel wide beside the trousers) the texel takes
// one look's colour where a mesh would blend two. The looks of a model are independent of each
// other and of its parts (each has its own salt).
//
// Texture variants: a look may also give each colour a texture (Look::textures), which the
// members of that colour sample as its submeshes' base-colour texture. On the GPU each such look
// is one image array (render/gpu_textures.h; the textures resampled to the largest one's size)
// whose layer is the member's colour. Impostors draw a variant as its colour times the texture's
// mean (their pictures hold those submeshes untextured: a texture's detail is below an
// impostor's texel), so they need no picture per variant.
//
// Made in code (Model::looks; builtin:kit has four), in kit files ("looks": throng/kit.h) and
// stored in .throng files (sections LOOK and LKTX, docs/FORMAT.md).
#pragma once

#include <throng/api.h>
#include <throng/baked.h>
#include <throng/model.h>
#include <throng/result.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

THRONG_API_BEGIN
namespace throng {

// The upper bounds of a look's colours in 256ths of the members: ascending, the last 256, colour
// i taking about 256 * shares[i] / (their sum) of them (equal shares where `shares` is empty).
// Contract: validateLook() passes.
std::vector<uint32_t> lookBounds(std::span<const float> shares, size_t colors);

// The colour (an index into look.colors, and into look.textures where it has them) the member of
// key `key` takes.
uint32_t lookColor(const BakedLook& look, uint32_t key);

// The looks of a baked asset: submeshes in range and in one look at most, the rules of a look
// (validateLook), each numbered below kMaxLooks (a model has at most kMaxLooks: bake() and the
// reader see to it; a crowd's library holds its models' looks together, numbered as in each).
Status validateLooks(const BakedAsset& asset);

// The looks table the shaders read (THRONG_BINDING_LOOKS: the layout in src/shaders/shared.h)
// and each submesh's record in it (0: none). `texture_means` holds each of asset.textures' mean
// colour (linear RGB: what an impostor draws of a look's texture variant; white where missing).
// Contract: validateLooks() passes.
struct LookTable {
    std::vector<uint32_t> words;           // at least one
    std::vector<uint32_t> submesh_records; // one per submesh
};
LookTable lookTable(const BakedAsset& asset, std::span<const glm::vec3> texture_means = {});

// What a host wants one member to wear: in each slot named, the part named ("": none of the
// slot's), and in each look named, the colour (an index into its colors). Slots and looks not
// named are left to the key.
struct Dress {
    std::map<std::string, std::string> parts; // slot -> part name
    std::map<std::string, uint32_t> colors;   // look name -> colour
};

// A key (InstanceRecord::key, Member::key in throng/render.h) that dresses a member as `dress`
// says: the first from `from` on (0 is skipped: it stands for the member's index) whose parts
// (wears, throng/attach.h) and colours (lookColor) are the ones wished, found by trying keys in
// turn (the wishes' shares multiplied are the chance of each; 2^26 tries at most). Errors (one
// line): a slot, part, look or colour the asset does not have (the message lists them); no key
// within the tries (the wished shares are too rare together).
Result<uint32_t> keyFor(const BakedAsset& asset, const Dress& dress, uint32_t from = 1);

// Model::looks as BakedLooks over the submeshes made of their materials (bake(): the order of
// copyMeshes, a mesh's submeshes in turn, a mesh of indices alone one without a material).
std::vector<BakedLook> bakedLooks(const Model& model);

} // namespace throng
THRONG_API_END
