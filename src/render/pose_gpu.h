// The data of technique `pose` (pose.comp): a model's skeleton, palette and every clip's keys
// laid out for the GPU, and the crowd's layers resolved against them. Built once per technique
// from the asset's AnimationSource (the `.throng` file's source tracks: nothing new is baked).
#pragma once

#include "../shaders/shared.h"

#include <throng/baked.h>
#include <throng/result.h>

#include <span>
#include <string>
#include <vector>

namespace throng::render {

// A layer (throng::LayerSpec) against a source: its clip's index, its joint mask (subtreeMask),
// its weight, and its share in 256ths as throngCarries takes it.
struct PoseLayerSetup {
    uint32_t clip = 0;
    std::vector<float> mask; // per skeleton node: 1 in the joint's subtree, else 0
    float weight = 1.0f;
    uint32_t share = 256;
};

// Parses each `--layer` text and finds its clip and joint in `source`. Errors (one line): a
// bad text (parseLayer), no source animation, an unknown clip or joint (the message lists the
// known ones), more than THRONG_MAX_LAYERS layers.
Result<std::vector<PoseLayerSetup>> resolveLayers(const AnimationSource& source, std::span<const std::string> texts);

// What pose.comp reads, one vector per binding (shared.h: THRONG_BINDING_POSE_*).
struct PoseData {
    std::vector<gpu::shader::PoseNode> nodes;
    std::vector<uint32_t> table; // (clip * nodes + node) * 3 + target: track + 1, 0 none
    std::vector<gpu::shader::PoseTrack> tracks;
    std::vector<float> times;
    std::vector<glm::vec4> values;
    std::vector<gpu::shader::PoseStep> steps;   // every node once, depth first, children in index order
    std::vector<gpu::shader::PoseJoint> joints; // grouped by step (each names its palette entry)
    std::vector<gpu::shader::PoseLayer> layers;
    std::vector<float> masks; // per (layer, node)
    std::vector<float> durations;
    uint32_t depth = 1; // the deepest step's depth + 1: pose.comp's stack (THRONG_SPEC_POSE_DEPTH)
};

// Levels of the skeleton: 1 for roots alone (0 when it has no node). Contract: parents first.
uint32_t skeletonDepth(const Skeleton& skeleton);

// Contract: !source.empty(), the skeleton's parents before their children (validate(Model)),
// every layer's clip < source.clips.size() and mask sized to the skeleton.
PoseData packPose(const AnimationSource& source, std::span<const PoseLayerSetup> layers);

} // namespace throng::render
