// CPU pose sampling for a whole crowd; see crowd_pose.h.
#include "crowd_pose.h"
#include "asset_library.h"

#include <throng/anim.h>

#include <glm/gtc/quaternion.hpp>

#include <cmath>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace throng::render {

namespace {

struct Scratch {
    std::vector<Transform> local, over;
    std::vector<glm::mat4> model, skin;
};

// The local pose of `clip` at instance-local time `t` into `out`.
void sampleClip(const AnimationSource& s, uint32_t clip, float t, std::vector<Transform>& out) {
    const Clip& c = s.clips[clip];
    if (c.tracks.empty())
        out = s.skeleton.rest;
    else
        SamplingJob{&s.skeleton, &c, t, true, out}.run();
}

// `over` laid on `local` by `weight` under `mask` (empty: every joint).
void blendOver(Scratch& w, float weight, std::span<const float> mask) {
    LayerJob{w.local, w.over, weight, mask, uint32_t(w.local.size()), w.local}.run();
}

MatrixRows toRows(const glm::mat4& m) {
    // glm is column-major: row r is (m[0][r], m[1][r], m[2][r], m[3][r]).
    MatrixRows r;
    for (int row = 0; row < 3; ++row) r.rows[row] = glm::vec4(m[0][row], m[1][row], m[2][row], m[3][row]);
    return r;
}

} // namespace

PoseSources poseSources(const AnimationSource* source) {
    PoseSources out;
    if (source == nullptr || source->empty()) return out;
    out.models = {source};
    out.first_clip = {0};
    out.joints = source->palette.size();
    return out;
}

PoseSources poseSources(std::span<const AnimationSource> sources, std::span<const AssetRange> ranges, size_t joints) {
    PoseSources out;
    if (sources.empty() || sources.size() != ranges.size()) return out;
    for (size_t m = 0; m < sources.size(); ++m) {
        if (sources[m].empty() || sources[m].palette.size() > joints || sources[m].clips.size() != ranges[m].clip_count)
            return PoseSources{};
        out.models.push_back(&sources[m]);
        out.first_clip.push_back(ranges[m].first_clip);
    }
    out.joints = joints;
    return out;
}

void sampleCrowdPoses(const PoseSources& sources, std::span<const gpu::shader::InstanceRecord> instances, float time,
                      std::span<MatrixRows> out, std::span<const PoseLayerSetup> layers) {
    const size_t joints = sources.joints;
    tbb::enumerable_thread_specific<Scratch> scratch;
    tbb::parallel_for(
        tbb::blocked_range<size_t>(0, instances.size(), 64), [&](const tbb::blocked_range<size_t>& range) {
            Scratch& w = scratch.local();
            for (size_t i = range.begin(); i != range.end(); ++i) {
                const gpu::shader::InstanceRecord& inst = instances[i];
                const uint32_t m =
                    std::min<uint32_t>(gpu::shader::throngAssetOf(inst.clips), uint32_t(sources.models.size() - 1));
                const AnimationSource& s = *sources.models[m];
                if (w.local.size() != s.skeleton.size() || w.skin.size() != s.palette.size()) {
                    w.local.resize(s.skeleton.size());
                    w.over.resize(s.skeleton.size());
                    w.model.resize(s.skeleton.size());
                    w.skin.resize(s.palette.size());
                }
                const float local = time * inst.speed + inst.time_offset;
                const uint32_t clip_a = gpu::shader::throngClipA(inst.clips) - sources.first_clip[m],
                               clip_b = gpu::shader::throngClipB(inst.clips) - sources.first_clip[m];
                sampleClip(s, clip_a, local, w.local);
                if (inst.blend > 0.0f) {
                    sampleClip(s, clip_b, local, w.over);
                    blendOver(w, std::min(inst.blend, 1.0f), {});
                }
                const uint32_t key = inst.key != 0 ? inst.key : uint32_t(i);
                for (uint32_t l = 0; l < layers.size(); ++l) {
                    if (!gpu::shader::throngCarries(key, THRONG_LAYER_SALT + l, layers[l].share)) continue;
                    sampleClip(s, layers[l].clip, local, w.over);
                    blendOver(w, layers[l].weight, layers[l].mask);
                }
                LocalToModelJob{&s.skeleton, w.local, w.model}.run();
                SkinningMatricesJob{s.palette, w.model, w.skin}.run();
                MatrixRows* dst = &out[i * joints];
                for (size_t j = 0; j < w.skin.size(); ++j) dst[j] = toRows(w.skin[j]);
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
