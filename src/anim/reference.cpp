// The double-precision reference: sampling, hierarchy and skinning in double. It shares the
// interpolation code with the float runtime (interpolate.h) but nothing else, so a mistake in
// the fast paths shows up as a difference against it.
#include <throng/anim.h>

#include "interpolate.h"

#include <glm/gtc/matrix_inverse.hpp>

namespace throng {

std::vector<glm::dmat4> referenceModelMatrices(const Model& model, const Clip* clip, double time, bool loop) {
    const Skeleton& sk = model.skeleton;
    const uint32_t n = sk.size();
    std::vector<glm::dvec3> translation(n), scale(n);
    std::vector<glm::dquat> rotation(n);
    for (uint32_t j = 0; j < n; ++j) {
        translation[j] = glm::dvec3(sk.rest[j].translation);
        rotation[j] = glm::dquat(sk.rest[j].rotation);
        scale[j] = glm::dvec3(sk.rest[j].scale);
    }
    if (clip != nullptr) {
        const double t = clipTime(time, clip->duration, loop);
        for (const Track& track : clip->tracks) {
            const glm::dvec4 v = detail::sampleTrackT<double>(track, t);
            switch (track.target) {
            case TrackTarget::Translation: translation[track.joint] = glm::dvec3(v); break;
            case TrackTarget::Rotation: rotation[track.joint] = glm::dquat(v.w, v.x, v.y, v.z); break;
            case TrackTarget::Scale: scale[track.joint] = glm::dvec3(v); break;
            }
        }
    }
    std::vector<glm::dmat4> world(n);
    for (uint32_t j = 0; j < n; ++j) {
        glm::dmat4 local = glm::mat4_cast(glm::normalize(rotation[j]));
        local[0] *= scale[j].x;
        local[1] *= scale[j].y;
        local[2] *= scale[j].z;
        local[3] = glm::dvec4(translation[j], 1.0);
        const int32_t p = sk.parents[j];
        world[j] = p == kNoParent ? local : world[size_t(p)] * local;
    }
    return world;
}

std::vector<glm::dmat4> referenceSkinningMatrices(const Model& model, const Clip* clip, double time, bool loop) {
    const std::vector<glm::dmat4> world = referenceModelMatrices(model, clip, time, loop);
    std::vector<glm::dmat4> out(model.palette.size());
    for (size_t k = 0; k < out.size(); ++k)
        out[k] = world[model.palette[k].joint] * glm::dmat4(model.palette[k].inverse_bind);
    return out;
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
