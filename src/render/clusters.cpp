// Clusters per level of detail; see clusters.h.
#include "clusters.h"
#include "asset_library.h"

#include <throng/attach.h>

#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <set>
#include <unordered_map>

namespace throng::render {

namespace {

// The ranges of submeshes [first, first + count) at each of the first `levels` levels: the
// asset's, or LOD 0 = the submeshes.
std::vector<std::vector<BakedLodRange>> levelRanges(const BakedAsset& asset, uint32_t first, uint32_t count,
                                                    uint32_t levels) {
    std::vector<std::vector<BakedLodRange>> out;
    for (const BakedLod& lod : asset.lods)
        if (out.size() < levels) out.emplace_back(lod.submeshes.begin() + first, lod.submeshes.begin() + first + count);
    if (out.empty()) {
        std::vector<BakedLodRange> base;
        for (uint32_t s = first; s < first + count; ++s)
            base.push_back({asset.submeshes[s].first_index, asset.submeshes[s].index_count});
        out.push_back(std::move(base));
    }
    return out;
}

struct CornersHash {
    size_t operator()(const std::array<uint32_t, 3>& c) const {
        uint64_t h = c[0] * 0x9e3779b97f4a7c15ull;
        h = (h ^ c[1]) * 0xbf58476d1ce4e5b9ull;
        h = (h ^ c[2]) * 0x94d049bb133111ebull;
        return size_t(h ^ (h >> 31));
    }
};

// Appends the clusters of submeshes [first_submesh, first_submesh + submesh_count) at each of the
// first `levels` levels to `chain`, as one model.
void appendModel(ClusterChain& chain, const BakedAsset& asset, const std::vector<float>& positions,
                 uint32_t first_submesh, uint32_t submesh_count, uint32_t levels) {
    ChainModel model;
    model.first_level = uint32_t(chain.lods.size());
    model.first_triangle = uint32_t(chain.triangles.size());
    // The submeshes by kind (their draw bits), kinds in the order of their first submesh.
    std::vector<std::vector<uint32_t>> kinds;
    {
        std::vector<uint32_t> bits;
        for (uint32_t s = 0; s < submesh_count; ++s) {
            const uint32_t b = propDrawBits(asset, first_submesh + s);
            const size_t k = size_t(std::find(bits.begin(), bits.end(), b) - bits.begin());
            if (k == bits.size()) {
                bits.push_back(b);
                kinds.emplace_back();
            }
            kinds[k].push_back(s);
        }
    }
    for (const std::vector<BakedLodRange>& ranges : levelRanges(asset, first_submesh, submesh_count, levels)) {
        const uint32_t first_cluster = uint32_t(chain.clusters.size());
        size_t skinned = 0;
        std::set<uint32_t> referenced;
        for (const std::vector<uint32_t>& kind : kinds) {
            // The kind's triangles together, and which submesh each (by its corners) came from.
            std::vector<uint32_t> indices;
            std::unordered_map<std::array<uint32_t, 3>, uint32_t, CornersHash> submesh_of;
            for (uint32_t s : kind) {
                const BakedLodRange& r = ranges[s];
                for (uint32_t i = r.first_index; i + 2 < r.first_index + r.index_count; i += 3) {
                    std::array<uint32_t, 3> corners = {asset.indices[i], asset.indices[i + 1], asset.indices[i + 2]};
                    indices.insert(indices.end(), corners.begin(), corners.end());
                    if (kind.size() == 1) continue;
                    std::sort(corners.begin(), corners.end());
                    submesh_of.emplace(corners, s);
                }
            }
            if (indices.empty()) continue;
            referenced.insert(indices.begin(), indices.end());
            const size_t bound = meshopt_buildMeshletsBound(indices.size(), kClusterVertices, kClusterTriangles);
            std::vector<meshopt_Meshlet> meshlets(bound);
            std::vector<unsigned int> meshlet_vertices(bound * kClusterVertices);
            std::vector<unsigned char> meshlet_triangles(bound * kClusterTriangles * 3);
            const size_t count = meshopt_buildMeshlets(
                meshlets.data(), meshlet_vertices.data(), meshlet_triangles.data(), indices.data(), indices.size(),
                positions.data(), asset.vertices.size(), 3 * sizeof(float), kClusterVertices, kClusterTriangles, 0.0f);
            for (size_t m = 0; m < count; ++m) {
                const meshopt_Meshlet& ml = meshlets[m];
                Cluster c;
                c.first_vertex = uint32_t(chain.vertices.size());
                c.vertex_count = ml.vertex_count;
                c.first_triangle = uint32_t(chain.triangles.size());
                c.triangle_count = ml.triangle_count;
                chain.vertices.insert(chain.vertices.end(), meshlet_vertices.begin() + ml.vertex_offset,
                                      meshlet_vertices.begin() + ml.vertex_offset + ml.vertex_count);
                for (uint32_t t = 0; t < ml.triangle_count; ++t) {
                    const unsigned char* tri = &meshlet_triangles[ml.triangle_offset + 3 * t];
                    chain.triangles.push_back(uint32_t(tri[0]) | uint32_t(tri[1]) << 8 | uint32_t(tri[2]) << 16);
                    uint32_t s = kind[0];
                    if (kind.size() > 1) {
                        std::array<uint32_t, 3> corners;
                        for (int k = 0; k < 3; ++k) corners[k] = meshlet_vertices[ml.vertex_offset + tri[k]];
                        std::sort(corners.begin(), corners.end());
                        if (auto it = submesh_of.find(corners); it != submesh_of.end()) s = it->second;
                    }
                    chain.submeshes.push_back(first_submesh + s);
                }
                skinned += ml.vertex_count;
                chain.clusters.push_back(c);
            }
        }
        chain.lods.push_back({first_cluster, uint32_t(chain.clusters.size()) - first_cluster});
        // The level's vertices once, in order of first use, and each cluster vertex's place among them.
        const uint32_t first_lod_vertex = uint32_t(chain.lod_vertices.size());
        std::unordered_map<uint32_t, uint32_t> slot_of;
        for (uint32_t c = first_cluster; c < chain.clusters.size(); ++c)
            for (uint32_t v = 0; v < chain.clusters[c].vertex_count; ++v) {
                const uint32_t global = chain.vertices[chain.clusters[c].first_vertex + v];
                auto [it, added] = slot_of.try_emplace(global, uint32_t(chain.lod_vertices.size()) - first_lod_vertex);
                if (added) chain.lod_vertices.push_back(global);
                chain.vertex_slots.push_back(it->second);
            }
        chain.lod_vertex_ranges.push_back({first_lod_vertex, uint32_t(chain.lod_vertices.size()) - first_lod_vertex});
        chain.vertex_ratio.push_back(referenced.empty() ? 1.0 : double(skinned) / double(referenced.size()));
    }
    model.level_count = uint32_t(chain.lods.size()) - model.first_level;
    model.triangle_count = uint32_t(chain.triangles.size()) - model.first_triangle;
    chain.models.push_back(model);
}

std::vector<float> positionsOf(const BakedAsset& asset) {
    std::vector<float> positions;
    positions.reserve(asset.vertices.size() * 3);
    for (const BakedVertex& v : asset.vertices) positions.insert(positions.end(), v.position, v.position + 3);
    return positions;
}

} // namespace

ClusterChain buildClusters(const BakedAsset& asset) {
    ClusterChain chain;
    appendModel(chain, asset, positionsOf(asset), 0, uint32_t(asset.submeshes.size()), ~0u);
    return chain;
}

ClusterChain buildClusters(const BakedAsset& asset, std::span<const AssetRange> ranges) {
    ClusterChain chain;
    const std::vector<float> positions = positionsOf(asset);
    for (const AssetRange& r : ranges)
        appendModel(chain, asset, positions, r.first_submesh, r.submesh_count,
                    uint32_t(std::max<size_t>(r.lod_errors.size(), 1)));
    return chain;
}

} // namespace throng::render
