// A crowd of several models (issue #25, docs/MIXED_CROWDS.md): the models concatenated into one
// BakedAsset that the upload, culling and the hardware path read as they read one model, and
// where each model lies in it (AssetRange). A member names its model in the top 8 bits of
// InstanceRecord::clips (throngAssetOf); its clips there are the library's (AssetRange::first_clip
// + the model's own clip), so every shader that reads clips reads them as it does for one model.
//
// What the concatenation does to each part of a BakedAsset:
// - vertices and textures follow one another; indices are rebased onto the library's vertices
//   (a draw needs no vertex offset) and submeshes, LOD ranges and props onto its indices,
//   submeshes and textures. A vertex's joints stay its model's palette entries.
// - clips follow one another. The animation is re-laid out at the largest joint count and frame
//   count of all models (a clip's rows hold its model's joints, the rest is zero and never read);
//   models of different precisions are stored as float32. Vertex animation, when every model
//   has it, is kept beside the asset (AssetLibrary::vat_*), not in it: a clip's row holds its own
//   model's vertices only, 2 texels each from column 0 (the renderer subtracts the model's first
//   vertex: ClipRecord::first_vertex), as wide as the largest model's; past kMaxBakedTexels the
//   library has none and `notes` says why.
// - levels of detail: as many as the model with the most; a model with fewer repeats its
//   coarsest for the rest, and its own errors are in its AssetRange (culling chooses each
//   member's level from its model's errors). The library's level errors are the largest of the
//   models' at each level (non-decreasing, as validate() wants).
// - the source animation, impostors and the root joint's name are one model's things: a
//   library of several models has none of the first two in `asset` and the first root joint name
//   any model has (a name for messages: each clip keeps its own root motion curve). Each model's
//   source animation is kept beside it (AssetLibrary::sources: palette, palette-ubo and bonetex
//   pose each member from its own model's; `pose`, `cpu` and impostors refuse such a crowd).
// A library of one model is that model unchanged.
#pragma once

#include <throng/baked.h>
#include <throng/result.h>

#include <span>
#include <string>
#include <vector>

namespace throng::render {

// Where one model lies in the library's BakedAsset: the first element and the count of each of
// its arrays, and what differs per model.
struct AssetRange {
    std::string name; // the model's BakedAsset::name, for messages
    uint32_t first_vertex = 0, vertex_count = 0;
    uint32_t first_index = 0, index_count = 0; // every level's indices
    uint32_t first_submesh = 0, submesh_count = 0;
    uint32_t first_clip = 0, clip_count = 0;
    uint32_t first_texture = 0, texture_count = 0;
    uint32_t joint_count = 0;
    Bounds bind_bounds;            // its own (the library's is the union)
    std::vector<float> lod_errors; // its own levels' errors (model units), LOD 0's (0) first: never empty
    // The first of its levels technique `baked` skins coarsely (coarse_skinning.h: its own
    // coarse skinning error against its own level errors); lod_errors.size() when none.
    uint32_t first_coarse_lod = 0;
};

struct AssetLibrary {
    BakedAsset asset;               // every model concatenated (one model: that model)
    std::vector<AssetRange> ranges; // one per model, in the order given
    std::vector<std::string> notes; // what the concatenation left out, one line each
    // Several models: each one's source animation, in `ranges` order (empty where a model has
    // none; one model: in `asset`).
    std::vector<AnimationSource> sources;
    // Several models' vertex animation (one model: in `asset`): texel (2 * (v - the model's first
    // vertex) + normal, frame, clip) at ((clip * asset.max_frames + frame) * vat_row_texels + x),
    // 4 components in asset.precision (floats in vat_f32 or halves in vat_f16). vat_row_texels 0:
    // none.
    std::vector<float> vat_f32;
    std::vector<uint16_t> vat_f16;
    uint32_t vat_row_texels = 0;
};

// The range of a model that is the whole asset (a library of one), with its coarse level: the
// first level at least `coarse_error` (coarse_skinning.h), or the one the asset's own coarse
// skinning error gives.
AssetRange wholeAsset(const BakedAsset& asset, float coarse_error);
AssetRange wholeAsset(const BakedAsset& asset);

// Errors, one line each: no models; more than THRONG_MAX_ASSETS; a model that fails validate()
// (named, with its message); more than THRONG_MAX_CLIPS clips or more vertices, indices or
// animation texels than the format holds, all models together.
Result<AssetLibrary> buildAssetLibrary(std::span<const BakedAsset* const> assets);

} // namespace throng::render
