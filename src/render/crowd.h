// The crowd: per-instance records for N members of one asset, seeded and deterministic.
#pragma once

#include "../shaders/shared.h"

#include <throng/baked.h>

#include <vector>

namespace throng::render {

struct CrowdOptions {
    uint32_t count = 1000;
    uint64_t seed = 1;
    float cross_fade_share = 0.25f;  // share of members cross-fading between two clips
};

struct Crowd {
    std::vector<gpu::shader::InstanceRecord> instances;
    Bounds bounds;  // world-space box that holds every member in any pose (for the camera)
};

// Members on a jittered square grid (spacing from the model's footprint), random heading,
// clip, phase, speed (0.8-1.2), scale (0.9-1.1) and tint; the same seed gives the same crowd on
// every platform (own integer hash, no std:: distributions).
Crowd makeCrowd(const BakedAsset& asset, const CrowdOptions& options);

// One member at the origin, unrotated, unscaled, white, playing `clip` from `time_offset`.
gpu::shader::InstanceRecord singleInstance(uint32_t clip, float time_offset, uint32_t clip_b = 0, float blend = 0.0f);

} // namespace throng::render
