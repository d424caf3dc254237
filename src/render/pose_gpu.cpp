// Packing a model's animation for pose.comp, and resolving layers; see pose_gpu.h.
#include "pose_gpu.h"

#include <throng/anim.h>

#include <algorithm>
#include <cmath>

namespace throng::render {

namespace {

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

uint32_t interpolationCode(Interpolation i) {
    switch (i) {
    case Interpolation::Step: return THRONG_POSE_STEP;
    case Interpolation::Linear: return THRONG_POSE_LINEAR;
    case Interpolation::CubicSpline: return THRONG_POSE_CUBIC;
    }
    return THRONG_POSE_LINEAR;
}

} // namespace

Result<std::vector<PoseLayerSetup>> resolveLayers(const AnimationSource& source, std::span<const std::string> texts) {
    std::vector<PoseLayerSetup> out;
    if (texts.empty()) return out;
    if (texts.size() > THRONG_MAX_LAYERS)
        return Error{"at most " + std::to_string(THRONG_MAX_LAYERS) + " layers (--layer), not " +
                     std::to_string(texts.size())};
    if (source.empty())
        return Error{"layers (--layer) need the model's source animation, which this asset lacks (bake it again)"};
    for (const std::string& text : texts) {
        Result<LayerSpec> spec = parseLayer(text);
        if (!spec) return spec.error();
        PoseLayerSetup layer;
        std::vector<std::string> clips;
        bool found = false;
        for (uint32_t c = 0; c < source.clips.size(); ++c) {
            clips.push_back(source.clips[c].name);
            if (!found && source.clips[c].name == spec.value().clip) {
                layer.clip = c;
                found = true;
            }
        }
        if (!found)
            return Error{"--layer '" + text + "': no clip '" + spec.value().clip + "' (clips: " + listed(clips) + ")"};
        uint32_t joint = 0;
        while (joint < source.skeleton.size() && source.skeleton.names[joint] != spec.value().joint) ++joint;
        if (joint == source.skeleton.size()) {
            return Error{"--layer '" + text + "': no joint '" + spec.value().joint +
                         "' (joints: " + listed(source.skeleton.names) + ")"};
        }
        layer.mask = subtreeMask(source.skeleton, joint);
        layer.weight = spec.value().weight;
        layer.share = uint32_t(std::lround(double(spec.value().share) * 256.0));
        out.push_back(std::move(layer));
    }
    return out;
}

uint32_t skeletonDepth(const Skeleton& skeleton) {
    std::vector<uint32_t> level(skeleton.size(), 1u);
    uint32_t deepest = 0;
    for (uint32_t n = 0; n < skeleton.size(); ++n) {
        const int32_t parent = skeleton.parents[n];
        if (parent >= 0 && uint32_t(parent) < n) level[n] = level[uint32_t(parent)] + 1;
        deepest = std::max(deepest, level[n]);
    }
    return deepest;
}

PoseData packPose(const AnimationSource& source, std::span<const PoseLayerSetup> layers) {
    PoseData d;
    const Skeleton& skeleton = source.skeleton;
    const uint32_t nodes = skeleton.size();
    for (uint32_t n = 0; n < nodes; ++n) {
        gpu::shader::PoseNode node{};
        node.parent = skeleton.parents[n];
        const Transform& rest = skeleton.rest[n];
        node.translation = glm::vec4(rest.translation, 0.0f);
        node.rotation = glm::vec4(rest.rotation.x, rest.rotation.y, rest.rotation.z, rest.rotation.w);
        node.scale = glm::vec4(rest.scale, 0.0f);
        d.nodes.push_back(node);
    }
    d.table.assign(size_t(source.clips.size()) * nodes * 3, 0u);
    for (uint32_t c = 0; c < source.clips.size(); ++c) {
        const Clip& clip = source.clips[c];
        d.durations.push_back(clip.duration);
        for (const Track& track : clip.tracks) {
            gpu::shader::PoseTrack t{};
            t.first_time = uint32_t(d.times.size());
            t.count = uint32_t(track.times.size());
            t.first_value = uint32_t(d.values.size());
            t.interpolation = interpolationCode(track.interpolation);
            d.times.insert(d.times.end(), track.times.begin(), track.times.end());
            d.values.insert(d.values.end(), track.values.begin(), track.values.end());
            d.tracks.push_back(t);
            // A later track of the same joint and target wins, as SamplingJob applies them in order.
            d.table[(size_t(c) * nodes + track.joint) * 3 + uint32_t(track.target)] = uint32_t(d.tracks.size());
        }
    }
    // Depth first from each root, so that a node's parent is the last node one level up: the
    // pass keeps a stack of model matrices (the path from the root) instead of every node's.
    std::vector<std::vector<uint32_t>> children(nodes), entries(nodes);
    std::vector<uint32_t> roots;
    for (uint32_t n = 0; n < nodes; ++n) {
        const int32_t parent = skeleton.parents[n];
        (parent >= 0 && uint32_t(parent) < n ? children[uint32_t(parent)] : roots).push_back(n);
    }
    for (uint32_t k = 0; k < source.palette.size(); ++k)
        if (source.palette[k].joint < nodes) entries[source.palette[k].joint].push_back(k);
    std::vector<std::pair<uint32_t, uint32_t>> pending; // (node, depth), the next on top
    for (auto r = roots.rbegin(); r != roots.rend(); ++r) pending.push_back({*r, 0u});
    while (!pending.empty()) {
        const auto [n, depth] = pending.back();
        pending.pop_back();
        d.steps.push_back({n, depth, uint32_t(d.joints.size()), uint32_t(entries[n].size())});
        for (uint32_t k : entries[n]) {
            const PaletteEntry& e = source.palette[k];
            gpu::shader::PoseJoint j{};
            j.node = n;
            j.entry = k;
            for (int row = 0; row < 3; ++row)
                j.inverse_bind[row] = glm::vec4(e.inverse_bind[0][row], e.inverse_bind[1][row], e.inverse_bind[2][row],
                                                e.inverse_bind[3][row]);
            d.joints.push_back(j);
        }
        for (auto c = children[n].rbegin(); c != children[n].rend(); ++c) pending.push_back({*c, depth + 1});
    }
    d.depth = std::max(skeletonDepth(skeleton), 1u);
    for (const PoseLayerSetup& l : layers) {
        d.layers.push_back({l.clip, l.share, l.weight, 0u});
        d.masks.insert(d.masks.end(), l.mask.begin(), l.mask.end());
    }
    // Bound buffers may not be empty.
    if (d.tracks.empty()) d.tracks.push_back({});
    if (d.times.empty()) d.times.push_back(0.0f);
    if (d.values.empty()) d.values.push_back(glm::vec4(0.0f));
    if (d.joints.empty()) d.joints.push_back({});
    if (d.steps.empty()) d.steps.push_back({});
    if (d.layers.empty()) d.layers.push_back({});
    if (d.masks.empty()) d.masks.push_back(0.0f);
    if (d.durations.empty()) d.durations.push_back(0.0f);
    return d;
}

} // namespace throng::render
