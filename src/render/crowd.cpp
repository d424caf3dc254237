// Crowd layout and per-member variation.
#include "crowd.h"

#include <glm/gtc/packing.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace throng::render {

namespace {

// SplitMix64: a tiny, well-mixed, platform-independent generator.
struct Random {
    uint64_t state;
    uint64_t next() {
        uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    float uniform() { return float(next() >> 40) * (1.0f / 16777216.0f); } // [0, 1)
    float range(float lo, float hi) { return lo + (hi - lo) * uniform(); }
    uint32_t below(uint32_t n) { return n == 0 ? 0 : uint32_t(next() % n); }
};

} // namespace

glm::uvec2 packQuaternion(const glm::quat& q) {
    return {glm::packHalf2x16(glm::vec2(q.x, q.y)), glm::packHalf2x16(glm::vec2(q.z, q.w))};
}

glm::vec4 unpackQuaternion(glm::uvec2 packed) {
    return glm::vec4(glm::unpackHalf2x16(packed.x), glm::unpackHalf2x16(packed.y));
}

uint32_t packColor(glm::vec4 c) {
    const glm::uvec4 b = glm::uvec4(glm::clamp(c, 0.0f, 1.0f) * 255.0f + 0.5f);
    return b.x | b.y << 8 | b.z << 16 | b.w << 24;
}

gpu::shader::InstanceRecord singleInstance(uint32_t clip, float time_offset, uint32_t clip_b, float blend) {
    gpu::shader::InstanceRecord r{};
    r.position_scale = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
    r.orientation = packQuaternion(glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
    r.clips = gpu::shader::throngClips(clip, clip_b, 0u);
    r.color = 0xffffffffu;
    r.time_offset = time_offset;
    r.speed = 1.0f;
    r.blend = blend;
    return r;
}

namespace {

// Clip c's frames with `bind` (the bind pose `static` draws), padded by 1% of the box's size.
Bounds clipCullBox(const BakedClip& c, const Bounds& bind) {
    Bounds box = bind;
    for (const Bounds& b : c.frame_bounds) {
        box.min = glm::min(box.min, b.min);
        box.max = glm::max(box.max, b.max);
    }
    const glm::vec3 pad = 0.01f * (box.max - box.min) + glm::vec3(1e-5f);
    return {box.min - pad, box.max + pad};
}

} // namespace

std::vector<Bounds> clipCullBounds(const BakedAsset& asset) {
    std::vector<Bounds> out;
    for (const BakedClip& c : asset.clips) out.push_back(clipCullBox(c, asset.bind_bounds));
    return out;
}

std::vector<Bounds> clipCullBounds(const BakedAsset& asset, std::span<const AssetRange> ranges) {
    if (ranges.size() <= 1) return clipCullBounds(asset);
    std::vector<Bounds> out;
    for (const AssetRange& r : ranges)
        for (uint32_t c = r.first_clip; c < r.first_clip + r.clip_count; ++c)
            out.push_back(clipCullBox(asset.clips[c], r.bind_bounds));
    return out;
}

std::vector<Bounds> clipCullBounds(const AssetLibrary& library) {
    return clipCullBounds(library.asset, library.ranges);
}

namespace {

// The clips member i plays: its model and that model's clips, [first_clip, first_clip + count),
// and its model's scale (CrowdLayout::model_size).
struct MemberClips {
    uint32_t model = 0, first_clip = 0, clip_count = 1;
    float scale = 1.0f;
};

// The box of a model's bind pose and every baked frame of its clips [first_clip, first_clip + count).
Bounds poseBounds(const BakedAsset& asset, const Bounds& bind, uint32_t first_clip, uint32_t count) {
    Bounds all = bind;
    for (uint32_t c = first_clip; c < first_clip + count && c < asset.clips.size(); ++c)
        for (const Bounds& b : asset.clips[c].frame_bounds) {
            all.min = glm::min(all.min, b.min);
            all.max = glm::max(all.max, b.max);
        }
    return all;
}

// The scale that makes a model whose bind pose is `bind` CrowdLayout::model_size across (its
// largest extent), or 1 (native size).
float modelScale(const Bounds& bind, float model_size) {
    const glm::vec3 e = bind.max - bind.min;
    const float largest = std::max({e.x, e.y, e.z});
    return model_size > 0.0f && std::isfinite(model_size) && largest > 0.0f ? model_size / largest : 1.0f;
}

// Lays out o.count members; `all`: the box every member's poses lie in at their model's scale
// (the footprint covers every baked frame, so animated limbs never overlap a neighbour much).
template <class Pick> Crowd layOut(const BakedAsset& asset, const CrowdLayout& o, Bounds all, Pick pick) {
    Crowd crowd;
    crowd.clip_bounds = clipCullBounds(asset);
    crowd.member_bounds = all;
    Random rng{o.seed * 0x2545f4914f6cdd1dull + 1};
    const glm::vec3 extent = all.max - all.min;
    const float footprint = std::max({extent.x, extent.z, 0.25f * extent.y, 1e-6f});
    const float spacing = 1.15f * footprint * 1.1f; // x1.1: the largest member scale
    const uint32_t count = std::max(o.count, 1u);
    const uint32_t side =
        o.volume ? uint32_t(std::ceil(std::cbrt(double(count)))) : uint32_t(std::ceil(std::sqrt(double(count))));
    const float half = 0.5f * spacing * float(side - 1);
    const float radius = 0.5f * glm::length(glm::vec2(extent.x, extent.z)) * 1.1f;
    if (o.volume) {
        const float reach = 0.5f * glm::length(extent) * 1.1f + 0.2f * spacing;
        crowd.bounds.min = glm::vec3(-half - reach);
        crowd.bounds.max = glm::vec3(half + reach);
    } else {
        crowd.bounds.min = glm::vec3(-half - radius, all.min.y * 1.1f, -half - radius);
        crowd.bounds.max = glm::vec3(half + radius, all.max.y * 1.1f, half + radius);
    }
    crowd.instances.reserve(o.count);
    for (uint32_t i = 0; i < o.count; ++i) {
        const uint32_t row = o.volume ? (i / side) % side : i / side;
        const float x = float(i % side) * spacing - half + rng.range(-0.2f, 0.2f) * spacing;
        const float z = float(row) * spacing - half + rng.range(-0.2f, 0.2f) * spacing;
        const float y = o.volume ? float(i / (side * side)) * spacing - half + rng.range(-0.2f, 0.2f) * spacing : 0.0f;
        const float scale = rng.range(0.9f, 1.1f);
        const float yaw = rng.range(0.0f, 6.2831853f);
        const float pitch = o.volume ? rng.range(-0.3f, 0.3f) : 0.0f;
        const MemberClips m = pick(i);
        gpu::shader::InstanceRecord r{};
        r.position_scale = glm::vec4(x, y, z, scale * m.scale);
        r.orientation =
            packQuaternion(glm::angleAxis(yaw, glm::vec3(0, 1, 0)) * glm::angleAxis(pitch, glm::vec3(1, 0, 0)));
        const uint32_t clip_count = m.clip_count;
        uint32_t clip_a = rng.below(clip_count);
        uint32_t clip_b = clip_a;
        float blend = 0.0f;
        if (clip_count > 1 && rng.uniform() < o.cross_fade_share) {
            clip_b = (clip_a + 1 + rng.below(clip_count - 1)) % clip_count;
            blend = rng.range(0.1f, 0.9f);
        }
        clip_a += m.first_clip;
        clip_b += m.first_clip;
        r.clips = gpu::shader::throngClips(clip_a, clip_b, m.model);
        const float hue = rng.uniform();
        const glm::vec3 tint = glm::clamp(
            glm::abs(glm::fract(glm::vec3(hue) + glm::vec3(0.0f, 2.0f / 3.0f, 1.0f / 3.0f)) * 6.0f - 3.0f) - 1.0f, 0.0f,
            1.0f);
        r.color = packColor(glm::vec4(glm::mix(glm::vec3(1.0f), tint, 0.35f), 1.0f));
        // A phase anywhere in the clip; without animation (procedural swim) a phase in cycles.
        const float duration = asset.clips[clip_a].duration;
        r.time_offset = rng.range(0.0f, duration > 0.0f ? duration : 1.0f);
        r.speed = rng.range(0.8f, 1.2f);
        r.blend = blend;
        crowd.instances.push_back(r);
    }
    return crowd;
}

} // namespace

Crowd makeCrowd(const BakedAsset& asset, const CrowdLayout& o) {
    // Members play the first THRONG_MAX_CLIPS clips (InstanceRecord::clips holds 12 bits a clip).
    const uint32_t clips = uint32_t(std::min<size_t>(asset.clips.size(), THRONG_MAX_CLIPS));
    const MemberClips all{0, 0, clips, modelScale(asset.bind_bounds, o.model_size)};
    Bounds box = poseBounds(asset, asset.bind_bounds, 0, uint32_t(asset.clips.size()));
    box.min *= all.scale;
    box.max *= all.scale;
    Crowd crowd = layOut(asset, o, box, [&](uint32_t) { return all; });
    crowd.model_scales = {all.scale};
    return crowd;
}

uint32_t dealModel(uint32_t index, std::span<const float> shares) {
    if (shares.size() <= 1) return 0;
    double total = 0.0;
    for (float s : shares) total += double(s);
    // 24 bits of the hash as a fraction in [0, 1) against the running sum of the shares.
    const double u = double(gpu::shader::throngPropHash(index, THRONG_MODEL_SALT) >> 8) / 16777216.0 * total;
    double sum = 0.0;
    for (size_t m = 0; m + 1 < shares.size(); ++m)
        if (u < (sum += double(shares[m]))) return uint32_t(m);
    return uint32_t(shares.size() - 1);
}

Crowd makeCrowd(const AssetLibrary& library, const CrowdLayout& o, std::span<const float> shares) {
    std::vector<float> equal(library.ranges.size(), 1.0f);
    if (shares.empty()) shares = equal;
    // Each model's members at its scale; the spacing from the largest of them.
    std::vector<MemberClips> models;
    Bounds box{glm::vec3(std::numeric_limits<float>::max()), glm::vec3(-std::numeric_limits<float>::max())};
    for (uint32_t m = 0; m < library.ranges.size(); ++m) {
        const AssetRange& r = library.ranges[m];
        models.push_back({m, r.first_clip, std::max(r.clip_count, 1u), modelScale(r.bind_bounds, o.model_size)});
        const Bounds own = poseBounds(library.asset, r.bind_bounds, r.first_clip, r.clip_count);
        box.min = glm::min(box.min, own.min * models.back().scale);
        box.max = glm::max(box.max, own.max * models.back().scale);
    }
    Crowd crowd = layOut(library.asset, o, box, [&](uint32_t i) { return models[dealModel(i, shares)]; });
    crowd.clip_bounds = clipCullBounds(library);
    for (const MemberClips& m : models) crowd.model_scales.push_back(m.scale);
    // Records in model order (each keeps the place it was dealt): a GPU subgroup's members then
    // mostly share a model, so culling's per-(model, LOD) counters and sub-regions see few
    // addresses per subgroup (dealt in index order, four models made the H200's cull pass 5.5x
    // slower than one model's: 0.75 against 0.14 ms for a million).
    std::stable_sort(crowd.instances.begin(), crowd.instances.end(),
                     [](const gpu::shader::InstanceRecord& a, const gpu::shader::InstanceRecord& b) {
                         return gpu::shader::throngAssetOf(a.clips) < gpu::shader::throngAssetOf(b.clips);
                     });
    return crowd;
}

} // namespace throng::render
