// Layered blending of local poses (LayerJob, subtreeMask); see throng/anim.h.
#include <throng/anim.h>

#include <cmath>

namespace throng {

bool LayerJob::validate() const {
    if (base.size() < joints || layer.size() < joints || output.size() < joints) return false;
    if (!(weight >= 0.0f && weight <= 1.0f)) return false;
    if (!mask.empty()) {
        if (mask.size() < joints) return false;
        for (uint32_t j = 0; j < joints; ++j)
            if (!(mask[j] >= 0.0f && mask[j] <= 1.0f)) return false;
    }
    return true;
}

bool LayerJob::run() const {
    if (!validate()) return false;
    for (uint32_t j = 0; j < joints; ++j) {
        const float w = weight * (mask.empty() ? 1.0f : mask[j]);
        if (w == 0.0f) {
            output[j] = base[j];
            continue;
        }
        if (w == 1.0f) {
            output[j] = layer[j];
            continue;
        }
        const Transform& a = base[j];
        const Transform& b = layer[j];
        const float side = glm::dot(a.rotation, b.rotation) < 0.0f ? -1.0f : 1.0f;
        Transform t;
        t.translation = a.translation + (b.translation - a.translation) * w;
        t.scale = a.scale + (b.scale - a.scale) * w;
        t.rotation = glm::normalize(a.rotation * (1.0f - w) + b.rotation * (side * w));
        output[j] = t;
    }
    return true;
}

std::vector<float> subtreeMask(const Skeleton& skeleton, uint32_t root) {
    std::vector<float> mask(skeleton.size(), 0.0f);
    if (root >= skeleton.size()) return mask;
    // Each joint followed up to its root: any parent order, and at most size() steps, so even a
    // skeleton that fails validate() (a cycle) cannot hang it.
    for (uint32_t j = 0; j < skeleton.size(); ++j) {
        int32_t k = int32_t(j);
        for (uint32_t steps = 0; k != kNoParent && steps <= skeleton.size(); ++steps) {
            if (uint32_t(k) == root) {
                mask[j] = 1.0f;
                break;
            }
            k = skeleton.parents[size_t(k)];
        }
    }
    return mask;
}

} // namespace throng
