// What a renderer derives from an asset on the CPU at a cost, kept for the process: the splat
// tables (splats.h: the model drawn from 56 directions, about 40 ms for the walker) and the
// coarse-skinning bound (coarse_skinning.h: every vertex at every baked frame). Building a
// renderer again for the same asset (a viewer's technique switch, a host that recreates its
// renderer, a fault sweep's thousand renders) finds them here instead of computing them again.
//
// An entry is found by a 64-bit fingerprint (the format's checksum) of everything its value is computed from (the
// asset's vertices, indices, submeshes, levels, clips, bone animation and joint count, and the
// call's own arguments), not by the asset's address: an asset changed in place, or another at
// the same address, is a different entry. At most kDerivedCacheEntries of each kind are kept
// (the least recently used goes). Thread-safe.
#pragma once

#include "coarse_skinning.h"
#include "splats.h"

#include <throng/baked.h>

#include <cstdint>
#include <span>

namespace throng::render {

constexpr size_t kDerivedCacheEntries = 16;

// splatTables(asset, ranges, submesh_props, texture_means, resolution), computed once per input.
SplatTables cachedSplatTables(const BakedAsset& asset, std::span<const AssetRange> ranges,
                              std::span<const uint32_t> submesh_props, std::span<const glm::vec3> texture_means,
                              uint32_t resolution = 160);

// coarseSkinningError(asset), computed once per asset content.
CoarseError cachedCoarseSkinningError(const BakedAsset& asset);

// For tests: how often each kind was computed (a miss) since the process started.
struct DerivedCacheCounts {
    uint64_t splat_tables = 0, coarse_errors = 0;
};
DerivedCacheCounts derivedCacheCounts();

} // namespace throng::render
