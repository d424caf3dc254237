// bake.cpp — offline: a Model to a BakedAsset ("bone x frame x clip" animation texture).
//
// Every frame comes from the double-precision reference (referenceSkinningMatrices), so the
// baked data is as exact as the storage precision allows; the float runtime is not involved.
// Per frame the mesh is also skinned (in double) with the exact matrices and with the stored
// ones, which gives bounds that hold both and, for half precision, the error that half adds.
// The mesh also gets its chain of levels of detail (lod.cpp): index ranges into the same vertices.
#include <throng/bake.h>
#include <throng/events.h>
#include <throng/looks.h>
#include <throng/root_motion.h>

#include <throng/anim.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <type_traits>

namespace throng {
namespace {

struct ClipSource {
    std::string name;
    const Clip* clip = nullptr; // nullptr: the rest pose
    float duration = 0.0f;
};

std::string formatFloat(double v) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%g", v);
    return buf;
}

// Skinning matrices as 3x4 rows, 12 doubles per joint: row r, column c at 12 * k + 4 * r + c.
using Rows = std::vector<double>;

Rows rowsOf(const std::vector<glm::dmat4>& matrices) {
    Rows out(matrices.size() * 12);
    for (size_t k = 0; k < matrices.size(); ++k)
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c) out[12 * k + size_t(4 * r + c)] = matrices[k][c][r];
    return out;
}

template <class T> Rows rowsOf(const T* values, uint32_t joints) {
    Rows out(size_t(joints) * 12);
    for (size_t i = 0; i < out.size(); ++i) {
        if constexpr (std::is_same_v<T, uint16_t>)
            out[i] = double(halfToFloat(values[i]));
        else
            out[i] = double(values[i]);
    }
    return out;
}

// Position-only linear blend skinning in double: the same operations in the same order as
// referenceSkin (blend the matrices, then (m0 x + m1 y) + (m2 z + m3) as glm does), so the exact
// positions equal it bit for bit; written out because glm is slow in debug builds.
glm::dvec3 skinPosition(const Mesh& mesh, size_t v, const Rows& rows) {
    double b[12] = {};
    for (int i = 0; i < 4; ++i) {
        const double w = mesh.weights[v][i];
        if (w == 0.0) continue;
        const double* m = rows.data() + 12 * size_t(mesh.joints[v][i]);
        for (int e = 0; e < 12; ++e) b[e] = b[e] + m[e] * w;
    }
    const glm::dvec3 p(mesh.positions[v]);
    glm::dvec3 out;
    for (int r = 0; r < 3; ++r)
        out[r] = (b[4 * r] * p.x + b[4 * r + 1] * p.y) + (b[4 * r + 2] * p.z + b[4 * r + 3] * 1.0);
    return out;
}

// Grows `b` to hold `p` after rounding to float, rounding outward so the float box still
// contains the double point.
void expand(Bounds& b, const glm::dvec3& p) {
    for (int i = 0; i < 3; ++i) {
        float lo = float(p[i]), hi = lo;
        if (double(lo) > p[i]) lo = std::nextafter(lo, -std::numeric_limits<float>::infinity());
        if (double(hi) < p[i]) hi = std::nextafter(hi, std::numeric_limits<float>::infinity());
        b.min[i] = std::min(b.min[i], lo);
        b.max[i] = std::max(b.max[i], hi);
    }
}

uint8_t toUnorm8(float v) { return uint8_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); }

Status copyMeshes(const Model& model, BakedAsset& asset, std::vector<std::string>& warnings) {
    uint64_t total = 0;
    for (const Mesh& m : model.meshes) total += m.positions.size();
    if (total > std::numeric_limits<uint32_t>::max())
        return Status::failure(std::to_string(total) + " vertices, more than 32-bit indices address");
    asset.vertices.reserve(size_t(total));
    for (const Mesh& mesh : model.meshes) {
        const uint32_t base = uint32_t(asset.vertices.size());
        const uint32_t index_base = uint32_t(asset.indices.size());
        for (size_t v = 0; v < mesh.positions.size(); ++v) {
            BakedVertex out{};
            for (int i = 0; i < 3; ++i) {
                out.position[i] = mesh.positions[v][i];
                out.normal[i] = mesh.normals[v][i];
            }
            const glm::vec2 uv = mesh.uvs.empty() ? glm::vec2(0.0f) : mesh.uvs[v];
            out.uv[0] = uv.x;
            out.uv[1] = uv.y;
            const glm::vec4 color = mesh.colors.empty() ? glm::vec4(1.0f) : mesh.colors[v];
            for (int i = 0; i < 4; ++i) {
                out.color[i] = toUnorm8(color[i]);
                out.weights[i] = mesh.weights[v][i];
                // A zero-weight slot may hold any index (validate allows it); the GPU fetches it anyway.
                out.joints[i] = mesh.weights[v][i] > 0.0f ? mesh.joints[v][i] : uint16_t(0);
            }
            asset.vertices.push_back(out);
        }
        for (uint32_t i : mesh.indices) asset.indices.push_back(base + i);
        std::vector<Submesh> submeshes = mesh.submeshes;
        if (submeshes.empty() && !mesh.indices.empty())
            submeshes.push_back(Submesh{0, uint32_t(mesh.indices.size()), -1});
        for (const Submesh& s : submeshes) {
            BakedSubmesh out;
            out.first_index = index_base + s.first_index;
            out.index_count = s.index_count;
            if (s.material >= 0) {
                out.base_color = model.materials[size_t(s.material)].base_color;
                out.texture = model.materials[size_t(s.material)].texture;
            }
            asset.submeshes.push_back(out);
        }
    }
    for (size_t t = 0; t < model.textures.size(); ++t) {
        const Texture& tex = model.textures[t];
        asset.textures.push_back(BakedTexture{tex.mime_type, tex.encoded});
        if (tex.encoded.empty() && !tex.uri.empty())
            warnings.push_back(textureNotFound(tex));
        else if (tex.encoded.empty())
            warnings.push_back(
                "texture " + std::to_string(t) + (tex.name.empty() ? "" : " '" + tex.name + "'") +
                (tex.uri.empty() ? ": has no image data" : ": external file '" + tex.uri + "' not embedded") +
                "; baked without pixels (the base colour shows)");
    }
    asset.bind_bounds = bindPoseBounds(model);
    return {};
}

// Model::parts as BakedProps over the submeshes and vertices of their meshes (copyMeshes keeps
// the meshes' order: a mesh's submeshes, or one for its indices, and its vertices in turn).
void copyParts(const Model& model, BakedAsset& asset) {
    std::vector<uint32_t> first_submesh, first_vertex; // per mesh, then one past the last
    uint32_t submeshes = 0, vertices = 0;
    for (const Mesh& mesh : model.meshes) {
        first_submesh.push_back(submeshes);
        first_vertex.push_back(vertices);
        submeshes += mesh.submeshes.empty() ? (mesh.indices.empty() ? 0u : 1u) : uint32_t(mesh.submeshes.size());
        vertices += uint32_t(mesh.positions.size());
    }
    first_submesh.push_back(submeshes);
    first_vertex.push_back(vertices);
    for (const Part& p : model.parts) {
        const uint32_t end = p.first_mesh + p.mesh_count;
        BakedProp b;
        b.name = p.name;
        b.slot = p.slot;
        b.share = p.share;
        b.first_submesh = first_submesh[p.first_mesh];
        b.submesh_count = first_submesh[end] - b.first_submesh;
        b.first_vertex = first_vertex[p.first_mesh];
        b.vertex_count = first_vertex[end] - b.first_vertex;
        asset.props.push_back(std::move(b));
    }
}

// Vertex animation of frame f of clip c: every vertex skinned by the reference with the frame's
// exact matrices, position (w = 1) then normal (w = 0), rounded to float (then half).
Status bakeVatFrame(const Model& model, const std::vector<glm::dmat4>& exact, BakedAsset& asset, size_t c, uint32_t f) {
    const bool half = asset.precision == Precision::Float16;
    size_t at = size_t((uint64_t(c) * asset.max_frames + f) * asset.vatTexelsPerRow()) * 4;
    for (const Mesh& mesh : model.meshes) {
        const SkinnedVertices skinned = referenceSkin(mesh, exact);
        for (size_t v = 0; v < mesh.positions.size(); ++v)
            for (int which = 0; which < 2; ++which) {
                const glm::dvec3& x = which == 0 ? skinned.positions[v] : skinned.normals[v];
                const float value[4] = {float(x.x), float(x.y), float(x.z), which == 0 ? 1.0f : 0.0f};
                for (int i = 0; i < 4; ++i, ++at) {
                    if (!half) {
                        asset.vat_f32[at] = value[i];
                        continue;
                    }
                    asset.vat_f16[at] = floatToHalf(value[i]);
                    if ((asset.vat_f16[at] & 0x7c00u) == 0x7c00u)
                        return Status::failure("clip " + std::to_string(c) + " '" + asset.clips[c].name + "' frame " +
                                               std::to_string(f) + ": vertex position " + formatFloat(value[i]) +
                                               " exceeds the half range (65504); bake with float precision");
                }
            }
    }
    return {};
}

// Frames past a clip's end repeat its last frame (as the bone animation does).
void repeatVatFrame(BakedAsset& asset, size_t c, uint32_t last, uint32_t f) {
    const size_t row = size_t(asset.vatTexelsPerRow()) * 4;
    const size_t from = (c * asset.max_frames + last) * row, to = (c * asset.max_frames + f) * row;
    if (asset.precision == Precision::Float16)
        std::copy_n(asset.vat_f16.begin() + ptrdiff_t(from), row, asset.vat_f16.begin() + ptrdiff_t(to));
    else
        std::copy_n(asset.vat_f32.begin() + ptrdiff_t(from), row, asset.vat_f32.begin() + ptrdiff_t(to));
}

} // namespace

// Root motion: the clips of a changed copy baked as usual, then each clip's curve at its frames.
static Result<BakedAsset> bakeInPlace(const Model& model, const BakeOptions& options, BakeReport& rep) {
    BakeOptions plain = options;
    plain.root_motion.clear();
    Result<int32_t> joint = rootMotionJoint(model, options.root_motion);
    if (!joint) return joint.error();
    if (joint.value() < 0) {
        Result<BakedAsset> asset = bake(model, plain, &rep);
        rep.warnings.push_back("root motion: no joint travels more than 10% of the model's size in any clip; clips "
                               "baked as they are");
        return asset;
    }
    Model in_place = model;
    const RootMotionSource source = removeRootMotion(in_place, uint32_t(joint.value()));
    Result<BakedAsset> baked = bake(in_place, plain, &rep);
    if (!baked) return baked.error();
    BakedAsset asset = std::move(baked).value();
    asset.root_joint = model.skeleton.names[size_t(joint.value())];
    rep.root_joint = asset.root_joint;
    for (uint32_t c = 0; c < model.clips.size(); ++c) {
        BakedClip& clip = asset.clips[c];
        clip.root_pivot = glm::vec2(source.pivots[c]);
        clip.root_motion.resize(clip.frame_count);
        double unwrapped = 0.0;
        for (uint32_t f = 0; f < clip.frame_count; ++f) {
            const glm::dvec3 m = rootMotionOf(model, source, c, bakedFrameTime(clip, f));
            if (f > 0) unwrapped += std::remainder(m.z - unwrapped, 2.0 * std::numbers::pi);
            clip.root_motion[f] = glm::vec3(float(m.x), float(m.y), float(f > 0 ? unwrapped : 0.0));
        }
    }
    if (Status s = validate(asset); !s) return Error{"baked asset is invalid: " + s.message};
    return asset;
}

Result<BakedAsset> bake(const Model& model, const BakeOptions& options, BakeReport* report) {
    if (!std::isfinite(options.fps) || options.fps < 1.0f || options.fps > 1000.0f)
        return Error{"fps " + formatFloat(options.fps) + " out of range (1 .. 1000)"};
    if (options.precision != Precision::Float32 && options.precision != Precision::Float16)
        return Error{"unknown precision " + std::to_string(uint32_t(options.precision))};
    if (options.lods > kMaxBakedLods)
        return Error{"lods " + std::to_string(options.lods) + " out of range (0 .. " + std::to_string(kMaxBakedLods) +
                     ")"};
    if (!std::isfinite(options.max_error) || options.max_error < 0.0)
        return Error{"max error " + formatFloat(options.max_error) + " must be a finite, non-negative length"};
    if (Status s = validate(model); !s) return Error{s.message};

    BakeReport local_report;
    BakeReport& rep = report != nullptr ? *report : local_report;
    rep = BakeReport{};
    if (!options.root_motion.empty()) return bakeInPlace(model, options, rep);

    std::vector<ClipSource> sources;
    for (const Clip& c : model.clips) sources.push_back({c.name, &c, c.duration});
    if (sources.empty()) sources.push_back({"rest", nullptr, 0.0f});

    BakedAsset asset;
    asset.name = model.source;
    asset.precision = options.precision;
    asset.fps = options.fps;
    asset.joint_count = uint32_t(model.palette.size());
    for (const ClipSource& s : sources) {
        BakedClip clip;
        clip.name = s.name;
        clip.duration = s.duration;
        clip.frame_count = bakedFrameCount(s.duration, options.fps);
        if (options.max_error > 0.0) {
            const ClipRate rate = clipRate(model, s.clip, s.duration, options.max_error);
            const size_t row_bytes = size_t(3) * model.palette.size() * 4 *
                                     (options.precision == Precision::Float16 ? sizeof(uint16_t) : sizeof(float));
            ClipRateReport r;
            r.name = s.name;
            r.frames = rate.frames;
            r.fps = s.duration > 0.0f && rate.frames > 1 ? double(rate.frames - 1) / double(s.duration) : 0.0;
            r.error = rate.error;
            r.met = rate.met;
            r.bytes = row_bytes * rate.frames;
            r.fixed_frames = clip.frame_count;
            r.fixed_error = tweenError(model, s.clip, s.duration, clip.frame_count);
            r.fixed_bytes = row_bytes * clip.frame_count;
            rep.rates.push_back(r);
            clip.frame_count = rate.frames;
        }
        clip.loop = true;
        asset.max_frames = std::max(asset.max_frames, clip.frame_count);
        asset.clips.push_back(std::move(clip));
    }
    const uint64_t texels = uint64_t(asset.clips.size()) * asset.max_frames * 3 * uint64_t(asset.joint_count);
    if (texels > kMaxBakedTexels)
        return Error{"animation needs " + std::to_string(texels) + " texels (" + std::to_string(asset.clips.size()) +
                     " clips x " + std::to_string(asset.max_frames) + " frames x " +
                     std::to_string(asset.texelsPerRow()) + "), more than the limit of " +
                     std::to_string(kMaxBakedTexels) + "; lower the fps"};
    if (Status s = copyMeshes(model, asset, rep.warnings); !s) return Error{s.message};
    copyParts(model, asset);
    asset.looks = bakedLooks(model);
    buildLods(asset, options.lods);
    const uint64_t vat_texels = options.vat ? asset.vatTexelCount() : 0;
    if (vat_texels > kMaxBakedTexels)
        return Error{"vertex animation needs " + std::to_string(vat_texels) + " texels (" +
                     std::to_string(asset.clips.size()) + " clips x " + std::to_string(asset.max_frames) +
                     " frames x " + std::to_string(asset.vatTexelsPerRow()) + "), more than the limit of " +
                     std::to_string(kMaxBakedTexels) + "; lower the fps or bake without --vat"};
    // The source animation, for techniques that sample on the CPU: the same skeleton, palette
    // and clips the frames come from, in baked order ("rest": an empty clip of duration 0).
    asset.source.skeleton = model.skeleton;
    asset.source.palette = model.palette;
    for (const ClipSource& s : sources)
        asset.source.clips.push_back(s.clip != nullptr ? *s.clip : Clip{s.name, 0.0f, {}});

    const bool half = options.precision == Precision::Float16;
    const size_t frame_values = size_t(asset.texelsPerRow()) * 4;
    std::vector<float> f32(size_t(texels) * 4);
    if (half) asset.animation_f16.resize(f32.size());
    const double diagonal = std::max(double(asset.bind_bounds.diagonal()), 1e-30);
    if (options.vat && half) asset.vat_f16.resize(size_t(vat_texels) * 4);
    if (options.vat && !half) asset.vat_f32.resize(size_t(vat_texels) * 4);
    for (size_t c = 0; c < sources.size(); ++c) {
        BakedClip& clip = asset.clips[c];
        clip.frame_bounds.resize(clip.frame_count);
        for (uint32_t f = 0; f < clip.frame_count; ++f) {
            // loop = false: t is within [0, D] and the last frame wants the pose at D, not at 0.
            const std::vector<glm::dmat4> exact =
                referenceSkinningMatrices(model, sources[c].clip, bakedFrameTime(clip, f), false);
            const size_t at = (c * asset.max_frames + f) * frame_values;
            for (uint32_t k = 0; k < asset.joint_count; ++k)
                for (int r = 0; r < 3; ++r)
                    for (int col = 0; col < 4; ++col) {
                        const size_t i = at + (3 * size_t(k) + size_t(r)) * 4 + size_t(col);
                        f32[i] = float(exact[k][col][r]);
                        if (!half) continue;
                        asset.animation_f16[i] = floatToHalf(f32[i]);
                        if ((asset.animation_f16[i] & 0x7c00u) == 0x7c00u)
                            return Error{"clip " + std::to_string(c) + " '" + clip.name + "' frame " +
                                         std::to_string(f) + " joint " + std::to_string(k) + ": matrix value " +
                                         formatFloat(f32[i]) +
                                         " exceeds the half range (65504); bake with float precision"};
                    }
            const Rows exact_rows = rowsOf(exact);
            const Rows as_float = rowsOf(f32.data() + at, asset.joint_count);
            const Rows as_half = half ? rowsOf(asset.animation_f16.data() + at, asset.joint_count) : Rows{};
            const Rows& stored = half ? as_half : as_float;
            Bounds b{glm::vec3(std::numeric_limits<float>::infinity()),
                     glm::vec3(-std::numeric_limits<float>::infinity())};
            for (const Mesh& mesh : model.meshes)
                for (size_t v = 0; v < mesh.positions.size(); ++v) {
                    const glm::dvec3 p_stored = skinPosition(mesh, v, stored);
                    expand(b, skinPosition(mesh, v, exact_rows));
                    expand(b, p_stored);
                    if (half)
                        rep.max_half_error = std::max(
                            rep.max_half_error, glm::length(p_stored - skinPosition(mesh, v, as_float)) / diagonal);
                }
            clip.frame_bounds[f] = b;
            if (options.vat)
                if (Status s = bakeVatFrame(model, exact, asset, c, f); !s) return Error{s.message};
        }
        // Frames past the clip's end repeat its last frame, so the image stays dense.
        for (uint32_t f = clip.frame_count; f < asset.max_frames; ++f) {
            const size_t last = (c * asset.max_frames + clip.frame_count - 1) * frame_values;
            const size_t at = (c * asset.max_frames + f) * frame_values;
            std::copy_n(f32.begin() + ptrdiff_t(last), frame_values, f32.begin() + ptrdiff_t(at));
            if (half)
                std::copy_n(asset.animation_f16.begin() + ptrdiff_t(last), frame_values,
                            asset.animation_f16.begin() + ptrdiff_t(at));
            if (options.vat) repeatVatFrame(asset, c, clip.frame_count - 1, f);
        }
        if (options.progress) options.progress(c + 1, sources.size());
    }
    if (!half) asset.animation_f32 = std::move(f32);
    if (options.footsteps) {
        const std::vector<std::vector<ClipEvent>> steps = footstepEvents(asset);
        for (size_t c = 0; c < steps.size(); ++c) asset.clips[c].events = steps[c];
    }
    if (Status s = addEvents(asset, options.events); !s) return Error{s.message};
    rep.bytes = size_t(texels) * 4 * (half ? sizeof(uint16_t) : sizeof(float));
    rep.vat_bytes = size_t(vat_texels) * 4 * (half ? sizeof(uint16_t) : sizeof(float));
    if (Status s = validate(asset); !s) return Error{"baked asset is invalid: " + s.message};
    if (options.impostors.enabled) {
        if (Status s = buildImpostors(asset, options.impostors); !s) return Error{s.message};
        rep.impostor_bytes = asset.impostors.color.size() + asset.impostors.normal.size();
        rep.impostor_width = uint32_t(asset.impostors.width());
        rep.impostor_height = uint32_t(asset.impostors.height());
    }
    return asset;
}

Result<std::vector<BakedLod>> lodChain(const Model& model, uint32_t levels) {
    if (levels > kMaxBakedLods)
        return Error{"lods " + std::to_string(levels) + " out of range (0 .. " + std::to_string(kMaxBakedLods) + ")"};
    if (Status s = validate(model); !s) return Error{s.message};
    BakedAsset mesh;
    std::vector<std::string> warnings; // about textures: not the question here
    if (Status s = copyMeshes(model, mesh, warnings); !s) return Error{s.message};
    copyParts(model, mesh);
    buildLods(mesh, levels);
    return std::move(mesh.lods);
}

} // namespace throng
