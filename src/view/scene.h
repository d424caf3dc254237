// The crowd's source as the viewer holds it: the baked asset, and for imported models the model
// itself, so that a later change can bake it again (another precision, or vertex animation for
// technique vat); and a baked asset together with its copy on the GPU.
#pragma once

#include "../render/gpu_asset.h"
#include "../render/technique.h"

#include <throng/bake.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace throng::view {

struct Scene {
    std::string source;              // as given: a file or builtin:NAME; messages name it
    std::optional<Model> model;      // imported models only (empty for .throng files): what re-bakes start from
    BakedAsset baked;                // as loaded; LiveCrowd::start() moves it onto the GPU
    BakeOptions bake;                // as loaded (rate, impostors, root motion): re-bakes change only precision and vat
    std::vector<std::string> attach; // props (--attach texts), put on every bake again
};

// Loads `source` through loadAsset(): a .throng file as it is; a model file or builtin:NAME
// imported and baked with `bake` (its progress callback is not kept), then the props of
// `attach` (attachFromText). Errors: loadAsset's, attachFromText's.
Result<Scene> loadScene(const std::string& source, const BakeOptions& bake,
                        const std::vector<std::string>& attach = {});

// The asset carries vertex animation (float or half), which technique vat draws from.
bool hasVat(const BakedAsset& asset);

// A baked asset with its GPU copy. Held by pointer: the crowd's renderer keeps pointers into it, which must stay valid
// while a replacement is built beside it. The GPU copy goes with it (the GPU must be done with it).
// A crowd of several models (render/asset_library.h) holds each model as baked and the library
// of them, whose asset is the one drawn.
struct AssetOnGpu {
    render::AssetLibrary library;   // library.asset: the asset drawn (one model: that model)
    std::vector<BakedAsset> models; // several models: each as baked (empty for one)
    render::GpuAsset gpu;
    const BakedAsset& baked() const { return library.asset; }
    bool mixed() const { return !models.empty(); }
    // Whether technique vat can draw it (one model's vertex animation, or every model's).
    bool hasVat() const { return mixed() ? library.vat_row_texels > 0 : view::hasVat(library.asset); }
};

// Uploads `baked` (render::uploadAsset). What the upload warns about
// stays in gpu.warnings for the caller to show. Errors: the device refuses the asset (uploadAsset's
// message); nothing is left allocated.
Result<std::unique_ptr<AssetOnGpu>> uploadToGpu(gpu::Allocator& allocator, BakedAsset baked);

// Several models as one crowd: their library (render::buildAssetLibrary) uploaded
// (render::uploadLibrary). One model: uploadToGpu(). Errors: the library's or the upload's.
Result<std::unique_ptr<AssetOnGpu>> uploadToGpu(gpu::Allocator& allocator, std::vector<BakedAsset> models);

} // namespace throng::view
