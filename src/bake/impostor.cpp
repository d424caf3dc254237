// The impostor pictures; see buildImpostors in throng/bake.h and BakedImpostors in baked.h.
//
// A small CPU rasterizer: per (clip, picture) the mesh is skinned once with the baked matrices
// (tweened in double as the GPU tweens them), then per view every LOD 0 triangle is projected
// orthographically onto the view's tile at 2 x 2 samples a texel, the nearest surface keeping
// its colour (vertex colour times submesh colour times the submesh's texture, sampled from its mip
// chain at the level one sample covers, as the GPU samples it: texture/texture.h) and normal; a
// texel's coverage is its share of covered samples, its colour and normal the covered samples'
// mean. So a member keeps its colours when it becomes an impostor. A texel's look (throng/looks.h:
// the look most of its samples' submeshes have, its number + 1, 0 none) is in the normal
// image's alpha: the impostor shader colours the texel by the member's colour of that look, as
// the mesh's shaders colour the submesh (the stored colour leaves the look out; a look with
// texture variants leaves the texture out too: the shader multiplies by the variant's mean).
// Props and kit parts are left out of the pictures (a picture is every member's; each wears its
// own parts).
#include <throng/anim.h>
#include <throng/attach.h>
#include <throng/bake.h>

#include "../texture/texture.h"

#include <glm/glm.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

namespace throng {

namespace {

constexpr uint32_t kSamples = 2; // per texel side

struct Skinned {
    std::vector<glm::dvec3> positions, normals;
};

// The baked matrices of `clip` at clip time `t`, tweened between the two frames around it.
std::vector<glm::dmat4x3> matricesAt(const BakedAsset& a, uint32_t clip, double t) {
    const BakedClip& c = a.clips[clip];
    const double last = double(c.frame_count - 1);
    const double u = c.duration > 0.0f ? std::clamp(t / c.duration * last, 0.0, last) : 0.0;
    const uint32_t f0 = uint32_t(std::floor(u)), f1 = std::min(f0 + 1, c.frame_count - 1);
    const double s = u - f0;
    std::vector<glm::dmat4x3> out(a.joint_count);
    for (uint32_t j = 0; j < a.joint_count; ++j)
        for (uint32_t r = 0; r < 3; ++r) {
            const glm::dvec4 row =
                glm::dvec4(bakedTexel(a, clip, f0, j, r)) * (1.0 - s) + glm::dvec4(bakedTexel(a, clip, f1, j, r)) * s;
            for (int col = 0; col < 4; ++col) out[j][col][r] = row[col];
        }
    return out;
}

// The mesh posed by the joints' matrices `m`, blended linearly or as dual quaternions
// (dualQuaternionBlend: the GPU's blend, in double).
Skinned skin(const BakedAsset& a, const std::vector<glm::dmat4x3>& m, Skinning skinning) {
    Skinned out;
    out.positions.resize(a.vertices.size());
    out.normals.resize(a.vertices.size());
    std::vector<glm::dmat4> square;
    if (skinning == Skinning::DualQuaternion)
        for (const glm::dmat4x3& j : m) square.emplace_back(j);
    for (size_t i = 0; i < a.vertices.size(); ++i) {
        const BakedVertex& v = a.vertices[i];
        glm::dmat4x3 blend(0.0);
        if (skinning == Skinning::DualQuaternion) {
            blend = glm::dmat4x3(
                dualQuaternionBlend(square, glm::u16vec4(v.joints[0], v.joints[1], v.joints[2], v.joints[3]),
                                    glm::vec4(v.weights[0], v.weights[1], v.weights[2], v.weights[3])));
        } else {
            for (int k = 0; k < 4; ++k)
                if (v.weights[k] > 0.0f) blend += m[v.joints[k]] * double(v.weights[k]);
        }
        out.positions[i] = blend * glm::dvec4(v.position[0], v.position[1], v.position[2], 1.0);
        const glm::dvec3 n = glm::dmat3(blend) * glm::dvec3(v.normal[0], v.normal[1], v.normal[2]);
        const double len = glm::length(n);
        out.normals[i] = len > 0.0 ? n / len : glm::dvec3(0.0, 1.0, 0.0);
    }
    return out;
}

uint8_t toByte(double v) { return uint8_t(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); }

using texture::linearToSrgb;

// Each of the asset's textures as mip chains (empty where it does not decode: white, as the GPU
// upload uses then).
using Textures = std::vector<std::vector<texture::Rgba8>>;

Textures decodeTextures(const BakedAsset& a) {
    Textures out;
    for (const BakedTexture& t : a.textures) {
        Result<texture::Rgba8> decoded = texture::decodeTexture(t);
        out.push_back(decoded ? texture::buildMips(std::move(decoded).value()) : std::vector<texture::Rgba8>{});
    }
    return out;
}

struct Sample {
    double depth = -1e300; // toward the viewer: larger is nearer
    glm::dvec3 color{0.0}, normal{0.0};
    uint8_t look = 0; // its submesh's look + 1 (0: none)
};

// Per submesh: its look + 1 (0: none), whether that look varies its texture (then drawn
// untextured), and whether the pictures leave it out (a prop's or a part's: a picture is every
// member's, and a member wears some parts and not others).
struct SubmeshRole {
    uint8_t look = 0;
    bool varied = false;
    bool left_out = false;
};

std::vector<SubmeshRole> submeshRoles(const BakedAsset& a) {
    std::vector<SubmeshRole> roles(a.submeshes.size());
    for (size_t l = 0; l < a.looks.size() && l < 255; ++l)
        for (uint32_t s : a.looks[l].submeshes)
            if (s < roles.size()) roles[s] = {uint8_t(l + 1), !a.looks[l].textures.empty(), false};
    for (uint32_t s = 0; s < roles.size(); ++s) roles[s].left_out = isPropSubmesh(a, s);
    return roles;
}

// The looks of a texel's covered samples (at most kSamples^2) or of its covered neighbours (at
// most 8), and the one most of them have: the first's on a tie (0 for none).
struct LookVotes {
    std::array<uint8_t, 9> looks{};
    size_t count = 0;
    void add(uint8_t look) { looks[count++] = look; }
    uint8_t most() const {
        uint8_t best = count == 0 ? 0 : looks[0];
        size_t best_count = 0;
        for (size_t i = 0; i < count; ++i) {
            const size_t n = size_t(std::count(looks.begin(), looks.begin() + long(count), looks[i]));
            if (n > best_count) best = looks[i], best_count = n;
        }
        return best;
    }
};
static_assert(kSamples * kSamples <= 9);

// One view's tile of the skinned mesh into `color` and `normal` at texel (x0, y0) of the images.
void drawView(const BakedAsset& a, const Textures& textures, const Skinned& mesh, const BakedImpostors& im,
              glm::dvec3 dir, uint64_t row_texels, size_t layer_offset, uint32_t x0, uint32_t y0,
              std::vector<uint8_t>& color, std::vector<uint8_t>& normal) {
    const glm::dvec3 right = glm::normalize(glm::cross(glm::dvec3(0.0, 1.0, 0.0), dir));
    const glm::dvec3 up = glm::cross(dir, right);
    const uint32_t side = im.tile * kSamples;
    const glm::dvec3 center(im.center);
    std::vector<Sample> samples(size_t(side) * side);
    auto project = [&](const glm::dvec3& p) {
        const glm::dvec3 d = p - center;
        return glm::dvec3((glm::dot(d, right) / im.radius + 1.0) * 0.5 * side,
                          (1.0 - glm::dot(d, up) / im.radius) * 0.5 * side, glm::dot(d, dir));
    };
    const std::vector<SubmeshRole> roles = submeshRoles(a);
    for (size_t s = 0; s < a.submeshes.size(); ++s) {
        const BakedSubmesh& sm = a.submeshes[s];
        if (roles[s].left_out) continue;
        const std::vector<texture::Rgba8>* chain = !roles[s].varied && sm.texture >= 0 &&
                                                           size_t(sm.texture) < textures.size() &&
                                                           !textures[size_t(sm.texture)].empty()
                                                       ? &textures[size_t(sm.texture)]
                                                       : nullptr;
        for (uint32_t i = 0; i + 2 < sm.index_count; i += 3) {
            const uint32_t id[3] = {a.indices[sm.first_index + i], a.indices[sm.first_index + i + 1],
                                    a.indices[sm.first_index + i + 2]};
            glm::dvec3 p[3];
            for (int k = 0; k < 3; ++k) p[k] = project(mesh.positions[id[k]]);
            const double area = (p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[1].y - p[0].y) * (p[2].x - p[0].x);
            if (area == 0.0) continue;
            // The texture's UVs, and the level of detail one sample covers (the projection is
            // orthographic: the UV is affine in the sample's position, its derivatives constant).
            glm::dvec2 uv[3];
            double lod = 0.0;
            if (chain != nullptr) {
                for (int k = 0; k < 3; ++k) uv[k] = glm::dvec2(a.vertices[id[k]].uv[0], a.vertices[id[k]].uv[1]);
                const glm::dvec2 e1 = glm::dvec2(p[1]) - glm::dvec2(p[0]), e2 = glm::dvec2(p[2]) - glm::dvec2(p[0]);
                const glm::dvec2 u1 = uv[1] - uv[0], u2 = uv[2] - uv[0];
                const glm::dvec2 dx = (u1 * e2.y - u2 * e1.y) / area, dy = (u2 * e1.x - u1 * e2.x) / area;
                const glm::dvec2 size((*chain)[0].width, (*chain)[0].height);
                lod = std::log2(std::max({glm::length(dx * size), glm::length(dy * size), 1e-30}));
            }
            // Facing the viewer (counter-clockwise on screen, y down: negative area) or not: the
            // back of a two-sided surface shows its normal turned around, as lit.frag does.
            const double facing = area < 0.0 ? 1.0 : -1.0;
            const int xa = std::max(0, int(std::ceil(std::min({p[0].x, p[1].x, p[2].x}) - 0.5)));
            const int xb = std::min(int(side) - 1, int(std::floor(std::max({p[0].x, p[1].x, p[2].x}) - 0.5)));
            const int ya = std::max(0, int(std::ceil(std::min({p[0].y, p[1].y, p[2].y}) - 0.5)));
            const int yb = std::min(int(side) - 1, int(std::floor(std::max({p[0].y, p[1].y, p[2].y}) - 0.5)));
            for (int y = ya; y <= yb; ++y)
                for (int x = xa; x <= xb; ++x) {
                    const double px = x + 0.5, py = y + 0.5;
                    const double w0 = ((p[2].x - p[1].x) * (py - p[1].y) - (p[2].y - p[1].y) * (px - p[1].x)) / area;
                    const double w1 = ((p[0].x - p[2].x) * (py - p[2].y) - (p[0].y - p[2].y) * (px - p[2].x)) / area;
                    const double w2 = 1.0 - w0 - w1;
                    if (w0 < 0.0 || w1 < 0.0 || w2 < 0.0) continue;
                    const double depth = w0 * p[0].z + w1 * p[1].z + w2 * p[2].z;
                    Sample& out = samples[size_t(y) * side + x];
                    if (depth <= out.depth) continue;
                    out.depth = depth;
                    glm::dvec3 c(0.0), n(0.0);
                    const double w[3] = {w0, w1, w2};
                    for (int k = 0; k < 3; ++k) {
                        const uint8_t* vc = a.vertices[id[k]].color;
                        c += w[k] * glm::dvec3(vc[0], vc[1], vc[2]) / 255.0;
                        n += w[k] * mesh.normals[id[k]];
                    }
                    out.color = c * glm::dvec3(sm.base_color);
                    if (chain != nullptr)
                        out.color *= glm::dvec3(
                            texture::sampleTrilinear(*chain, w[0] * uv[0] + w[1] * uv[1] + w[2] * uv[2], lod));
                    out.normal = n * facing;
                    out.look = roles[s].look;
                }
        }
    }
    // Texels: coverage, colour and normal; then uncovered texels next to covered ones take their
    // neighbours' mean colour and normal (coverage stays 0), so that filtering at the silhouette
    // blends toward the model's colour, not toward black.
    struct Texel {
        glm::dvec3 color{0.0}, normal{0.0};
        double coverage = 0.0;
        uint8_t look = 0;
    };
    std::vector<Texel> texels(size_t(im.tile) * im.tile);
    for (uint32_t y = 0; y < im.tile; ++y)
        for (uint32_t x = 0; x < im.tile; ++x) {
            glm::dvec3 c(0.0), n(0.0);
            uint32_t covered = 0;
            LookVotes looks;
            for (uint32_t sy = 0; sy < kSamples; ++sy)
                for (uint32_t sx = 0; sx < kSamples; ++sx) {
                    const Sample& s = samples[size_t(y * kSamples + sy) * side + x * kSamples + sx];
                    if (s.depth == -1e300) continue;
                    ++covered;
                    c += s.color;
                    n += s.normal;
                    looks.add(s.look);
                }
            Texel& t = texels[size_t(y) * im.tile + x];
            t.coverage = double(covered) / double(kSamples * kSamples);
            t.look = looks.most();
            if (covered > 0) {
                t.color = c / double(covered);
                const double len = glm::length(n);
                t.normal = len > 0.0 ? n / len : dir;
            }
        }
    for (uint32_t y = 0; y < im.tile; ++y)
        for (uint32_t x = 0; x < im.tile; ++x) {
            Texel t = texels[size_t(y) * im.tile + x];
            if (t.coverage == 0.0) {
                uint32_t around = 0;
                LookVotes looks;
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        const int nx = int(x) + dx, ny = int(y) + dy;
                        if (nx < 0 || ny < 0 || nx >= int(im.tile) || ny >= int(im.tile)) continue;
                        const Texel& o = texels[size_t(ny) * im.tile + nx];
                        if (o.coverage == 0.0) continue;
                        t.color += o.color;
                        t.normal += o.normal;
                        looks.add(o.look);
                        ++around;
                    }
                t.look = looks.most();
                if (around > 0) t.color /= double(around);
                const double len = glm::length(t.normal);
                t.normal = len > 0.0 ? t.normal / len : dir;
            }
            const glm::dvec3 c = t.color, n = t.normal;
            const double coverage = t.coverage;
            const size_t at = layer_offset + ((size_t(y0) + y) * row_texels + x0 + x) * 4;
            color[at] = toByte(linearToSrgb(c.x));
            color[at + 1] = toByte(linearToSrgb(c.y));
            color[at + 2] = toByte(linearToSrgb(c.z));
            color[at + 3] = toByte(coverage);
            normal[at] = toByte(n.x * 0.5 + 0.5);
            normal[at + 1] = toByte(n.y * 0.5 + 0.5);
            normal[at + 2] = toByte(n.z * 0.5 + 0.5);
            normal[at + 3] = t.look; // the look the impostor shader colours the texel by
        }
}

} // namespace

Status buildImpostors(BakedAsset& asset, const ImpostorOptions& o) {
    BakedImpostors im;
    im.tile = o.tile;
    im.azimuths = o.azimuths;
    im.elevations = o.elevations;
    im.fps = o.fps;
    im.skinning = o.skinning;
    if (o.skinning > Skinning::DualQuaternion)
        return Status::failure("impostors: skinning " + std::to_string(int(o.skinning)) +
                               " is not linear or dual-quaternion");
    if (o.tile < 1 || o.tile > 256 || o.azimuths < 1 || o.azimuths > 64 || o.elevations < 1 || o.elevations > 16 ||
        !std::isfinite(o.fps) || o.fps < 0.1f || o.fps > 1000.0f)
        return Status::failure(
            "impostors: tile 1 .. 256, azimuths 1 .. 64, elevations 1 .. 16 and fps 0.1 .. 1000 expected");
    if (uint64_t(o.tile) * o.azimuths * o.elevations > kMaxImpostorTexels)
        return Status::failure("impostors: " + std::to_string(o.azimuths * o.elevations) + " views of " +
                               std::to_string(o.tile) + " texels are wider than " + std::to_string(kMaxImpostorTexels));
    // The sphere around every pose of every clip.
    Bounds box = clipBounds(asset.clips[0]);
    for (const BakedClip& c : asset.clips) {
        const Bounds b = clipBounds(c);
        box.min = glm::min(box.min, b.min);
        box.max = glm::max(box.max, b.max);
    }
    im.center = 0.5f * (box.min + box.max);
    im.radius = std::max(0.5f * glm::length(box.max - box.min), 1e-6f);
    const uint32_t most = kMaxImpostorTexels / o.tile;
    for (const BakedClip& c : asset.clips) im.frames.push_back(std::min(bakedFrameCount(c.duration, o.fps), most));
    im.max_frames = *std::max_element(im.frames.begin(), im.frames.end());
    im.color.assign(im.bytesPerImage(), 0);
    im.normal.assign(im.bytesPerImage(), 0);

    const uint64_t row_texels = im.width();
    const Textures textures = decodeTextures(asset);
    for (uint32_t c = 0; c < asset.clips.size(); ++c) {
        const size_t layer = size_t(c) * im.height() * row_texels * 4;
        for (uint32_t f = 0; f < im.frames[c]; ++f) {
            const double t = im.frames[c] > 1 ? double(f) * asset.clips[c].duration / double(im.frames[c] - 1) : 0.0;
            const Skinned mesh = skin(asset, matricesAt(asset, c, t), o.skinning);
            for (uint32_t e = 0; e < im.elevations; ++e)
                for (uint32_t az = 0; az < im.azimuths; ++az) {
                    const double A = 2.0 * std::numbers::pi * az / im.azimuths,
                                 E = 0.5 * std::numbers::pi * e / im.elevations;
                    const glm::dvec3 dir(std::sin(A) * std::cos(E), std::sin(E), std::cos(A) * std::cos(E));
                    drawView(asset, textures, mesh, im, dir, row_texels, layer, (e * im.azimuths + az) * im.tile,
                             f * im.tile, im.color, im.normal);
                }
        }
    }
    asset.impostors = std::move(im);
    return validate(asset);
}

} // namespace throng
