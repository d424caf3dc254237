// The double-precision reference: sampling, hierarchy and skinning in double. It shares the
// interpolation code with the float runtime (interpolate.h) but nothing else, so a mistake in
// the fast paths shows up as a difference against it.
#include <throng/anim.h>

#include "interpolate.h"

#include <glm/gtc/matrix_inverse.hpp>

namespace throng {

namespace {

struct LocalPose {
    std::vector<glm::dvec3> translation, scale;
    std::vector<glm::dquat> rotation;
};

// The rest pose with `clip`'s tracks at `time` over it (clip == nullptr: the rest pose).
LocalPose referenceLocalPose(const Model& model, const Clip* clip, double time, bool loop) {
    const Skeleton& sk = model.skeleton;
    const uint32_t n = sk.size();
    LocalPose pose{std::vector<glm::dvec3>(n), std::vector<glm::dvec3>(n), std::vector<glm::dquat>(n)};
    for (uint32_t j = 0; j < n; ++j) {
        pose.translation[j] = glm::dvec3(sk.rest[j].translation);
        pose.rotation[j] = glm::dquat(sk.rest[j].rotation);
        pose.scale[j] = glm::dvec3(sk.rest[j].scale);
    }
    if (clip != nullptr) {
        const double t = clipTime(time, clip->duration, loop);
        for (const Track& track : clip->tracks) {
            const glm::dvec4 v = detail::sampleTrackT<double>(track, t);
            switch (track.target) {
            case TrackTarget::Translation: pose.translation[track.joint] = glm::dvec3(v); break;
            case TrackTarget::Rotation: pose.rotation[track.joint] = glm::dquat(v.w, v.x, v.y, v.z); break;
            case TrackTarget::Scale: pose.scale[track.joint] = glm::dvec3(v); break;
            }
        }
    }
    return pose;
}

std::vector<glm::dmat4> modelMatrices(const Skeleton& sk, const LocalPose& pose) {
    const uint32_t n = sk.size();
    std::vector<glm::dmat4> world(n);
    for (uint32_t j = 0; j < n; ++j) {
        glm::dmat4 local = glm::mat4_cast(glm::normalize(pose.rotation[j]));
        local[0] *= pose.scale[j].x;
        local[1] *= pose.scale[j].y;
        local[2] *= pose.scale[j].z;
        local[3] = glm::dvec4(pose.translation[j], 1.0);
        const int32_t p = sk.parents[j];
        world[j] = p == kNoParent ? local : world[size_t(p)] * local;
    }
    return world;
}

std::vector<glm::dmat4> skinningMatrices(const Model& model, const std::vector<glm::dmat4>& world) {
    std::vector<glm::dmat4> out(model.palette.size());
    for (size_t k = 0; k < out.size(); ++k)
        out[k] = world[model.palette[k].joint] * glm::dmat4(model.palette[k].inverse_bind);
    return out;
}

} // namespace

std::vector<glm::dmat4> referenceModelMatrices(const Model& model, const Clip* clip, double time, bool loop) {
    return modelMatrices(model.skeleton, referenceLocalPose(model, clip, time, loop));
}

std::vector<glm::dmat4> referenceSkinningMatrices(const Model& model, const Clip* clip, double time, bool loop) {
    return skinningMatrices(model, referenceModelMatrices(model, clip, time, loop));
}

namespace {

// LayerJob's per-joint blend in double: `pose` moved toward `over` by weights[j].
void blendInto(LocalPose& pose, const LocalPose& over, std::span<const double> weights) {
    for (size_t j = 0; j < pose.rotation.size() && j < weights.size(); ++j) {
        const double w = weights[j];
        if (w == 0.0) continue;
        if (w == 1.0) {
            pose.translation[j] = over.translation[j];
            pose.rotation[j] = over.rotation[j];
            pose.scale[j] = over.scale[j];
            continue;
        }
        const glm::dquat b = glm::dot(pose.rotation[j], over.rotation[j]) < 0.0 ? -over.rotation[j] : over.rotation[j];
        pose.translation[j] += (over.translation[j] - pose.translation[j]) * w;
        pose.scale[j] += (over.scale[j] - pose.scale[j]) * w;
        pose.rotation[j] = glm::normalize(pose.rotation[j] * (1.0 - w) + b * w);
    }
}

} // namespace

std::vector<glm::dmat4> referenceLayeredSkinningMatrices(const Model& model, const Clip& base, double base_time,
                                                         const Clip& layer, double layer_time,
                                                         std::span<const double> weights, bool loop) {
    const ReferenceLayer over{&layer, layer_time, std::vector<double>(weights.begin(), weights.end())};
    return referenceBlendedSkinningMatrices(model, &base, base_time, {&over, 1}, loop);
}

std::vector<glm::dmat4> referenceBlendedSkinningMatrices(const Model& model, const Clip* base, double base_time,
                                                         std::span<const ReferenceLayer> layers, bool loop) {
    LocalPose pose = referenceLocalPose(model, base, base_time, loop);
    for (const ReferenceLayer& l : layers) blendInto(pose, referenceLocalPose(model, l.clip, l.time, loop), l.weights);
    return skinningMatrices(model, modelMatrices(model.skeleton, pose));
}

namespace {

// Every vertex moved by the matrix blend(v) gives it; normals by its exact inverse transpose.
template <class Blend> SkinnedVertices skinEachVertex(const Mesh& mesh, Blend blend) {
    SkinnedVertices out;
    const size_t n = mesh.positions.size();
    out.positions.resize(n);
    out.normals.resize(mesh.normals.size());
    for (size_t v = 0; v < n; ++v) {
        const glm::dmat4 blended = blend(v);
        out.positions[v] = glm::dvec3(blended * glm::dvec4(glm::dvec3(mesh.positions[v]), 1.0));
        if (v < mesh.normals.size()) {
            const glm::dmat3 normal_matrix = glm::inverseTranspose(glm::dmat3(blended));
            out.normals[v] = glm::normalize(normal_matrix * glm::dvec3(mesh.normals[v]));
        }
    }
    return out;
}

} // namespace

SkinnedVertices referenceSkin(const Mesh& mesh, std::span<const glm::dmat4> matrices) {
    return skinEachVertex(mesh, [&](size_t v) {
        glm::dmat4 blended(0.0);
        for (int i = 0; i < 4; ++i) {
            const double w = mesh.weights[v][i];
            if (w != 0.0) blended += matrices[mesh.joints[v][i]] * w;
        }
        return blended;
    });
}

// The blend is s R (and t): its inverse transpose turns normals by R, as the shaders do.
SkinnedVertices referenceSkinDualQuaternion(const Mesh& mesh, std::span<const glm::dmat4> matrices) {
    return skinEachVertex(mesh,
                          [&](size_t v) { return dualQuaternionBlend(matrices, mesh.joints[v], mesh.weights[v]); });
}

} // namespace throng
