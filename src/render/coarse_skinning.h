// Coarse skinning for the coarsest levels of detail of technique `baked` (docs/GPU_DRIVEN.md,
// "Coarse skinning"). A member a few pixels tall does not need four joints tweened between two
// frames of two clips (48 texel fetches a vertex): its heaviest joint at the nearest frame of
// each clip (6 fetches) moves no vertex by more than coarseSkinningError(), and a level whose
// own geometric error is at least that much is drawn that way, so the two errors together stay
// within twice the level's error on screen.
#pragma once

#include <throng/baked.h>

#include <span>

namespace throng::render {

// The largest distance (model units) between a vertex skinned fully and skinned coarsely, over
// every vertex, clip and time of `asset`: at every baked frame the distance between the full
// skinning and the heaviest joint's alone, plus half the largest distance a fully skinned
// vertex moves between two consecutive frames (the nearest frame is at most half a frame away;
// tweening and cross-fading blend linearly, so they add nothing). Exact up to kCoarseSamples
// (vertex, frame) pairs; beyond, every k-th vertex (an estimate, said by `exact`).
struct CoarseError {
    float error = 0.0f;
    bool exact = true;
};
constexpr uint64_t kCoarseSamples = 8'000'000;
CoarseError coarseSkinningError(const BakedAsset& asset);

// The first level drawn with coarse skinning: the first l >= 1 whose error is at least
// `coarse_error`; lod_errors.size() when none is (then no level is).
uint32_t firstCoarseLod(std::span<const float> lod_errors, float coarse_error);

} // namespace throng::render
