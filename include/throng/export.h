// throng/export.h — a baked asset written for other engines' shaders (`throng bake --export DIR`).
//
// Writes into DIR (docs/EXPORT.md is the field-by-field reference, with the shaders):
//   animation.exr  the bone-matrix animation: RGBA texels, 3 per joint (rows of its 3x4 skinning
//                  matrix), one image row per baked frame, clips stacked top to bottom; 32-bit
//                  float or 16-bit half channels, as the asset was baked.
//   vat.exr        with vertex animation (bake --vat): 2 texels per vertex (skinned position,
//                  normal) per frame, a frame's texels wrapped over `rows_per_frame` rows of
//                  `width` texels.
//   mesh.gltf      LOD 0 (+ mesh.bin): POSITION, NORMAL, TEXCOORD_0, COLOR_0, JOINTS_0, WEIGHTS_0
//                  and `_VAT_INDEX` (the vertex's index, a float), a primitive per submesh with
//                  its base colour and texture (embedded in mesh.bin).
//   throng.json    what a shader and a loader need: layout, clips (first row, frames, fps,
//                  duration, loop), joints in palette order, value ranges, texel addressing.
// Each file is written atomically (a temporary file renamed over it), throng.json last; other
// files in DIR are left alone, except a vat.exr of an earlier export, removed when this asset has
// no vertex animation. DIR is created when missing (its parent must exist).
#pragma once

#include <throng/api.h>
#include <throng/baked.h>
#include <throng/result.h>

#include <string>
#include <vector>

THRONG_API_BEGIN
namespace throng {

// Texel rows are at most this wide (a common maxImageDimension2D): the animation image needs
// 3 * joints <= it; vertex animation wraps a frame over several rows.
constexpr uint32_t kExportMaxWidth = 16384;

struct ExportReport {
    std::vector<std::string> files; // written, in order (paths inside DIR)
    uint32_t animation_width = 0, animation_height = 0;
    uint32_t vat_width = 0, vat_height = 0, vat_rows_per_frame = 0; // 0 without vertex animation
};

struct ExportOptions {
    uint32_t max_width = kExportMaxWidth; // texels a row, even, at least 2 (tests make it small to wrap)
};

// Whether `dir` can take an export, without writing anything (the CLI asks before baking):
// an existing directory, or a missing one whose parent exists ("out/" names "out"). Errors:
// "not a directory", "its parent directory does not exist".
Status checkExportDirectory(const std::string& dir);

// Errors: an asset that fails validate(); what checkExportDirectory() refuses; more than max_width / 3 joints; DIR
// naming something that is not a directory, or a file in it that cannot be written (nothing written past that file; the
// ones before stay, each whole).
Result<ExportReport> exportForEngines(const BakedAsset& asset, const std::string& dir,
                                      const ExportOptions& options = {});

} // namespace throng
THRONG_API_END
