// The clusters the compute rasterizer works in (docs/FAR_FIELD.md, section 1): every level of
// detail's triangles, per kind of submesh, cut into clusters of at most kClusterVertices vertices
// and kClusterTriangles triangles (meshoptimizer's meshlets), so that one workgroup can skin a
// cluster's vertices once into shared memory and rasterize its triangles from there. A cluster
// mixes only submeshes every member draws alike (the same propDrawBits, throng/attach.h: the
// model's own, or one prop's or kit part's), so the rasterizer leaves a prop's clusters out for
// a member that does not carry it; the model's own submeshes (a body in several materials, each
// coloured by its look) share clusters, and each triangle keeps its submesh (`submeshes`).
//
// Triangles are numbered over the whole chain in cluster order (the "chain triangle"): cluster c
// holds chain triangles first_triangle .. first_triangle + triangle_count - 1.
//
// A crowd of several models (asset_library.h) has one chain: each model's levels in turn, its
// own triangles contiguous (ChainModel), so the visibility buffer's 16 bits of triangle name a
// triangle of the member's model.
#pragma once

#include <throng/baked.h>

#include <glm/glm.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace throng::render {

constexpr uint32_t kClusterVertices = 64;
constexpr uint32_t kClusterTriangles = 124;

struct Cluster {
    uint32_t first_vertex = 0;   // into ClusterChain::vertices
    uint32_t vertex_count = 0;   // <= kClusterVertices
    uint32_t first_triangle = 0; // chain triangle of its first triangle (into ClusterChain::triangles)
    uint32_t triangle_count = 0; // <= kClusterTriangles
};

// Where one model's levels lie in a chain: levels first_level .. first_level + level_count - 1
// of ClusterChain::lods (and lod_vertex_ranges, vertex_ratio), chain triangles first_triangle ..
// first_triangle + triangle_count - 1.
struct ChainModel {
    uint32_t first_level = 0, level_count = 0;
    uint32_t first_triangle = 0, triangle_count = 0;
};

struct ClusterChain {
    std::vector<Cluster> clusters;
    std::vector<uint32_t> vertices; // global vertex ids (into BakedAsset::vertices), per cluster
    std::vector<uint32_t>
        triangles; // per chain triangle: three local vertex indices, 8 bits each (bits 0-7, 8-15, 16-23)
    std::vector<uint32_t> submeshes; // per chain triangle: its submesh
    std::vector<glm::uvec2> lods;    // per level of each model (ChainModel): first cluster, cluster count
    // Each LOD's vertices once (the vertex cache's order: a member's cached vertices are its
    // LOD's, in this order): global vertex ids, per LOD in order of first use by its clusters.
    std::vector<uint32_t> lod_vertices;
    std::vector<glm::uvec2> lod_vertex_ranges; // per LOD: first, count (into lod_vertices)
    std::vector<uint32_t> vertex_slots; // per entry of `vertices`: its index within its LOD's range of lod_vertices
    // Vertices skinned per cluster over the vertices the level references: what skinning per
    // cluster costs over skinning each vertex once (one per LOD).
    std::vector<double> vertex_ratio;
    std::vector<ChainModel> models; // one for a chain of one asset: every level
};

// The clusters of every level of `asset` (BakedLod ranges, or the mesh itself when it has no
// levels). Deterministic.
ClusterChain buildClusters(const BakedAsset& asset);

// The chain of a library of models (AssetLibrary): for each range in turn its submeshes at each
// of its own levels (a model with fewer levels than the library has no clusters for the rest).
// Submesh and vertex ids are the library's. One range covering the asset: buildClusters(asset).
struct AssetRange;
ClusterChain buildClusters(const BakedAsset& asset, std::span<const AssetRange> ranges);

} // namespace throng::render
