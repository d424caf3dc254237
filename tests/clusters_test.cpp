// The compute rasterizer's clusters (src/render/clusters.h) against the levels they cut: every
// triangle of every level appears exactly once in its level's clusters, with the same vertices
// in the same winding; the size limits hold; skinning per cluster costs little over skinning each
// vertex once; each level's vertex list (the vertex cache's order) holds its vertices once.
#include "../src/render/clusters.h"

#include <throng/bake.h>
#include <throng/builtin.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

using namespace throng;

namespace {

// A triangle's vertices rotated so the smallest comes first (same winding, one spelling).
std::array<uint32_t, 3> canonical(uint32_t a, uint32_t b, uint32_t c) {
    if (b < a && b < c) return {b, c, a};
    if (c < a && c < b) return {c, a, b};
    return {a, b, c};
}

void checkChain(const BakedAsset& asset) {
    const render::ClusterChain chain = render::buildClusters(asset);
    const size_t levels = std::max<size_t>(asset.lods.size(), 1);
    ASSERT_EQ(chain.lods.size(), levels);
    ASSERT_EQ(chain.triangles.size(), chain.submeshes.size());
    uint32_t next_cluster = 0, next_triangle = 0;
    for (size_t l = 0; l < levels; ++l) {
        EXPECT_EQ(chain.lods[l].x, next_cluster) << "level " << l << " does not follow the one before";
        std::map<std::array<uint32_t, 3>, int> expected, got;
        if (asset.lods.empty()) {
            for (const BakedSubmesh& s : asset.submeshes)
                for (uint32_t i = 0; i < s.index_count; i += 3)
                    ++expected[canonical(asset.indices[s.first_index + i], asset.indices[s.first_index + i + 1],
                                         asset.indices[s.first_index + i + 2])];
        } else {
            for (const BakedLodRange& r : asset.lods[l].submeshes)
                for (uint32_t i = 0; i < r.index_count; i += 3)
                    ++expected[canonical(asset.indices[r.first_index + i], asset.indices[r.first_index + i + 1],
                                         asset.indices[r.first_index + i + 2])];
        }
        for (uint32_t c = chain.lods[l].x; c < chain.lods[l].x + chain.lods[l].y; ++c) {
            const render::Cluster& cl = chain.clusters[c];
            EXPECT_LE(cl.vertex_count, render::kClusterVertices);
            EXPECT_LE(cl.triangle_count, render::kClusterTriangles);
            EXPECT_GT(cl.triangle_count, 0u);
            EXPECT_EQ(cl.first_triangle, next_triangle) << "chain triangles are numbered in cluster order";
            next_triangle += cl.triangle_count;
            for (uint32_t t = 0; t < cl.triangle_count; ++t) {
                const uint32_t packed = chain.triangles[cl.first_triangle + t];
                std::array<uint32_t, 3> v{};
                for (int k = 0; k < 3; ++k) {
                    const uint32_t local = (packed >> (8 * k)) & 0xffu;
                    ASSERT_LT(local, cl.vertex_count);
                    v[k] = chain.vertices[cl.first_vertex + local];
                }
                ++got[canonical(v[0], v[1], v[2])];
            }
        }
        next_cluster = chain.lods[l].x + chain.lods[l].y;
        EXPECT_EQ(got, expected) << "level " << l;
        // The vertex cache's order: each vertex the level references once, and every cluster
        // vertex's slot names it.
        ASSERT_EQ(chain.lod_vertex_ranges.size(), chain.lods.size());
        const glm::uvec2 range = chain.lod_vertex_ranges[l];
        std::set<uint32_t> referenced,
            listed(chain.lod_vertices.begin() + range.x, chain.lod_vertices.begin() + range.x + range.y);
        for (const auto& [tri, n] : expected) referenced.insert(tri.begin(), tri.end());
        EXPECT_EQ(listed.size(), range.y) << "level " << l << ": a vertex listed twice";
        EXPECT_EQ(listed, referenced) << "level " << l;
        for (uint32_t c = chain.lods[l].x; c < next_cluster; ++c)
            for (uint32_t v = 0; v < chain.clusters[c].vertex_count; ++v) {
                const uint32_t i = chain.clusters[c].first_vertex + v;
                ASSERT_LT(chain.vertex_slots[i], range.y);
                EXPECT_EQ(chain.lod_vertices[range.x + chain.vertex_slots[i]], chain.vertices[i]);
            }
        EXPECT_GE(chain.vertex_ratio[l], 1.0);
        EXPECT_LT(chain.vertex_ratio[l], 2.0) << "level " << l << ": clusters skin too many vertices twice";
        std::printf("%s LOD %zu: %u clusters, vertices skinned per cluster / once: %.2f\n", asset.name.c_str(), l,
                    chain.lods[l].y, chain.vertex_ratio[l]);
    }
    EXPECT_EQ(next_cluster, chain.clusters.size());
    EXPECT_EQ(next_triangle, chain.triangles.size());
}

TEST(Clusters, WalkerChain) {
    Result<BakedAsset> walker = bake(makeWalker(), BakeOptions{});
    ASSERT_TRUE(walker.ok());
    ASSERT_GT(walker.value().lods.size(), 1u);
    checkChain(walker.value());
}

TEST(Clusters, FishWithoutLevels) {
    BakeOptions o;
    o.lods = 1;
    Result<BakedAsset> fish = bake(makeFish(), o);
    ASSERT_TRUE(fish.ok());
    checkChain(fish.value());
}

} // namespace
