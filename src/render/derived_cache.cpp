// The process-wide cache of derived_cache.h: fingerprints, and a small least-recently-used list
// per kind.
#include "derived_cache.h"

#include <throng/format.h>

#include <algorithm>
#include <atomic>
#include <list>
#include <mutex>
#include <type_traits>
#include <utility>

namespace throng::render {

namespace {

// A fingerprint: the format's checksum (throngChecksum, FNV-1a 64) continued over every input in
// turn, each after its size, so that where one input ends and the next begins counts too.
struct Fingerprint {
    uint64_t sum = 0xcbf29ce484222325ull;
    bool operator==(const Fingerprint&) const = default;

    void bytes(const void* data, size_t n) {
        const uint64_t size = n;
        sum = throngChecksum(&size, sizeof size, sum);
        sum = throngChecksum(data, n, sum);
    }
    void word(uint64_t w) { bytes(&w, sizeof w); }
    template <class T> void span(std::span<const T> s) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(s.data(), s.size_bytes());
    }
    template <class T> void value(const T& v) { span(std::span<const T>(&v, 1)); }
};

// Everything of the asset either kind is computed from (splats.cpp, coarse_skinning.cpp).
Fingerprint assetFingerprint(const BakedAsset& asset) {
    Fingerprint f;
    f.value(uint32_t(asset.precision));
    f.value(asset.joint_count);
    f.value(asset.max_frames);
    f.span(std::span<const BakedVertex>(asset.vertices));
    f.span(std::span<const uint32_t>(asset.indices));
    f.span(std::span<const float>(asset.animation_f32));
    f.span(std::span<const uint16_t>(asset.animation_f16));
    f.word(asset.submeshes.size());
    for (const BakedSubmesh& s : asset.submeshes) {
        f.value(s.first_index);
        f.value(s.index_count);
        f.value(s.base_color);
        f.value(s.texture);
    }
    f.word(asset.lods.size());
    for (const BakedLod& l : asset.lods) {
        f.value(l.error);
        f.span(std::span<const BakedLodRange>(l.submeshes));
    }
    f.word(asset.clips.size());
    for (const BakedClip& c : asset.clips) {
        f.value(c.duration);
        f.value(c.frame_count);
        f.value(uint8_t(c.loop));
    }
    f.word(asset.looks.size());
    for (const BakedLook& l : asset.looks) {
        f.span(std::span<const uint32_t>(l.submeshes));
        f.span(std::span<const int32_t>(l.textures));
    }
    return f;
}

// A least-recently-used list of (fingerprint, value), at most kDerivedCacheEntries long.
template <class Value> class Recent {
  public:
    template <class Compute> Value get(const Fingerprint& key, Compute&& compute, std::atomic<uint64_t>& misses) {
        {
            std::lock_guard lock(mutex_);
            for (auto it = entries_.begin(); it != entries_.end(); ++it)
                if (it->first == key) {
                    entries_.splice(entries_.begin(), entries_, it); // most recent first
                    return entries_.front().second;
                }
        }
        Value value = compute(); // outside the lock: two threads may both compute one value
        std::lock_guard lock(mutex_);
        ++misses;
        entries_.emplace_front(key, value);
        if (entries_.size() > kDerivedCacheEntries) entries_.pop_back();
        return value;
    }

  private:
    std::mutex mutex_;
    std::list<std::pair<Fingerprint, Value>> entries_;
};

Recent<SplatTables> g_splat_tables;
Recent<CoarseError> g_coarse_errors;
std::atomic<uint64_t> g_splat_misses{0}, g_coarse_misses{0};

} // namespace

SplatTables cachedSplatTables(const BakedAsset& asset, std::span<const AssetRange> ranges,
                              std::span<const uint32_t> submesh_props, std::span<const glm::vec3> texture_means,
                              uint32_t resolution) {
    Fingerprint key = assetFingerprint(asset);
    key.word(ranges.size());
    for (const AssetRange& r : ranges)
        for (uint32_t v :
             {r.first_vertex, r.vertex_count, r.first_index, r.index_count, r.first_submesh, r.submesh_count,
              r.first_clip, r.clip_count, r.first_texture, r.texture_count, r.joint_count})
            key.word(v);
    key.span(submesh_props);
    key.span(texture_means);
    key.word(resolution);
    return g_splat_tables.get(
        key, [&] { return splatTables(asset, ranges, submesh_props, texture_means, resolution); }, g_splat_misses);
}

CoarseError cachedCoarseSkinningError(const BakedAsset& asset) {
    return g_coarse_errors.get(
        assetFingerprint(asset), [&] { return coarseSkinningError(asset); }, g_coarse_misses);
}

DerivedCacheCounts derivedCacheCounts() { return {g_splat_misses.load(), g_coarse_misses.load()}; }

} // namespace throng::render
