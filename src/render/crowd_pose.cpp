// CPU pose sampling for a whole crowd; see crowd_pose.h.
#include "crowd_pose.h"

#include <throng/anim.h>

#include <glm/gtc/quaternion.hpp>

#include <cmath>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace throng::render {

namespace {

struct Scratch {
    std::vector<Transform> local;
    std::vector<glm::mat4> model;
    std::vector<glm::mat4> skin_a, skin_b;
};

// Skinning matrices of `clip` at instance-local time `t` into `out`.
void sampleClip(const AnimationSource& s, uint32_t clip, float t, Scratch& w, std::vector<glm::mat4>& out) {
    const Clip& c = s.clips[clip];
    if (c.tracks.empty())
        w.local = s.skeleton.rest;
    else
        SamplingJob{&s.skeleton, &c, t, true, w.local}.run();
    LocalToModelJob{&s.skeleton, w.local, w.model}.run();
    SkinningMatricesJob{s.palette, w.model, out}.run();
}

MatrixRows toRows(const glm::mat4& m) {
    // glm is column-major: row r is (m[0][r], m[1][r], m[2][r], m[3][r]).
    MatrixRows r;
    for (int row = 0; row < 3; ++row) r.rows[row] = glm::vec4(m[0][row], m[1][row], m[2][row], m[3][row]);
    return r;
}

} // namespace

void sampleCrowdPoses(const AnimationSource& s, std::span<const gpu::shader::InstanceRecord> instances, float time,
                      std::span<MatrixRows> out) {
    const size_t joints = s.palette.size();
    tbb::enumerable_thread_specific<Scratch> scratch([&] {
        Scratch w;
        w.local.resize(s.skeleton.size());
        w.model.resize(s.skeleton.size());
        w.skin_a.resize(joints);
        w.skin_b.resize(joints);
        return w;
    });
    tbb::parallel_for(tbb::blocked_range<size_t>(0, instances.size(), 64),
                      [&](const tbb::blocked_range<size_t>& range) {
                          Scratch& w = scratch.local();
                          for (size_t i = range.begin(); i != range.end(); ++i) {
                              const gpu::shader::InstanceRecord& inst = instances[i];
                              const float local = time * inst.speed + inst.time_offset;
                              const uint32_t clip_a = inst.clips & 0xffffu, clip_b = inst.clips >> 16;
                              sampleClip(s, clip_a, local, w, w.skin_a);
                              MatrixRows* dst = &out[i * joints];
                              if (inst.blend > 0.0f) {
                                  sampleClip(s, clip_b, local, w, w.skin_b);
                                  for (size_t j = 0; j < joints; ++j)
                                      dst[j] = toRows(w.skin_a[j] * (1.0f - inst.blend) + w.skin_b[j] * inst.blend);
                              } else {
                                  for (size_t j = 0; j < joints; ++j) dst[j] = toRows(w.skin_a[j]);
                              }
                          }
                      });
}

void encodeQuaternion(const MatrixRows& m, glm::vec4 out[2]) {
    const glm::mat3 r(glm::vec3(m.rows[0][0], m.rows[1][0], m.rows[2][0]),
                      glm::vec3(m.rows[0][1], m.rows[1][1], m.rows[2][1]),
                      glm::vec3(m.rows[0][2], m.rows[1][2], m.rows[2][2]));
    const float scale = std::cbrt(glm::determinant(r));
    const glm::quat q = glm::normalize(glm::quat_cast(r / (scale != 0.0f ? scale : 1.0f)));
    out[0] = glm::vec4(q.x, q.y, q.z, q.w);
    out[1] = glm::vec4(m.rows[0][3], m.rows[1][3], m.rows[2][3], scale);
}

glm::mat4 toMatrix(const MatrixRows& m) {
    return glm::transpose(glm::mat4(m.rows[0], m.rows[1], m.rows[2], glm::vec4(0.0f, 0.0f, 0.0f, 1.0f)));
}

} // namespace throng::render
