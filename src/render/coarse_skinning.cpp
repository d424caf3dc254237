// Coarse skinning's error bound; see coarse_skinning.h.
#include "coarse_skinning.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace throng::render {

namespace {

// Joint `joint`'s skinning matrix at `frame` of `clip` applied to `p`.
glm::vec3 transform(const BakedAsset& asset, uint32_t clip, uint32_t frame, uint32_t joint, const glm::vec4& p) {
    return glm::vec3(glm::dot(bakedTexel(asset, clip, frame, joint, 0), p),
                     glm::dot(bakedTexel(asset, clip, frame, joint, 1), p),
                     glm::dot(bakedTexel(asset, clip, frame, joint, 2), p));
}

} // namespace

CoarseError coarseSkinningError(const BakedAsset& asset) {
    CoarseError out;
    uint64_t frames = 0;
    for (const BakedClip& c : asset.clips) frames += std::min(c.frame_count, asset.max_frames);
    const uint64_t pairs = frames * asset.vertices.size();
    const size_t stride = pairs > kCoarseSamples ? size_t((pairs + kCoarseSamples - 1) / kCoarseSamples) : 1;
    out.exact = stride == 1;
    double joint_error = 0.0, step = 0.0;
    std::vector<glm::vec3> previous(asset.vertices.size());
    for (uint32_t clip = 0; clip < asset.clips.size(); ++clip) {
        const uint32_t count = std::min(asset.clips[clip].frame_count, asset.max_frames);
        for (uint32_t frame = 0; frame < count; ++frame) {
            for (size_t v = 0; v < asset.vertices.size(); v += stride) {
                const BakedVertex& vtx = asset.vertices[v];
                const glm::vec4 p(vtx.position[0], vtx.position[1], vtx.position[2], 1.0f);
                glm::vec3 full(0.0f);
                int heaviest = 0;
                for (int i = 0; i < 4; ++i) {
                    if (vtx.weights[i] > vtx.weights[heaviest]) heaviest = i;
                    if (vtx.weights[i] != 0.0f)
                        full += vtx.weights[i] * transform(asset, clip, frame, vtx.joints[i], p);
                }
                const glm::vec3 coarse = transform(asset, clip, frame, vtx.joints[heaviest], p);
                joint_error = std::max(joint_error, double(glm::length(full - coarse)));
                if (frame > 0) step = std::max(step, double(glm::length(full - previous[v])));
                previous[v] = full;
            }
        }
    }
    out.error = float(joint_error + 0.5 * step);
    return out;
}

uint32_t firstCoarseLod(std::span<const float> lod_errors, float coarse_error) {
    for (uint32_t l = 1; l < lod_errors.size(); ++l)
        if (lod_errors[l] >= coarse_error) return l;
    return uint32_t(lod_errors.size());
}

} // namespace throng::render
