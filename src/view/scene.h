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
struct AssetOnGpu {
    BakedAsset baked;
    render::GpuAsset gpu;
};

// Uploads `baked` (render::uploadAsset). What the upload warns about
// stays in gpu.warnings for the caller to show. Errors: the device refuses the asset (uploadAsset's
// message); nothing is left allocated.
Result<std::unique_ptr<AssetOnGpu>> uploadToGpu(gpu::Allocator& allocator, BakedAsset baked);

} // namespace throng::view
