// Splat tables on the CPU; see splats.h.
#include "splats.h"

#include <glm/gtc/constants.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace throng::render {

namespace {

using gpu::shader::SplatModel;

glm::dvec3 vec(const float (&v)[3]) { return {v[0], v[1], v[2]}; }

// The direction view (e, a) looks from (shared.h: THRONG_SPLAT_AZIMUTHS x THRONG_SPLAT_ELEVATIONS).
glm::dvec3 viewDirection(uint32_t e, uint32_t a) {
    const double azimuth = double(a) * 2.0 * glm::pi<double>() / THRONG_SPLAT_AZIMUTHS;
    const double elevation = -0.5 * glm::pi<double>() + double(e) * glm::pi<double>() / (THRONG_SPLAT_ELEVATIONS - 1);
    return {std::sin(azimuth) * std::cos(elevation), std::sin(elevation), std::cos(azimuth) * std::cos(elevation)};
}

// The body's triangles at LOD 0 (submeshes of the range with no prop bits), each with its submesh.
template <class F>
void forBodyTriangles(const BakedAsset& asset, const AssetRange& range, std::span<const uint32_t> props, F&& f) {
    for (uint32_t s = range.first_submesh; s < range.first_submesh + range.submesh_count; ++s) {
        if (s < props.size() && props[s] != 0) continue;
        const BakedSubmesh& sm = asset.submeshes[s];
        for (uint32_t i = 0; i + 2 < sm.index_count; i += 3)
            f(asset.indices[sm.first_index + i], asset.indices[sm.first_index + i + 1],
              asset.indices[sm.first_index + i + 2], s);
    }
}

// One view's silhouette: the nearest surface per pixel of an orthographic picture from `d`, its
// area and the moments of its (two-sided, turned toward the viewer) interpolated normals.
struct View {
    double area = 0.0;
    glm::dvec3 mean{0.0};
    glm::dmat3 second{0.0};
    glm::dvec3 albedo{0.0}; // the mean colour of what it shows (vertex colour x submesh factor)
};

glm::dvec3 vertexColor(const BakedVertex& v) { return glm::dvec3(v.color[0], v.color[1], v.color[2]) / 255.0; }

View drawView(const BakedAsset& asset, const AssetRange& range, std::span<const uint32_t> props,
              std::span<const glm::dvec3> factors, const SplatPose& pose, const glm::dvec3& d, uint32_t resolution) {
    const glm::dvec3 right = std::abs(d.y) > 0.999 ? glm::dvec3(1, 0, 0) : glm::normalize(glm::cross({0, 1, 0}, d));
    const glm::dvec3 up = glm::cross(d, right);
    glm::dvec2 lo(std::numeric_limits<double>::max()), hi(-std::numeric_limits<double>::max());
    forBodyTriangles(asset, range, props, [&](uint32_t a, uint32_t b, uint32_t c, uint32_t) {
        for (uint32_t v : {a, b, c}) {
            const glm::dvec3 p(pose.positions[v]);
            const glm::dvec2 q(glm::dot(p, right), glm::dot(p, up));
            lo = glm::min(lo, q);
            hi = glm::max(hi, q);
        }
    });
    View out;
    if (!(hi.x > lo.x) && !(hi.y > lo.y)) return out;
    const double pixel = std::max(hi.x - lo.x, hi.y - lo.y) / double(resolution);
    const int w = int(std::ceil((hi.x - lo.x) / pixel)) + 1, h = int(std::ceil((hi.y - lo.y) / pixel)) + 1;
    std::vector<double> depth(size_t(w) * h, -std::numeric_limits<double>::max());
    std::vector<glm::dvec3> normal(size_t(w) * h, glm::dvec3(0.0)), albedo(size_t(w) * h, glm::dvec3(0.0));
    forBodyTriangles(asset, range, props, [&](uint32_t ia, uint32_t ib, uint32_t ic, uint32_t submesh) {
        glm::dvec3 s[3];
        const uint32_t idx[3] = {ia, ib, ic};
        for (int k = 0; k < 3; ++k) {
            const glm::dvec3 p(pose.positions[idx[k]]);
            s[k] = {(glm::dot(p, right) - lo.x) / pixel, (glm::dot(p, up) - lo.y) / pixel, glm::dot(p, d)};
        }
        const double area = (s[1].x - s[0].x) * (s[2].y - s[0].y) - (s[1].y - s[0].y) * (s[2].x - s[0].x);
        if (area == 0.0) return;
        const int x0 = std::max(0, int(std::ceil(std::min({s[0].x, s[1].x, s[2].x}) - 0.5)));
        const int x1 = std::min(w - 1, int(std::floor(std::max({s[0].x, s[1].x, s[2].x}) - 0.5)));
        const int y0 = std::max(0, int(std::ceil(std::min({s[0].y, s[1].y, s[2].y}) - 0.5)));
        const int y1 = std::min(h - 1, int(std::floor(std::max({s[0].y, s[1].y, s[2].y}) - 0.5)));
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x) {
                const double px = x + 0.5, py = y + 0.5;
                const double b0 = ((s[1].x - px) * (s[2].y - py) - (s[1].y - py) * (s[2].x - px)) / area;
                const double b1 = ((s[2].x - px) * (s[0].y - py) - (s[2].y - py) * (s[0].x - px)) / area;
                const double b2 = 1.0 - b0 - b1;
                if (b0 < 0.0 || b1 < 0.0 || b2 < 0.0) continue;
                const double z = b0 * s[0].z + b1 * s[1].z + b2 * s[2].z;
                const size_t at = size_t(y) * w + x;
                if (z <= depth[at]) continue;
                depth[at] = z;
                glm::dvec3 n = b0 * glm::dvec3(pose.normals[ia]) + b1 * glm::dvec3(pose.normals[ib]) +
                               b2 * glm::dvec3(pose.normals[ic]);
                const double len = glm::length(n);
                n = len > 0.0 ? n / len : d;
                normal[at] = glm::dot(n, d) < 0.0 ? -n : n; // lit two-sided, as the resolve
                albedo[at] = (b0 * vertexColor(asset.vertices[ia]) + b1 * vertexColor(asset.vertices[ib]) +
                              b2 * vertexColor(asset.vertices[ic])) *
                             factors[submesh];
            }
    });
    size_t covered = 0;
    for (size_t i = 0; i < depth.size(); ++i) {
        if (depth[i] == -std::numeric_limits<double>::max()) continue;
        ++covered;
        out.mean += normal[i];
        out.second += glm::outerProduct(normal[i], normal[i]);
        out.albedo += albedo[i];
    }
    if (covered == 0) return out;
    out.area = double(covered) * pixel * pixel;
    out.mean /= double(covered);
    out.second /= double(covered);
    out.albedo /= double(covered);
    return out;
}

// Per submesh of the asset: what multiplies its vertex colours, its base colour times its
// texture's mean (none where its look varies the texture: the looks table has those means).
std::vector<glm::dvec3> submeshFactors(const BakedAsset& asset, std::span<const glm::vec3> texture_means) {
    std::vector<bool> varied(asset.submeshes.size(), false);
    for (const BakedLook& l : asset.looks)
        if (!l.textures.empty())
            for (uint32_t s : l.submeshes)
                if (s < varied.size()) varied[s] = true;
    std::vector<glm::dvec3> out;
    for (size_t s = 0; s < asset.submeshes.size(); ++s) {
        const BakedSubmesh& sm = asset.submeshes[s];
        glm::dvec3 f(sm.base_color);
        if (sm.texture >= 0 && size_t(sm.texture) < texture_means.size() && !varied[s])
            f *= glm::dvec3(texture_means[size_t(sm.texture)]);
        out.push_back(f);
    }
    return out;
}

// Per submesh of a model, the area-weighted mean colour (vertex colour x factor) and the area;
// and over its body (the submeshes without prop bits), the mean colour and the area.
struct ModelColors {
    std::vector<glm::dvec3> colors;
    std::vector<double> areas;
    glm::dvec3 body{1.0};
    double body_area = 0.0;
};

ModelColors meanColors(const BakedAsset& asset, const AssetRange& range, std::span<const uint32_t> props,
                       const SplatPose& pose, std::span<const glm::dvec3> factors) {
    ModelColors out;
    std::vector<glm::dvec3>& colors = out.colors;
    std::vector<double>& areas = out.areas;
    colors.assign(range.submesh_count, glm::dvec3(1.0));
    areas.assign(range.submesh_count, 0.0);
    for (uint32_t s = range.first_submesh; s < range.first_submesh + range.submesh_count; ++s) {
        const BakedSubmesh& sm = asset.submeshes[s];
        glm::dvec3 sum(0.0);
        double area = 0.0;
        for (uint32_t i = 0; i + 2 < sm.index_count; i += 3) {
            const uint32_t v[3] = {asset.indices[sm.first_index + i], asset.indices[sm.first_index + i + 1],
                                   asset.indices[sm.first_index + i + 2]};
            const glm::dvec3 a(pose.positions[v[0]]), b(pose.positions[v[1]]), c(pose.positions[v[2]]);
            const double t = 0.5 * glm::length(glm::cross(b - a, c - a));
            sum += t *
                   (vertexColor(asset.vertices[v[0]]) + vertexColor(asset.vertices[v[1]]) +
                    vertexColor(asset.vertices[v[2]])) /
                   3.0;
            area += t;
        }
        colors[s - range.first_submesh] = (area > 0.0 ? sum / area : glm::dvec3(1.0)) * factors[s];
        areas[s - range.first_submesh] = area;
    }
    glm::dvec3 body(0.0);
    for (uint32_t k = 0; k < range.submesh_count; ++k)
        if (range.first_submesh + k >= props.size() || props[range.first_submesh + k] == 0) {
            body += areas[k] * colors[k];
            out.body_area += areas[k];
        }
    if (out.body_area > 0.0) out.body = body / out.body_area;
    return out;
}

// The silhouette table of model `range` in pose `pose`, its colours `colors` (splatModel).
SplatModel tableOf(const BakedAsset& asset, const AssetRange& range, std::span<const uint32_t> props,
                   std::span<const glm::dvec3> factors, const SplatPose& pose, const ModelColors& colors,
                   uint32_t resolution) {
    SplatModel m{};
    m.first_submesh = range.first_submesh;
    m.submesh_count = range.submesh_count;
    glm::dvec3 lo(std::numeric_limits<double>::max()), hi(-std::numeric_limits<double>::max());
    forBodyTriangles(asset, range, props, [&](uint32_t a, uint32_t b, uint32_t c, uint32_t) {
        for (uint32_t v : {a, b, c}) {
            lo = glm::min(lo, glm::dvec3(pose.positions[v]));
            hi = glm::max(hi, glm::dvec3(pose.positions[v]));
        }
    });
    if (!(hi.x >= lo.x)) return m; // no body
    m.center = glm::vec4(glm::vec3(0.5 * (lo + hi)), float(0.5 * glm::length(hi - lo)));
    const glm::dvec3& body = colors.body; // the whole surface's mean, as the resolve averages the submeshes'
    for (uint32_t e = 0; e < THRONG_SPLAT_ELEVATIONS; ++e)
        for (uint32_t a = 0; a < THRONG_SPLAT_AZIMUTHS; ++a) {
            const View v = drawView(asset, range, props, factors, pose, viewDirection(e, a), std::max(resolution, 8u));
            glm::vec4* out = &m.views[4 * (e * THRONG_SPLAT_AZIMUTHS + a)];
            out[0] = glm::vec4(float(v.area), glm::vec3(v.mean));
            out[1] =
                glm::vec4(float(v.second[0][0]), float(v.second[1][1]), float(v.second[2][2]), float(v.second[0][1]));
            out[2] = glm::vec4(float(v.second[0][2]), float(v.second[1][2]), 0.0f, 0.0f);
            // What the view shows over the whole surface's mean, per channel (1 where a channel is 0).
            glm::dvec3 shown(1.0);
            for (int c = 0; c < 3; ++c)
                if (body[c] > 1e-6 && v.area > 0.0) shown[c] = v.albedo[c] / body[c];
            out[3] = glm::vec4(glm::vec3(shown), 0.0f);
        }
    return m;
}

} // namespace

SplatPose splatPose(const BakedAsset& asset, const AssetRange& range) {
    SplatPose pose;
    pose.positions.assign(asset.vertices.size(), glm::vec3(0.0f));
    pose.normals.assign(asset.vertices.size(), glm::vec3(0.0f));
    const bool animated = asset.joint_count > 0 && range.clip_count > 0 && range.first_clip < asset.clips.size() &&
                          (!asset.animation_f32.empty() || !asset.animation_f16.empty());
    for (uint32_t v = range.first_vertex; v < range.first_vertex + range.vertex_count && v < asset.vertices.size();
         ++v) {
        const BakedVertex& bv = asset.vertices[v];
        const glm::dvec4 p(vec(bv.position), 1.0), n(vec(bv.normal), 0.0);
        glm::dvec3 sp(p), sn(n);
        if (animated) {
            sp = glm::dvec3(0.0);
            sn = glm::dvec3(0.0);
            for (int k = 0; k < 4; ++k) {
                if (bv.weights[k] == 0.0f) continue;
                for (int r = 0; r < 3; ++r) {
                    const glm::dvec4 row(bakedTexel(asset, range.first_clip, 0, bv.joints[k], uint32_t(r)));
                    sp[r] += double(bv.weights[k]) * glm::dot(row, p);
                    sn[r] += double(bv.weights[k]) * glm::dot(row, n);
                }
            }
        }
        const double len = glm::length(sn);
        pose.positions[v] = glm::vec3(sp);
        pose.normals[v] = len > 0.0 ? glm::vec3(sn / len) : glm::vec3(0.0f, 1.0f, 0.0f);
    }
    return pose;
}

SplatModel splatModel(const BakedAsset& asset, const AssetRange& range, std::span<const uint32_t> props,
                      std::span<const glm::vec3> texture_means, uint32_t resolution) {
    const std::vector<glm::dvec3> factors = submeshFactors(asset, texture_means);
    const SplatPose pose = splatPose(asset, range);
    return tableOf(asset, range, props, factors, pose, meanColors(asset, range, props, pose, factors), resolution);
}

SplatTables splatTables(const BakedAsset& asset, std::span<const AssetRange> ranges, std::span<const uint32_t> props,
                        std::span<const glm::vec3> texture_means, uint32_t resolution) {
    SplatTables out;
    out.means.resize(asset.submeshes.size());
    const std::vector<glm::dvec3> factors = submeshFactors(asset, texture_means);
    for (const AssetRange& range : ranges) { // one pose and one set of colours per model, for both
        const SplatPose pose = splatPose(asset, range);
        const ModelColors colors = meanColors(asset, range, props, pose, factors);
        out.models.push_back(tableOf(asset, range, props, factors, pose, colors, resolution));
        for (uint32_t k = 0; k < range.submesh_count; ++k) {
            out.means[range.first_submesh + k].color = glm::vec3(colors.colors[k]);
            out.means[range.first_submesh + k].area =
                colors.body_area > 0.0 ? float(colors.areas[k] / colors.body_area) : 0.0f;
        }
    }
    return out;
}

double splatDiffuse(const glm::dvec3& mean, const glm::dmat3& second, const glm::dvec3& l) {
    const double f = 0.25 + 0.5 * glm::dot(mean, l) + 5.0 / 32.0 * (3.0 * glm::dot(l, second * l) - 1.0);
    return std::clamp(f, 0.0, 1.0);
}

} // namespace throng::render
