// Splats (docs/IN_MOTION.md, issue #26 section 3): what the compute rasterizer needs to draw a
// member smaller than a pixel as the few pixels it covers, in its average colour, instead of its
// coarsest level's triangles. Computed once per model on the CPU:
//   splatModel    its silhouette seen from THRONG_SPLAT_VIEWS directions (area, and the visible
//                 normals' first and second moments, from which the resolve lights it) and the
//                 centre a splat is placed at (shared.h SplatModel);
//   splatTables   every model's, and each submesh's mean colour and area, which the resolve
//                 averages per member with the member's look and tint (SubmeshShading::mean_*).
// The pose is the model's first clip's first frame; the body only (kit parts and props: not in
// the silhouette, in the colour by their area where a member wears them).
#pragma once

#include <throng/baked.h>

#include "../shaders/shared.h"
#include "asset_library.h"

#include <span>
#include <vector>

namespace throng::render {

// A model's vertices in the pose a splat stands for: model `range` of `asset` at its first clip's
// first frame (the bind pose without joints or clips), positions and unit normals per vertex of
// the asset (others untouched: zero).
struct SplatPose {
    std::vector<glm::vec3> positions;
    std::vector<glm::vec3> normals;
};
SplatPose splatPose(const BakedAsset& asset, const AssetRange& range);

// The silhouette table and centre of model `range` (its LOD 0 submeshes whose `props` entry is 0:
// the body), drawn orthographically at `resolution` pixels along the longer side of each view;
// per view also the mean colour of what it shows over the body's mean (vertex colours times the
// submeshes' base colours and `texture_means`, as splatTables' means), which the resolve multiplies.
// A model with no body triangles gets area 0 everywhere (its splats cover nothing).
gpu::shader::SplatModel splatModel(const BakedAsset& asset, const AssetRange& range,
                                   std::span<const uint32_t> submesh_props, std::span<const glm::vec3> texture_means,
                                   uint32_t resolution = 160);

struct SubmeshMean {
    glm::vec3 color{1.0f}; // linear RGB: vertex colour x base colour x texture mean (see below)
    float area = 0.0f;     // over its model's body area
};
// Every model's table (splatModel) and, per submesh of the asset, the area-weighted mean over its
// LOD 0 triangles in the splat pose of the vertex colour times the base colour times its
// texture's mean (`texture_means`, per BakedTexture; none where the submesh's look has texture
// variants, whose means the looks table holds), and its area over its model's body area. Each
// model is posed and its colours averaged once for both.
struct SplatTables {
    std::vector<gpu::shader::SplatModel> models; // per range
    std::vector<SubmeshMean> means;              // per submesh of the asset
};
SplatTables splatTables(const BakedAsset& asset, std::span<const AssetRange> ranges,
                        std::span<const uint32_t> submesh_props, std::span<const glm::vec3> texture_means,
                        uint32_t resolution = 160);

// The mean diffuse light over a silhouette's visible surface for unit direction `l` toward the
// light, from its normals' moments `mean` (E[n]) and `second` (E[n n^T]): the clamped cosine's
// second-order spherical-harmonic expansion, clamped to [0, 1] (the resolve's formula, for tests).
double splatDiffuse(const glm::dvec3& mean, const glm::dmat3& second, const glm::dvec3& l);

} // namespace throng::render
