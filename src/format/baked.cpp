// baked.cpp — BakedAsset helpers: frame timing, texel access, clip bounds, LOD levels, validate(),
// IEEE half conversion.
#include <throng/attach.h>
#include <throng/baked.h>
#include <throng/looks.h>

#include "../model/names.h"

#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

namespace throng {
namespace {

using detail::quotedName;

bool finite(const float* v, int n) {
    for (int i = 0; i < n; ++i)
        if (!std::isfinite(v[i])) return false;
    return true;
}

Status validateBounds(const Bounds& b, const std::string& what) {
    const float v[6] = {b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z};
    if (!finite(v, 6)) return Status::failure(what + " is NaN or infinite");
    if (b.min.x > b.max.x || b.min.y > b.max.y || b.min.z > b.max.z) return Status::failure(what + ": min exceeds max");
    return {};
}

Status validateImpostors(const BakedAsset& asset) {
    const BakedImpostors& im = asset.impostors;
    auto fail = [](const std::string& why) { return Status::failure("impostors: " + why); };
    if (im.skinning > Skinning::DualQuaternion)
        return fail("skinning " + std::to_string(int(im.skinning)) + " is not linear or dual-quaternion");
    if (im.empty()) {
        if (im.skinning != Skinning::Linear) return fail("a skinning but no pictures");
        return {};
    }
    if (im.tile > 256) return fail("tile " + std::to_string(im.tile) + " out of range (1 .. 256)");
    if (im.azimuths < 1 || im.azimuths > 64)
        return fail("azimuths " + std::to_string(im.azimuths) + " out of range (1 .. 64)");
    if (im.elevations < 1 || im.elevations > 16)
        return fail("elevations " + std::to_string(im.elevations) + " out of range (1 .. 16)");
    if (!std::isfinite(im.fps) || im.fps < 0.1f || im.fps > 1000.0f) return fail("fps out of range (0.1 .. 1000)");
    if (!std::isfinite(im.radius) || im.radius <= 0.0f || !std::isfinite(im.center.x) || !std::isfinite(im.center.y) ||
        !std::isfinite(im.center.z))
        return fail("sphere not finite or empty");
    if (im.frames.size() != asset.clips.size())
        return fail(std::to_string(im.frames.size()) + " frame counts for " + std::to_string(asset.clips.size()) +
                    " clips");
    uint32_t largest = 0;
    for (uint32_t f : im.frames) {
        if (f == 0) return fail("a clip with 0 frames");
        largest = std::max(largest, f);
    }
    if (largest != im.max_frames)
        return fail("max_frames " + std::to_string(im.max_frames) + " is not the largest frame count");
    if (im.width() > kMaxImpostorTexels || im.height() > kMaxImpostorTexels)
        return fail(std::to_string(im.width()) + " x " + std::to_string(im.height()) + " texels, past " +
                    std::to_string(kMaxImpostorTexels));
    if (im.color.size() != im.bytesPerImage() || im.normal.size() != im.bytesPerImage())
        return fail("images of " + std::to_string(im.color.size()) + " and " + std::to_string(im.normal.size()) +
                    " bytes, expected " + std::to_string(im.bytesPerImage()));
    return {};
}

// A clip's root motion curve (throng/root_motion.h): none, or one finite entry per frame, only
// with a root joint named.
Status validateRootMotion(const BakedAsset& asset, const BakedClip& clip, const std::string& where) {
    if (clip.root_motion.empty()) return {};
    if (asset.root_joint.empty()) return Status::failure(where + ": a root motion curve but no root joint");
    if (clip.root_motion.size() != clip.frame_count)
        return Status::failure(where + ": " + std::to_string(clip.root_motion.size()) + " root motion entries for " +
                               std::to_string(clip.frame_count) + " frames");
    const auto finite = [](glm::vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); };
    if (!finite(clip.root_pivot)) return Status::failure(where + ": root pivot is NaN or infinite");
    for (size_t f = 0; f < clip.root_motion.size(); ++f) {
        const glm::vec3 m = clip.root_motion[f];
        if (!finite(glm::vec2(m)) || !std::isfinite(m.z))
            return Status::failure(where + " frame " + std::to_string(f) + ": root motion is NaN or infinite");
    }
    return {};
}

// Events (throng/events.h): at most kMaxClipEvents, in time order, inside the clip, named.
Status validateEvents(const BakedClip& clip, const std::string& where) {
    if (clip.events.size() > kMaxClipEvents)
        return Status::failure(where + ": " + std::to_string(clip.events.size()) + " events, more than " +
                               std::to_string(kMaxClipEvents));
    for (size_t e = 0; e < clip.events.size(); ++e) {
        const ClipEvent& ev = clip.events[e];
        const std::string at = where + " event " + std::to_string(e);
        if (ev.name.empty() || ev.name.size() > kMaxEventName)
            return Status::failure(at + ": a name of " + std::to_string(ev.name.size()) + " bytes (1 .. " +
                                   std::to_string(kMaxEventName) + ")");
        if (!std::isfinite(ev.time) || ev.time < 0.0f || ev.time > clip.duration)
            return Status::failure(at + " '" + ev.name + "': time outside the clip");
        if (e > 0 && ev.time < clip.events[e - 1].time) return Status::failure(at + ": events out of time order");
    }
    return {};
}

Status validateClips(const BakedAsset& asset) {
    if (asset.clips.empty()) return Status::failure("no clips (a baked asset has at least one)");
    uint32_t max_frames = 0;
    for (size_t c = 0; c < asset.clips.size(); ++c) {
        const BakedClip& clip = asset.clips[c];
        const std::string where = "clip " + std::to_string(c) + quotedName(clip.name);
        if (!std::isfinite(clip.duration) || clip.duration < 0.0f)
            return Status::failure(where + ": duration is negative, NaN or infinite");
        if (clip.frame_count == 0) return Status::failure(where + ": frame count is 0");
        if (clip.duration == 0.0f && clip.frame_count != 1)
            return Status::failure(where + ": duration 0 needs 1 frame, has " + std::to_string(clip.frame_count));
        if (clip.duration > 0.0f && clip.frame_count < 2)
            return Status::failure(where + ": a clip of nonzero duration needs at least 2 frames");
        if (clip.frame_bounds.size() != clip.frame_count)
            return Status::failure(where + ": " + std::to_string(clip.frame_bounds.size()) + " frame bounds for " +
                                   std::to_string(clip.frame_count) + " frames");
        for (size_t f = 0; f < clip.frame_bounds.size(); ++f)
            if (Status s = validateBounds(clip.frame_bounds[f], where + " frame " + std::to_string(f) + " bounds"); !s)
                return s;
        if (Status s = validateRootMotion(asset, clip, where); !s) return s;
        if (Status s = validateEvents(clip, where); !s) return s;
        max_frames = std::max(max_frames, clip.frame_count);
    }
    if (asset.max_frames != max_frames)
        return Status::failure("max_frames is " + std::to_string(asset.max_frames) + ", the longest clip has " +
                               std::to_string(max_frames) + " frames");
    return {};
}

Status validateAnimation(const BakedAsset& asset) {
    if (asset.joint_count == 0 || asset.joint_count > kMaxBakedJoints)
        return Status::failure("joint count " + std::to_string(asset.joint_count) + " out of range (1 .. " +
                               std::to_string(kMaxBakedJoints) + ")");
    // Every factor fits 32 bits, so the 64-bit product cannot overflow before the comparison.
    const uint64_t texels = uint64_t(asset.clips.size()) * asset.max_frames * (3 * uint64_t(asset.joint_count));
    if (texels > kMaxBakedTexels)
        return Status::failure("animation of " + std::to_string(texels) + " texels exceeds the limit of " +
                               std::to_string(kMaxBakedTexels));
    const size_t components = size_t(texels) * 4;
    if (asset.precision == Precision::Float32) {
        if (asset.animation_f32.size() != components || !asset.animation_f16.empty())
            return Status::failure("float32 animation has " + std::to_string(asset.animation_f32.size()) +
                                   " values, expected " + std::to_string(components) +
                                   (asset.animation_f16.empty() ? "" : " (and no half values)"));
        for (size_t i = 0; i < components; ++i)
            if (!std::isfinite(asset.animation_f32[i]))
                return Status::failure("animation value " + std::to_string(i) + " is NaN or infinite");
    } else if (asset.precision == Precision::Float16) {
        if (asset.animation_f16.size() != components || !asset.animation_f32.empty())
            return Status::failure("half animation has " + std::to_string(asset.animation_f16.size()) +
                                   " values, expected " + std::to_string(components) +
                                   (asset.animation_f32.empty() ? "" : " (and no float values)"));
        for (size_t i = 0; i < components; ++i)
            if ((asset.animation_f16[i] & 0x7c00u) == 0x7c00u)
                return Status::failure("animation value " + std::to_string(i) + " is NaN or infinite");
    } else {
        return Status::failure("unknown precision " + std::to_string(uint32_t(asset.precision)));
    }
    return {};
}

// Vertex animation, when present: the size baked.h states, in the asset's precision, finite.
Status validateVat(const BakedAsset& asset) {
    if (!asset.hasVat()) return {};
    const uint64_t texels = asset.vatTexelCount();
    if (texels > kMaxBakedTexels)
        return Status::failure("vertex animation of " + std::to_string(texels) + " texels exceeds the limit of " +
                               std::to_string(kMaxBakedTexels));
    const size_t components = size_t(texels) * 4;
    const bool half = asset.precision == Precision::Float16;
    const size_t have = half ? asset.vat_f16.size() : asset.vat_f32.size();
    if (have != components || !(half ? asset.vat_f32.empty() : asset.vat_f16.empty()))
        return Status::failure(std::string(half ? "half" : "float32") + " vertex animation has " +
                               std::to_string(have) + " values, expected " + std::to_string(components) +
                               " (and none of the other precision)");
    for (size_t i = 0; i < components; ++i)
        if (half ? (asset.vat_f16[i] & 0x7c00u) == 0x7c00u : !std::isfinite(asset.vat_f32[i]))
            return Status::failure("vertex animation value " + std::to_string(i) + " is NaN or infinite");
    return {};
}

Status validateMesh(const BakedAsset& asset) {
    if (asset.vertices.empty()) return Status::failure("no vertices");
    if (asset.vertices.size() > std::numeric_limits<uint32_t>::max())
        return Status::failure("more vertices than 32-bit indices address");
    for (size_t v = 0; v < asset.vertices.size(); ++v) {
        const BakedVertex& x = asset.vertices[v];
        const std::string where = "vertex " + std::to_string(v);
        if (!finite(x.position, 3) || !finite(x.normal, 3) || !finite(x.uv, 2) || !finite(x.weights, 4))
            return Status::failure(where + ": NaN or infinite value");
        float sum = 0.0f;
        for (int i = 0; i < 4; ++i) {
            if (x.joints[i] >= asset.joint_count)
                return Status::failure(where + ": joint " + std::to_string(x.joints[i]) + " out of range (" +
                                       std::to_string(asset.joint_count) + " joints)");
            if (x.weights[i] < 0.0f) return Status::failure(where + ": negative weight");
            sum += x.weights[i];
        }
        if (std::fabs(sum - 1.0f) > kWeightSumTolerance)
            return Status::failure(where + ": weights sum to " + std::to_string(sum) + ", not 1");
    }
    if (asset.indices.size() % 3 != 0)
        return Status::failure("index count " + std::to_string(asset.indices.size()) + " is not a multiple of 3");
    for (size_t i = 0; i < asset.indices.size(); ++i)
        if (asset.indices[i] >= asset.vertices.size())
            return Status::failure("index " + std::to_string(i) + " = " + std::to_string(asset.indices[i]) +
                                   " out of range (" + std::to_string(asset.vertices.size()) + " vertices)");
    for (size_t s = 0; s < asset.submeshes.size(); ++s) {
        const BakedSubmesh& sub = asset.submeshes[s];
        const std::string where = "submesh " + std::to_string(s);
        if (uint64_t(sub.first_index) + sub.index_count > asset.indices.size() || sub.index_count % 3 != 0)
            return Status::failure(where + ": index range out of bounds");
        if (!std::isfinite(sub.base_color.x) || !std::isfinite(sub.base_color.y) || !std::isfinite(sub.base_color.z) ||
            !std::isfinite(sub.base_color.w))
            return Status::failure(where + ": base colour is NaN or infinite");
        if (sub.texture < -1 || sub.texture >= int64_t(asset.textures.size()))
            return Status::failure(where + ": texture " + std::to_string(sub.texture) + " out of range (" +
                                   std::to_string(asset.textures.size()) + " textures)");
    }
    return validateBounds(asset.bind_bounds, "bind bounds");
}

// Levels of detail, when present (baked.h): ranges inside `indices`, lods[0] = `submeshes`,
// errors that a renderer can compare (finite, >= 0, non-decreasing).
Status validateLods(const BakedAsset& asset) {
    if (asset.lods.empty()) return {};
    if (asset.lods.size() > kMaxBakedLods)
        return Status::failure(std::to_string(asset.lods.size()) + " LODs, more than the limit of " +
                               std::to_string(kMaxBakedLods));
    for (size_t l = 0; l < asset.lods.size(); ++l) {
        const BakedLod& lod = asset.lods[l];
        const std::string where = "LOD " + std::to_string(l);
        if (lod.submeshes.size() != asset.submeshes.size())
            return Status::failure(where + ": " + std::to_string(lod.submeshes.size()) + " ranges for " +
                                   std::to_string(asset.submeshes.size()) + " submeshes");
        if (!std::isfinite(lod.error) || lod.error < 0.0f)
            return Status::failure(where + ": error " + std::to_string(lod.error) + " is NaN, infinite or negative");
        if (l == 0 && lod.error != 0.0f)
            return Status::failure("LOD 0: error " + std::to_string(lod.error) + ", not 0 (LOD 0 is the mesh itself)");
        if (l > 0 && lod.error < asset.lods[l - 1].error)
            return Status::failure(where + ": error " + std::to_string(lod.error) + " is below LOD " +
                                   std::to_string(l - 1) + "'s " + std::to_string(asset.lods[l - 1].error));
        for (size_t s = 0; s < lod.submeshes.size(); ++s) {
            const BakedLodRange& r = lod.submeshes[s];
            const std::string range = where + " submesh " + std::to_string(s) + ": index range " +
                                      std::to_string(r.first_index) + " + " + std::to_string(r.index_count);
            if (uint64_t(r.first_index) + r.index_count > asset.indices.size())
                return Status::failure(range + " out of bounds (" + std::to_string(asset.indices.size()) + " indices)");
            if (r.index_count % 3 != 0) return Status::failure(range + ": count not a multiple of 3");
            if (l == 0 &&
                (r.first_index != asset.submeshes[s].first_index || r.index_count != asset.submeshes[s].index_count))
                return Status::failure(range + " differs from the submesh's (LOD 0 is the mesh itself)");
        }
    }
    return {};
}

// The source animation: the invariants model.h states for Skeleton, PaletteEntry and Clip (the
// checks validate(Model) makes), plus agreement with the baked asset. The skeleton is checked
// here rather than by validate(Skeleton): that walks up from every joint to find cycles, which
// costs joints x depth, and a hostile file can hold a chain of a million joints. Requiring
// parent < child, as model.h does, rules cycles out in one pass.
Status validateSource(const BakedAsset& asset) {
    const AnimationSource& src = asset.source;
    if (src.empty())
        return src.palette.empty() && src.clips.empty()
                   ? Status{}
                   : Status::failure("source: palette or clips without a skeleton");
    const Skeleton& sk = src.skeleton;
    const size_t n = sk.parents.size();
    if (sk.names.size() != n || sk.rest.size() != n)
        return Status::failure("source skeleton: names, parents and rest pose differ in length");
    for (size_t j = 0; j < n; ++j) {
        const std::string where = "source joint " + std::to_string(j) + quotedName(sk.names[j]);
        const int32_t p = sk.parents[j];
        if (p != kNoParent && (p < 0 || size_t(p) >= j))
            return Status::failure(where + ": parent " + std::to_string(p) +
                                   (p >= 0 && size_t(p) < n
                                        ? " comes after its child (parent-before-child order required)"
                                        : " out of range"));
        const Transform& t = sk.rest[j];
        if (!finite(glm::value_ptr(t.translation), 3) || !finite(glm::value_ptr(t.rotation), 4) ||
            !finite(glm::value_ptr(t.scale), 3))
            return Status::failure(where + ": rest transform is NaN or infinite");
        if (std::fabs(glm::length(t.rotation) - 1.0f) > 1e-3f)
            return Status::failure(where + ": rest rotation is not a unit quaternion");
    }
    if (src.palette.size() != asset.joint_count)
        return Status::failure("source: " + std::to_string(src.palette.size()) + " palette entries for joint count " +
                               std::to_string(asset.joint_count));
    for (size_t k = 0; k < src.palette.size(); ++k) {
        const std::string where = "source palette entry " + std::to_string(k);
        if (src.palette[k].joint >= n)
            return Status::failure(where + ": joint " + std::to_string(src.palette[k].joint) + " out of range (" +
                                   std::to_string(n) + " joints)");
        if (!finite(glm::value_ptr(src.palette[k].inverse_bind), 16))
            return Status::failure(where + ": inverse bind matrix is NaN or infinite");
    }
    if (src.clips.size() != asset.clips.size())
        return Status::failure("source: " + std::to_string(src.clips.size()) + " clips for " +
                               std::to_string(asset.clips.size()) + " baked clips");
    for (size_t c = 0; c < src.clips.size(); ++c) {
        const Clip& clip = src.clips[c];
        const BakedClip& baked = asset.clips[c];
        const std::string where = "source clip " + std::to_string(c) + quotedName(clip.name);
        if (clip.name != baked.name)
            return Status::failure(where + ": name differs from baked clip " + std::to_string(c) +
                                   quotedName(baked.name));
        if (!std::isfinite(clip.duration) || clip.duration < 0.0f)
            return Status::failure(where + ": duration is negative, NaN or infinite");
        if (std::fabs(clip.duration - baked.duration) > 1e-6f * std::max(clip.duration, baked.duration))
            return Status::failure(where + ": duration " + std::to_string(clip.duration) + " differs from the baked " +
                                   std::to_string(baked.duration));
        for (size_t i = 0; i < clip.tracks.size(); ++i) {
            const Track& track = clip.tracks[i];
            const std::string tw = where + " track " + std::to_string(i);
            if (track.joint >= n)
                return Status::failure(tw + ": targets joint " + std::to_string(track.joint) +
                                       ", which does not exist (" + std::to_string(n) + " joints)");
            if (track.target > TrackTarget::Scale || track.interpolation > Interpolation::CubicSpline)
                return Status::failure(tw + ": unknown target or interpolation");
            if (track.times.empty()) return Status::failure(tw + ": has no keys");
            const size_t per_key = track.interpolation == Interpolation::CubicSpline ? 3 : 1;
            if (track.values.size() != track.times.size() * per_key)
                return Status::failure(tw + ": " + std::to_string(track.values.size()) + " values for " +
                                       std::to_string(track.times.size()) + " keys (" + toString(track.interpolation) +
                                       ")");
            for (size_t k = 0; k < track.times.size(); ++k) {
                const float time = track.times[k];
                if (!std::isfinite(time) || time < 0.0f)
                    return Status::failure(tw + ": key " + std::to_string(k) + " has a bad time");
                if (k > 0 && !(time > track.times[k - 1]))
                    return Status::failure(tw + ": key times not increasing at key " + std::to_string(k));
                if (time > clip.duration + 1e-4f) return Status::failure(tw + ": key after the clip's end");
            }
            for (size_t k = 0; k < track.values.size(); ++k) {
                if (!finite(glm::value_ptr(track.values[k]), 4))
                    return Status::failure(tw + ": value " + std::to_string(k) + " is NaN or infinite");
                if (track.target == TrackTarget::Rotation && per_key == 1 &&
                    std::fabs(glm::length(track.values[k]) - 1.0f) > 1e-3f)
                    return Status::failure(tw + ": rotation key " + std::to_string(k) + " is not a unit quaternion");
            }
        }
    }
    return {};
}

} // namespace

const char* toString(Precision p) {
    switch (p) {
    case Precision::Float32: return "float";
    case Precision::Float16: return "half";
    }
    return "unknown";
}

uint32_t bakedFrameCount(float duration, float fps) {
    if (!(duration > 0.0f)) return 1;
    const double intervals = std::max(1.0, std::round(double(duration) * double(fps)));
    if (!(intervals < double(std::numeric_limits<uint32_t>::max()))) return std::numeric_limits<uint32_t>::max();
    return uint32_t(intervals) + 1;
}

uint64_t BakedLod::triangleCount() const {
    uint64_t indices = 0;
    for (const BakedLodRange& r : submeshes) indices += r.index_count;
    return indices / 3;
}

Bounds clipBounds(const BakedClip& clip) {
    assert(!clip.frame_bounds.empty());
    Bounds b = clip.frame_bounds.front();
    for (const Bounds& f : clip.frame_bounds) {
        b.min = glm::min(b.min, f.min);
        b.max = glm::max(b.max, f.max);
    }
    return b;
}

std::vector<BakedLod> lodLevels(const BakedAsset& asset) {
    if (!asset.lods.empty()) return asset.lods;
    BakedLod mesh;
    for (const BakedSubmesh& s : asset.submeshes) mesh.submeshes.push_back({s.first_index, s.index_count});
    return {mesh};
}

double bakedFrameTime(const BakedClip& clip, uint32_t frame) {
    if (clip.frame_count <= 1) return 0.0;
    // The last frame is exactly D: (n * D) / n need not round back to D.
    if (frame >= clip.frame_count - 1) return double(clip.duration);
    return double(frame) * double(clip.duration) / double(clip.frame_count - 1);
}

glm::vec4 bakedTexel(const BakedAsset& asset, uint32_t clip, uint32_t frame, uint32_t joint, uint32_t row) {
    assert(clip < asset.clips.size() && frame < asset.max_frames && joint < asset.joint_count && row < 3);
    const size_t texel = (size_t(clip) * asset.max_frames + frame) * asset.texelsPerRow() + 3 * size_t(joint) + row;
    glm::vec4 out;
    if (asset.precision == Precision::Float16) {
        assert(asset.animation_f16.size() >= 4 * texel + 4);
        for (int i = 0; i < 4; ++i) out[i] = halfToFloat(asset.animation_f16[4 * texel + size_t(i)]);
    } else {
        assert(asset.animation_f32.size() >= 4 * texel + 4);
        for (int i = 0; i < 4; ++i) out[i] = asset.animation_f32[4 * texel + size_t(i)];
    }
    return out;
}

glm::vec4 vatTexel(const BakedAsset& asset, uint32_t clip, uint32_t frame, uint32_t vertex, bool normal) {
    assert(asset.hasVat() && clip < asset.clips.size() && frame < asset.max_frames && vertex < asset.vertices.size());
    const size_t texel = size_t((uint64_t(clip) * asset.max_frames + frame) * asset.vatTexelsPerRow() +
                                2 * uint64_t(vertex) + (normal ? 1 : 0));
    glm::vec4 out;
    for (int i = 0; i < 4; ++i)
        out[i] = asset.precision == Precision::Float16 ? halfToFloat(asset.vat_f16[4 * texel + size_t(i)])
                                                       : asset.vat_f32[4 * texel + size_t(i)];
    return out;
}

// Props and parts (throng/attach.h): their submeshes and vertices inside the asset's, one prop
// each, joints in the palette, offsets finite, and the rules of parts (validateParts).
Status validateProps(const BakedAsset& asset) {
    std::vector<bool> taken(asset.submeshes.size(), false);
    for (const BakedProp& p : asset.props) {
        const std::string what = "prop" + detail::quotedName(p.name.substr(0, 64));
        if (p.submesh_count == 0 || p.first_submesh >= asset.submeshes.size() ||
            p.submesh_count > asset.submeshes.size() - p.first_submesh)
            return Status::failure(what + ": submeshes outside the asset's " + std::to_string(asset.submeshes.size()));
        if (p.first_vertex > asset.vertices.size() || p.vertex_count > asset.vertices.size() - p.first_vertex)
            return Status::failure(what + ": vertices outside the asset's " + std::to_string(asset.vertices.size()));
        if (p.joint >= std::max(asset.joint_count, 1u)) return Status::failure(what + ": joint out of range");
        for (int c = 0; c < 4; ++c)
            for (int r = 0; r < 4; ++r)
                if (!std::isfinite(p.offset[c][r])) return Status::failure(what + ": the offset is not finite");
        for (uint32_t s = p.first_submesh; s < p.first_submesh + p.submesh_count; ++s) {
            if (taken[s]) return Status::failure(what + ": submesh " + std::to_string(s) + " is another prop's too");
            taken[s] = true;
        }
    }
    return validateParts(propParts(asset));
}

Status validate(const BakedAsset& asset) {
    if (!std::isfinite(asset.fps) || asset.fps < 1.0f || asset.fps > 1000.0f)
        return Status::failure("fps " + std::to_string(asset.fps) + " out of range (1 .. 1000)");
    if (Status s = validateClips(asset); !s) return s;
    if (Status s = validateAnimation(asset); !s) return s;
    if (Status s = validateMesh(asset); !s) return s;
    if (Status s = validateVat(asset); !s) return s;
    if (Status s = validateLods(asset); !s) return s;
    if (Status s = validateImpostors(asset); !s) return s;
    if (Status s = validateProps(asset); !s) return s;
    if (Status s = validateLooks(asset); !s) return s;
    return validateSource(asset);
}

// Bit-level conversion (no hardware F16C needed, identical on every machine). A half is
// sign(1) exponent(5, bias 15) mantissa(10); a float sign(1) exponent(8, bias 127) mantissa(23).
uint16_t floatToHalf(float value) {
    const uint32_t f = std::bit_cast<uint32_t>(value);
    const uint32_t sign = (f >> 16) & 0x8000u;
    const uint32_t abs = f & 0x7fffffffu;
    if (abs >= 0x7f800000u) { // infinity or NaN
        if (abs == 0x7f800000u) return uint16_t(sign | 0x7c00u);
        uint32_t payload = (abs >> 13) & 0x3ffu;
        if (payload == 0) payload = 0x200u; // the payload lived in the dropped bits: stay a NaN
        return uint16_t(sign | 0x7c00u | payload);
    }
    if (abs >= 0x47800000u) return uint16_t(sign | 0x7c00u); // >= 65536: infinity
    if (abs < 0x38800000u) {                                 // below 2^-14: subnormal half or zero
        if (abs < 0x33000000u) return uint16_t(sign);        // <= 2^-25 rounds to zero (2^-25 ties to even 0)
        // value = m * 2^(e - 150) with the implicit bit; in units of 2^-24 that is m >> (126 - e).
        const uint32_t e = abs >> 23;
        const uint32_t m = (abs & 0x7fffffu) | 0x800000u;
        const uint32_t shift = 126 - e; // 14 .. 24
        uint32_t h = m >> shift;
        const uint32_t rest = m & ((1u << shift) - 1);
        const uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (h & 1u))) ++h; // may carry into the smallest normal: correct
        return uint16_t(sign | h);
    }
    // Normal: rebias the exponent (127 -> 15) and round the 13 dropped mantissa bits; a carry
    // ripples into the exponent, and from 65520 up into infinity, as IEEE requires.
    uint32_t h = (abs >> 13) - (112u << 10);
    const uint32_t rest = abs & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
    return uint16_t(sign | h);
}

float halfToFloat(uint16_t bits) {
    const uint32_t sign = uint32_t(bits & 0x8000u) << 16;
    const uint32_t e = (bits >> 10) & 0x1fu;
    const uint32_t m = bits & 0x3ffu;
    if (e == 0x1fu) return std::bit_cast<float>(sign | 0x7f800000u | (m << 13)); // infinity, NaN
    if (e == 0) {
        // Zero or subnormal: m * 2^-24, exact in float.
        const float magnitude = float(m) * 0x1p-24f;
        return std::bit_cast<float>(sign | std::bit_cast<uint32_t>(magnitude));
    }
    return std::bit_cast<float>(sign | ((e + 112u) << 23) | (m << 13));
}

} // namespace throng
