// lod.cpp — offline: the chain of levels of detail of a baked mesh (baked.h, "Levels of detail").
//
// The idea: an LOD is only another index range per submesh into the same vertex array, because
// meshoptimizer's simplifiers return indices into the vertices they were given and never make
// new ones. Skin weights, normals, colours and every technique's per-vertex data therefore stay
// exact and shared; only triangles go.
//
// Per submesh (submeshes that share vertices as one: shareGroups), level l aims at half the
// triangles of level l - 1, simplified from the ORIGINAL
// triangles each time (so every level is compared with LOD 0, not with the level before).
// Two simplifiers compete: meshopt_simplify (edge collapses under a quadric error, topology
// kept), which seams, borders and UV islands eventually stall or force into costly collapses,
// and meshopt_simplifySloppy (vertex clustering on a grid, topology ignored), which reaches any
// target. The one that gets to at most 75% of the level before with the smaller error wins: in
// practice edge collapses for the fine levels and clustering for the coarse ones.
//
// The error is measured, not only estimated: meshoptimizer's own figures (a quadric estimate for
// edge collapses, an average over cells for clustering) are not comparable between the two and
// can shrink from one level to the next. A level's error is the largest distance, in model
// units, from LOD 0's vertices to the level's triangles and from the level's triangle centroids
// and edge midpoints to LOD 0's triangles (nearest triangles found through a bounding volume
// hierarchy), or meshoptimizer's estimate where that is larger, and never below the level
// before: a renderer picks the coarsest level whose error, projected, is small enough.
//
// Two fallbacks keep the coarse end going where both simplifiers stall (a model of many small
// pieces stays hundreds of triangles wide, and a crowd of a million draws them all):
// - a level that keeps more than 80% of the one before is tried again with the whole body (every
//   submesh that is not a part) as one source, so clustering may join separate pieces (a robot
//   of 19 meshes, each too small to simplify alone); once taken, the levels after it go on from
//   the whole body, each triangle given back to the submesh most of its vertices came from;
// - when neither simplifier gets a source below its level (clustering's grid is cubic, so on a
//   long thin model it either keeps every piece or collapses everything), clustering runs once
//   more on the positions stretched to a unit cube, one scale per axis.
// Both run only where a source (or the whole level) stalls, so a chain without stalls is as before
// (the built-ins' are).
//
// The chain stops at the requested number of levels, when a level would keep more than 80% of
// the one before, or after a level of at most 0.3% of LOD 0. Past 2% of LOD 0 the levels shrink
// faster (30% of the one before): those are for members a few pixels tall, which a crowd seen
// along the ground has by the hundred thousand (the walker's last level has 18 triangles).
// Positions are simplified in the bind pose; a clustered level can join vertices of different
// limbs that are close at rest, which shows only at the distances its error is chosen for.
#include <throng/bake.h>

#include <meshoptimizer.h>

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace throng {
namespace {

constexpr double kLevelShrink = 0.5; // a level aims at this fraction of the previous one's triangles
constexpr double kStalled = 0.75;    // meshopt_simplify keeping more than this fraction: stalled
constexpr double kWorthALevel = 0.8; // a level keeping more of the previous level is not stored
constexpr double kFar = 0.02;      // past a level of at most this fraction of LOD 0 (far members, a few pixels tall)...
constexpr double kFarShrink = 0.3; // ...a level aims at this fraction of the previous one's triangles
constexpr double kFloor = 0.003;   // no level after one at most this fraction of LOD 0
// The simplifiers' target error is relative to the mesh's extent; 1 (the whole extent) leaves the
// triangle target as the only limit: the renderer picks levels by their reported error instead.
constexpr float kNoErrorLimit = 1.0f;

// One group of submeshes (shareGroups: one submesh, or those that share vertices), compacted to
// the vertices it uses: the simplifiers allocate per vertex they are given, and a submesh of a
// large mesh uses few of them.
struct SubmeshSource {
    std::vector<uint32_t> global;   // local vertex -> BakedAsset vertex
    std::vector<float> positions;   // x, y, z per local vertex
    std::vector<uint32_t> original; // LOD 0's triangles, local indices
    std::vector<uint32_t> members;  // per local vertex: bit i set where the group's submesh i uses it (i < 32)
    std::vector<uint32_t> owner;    // per local vertex: the first of the group's submeshes that uses it
    float scale = 0.0f;             // meshopt_simplifyScale: relative error -> model units
};

constexpr size_t kMaxGroup = 32; // submeshes in a share group (SubmeshSource::members' bits)

// Submeshes that share vertices (a mesh split into materials, as builtin:kit's body into skin,
// top, bottom, shoes and hair) are simplified as one: apart, each one's edges along the others
// are borders the edge collapses keep, and the chain stalls where the whole mesh's would not.
// Groups are of submeshes alike in being parts or not (part_size < 0: not), at most kMaxGroup,
// in submesh order; every other submesh is a group of its own.
std::vector<std::vector<uint32_t>> shareGroups(const BakedAsset& asset, const std::vector<float>& part_size) {
    const size_t n = asset.submeshes.size();
    std::vector<uint32_t> root(n);
    for (uint32_t s = 0; s < n; ++s) root[s] = s;
    auto find = [&](uint32_t s) {
        while (root[s] != s) s = root[s] = root[root[s]];
        return s;
    };
    std::vector<uint32_t> size(n, 1);
    std::unordered_map<uint32_t, uint32_t> first_user; // vertex -> the first submesh that uses it
    for (uint32_t s = 0; s < n; ++s) {
        const BakedSubmesh& sub = asset.submeshes[s];
        for (uint32_t i = sub.first_index; i < sub.first_index + sub.index_count; ++i) {
            const auto [it, added] = first_user.emplace(asset.indices[i], s);
            if (added) continue;
            const uint32_t a = find(it->second), b = find(s);
            if (a == b || (part_size[a] < 0.0f) != (part_size[b] < 0.0f) || size[a] + size[b] > kMaxGroup) continue;
            root[std::max(a, b)] = std::min(a, b);
            size[std::min(a, b)] += size[std::max(a, b)];
        }
    }
    std::vector<std::vector<uint32_t>> groups;
    std::vector<int32_t> group_of(n, -1);
    for (uint32_t s = 0; s < n; ++s) {
        const uint32_t r = find(s);
        if (group_of[r] < 0) {
            group_of[r] = int32_t(groups.size());
            groups.emplace_back();
        }
        groups[size_t(group_of[r])].push_back(s);
    }
    return groups;
}

// A submesh at the last level made.
struct SubmeshLevel {
    std::vector<uint32_t> indices; // its triangles, local indices
    float error = 0.0f;            // model units
};

SubmeshSource compact(const BakedAsset& asset, const std::vector<uint32_t>& group) {
    SubmeshSource c;
    std::unordered_map<uint32_t, uint32_t> local;
    for (size_t g = 0; g < group.size(); ++g) {
        const BakedSubmesh& sub = asset.submeshes[group[g]];
        for (uint32_t i = sub.first_index; i < sub.first_index + sub.index_count; ++i) {
            const uint32_t v = asset.indices[i];
            const auto [it, added] = local.emplace(v, uint32_t(c.global.size()));
            if (added) {
                c.global.push_back(v);
                c.positions.insert(c.positions.end(), asset.vertices[v].position, asset.vertices[v].position + 3);
                c.members.push_back(0u);
                c.owner.push_back(uint32_t(g));
            }
            if (g < kMaxGroup) c.members[it->second] |= 1u << g;
            c.original.push_back(it->second);
        }
    }
    if (!c.global.empty()) c.scale = meshopt_simplifyScale(c.positions.data(), c.global.size(), 3 * sizeof(float));
    return c;
}

// A group's level back into its submeshes: each triangle to a submesh all three of its vertices
// belong to (the group's first such), else to the one most of them belong to (the first on a
// tie). A source of more than kMaxGroup submeshes (the whole body, the stalled chain's fallback)
// counts each vertex for its first submesh only. Local indices, per submesh of the group.
std::vector<std::vector<uint32_t>> splitGroup(const SubmeshSource& c, size_t submeshes,
                                              const std::vector<uint32_t>& indices) {
    std::vector<std::vector<uint32_t>> out(submeshes);
    if (submeshes == 1) {
        out[0] = indices;
        return out;
    }
    for (size_t t = 0; t + 2 < indices.size(); t += 3) {
        uint32_t chosen = 0;
        if (submeshes > kMaxGroup) {
            const uint32_t o[3] = {c.owner[indices[t]], c.owner[indices[t + 1]], c.owner[indices[t + 2]]};
            chosen = o[1] == o[2] ? o[1] : o[0];
            out[chosen].insert(out[chosen].end(), indices.begin() + long(t), indices.begin() + long(t) + 3);
            continue;
        }
        const uint32_t m[3] = {c.members[indices[t]], c.members[indices[t + 1]], c.members[indices[t + 2]]};
        if (const uint32_t all = m[0] & m[1] & m[2]; all != 0) {
            chosen = uint32_t(std::countr_zero(all));
        } else {
            uint32_t most = 0;
            for (uint32_t b = 0; b < submeshes; ++b) {
                const uint32_t n = ((m[0] >> b) & 1u) + ((m[1] >> b) & 1u) + ((m[2] >> b) & 1u);
                if (n > most) most = n, chosen = b;
            }
        }
        out[chosen].insert(out[chosen].end(), indices.begin() + long(t), indices.begin() + long(t) + 3);
    }
    return out;
}

// --- Measured error: how far a level's surface strays from LOD 0's -----------------------

glm::vec3 vertexAt(const std::vector<float>& positions, uint32_t v) {
    return {positions[3 * size_t(v)], positions[3 * size_t(v) + 1], positions[3 * size_t(v) + 2]};
}

float lengthSquared(glm::vec3 v) { return glm::dot(v, v); }

// Squared distance from p to triangle abc: the closest point by the triangle's Voronoi regions
// (vertices, edges, face), as in Ericson, Real-Time Collision Detection, 5.1.5.
float pointTriangleDistanceSquared(glm::vec3 p, glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
    const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0.0f && d2 <= 0.0f) return lengthSquared(ap);
    const glm::vec3 bp = p - b;
    const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0.0f && d4 <= d3) return lengthSquared(bp);
    const float vc = d1 * d4 - d3 * d2;
    if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) return lengthSquared(p - (a + ab * (d1 / (d1 - d3))));
    const glm::vec3 cp = p - c;
    const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0.0f && d5 <= d6) return lengthSquared(cp);
    const float vb = d5 * d2 - d1 * d6;
    if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) return lengthSquared(p - (a + ac * (d2 / (d2 - d6))));
    const float va = d3 * d6 - d5 * d4;
    if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f)
        return lengthSquared(p - (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)))));
    const float denom = va + vb + vc;
    if (!(denom > 0.0f)) return std::min({lengthSquared(ap), lengthSquared(bp), lengthSquared(cp)}); // degenerate
    return lengthSquared(p - (a + ab * (vb / denom) + ac * (vc / denom)));
}

// A bounding volume hierarchy over a triangle list, for nearest-triangle queries. Nodes split at
// the median centroid along their box's longest axis, so the depth is about log2(triangles)
// whatever the triangles' sizes and spacing (a uniform grid degrades on a dense cluster next to
// large triangles, which an imported model may have).
struct TriangleBvh {
    struct Node {
        glm::vec3 lo, hi;   // box around its triangles
        uint32_t first = 0; // leaf: its triangles are order[first, first + count); inner: its children are
        uint32_t count = 0; // nodes[first] and nodes[first + 1] (count 0)
    };
    const std::vector<float>* positions = nullptr;
    const std::vector<uint32_t>* indices = nullptr;
    std::vector<Node> nodes; // nodes[0] is the root
    std::vector<uint32_t> order;
};

constexpr uint32_t kLeafTriangles = 4;

TriangleBvh buildBvh(const std::vector<float>& positions, const std::vector<uint32_t>& indices) {
    TriangleBvh b;
    b.positions = &positions;
    b.indices = &indices;
    const uint32_t count = uint32_t(indices.size() / 3);
    if (count == 0) return b;
    std::vector<glm::vec3> lo(count), hi(count), centre(count);
    for (uint32_t t = 0; t < count; ++t) {
        const glm::vec3 a = vertexAt(positions, indices[3 * size_t(t)]),
                        c = vertexAt(positions, indices[3 * size_t(t) + 1]),
                        d = vertexAt(positions, indices[3 * size_t(t) + 2]);
        lo[t] = glm::min(a, glm::min(c, d));
        hi[t] = glm::max(a, glm::max(c, d));
        centre[t] = (lo[t] + hi[t]) * 0.5f;
        b.order.push_back(t);
    }
    b.nodes.reserve(2 * size_t(count));
    b.nodes.push_back({glm::vec3(0.0f), glm::vec3(0.0f), 0, count});
    // Split nodes in the order they were made: children always come after their parent.
    for (size_t n = 0; n < b.nodes.size(); ++n) {
        const uint32_t first = b.nodes[n].first, size = b.nodes[n].count;
        glm::vec3 box_lo(std::numeric_limits<float>::max()), box_hi(-std::numeric_limits<float>::max());
        for (uint32_t i = first; i < first + size; ++i) {
            box_lo = glm::min(box_lo, lo[b.order[i]]);
            box_hi = glm::max(box_hi, hi[b.order[i]]);
        }
        b.nodes[n].lo = box_lo;
        b.nodes[n].hi = box_hi;
        if (size <= kLeafTriangles) continue;
        const glm::vec3 extent = box_hi - box_lo;
        const int axis = extent.x >= extent.y && extent.x >= extent.z ? 0 : extent.y >= extent.z ? 1 : 2;
        const auto begin = b.order.begin() + first, middle = begin + size / 2, end = begin + size;
        std::nth_element(begin, middle, end, [&](uint32_t x, uint32_t y) { return centre[x][axis] < centre[y][axis]; });
        b.nodes[n].first = uint32_t(b.nodes.size());
        b.nodes[n].count = 0;
        b.nodes.push_back({glm::vec3(0.0f), glm::vec3(0.0f), first, size / 2});
        b.nodes.push_back({glm::vec3(0.0f), glm::vec3(0.0f), first + size / 2, size - size / 2});
    }
    return b;
}

// Squared distance from p to a node's box. Written out: it is the inner loop of every query,
// and the sanitizer builds run it unoptimised.
float boxDistanceSquared(const TriangleBvh::Node& node, glm::vec3 p) {
    const float dx = node.lo.x > p.x ? node.lo.x - p.x : p.x > node.hi.x ? p.x - node.hi.x : 0.0f;
    const float dy = node.lo.y > p.y ? node.lo.y - p.y : p.y > node.hi.y ? p.y - node.hi.y : 0.0f;
    const float dz = node.lo.z > p.z ? node.lo.z - p.z : p.z > node.hi.z ? p.z - node.hi.z : 0.0f;
    return dx * dx + dy * dy + dz * dz;
}

// Distance from p to the nearest triangle, or any distance <= `enough` once one is found (the
// caller wants a maximum over points, and this point will not raise it). Depth first, the
// nearer child first, skipping boxes no nearer than the best so far.
float nearestDistance(const TriangleBvh& b, glm::vec3 p, float enough) {
    float best = std::numeric_limits<float>::infinity(); // squared, as `enough2`
    const float enough2 = enough * enough;
    if (b.nodes.empty()) return best;
    // Median splits halve the triangles per level: depth <= 32, and the stack holds at most one
    // node per level plus one.
    uint32_t stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const TriangleBvh::Node& node = b.nodes[stack[--top]];
        if (boxDistanceSquared(node, p) >= best) continue;
        if (node.count == 0) {
            const bool left_first =
                boxDistanceSquared(b.nodes[node.first], p) <= boxDistanceSquared(b.nodes[node.first + 1], p);
            stack[top++] = left_first ? node.first + 1 : node.first;
            stack[top++] = left_first ? node.first : node.first + 1;
            continue;
        }
        for (uint32_t i = node.first; i < node.first + node.count; ++i) {
            const uint32_t* t = b.indices->data() + 3 * size_t(b.order[i]);
            best = std::min(best,
                            pointTriangleDistanceSquared(p, vertexAt(*b.positions, t[0]), vertexAt(*b.positions, t[1]),
                                                         vertexAt(*b.positions, t[2])));
            if (best <= enough2) return std::sqrt(best);
        }
    }
    return std::sqrt(best);
}

// How far a level strays from LOD 0, both ways, in model units: the largest distance from a
// vertex of LOD 0 to the level's triangles (detail removed: a finger gone), and from the
// centroid or an edge midpoint of a level's triangle to LOD 0's triangles (surface added: a
// clustered triangle bridging two legs). Sampled, so not a bound, but a distance a renderer can project to pixels,
// comparable between levels made by either simplifier.
float measuredError(const SubmeshSource& c, const TriangleBvh& original, const std::vector<uint32_t>& level) {
    if (level.empty()) return 0.0f;
    const TriangleBvh simplified = buildBvh(c.positions, level);
    float worst = 0.0f;
    for (uint32_t v = 0; v < c.global.size(); ++v)
        worst = std::max(worst, nearestDistance(simplified, vertexAt(c.positions, v), worst));
    for (size_t t = 0; t + 2 < level.size(); t += 3) {
        const glm::vec3 a = vertexAt(c.positions, level[t]), b = vertexAt(c.positions, level[t + 1]),
                        d = vertexAt(c.positions, level[t + 2]);
        for (const glm::vec3& q : {(a + b + d) / 3.0f, (a + b) * 0.5f, (b + d) * 0.5f, (d + a) * 0.5f})
            worst = std::max(worst, nearestDistance(original, q, worst));
    }
    return worst;
}

// A candidate for a submesh's next level.
struct Candidate {
    std::vector<uint32_t> indices; // local
    float error = 0.0f;            // model units: the larger of meshopt's estimate and measuredError
};

Candidate candidate(const SubmeshSource& c, const TriangleBvh& bvh, std::vector<uint32_t> indices, size_t count,
                    float relative_error) {
    indices.resize(count);
    const float error = std::max(relative_error * c.scale, measuredError(c, bvh, indices));
    return Candidate{std::move(indices), error};
}

// Positions mapped to [0, 1] on each axis by that axis's own extent (an axis of no extent to 0).
std::vector<float> stretchToUnitCube(const std::vector<float>& positions) {
    float lo[3] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
                   std::numeric_limits<float>::max()};
    float hi[3] = {-lo[0], -lo[1], -lo[2]};
    for (size_t i = 0; i < positions.size(); ++i) {
        lo[i % 3] = std::min(lo[i % 3], positions[i]);
        hi[i % 3] = std::max(hi[i % 3], positions[i]);
    }
    std::vector<float> out(positions.size());
    for (size_t i = 0; i < positions.size(); ++i) {
        const float extent = hi[i % 3] - lo[i % 3];
        out[i] = extent > 0.0f ? (positions[i] - lo[i % 3]) / extent : 0.0f;
    }
    return out;
}

// The submesh's next level: about half the triangles of `level`, never more. Both simplifiers
// run from LOD 0's triangles; of those that reach at most kStalled of the level's triangles the
// one with the smaller error wins (edge collapses, usually, until seams and borders stall them
// or force collapses that cost more than clustering does); when neither gets there, the one
// with fewer triangles.
void simplifyLevel(const SubmeshSource& c, const TriangleBvh& bvh, double shrink, SubmeshLevel& level) {
    const size_t have = level.indices.size();
    if (have <= 3) return; // one triangle (or none) stays as it is
    const size_t target = std::max<size_t>(3, size_t(double(have / 3) * shrink) * 3);
    std::vector<Candidate> candidates;
    std::vector<uint32_t> out(c.original.size());
    float error = 0.0f;
    size_t n = meshopt_simplify(out.data(), c.original.data(), c.original.size(), c.positions.data(), c.global.size(),
                                3 * sizeof(float), target, kNoErrorLimit, 0, &error);
    if (n > 0 && n < have) candidates.push_back(candidate(c, bvh, out, n, error));
    // Clustering finds no grid for a tiny target and returns nothing.
    n = meshopt_simplifySloppy(out.data(), c.original.data(), c.original.size(), c.positions.data(), c.global.size(),
                               3 * sizeof(float), target, kNoErrorLimit, &error);
    if (n > 0 && n < have) candidates.push_back(candidate(c, bvh, out, n, error));
    auto reaches = [&](const Candidate& x) { return double(x.indices.size()) <= kStalled * double(have); };
    if (std::none_of(candidates.begin(), candidates.end(), reaches)) {
        // Both stalled: clustering on a grid stretched to the source's extent on every axis.
        const std::vector<float> stretched = stretchToUnitCube(c.positions);
        n = meshopt_simplifySloppy(out.data(), c.original.data(), c.original.size(), stretched.data(), c.global.size(),
                                   3 * sizeof(float), target, kNoErrorLimit, &error);
        // Its estimate is in stretched units, at most one model extent per unit.
        if (n > 0 && n < have) candidates.push_back(candidate(c, bvh, out, n, error));
    }
    if (candidates.empty()) return;
    auto better = [&](const Candidate& x, const Candidate& y) {
        if (reaches(x) != reaches(y)) return reaches(x);
        if (reaches(x)) return x.error < y.error || (x.error == y.error && x.indices.size() < y.indices.size());
        return x.indices.size() < y.indices.size();
    };
    Candidate& best = *std::min_element(candidates.begin(), candidates.end(), better);
    level.indices = std::move(best.indices);
    // Measured from LOD 0 each time, the error normally grows level by level; a level that
    // measures lower than the one before is reported no better.
    level.error = std::max(level.error, best.error);
}

uint64_t triangles(const std::vector<SubmeshLevel>& levels) {
    uint64_t n = 0;
    for (const SubmeshLevel& l : levels) n += l.indices.size() / 3;
    return n;
}

// The stalled chain's fallback: every group of the body (submeshes that are not parts) joined
// into one, the last group, whose level is the union of theirs (their errors' largest); parts'
// groups stay as they are, in order.
void joinBody(const BakedAsset& asset, std::vector<std::vector<uint32_t>>& groups, std::vector<float>& group_part_size,
              std::vector<SubmeshSource>& sources, std::vector<SubmeshLevel>& current) {
    std::vector<std::vector<uint32_t>> kept_groups;
    std::vector<float> kept_sizes;
    std::vector<SubmeshSource> kept_sources;
    std::vector<SubmeshLevel> kept_levels;
    std::vector<uint32_t> body;
    std::vector<uint32_t> body_globals; // the body's current triangles, BakedAsset vertices
    float body_error = 0.0f;
    for (size_t g = 0; g < groups.size(); ++g) {
        if (group_part_size[g] >= 0.0f) {
            kept_groups.push_back(std::move(groups[g]));
            kept_sizes.push_back(group_part_size[g]);
            kept_sources.push_back(std::move(sources[g]));
            kept_levels.push_back(std::move(current[g]));
            continue;
        }
        body.insert(body.end(), groups[g].begin(), groups[g].end());
        for (uint32_t v : current[g].indices) body_globals.push_back(sources[g].global[v]);
        body_error = std::max(body_error, current[g].error);
    }
    std::sort(body.begin(), body.end());
    SubmeshSource joined = compact(asset, body);
    std::unordered_map<uint32_t, uint32_t> local;
    for (uint32_t v = 0; v < joined.global.size(); ++v) local.emplace(joined.global[v], v);
    SubmeshLevel level{{}, body_error};
    for (uint32_t v : body_globals) level.indices.push_back(local.at(v));
    kept_groups.push_back(std::move(body));
    kept_sizes.push_back(-1.0f);
    kept_sources.push_back(std::move(joined));
    kept_levels.push_back(std::move(level));
    groups = std::move(kept_groups);
    group_part_size = std::move(kept_sizes);
    sources = std::move(kept_sources);
    current = std::move(kept_levels);
}

} // namespace

float partSize(const BakedAsset& asset, const BakedProp& part) {
    if (part.vertex_count == 0) return 0.0f;
    const BakedVertex& first = asset.vertices[part.first_vertex];
    Bounds box{glm::vec3(first.position[0], first.position[1], first.position[2]), {}};
    box.max = box.min;
    for (uint32_t v = part.first_vertex; v < part.first_vertex + part.vertex_count; ++v) {
        const glm::vec3 p(asset.vertices[v].position[0], asset.vertices[v].position[1], asset.vertices[v].position[2]);
        box.min = glm::min(box.min, p);
        box.max = glm::max(box.max, p);
    }
    return box.diagonal();
}

void buildLods(BakedAsset& asset, uint32_t levels) {
    assert(asset.lods.empty() && levels <= kMaxBakedLods);
    BakedLod mesh;
    for (const BakedSubmesh& s : asset.submeshes) mesh.submeshes.push_back({s.first_index, s.index_count});
    asset.lods.push_back(mesh);

    // A part's submeshes (asset.props) count in no level's error or triangles, so the rest of the
    // model makes the same chain as without them. Each level simplifies a part as far as the
    // level's error allows (else it keeps its finer triangles) and drops it past partDrawnAt.
    std::vector<float> part_size(asset.submeshes.size(), -1.0f);
    for (const BakedProp& p : asset.props)
        for (uint32_t s = p.first_submesh; s < p.first_submesh + p.submesh_count && s < part_size.size(); ++s)
            part_size[s] = partSize(asset, p);
    std::vector<std::vector<uint32_t>> groups = shareGroups(asset, part_size);
    std::vector<float> group_part_size; // a group's first submesh's (a part's submeshes share its size)
    std::vector<SubmeshSource> sources;
    std::vector<SubmeshLevel> current;
    for (const std::vector<uint32_t>& g : groups) {
        group_part_size.push_back(part_size[g[0]]);
        sources.push_back(compact(asset, g));
        current.push_back(SubmeshLevel{sources.back().original, 0.0f});
    }
    std::vector<TriangleBvh> bvhs;
    for (const SubmeshSource& s : sources) bvhs.push_back(buildBvh(s.positions, s.original));
    auto bodyTriangles = [&](const std::vector<SubmeshLevel>& chosen) {
        uint64_t n = 0;
        for (size_t g = 0; g < chosen.size(); ++g)
            if (group_part_size[g] < 0.0f) n += chosen[g].indices.size() / 3;
        return n;
    };
    const uint64_t full = bodyTriangles(current);
    uint64_t previous = full;
    bool whole = false; // the body is one group (joinBody), after a stalled level
    while (asset.lods.size() < levels && double(previous) > kFloor * double(full)) {
        const double shrink = double(previous) <= kFar * double(full) ? kFarShrink : kLevelShrink;
        std::vector<SubmeshLevel> next; // kept only if the level is worth it
        auto simplifyAll = [&] {
            next = current;
            for (size_t g = 0; g < next.size(); ++g) simplifyLevel(sources[g], bvhs[g], shrink, next[g]);
            return bodyTriangles(next);
        };
        uint64_t now = simplifyAll();
        const size_t body_groups = size_t(
            std::count_if(group_part_size.begin(), group_part_size.end(), [](float size) { return size < 0.0f; }));
        if (double(now) > kWorthALevel * double(previous) && !whole && body_groups > 1) {
            joinBody(asset, groups, group_part_size, sources, current);
            bvhs.clear();
            for (const SubmeshSource& c : sources) bvhs.push_back(buildBvh(c.positions, c.original));
            whole = true;
            now = simplifyAll();
        }
        if (double(now) > kWorthALevel * double(previous)) break;
        if (asset.indices.size() + 3 * triangles(next) > std::numeric_limits<uint32_t>::max()) break; // 32-bit
        BakedLod lod;
        lod.error = asset.lods.back().error;
        for (size_t g = 0; g < next.size(); ++g)
            if (group_part_size[g] < 0.0f) lod.error = std::max(lod.error, next[g].error);
        std::vector<std::vector<uint32_t>> by_submesh(asset.submeshes.size()); // global indices
        for (size_t g = 0; g < next.size(); ++g) {
            if (group_part_size[g] >= 0.0f && next[g].error > lod.error) next[g] = current[g]; // too coarse yet
            const bool drawn = group_part_size[g] < 0.0f || partDrawnAt(lod.error, group_part_size[g]);
            if (!drawn) continue;
            std::vector<std::vector<uint32_t>> split = splitGroup(sources[g], groups[g].size(), next[g].indices);
            for (size_t i = 0; i < groups[g].size(); ++i)
                for (uint32_t v : split[i]) by_submesh[groups[g][i]].push_back(sources[g].global[v]);
        }
        for (const std::vector<uint32_t>& sub : by_submesh) {
            lod.submeshes.push_back({uint32_t(asset.indices.size()), uint32_t(sub.size())});
            asset.indices.insert(asset.indices.end(), sub.begin(), sub.end());
        }
        asset.lods.push_back(std::move(lod));
        current = std::move(next);
        previous = now;
    }
}

} // namespace throng
