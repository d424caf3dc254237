// throng/looks.h — colour variation across a crowd (issue #25, section 3; docs/MIXED_CROWDS.md).
//
// A look names some materials of a model (its slot: skin, top, trousers, ...) and a palette of
// colours with shares. Each member takes one colour of each look, by a seeded hash of its key
// (InstanceRecord::key, else its index) against the shares: the same integer hash on the CPU
// (lookColor below) and the GPU (throngLookPick in src/shaders/shared.h), so what a member
// wears can be known without drawing it. The colour multiplies the submesh's base colour,
// texture and vertex colours on every technique, through both rasterizers; it replaces the
// member's tint (InstanceRecord::color) on the submeshes it colours (a skin tone tinted green is
// no skin tone), which the others keep. Impostors do not show looks yet (their pictures hold
// one colour per texel). The looks of a model are independent of each other and of its
// parts (each has its own salt).
//
// Made in code (Model::looks; builtin:kit has four), in kit files ("looks": throng/kit.h) and
// stored in .throng files (section LOOK, docs/FORMAT.md).
#pragma once

#include <throng/baked.h>
#include <throng/model.h>
#include <throng/result.h>

#include <cstdint>
#include <span>
#include <vector>

namespace throng {

// The upper bounds of a look's colours in 256ths of the members: ascending, the last 256, colour
// i taking about 256 * shares[i] / (their sum) of them (equal shares where `shares` is empty).
// Contract: validateLook() passes.
std::vector<uint32_t> lookBounds(std::span<const float> shares, size_t colors);

// The colour (an index into look.colors) the member of key `key` takes.
uint32_t lookColor(const BakedLook& look, uint32_t key);

// The looks of a baked asset: submeshes in range and in one look at most, the rules of a look
// (validateLook), each numbered below kMaxLooks (a model has at most kMaxLooks: bake() and the
// reader see to it; a crowd's library holds its models' looks together, numbered as in each).
Status validateLooks(const BakedAsset& asset);

// The looks table the shaders read (THRONG_BINDING_LOOKS: the layout in src/shaders/shared.h)
// and each submesh's record in it (0: none). Contract: validateLooks() passes.
struct LookTable {
    std::vector<uint32_t> words;           // at least one
    std::vector<uint32_t> submesh_records; // one per submesh
};
LookTable lookTable(const BakedAsset& asset);

// Model::looks as BakedLooks over the submeshes made of their materials (bake(): the order of
// copyMeshes, a mesh's submeshes in turn, a mesh of indices alone one without a material).
std::vector<BakedLook> bakedLooks(const Model& model);

} // namespace throng
