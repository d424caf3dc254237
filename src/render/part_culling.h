// Culling boxes that follow what each member wears (issue #25's kits and props).
//
// A model's clip boxes (Crowd::clip_bounds) hold every vertex it has, its parts' too: a kit
// member's box reaches from the drum in front to the pack behind and up to the top hat, whether
// it wears them or not, so occlusion culling hides far fewer kit members than plain ones and the
// frustum keeps members whose box alone pokes in. Where a model has parts or props, culling
// instead unites per member the box of the model's own vertices with the boxes of the parts it
// wears (throngWears on its key, as the shaders draw them), each box over every baked frame of
// the member's clips and the bind pose.
//
// On the GPU: the cull shaders' bounds buffer (THRONG_CULL_BINDING_BOUNDS) holds the clips' box
// pairs (for a model with parts: its own vertices' boxes), then per such model a table at
// CullAsset::part_table: one vec4 whose x holds its first clip's bits and y its clip count, one
// per part whose x holds its wear selector's bits (propWear), then per (clip, part) a min and max
// pair, clip-major (cull_common.glsl memberBox reads it).
#pragma once

#include "asset_library.h"

#include "../shaders/shared.h"

#include <throng/baked.h>

#include <glm/vec4.hpp>

#include <span>
#include <vector>

namespace throng::render {

// The boxes of the models that have parts or props (all empty where none has).
// Where a clip's model has no parts, or a prop is not of the clip's model, the box is a point at
// the origin (never read).
struct PartBoxes {
    std::vector<Bounds> own;     // per clip: its model's vertices that are no part's
    std::vector<Bounds> parts;   // per clip and prop: parts[clip * props + prop], the prop's vertices
    std::vector<uint32_t> wear;  // per prop: propWear
    std::vector<uint32_t> model; // per prop: the index in `ranges` of the model it is of
    bool empty() const { return wear.empty(); }
};

// Skins every vertex of every model that has parts with the stored matrices of every frame of its
// clips (and takes its bind pose), a box per (clip, own vertices or prop), each padded by 1% of
// its size as Crowd::clip_bounds are. `ranges`: the models the asset holds (empty: the whole
// asset is one).
PartBoxes partBoxes(const BakedAsset& asset, std::span<const AssetRange> ranges);

// What the cull shaders read: `clips` (per clip, Crowd::clip_bounds as the technique grows
// them) with `parts` (the same growth applied to each of its boxes) in the layout at the top; sets
// each model's CullAsset::parts and ::part_table in `models` (0, 0 for a model without parts).
// Contract: `parts` is empty or partBoxes() of the asset whose models `models` and `clips` are.
// `ranges`: the models (empty: the whole asset is one).
std::vector<glm::vec4> cullBoxTable(std::span<const Bounds> clips, const PartBoxes& parts,
                                    std::span<const AssetRange> ranges, std::span<gpu::shader::CullAsset> models);

} // namespace throng::render
