// The double-precision reference pose of one crowd member, for tests that compare what a GPU
// path skinned: the member's clip (and the clip it cross-fades to) at its own time, skinned in
// double, every mesh of the model in order (the baked vertex order).
#pragma once

#include "../src/shaders/shared.h"

#include <throng/anim.h>

#include <vector>

namespace throng::test {

// Model-space positions of member `inst` at crowd time `time`; `skinned`: false for the bind pose.
// The two clips' matrices cross-fade linearly (as baked and vat draw), or with `local_fade` their
// joints blend in local space (as pose, cpu, palette, palette-ubo and bonetex pose members), then
// each vertex blends its joints linearly, or as dual quaternions with `dual_quaternion` (as the
// shaders do).
inline std::vector<glm::dvec3> referenceModelSpace(const Model& model, const gpu::shader::InstanceRecord& inst,
                                                   float time, bool skinned, bool dual_quaternion = false,
                                                   bool local_fade = false) {
    std::vector<glm::dvec3> local;
    if (!skinned) {
        for (const Mesh& mesh : model.meshes)
            for (const glm::vec3& p : mesh.positions) local.push_back(glm::dvec3(p));
        return local;
    }
    const double t = double(time) * inst.speed + inst.time_offset;
    const auto a = referenceSkinningMatrices(model, &model.clips[gpu::shader::throngClipA(inst.clips)], t, true);
    const auto b = referenceSkinningMatrices(model, &model.clips[gpu::shader::throngClipB(inst.clips)], t, true);
    std::vector<glm::dmat4> m(a.size());
    for (size_t j = 0; j < a.size(); ++j) m[j] = a[j] * (1.0 - inst.blend) + b[j] * double(inst.blend);
    if (local_fade && inst.blend > 0.0f) {
        const ReferenceLayer fade{&model.clips[gpu::shader::throngClipB(inst.clips)], t,
                                  std::vector<double>(model.skeleton.size(), double(inst.blend))};
        m = referenceBlendedSkinningMatrices(model, &model.clips[gpu::shader::throngClipA(inst.clips)], t, {&fade, 1},
                                             true);
    }
    for (const Mesh& mesh : model.meshes) {
        const SkinnedVertices v = dual_quaternion ? referenceSkinDualQuaternion(mesh, m) : referenceSkin(mesh, m);
        local.insert(local.end(), v.positions.begin(), v.positions.end());
    }
    return local;
}

} // namespace throng::test
