// The crowd: per-instance records for N members of one asset (or of the models of an
// AssetLibrary), seeded and deterministic.
#pragma once

#include "asset_library.h"

#include "../shaders/shared.h"

#include <throng/baked.h>

#include <glm/gtc/quaternion.hpp>

#include <span>
#include <string>
#include <vector>

namespace throng::render {

struct CrowdLayout {
    uint32_t count = 1000;
    uint64_t seed = 1;
    float cross_fade_share = 0.25f; // share of members cross-fading between two clips
    // Members on a jittered cube grid in a volume (a school of fish) instead of a square grid on
    // the ground (a crowd of walkers); heading about y and a little pitch.
    bool volume = false;
    // Each model scaled so that its bind pose's largest extent is this many units (models made in
    // other units side by side: a Fox in centimetres beside a walker in metres); 0: as made.
    float model_size = 0.0f;
};

struct Crowd {
    std::vector<gpu::shader::InstanceRecord> instances;
    Bounds bounds; // world-space box that holds every member in any pose (for the camera)
    // Per clip, the model-space box of every baked frame of the clip and of the bind pose (which
    // `static` draws), padded by 1% of its size: what culling tests. Tweening and cross-fading
    // blend skinning matrices linearly, so a member between frames or between clips A and B lies
    // inside the union of A's and B's boxes.
    std::vector<Bounds> clip_bounds;
    // The box a member's poses lie in at its model's scale (CrowdLayout::model_size), before its
    // own scale: what the street view frames a member by. Empty (min > max): the union of
    // clip_bounds (a crowd not laid out by makeCrowd).
    Bounds member_bounds{glm::vec3(1.0f), glm::vec3(-1.0f)};
    // Per model, the scale its members' records carry for CrowdLayout::model_size (each member's
    // own 0.9-1.1 times it); empty: 1 for every model. The simulation measures each model at it
    // (sim::settingsFor).
    std::vector<float> model_scales;
};

// The boxes of Crowd::clip_bounds for `asset`, and for the clips of a library's models (each
// clip's box with its own model's bind pose).
std::vector<Bounds> clipCullBounds(const BakedAsset& asset);
std::vector<Bounds> clipCullBounds(const AssetLibrary& library);
// The same for `asset` holding the models `ranges` (a library's asset and ranges; one or none: the asset's).
std::vector<Bounds> clipCullBounds(const BakedAsset& asset, std::span<const AssetRange> ranges);

// Members on a jittered square grid (or cube grid: CrowdLayout::volume; spacing from the
// model's footprint), random heading,
// clip, phase, speed (0.8-1.2), scale (0.9-1.1) and tint; the same seed gives the same crowd on
// every platform (own integer hash, no std:: distributions).
Crowd makeCrowd(const BakedAsset& asset, const CrowdLayout& options);

// The same for the models of `library`, each member dealt one (InstanceRecord::clips' model) by
// the hash of its index (throngPropHash(i, THRONG_MODEL_SALT)) against `shares` (one per model,
// any positive amounts, taken relative to their sum; empty: equal shares), playing that model's
// clips (the library's numbers). Spacing from the largest model's footprint. Contract: shares is
// empty or has one positive finite value per model.
Crowd makeCrowd(const AssetLibrary& library, const CrowdLayout& options, std::span<const float> shares = {});

// The model member `index` of a crowd of models with `shares` (as makeCrowd deals them).
uint32_t dealModel(uint32_t index, std::span<const float> shares);

// InstanceRecord's packed fields: the orientation as four halves, the tint as RGBA8 (clamped);
// and the orientation back, (x, y, z, w) as the GPU reads it.
glm::uvec2 packQuaternion(const glm::quat& q);
glm::vec4 unpackQuaternion(glm::uvec2 packed);
uint32_t packColor(glm::vec4 color);

// One member at the origin, unrotated, unscaled, white, playing `clip` from `time_offset`.
gpu::shader::InstanceRecord singleInstance(uint32_t clip, float time_offset, uint32_t clip_b = 0, float blend = 0.0f);

} // namespace throng::render
