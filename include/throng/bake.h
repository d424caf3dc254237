// throng/bake.h — offline: turn a Model into a BakedAsset.
//
// Offline code (links the animation runtime to sample clips); the GPU runtime never links it.
#pragma once

#include <throng/baked.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace throng {

struct BakeOptions {
    float fps = 30.0f;                       // 1 .. 1000
    Precision precision = Precision::Float32;
    // Called after each clip: (clips done, clips total). May be empty.
    std::function<void(size_t, size_t)> progress;
    // Also bake vertex animation (BakedAsset::vat_*, baked.h): every vertex's skinned position
    // and normal per frame, for technique `vat`. Costs 2 texels per vertex per frame.
    bool vat = false;
};

struct BakeReport {
    size_t bytes = 0;                 // animation data bytes
    size_t vat_bytes = 0;             // vertex animation bytes (0 without BakeOptions::vat)
    double max_half_error = 0.0;      // Float16 only: largest |half - float| over every skinned
                                      // vertex position and baked frame, relative to the bind
                                      // bounding-box diagonal
    std::vector<std::string> warnings;  // one line each, e.g. a texture that names an external file
};

// Samples every clip with the double-precision reference at the frame times of baked.h and
// stores the skinning matrices (double -> float -> half for Float16); copies the meshes
// (concatenated; colours to RGBA8, white when absent; uvs 0 when absent; zero-weight joint
// slots set to 0) and the textures' encoded bytes. Every clip is baked with loop = true: a
// Model does not say whether a clip loops, and crowds play clips in loops. A model without clips
// bakes its rest pose as one clip "rest" of 1 frame. A texture with only an external uri (no
// bytes) is kept with empty bytes and a warning: bake() reads no files.
// With options.vat, every vertex is also skinned by the reference (referenceSkin) at every frame
// and stored as vertex animation texels.
// Errors: fps outside 1 .. 1000 or not finite, an invalid model (validate's message), more
// than kMaxBakedTexels texels (bone or, with vat, vertex animation), more than 2^32 - 1
// vertices, a half value out of range.
Result<BakedAsset> bake(const Model& model, const BakeOptions& options, BakeReport* report = nullptr);

// What the renderers start from: a `.throng` file read as it is (readThrong), or any other
// source — a model file importModel reads, builtin:NAME — imported and baked with `options`.
// `model` keeps the imported model (empty for .throng files) for callers that bake it again.
struct LoadedAsset {
    std::optional<Model> model;
    BakedAsset baked;
};
Result<LoadedAsset> loadAsset(const std::string& source, const BakeOptions& options);

} // namespace throng
