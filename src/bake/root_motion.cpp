// Taking root motion out of a model's clips: throng/root_motion.h, offline part.
#include <throng/anim.h>
#include <throng/root_motion.h>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

namespace throng {
namespace {

constexpr double kAutoTravel = 0.1; // of the bind pose's diagonal: `auto` picks a joint travelling farther

// The rotation part of a model matrix (columns normalised: scale taken out).
glm::dquat rotationOf(const glm::dmat4& m) {
    glm::dmat3 r(m);
    for (int c = 0; c < 3; ++c) {
        const double l = glm::length(r[c]);
        if (l > 0.0) r[c] /= l;
    }
    return glm::normalize(glm::quat_cast(r));
}

// The angle of the twist of `q` about +y (q = twist * swing, the swing's axis horizontal).
double twistAngle(const glm::dquat& q) {
    if (std::abs(q.y) < 1e-12 && std::abs(q.w) < 1e-12) return 0.0; // a half turn about a horizontal axis
    return 2.0 * std::atan2(q.y, q.w);
}

double wrapAngle(double a) {
    a = std::remainder(a, 2.0 * std::numbers::pi);
    return a <= -std::numbers::pi ? a + 2.0 * std::numbers::pi : a;
}

glm::dquat yawQuat(double yaw) { return glm::angleAxis(yaw, glm::dvec3(0.0, 1.0, 0.0)); }

glm::dquat asQuat(glm::vec4 v) { return glm::dquat(double(v.w), double(v.x), double(v.y), double(v.z)); }
glm::vec4 asVec(const glm::dquat& q) { return glm::vec4(float(q.x), float(q.y), float(q.z), float(q.w)); }

// The joint's parent's model matrix at clip time t (identity for a skeleton root).
glm::dmat4 parentAt(const Model& model, const Clip& clip, uint32_t joint, double t) {
    const int32_t parent = model.skeleton.parents[joint];
    if (parent == kNoParent) return glm::dmat4(1.0);
    return referenceModelMatrices(model, &clip, t, false)[size_t(parent)];
}

void removeTranslation(const Model& original, const Clip& clip, Track& track, glm::dvec3 start) {
    const bool cubic = track.interpolation == Interpolation::CubicSpline;
    for (size_t k = 0; k < track.times.size(); ++k) {
        const glm::dmat4 parent = parentAt(original, clip, track.joint, double(track.times[k]));
        const glm::dmat3 linear(parent);
        const glm::dmat3 back = glm::inverse(linear);
        glm::vec4& value = track.values[cubic ? 3 * k + 1 : k];
        const glm::dvec3 p = glm::dvec3(parent * glm::dvec4(glm::dvec3(value), 1.0));
        const glm::dvec3 d(p.x - start.x, 0.0, p.z - start.z);
        value = glm::vec4(glm::dvec3(value) - back * d, 0.0f);
        if (!cubic) continue;
        for (size_t tangent : {3 * k, 3 * k + 2}) { // per-second rates: lose their horizontal part
            glm::vec4& v = track.values[tangent];
            glm::dvec3 rate = linear * glm::dvec3(v);
            rate.y = 0.0;
            v = glm::vec4(glm::dvec3(v) - back * rate, 0.0f);
        }
    }
}

void removeYaw(const Model& original, const Clip& clip, Track& track, double start_twist) {
    const bool cubic = track.interpolation == Interpolation::CubicSpline;
    for (size_t k = 0; k < track.times.size(); ++k) {
        const glm::dquat parent = rotationOf(parentAt(original, clip, track.joint, double(track.times[k])));
        glm::vec4& value = track.values[cubic ? 3 * k + 1 : k];
        const double yaw = twistAngle(parent * glm::normalize(asQuat(value))) - start_twist;
        // The parent's frame turned back by the yaw: the joint's model rotation loses it.
        const glm::dquat change = glm::inverse(parent) * yawQuat(-yaw) * parent;
        value = asVec(glm::normalize(change * glm::normalize(asQuat(value))));
        if (!cubic) continue;
        for (size_t tangent : {3 * k, 3 * k + 2}) track.values[tangent] = asVec(change * asQuat(track.values[tangent]));
    }
}

// The first joint that moves the model's geometry but is not `joint` or below it (-1: none): the
// motion is taken out of the joint's own transform, so all the geometry must hang from it. Also
// an animated ancestor, whose motion the joint's keys would not see between them.
int32_t outsideJoint(const Model& model, uint32_t joint) {
    const Skeleton& sk = model.skeleton;
    auto below = [&](int32_t j) {
        for (; j != kNoParent; j = sk.parents[size_t(j)])
            if (uint32_t(j) == joint) return true;
        return false;
    };
    for (const PaletteEntry& e : model.palette)
        if (!below(int32_t(e.joint))) return int32_t(e.joint);
    for (const Mesh& mesh : model.meshes)
        if (mesh.rigid_joint >= 0 && !below(mesh.rigid_joint)) return mesh.rigid_joint;
    for (const Clip& clip : model.clips)
        for (const Track& t : clip.tracks)
            if (t.joint != joint && below(int32_t(joint)) && !below(int32_t(t.joint))) {
                for (int32_t a = sk.parents[joint]; a != kNoParent; a = sk.parents[size_t(a)])
                    if (uint32_t(a) == t.joint) return a;
            }
    return -1;
}

} // namespace

Result<int32_t> rootMotionJoint(const Model& model, std::string_view spec) {
    const Skeleton& sk = model.skeleton;
    if (spec != "auto") {
        for (uint32_t j = 0; j < sk.size(); ++j) {
            if (sk.names[j] != spec) continue;
            if (const int32_t out = outsideJoint(model, j); out >= 0)
                return Error{"root motion joint '" + std::string(spec) + "' does not carry the whole model: joint '" +
                             sk.names[size_t(out)] +
                             "' moves geometry from outside it (or animates above it); name a joint above every "
                             "skinned joint"};
            return int32_t(j);
        }
        std::string some;
        for (uint32_t j = 0; j < sk.size() && j < 8; ++j) some += (j > 0 ? ", '" : "'") + sk.names[j] + "'";
        if (sk.size() > 8) some += ", ...";
        return Error{"root motion joint '" + std::string(spec) + "' is not in the skeleton" +
                     (sk.size() > 0 ? " (it has " + some + ")" : " (it has no joints)")};
    }
    const double limit = kAutoTravel * double(bindPoseBounds(model).diagonal());
    std::vector<double> travel(sk.size(), 0.0);
    for (const Clip& clip : model.clips) {
        const std::vector<glm::dmat4> first = referenceModelMatrices(model, &clip, 0.0, false);
        const std::vector<glm::dmat4> last = referenceModelMatrices(model, &clip, double(clip.duration), false);
        for (uint32_t j = 0; j < sk.size(); ++j) {
            const glm::dvec3 d = glm::dvec3(last[j][3] - first[j][3]);
            travel[j] = std::max(travel[j], std::hypot(d.x, d.z));
        }
    }
    std::vector<uint32_t> depth(sk.size(), 0);
    for (uint32_t j = 0; j < sk.size(); ++j) // parents come before children (validate)
        depth[j] = sk.parents[j] == kNoParent ? 0 : depth[size_t(sk.parents[j])] + 1;
    int32_t best = -1;
    for (uint32_t j = 0; j < sk.size(); ++j)
        if (travel[j] > limit && (best < 0 || depth[j] < depth[size_t(best)])) best = int32_t(j);
    return best >= 0 && outsideJoint(model, uint32_t(best)) < 0 ? best : -1;
}

std::vector<double> rootSpeeds(const Model& model, uint32_t joint) {
    std::vector<double> speeds;
    for (const Clip& clip : model.clips) {
        if (!(clip.duration > 0.0f)) {
            speeds.push_back(0.0);
            continue;
        }
        const glm::dvec4 a = referenceModelMatrices(model, &clip, 0.0, false)[joint][3];
        const glm::dvec4 b = referenceModelMatrices(model, &clip, double(clip.duration), false)[joint][3];
        speeds.push_back(std::hypot(b.x - a.x, b.z - a.z) / double(clip.duration));
    }
    return speeds;
}

RootMotionSource removeRootMotion(Model& model, uint32_t joint) {
    assert(joint < model.skeleton.size());
    const Model original = model;
    RootMotionSource source;
    source.joint = joint;
    for (size_t c = 0; c < model.clips.size(); ++c) {
        const glm::dmat4 m = referenceModelMatrices(original, &original.clips[c], 0.0, false)[joint];
        source.start.push_back(glm::dvec3(m[3]));
        source.pivots.push_back({m[3].x, m[3].z});
        source.start_twist.push_back(twistAngle(rotationOf(m)));
        for (Track& track : model.clips[c].tracks) {
            if (track.joint != joint) continue;
            if (track.target == TrackTarget::Translation)
                removeTranslation(original, original.clips[c], track, source.start.back());
            else if (track.target == TrackTarget::Rotation)
                removeYaw(original, original.clips[c], track, source.start_twist.back());
        }
    }
    return source;
}

glm::dvec3 rootMotionOf(const Model& original, const RootMotionSource& source, uint32_t clip, double time) {
    const glm::dmat4 m = referenceModelMatrices(original, &original.clips[clip], time, false)[source.joint];
    const glm::dvec3 start = source.start[clip];
    return {m[3].x - start.x, m[3].z - start.z, wrapAngle(twistAngle(rotationOf(m)) - source.start_twist[clip])};
}

} // namespace throng
