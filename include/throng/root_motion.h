// throng/root_motion.h — root motion: a clip's travel taken out of its pose and kept as a curve.
//
// A walking clip whose root joint travels (CesiumMan walks two units forward over its cycle) drawn
// in a crowd slides back at every loop, and a simulation moving its members at a steady speed
// makes the feet slide inside the cycle. Baked with root motion (`bake --root-motion JOINT|auto`,
// BakeOptions::root_motion), each clip is stored *in place* and its travel as a curve the
// simulation (or a host) moves members by, so the feet stay planted.
//
// What is taken out. For clip c, let p(t) be the root joint's model-space position and R(t) its
// model-space rotation (the reference pose at clip time t). The motion at t is
//   Motion(t) = T(pivot + d(t)) * Ry(yaw(t)) * T(-pivot)
// with d(t) = the horizontal (x, z) part of p(t) - p(0), yaw(t) = the twist of R(t) about +y
// (swing-twist decomposition) minus that of R(0), and pivot = the horizontal part of p(0). The
// in-place pose is Motion(t)^-1 * pose(t): its root keeps the height it had and stands over the
// pivot, facing the way it faced at t = 0. Pose(t) = Motion(t) * in-place pose(t) holds exactly
// for the translation; for the yaw it holds exactly at the clip's rotation keys and, between
// them, within what interpolating the changed keys does (the in-place source tracks are the
// original ones with each key changed; tests/root_motion_test.cpp measures it).
//
// Every technique draws the same in-place clip: the baked frames, the vertex animation and the
// impostors are made from the changed model, and AnimationSource (what cpu, palette and bonetex
// sample) holds the changed tracks.
//
// The curve: per baked frame of the clip (the frame times of baked.h), (d.x, d.z, yaw) as
// float; tweened between frames like the frames themselves (linearly; the yaw is unwrapped
// along the frames, so it may pass +-pi). Stored in the .throng file's optional `ROOT` section
// (docs/FORMAT.md); a reader that does not know it draws the clips in place, without the curve.
#pragma once

#include <throng/api.h>
#include <throng/baked.h>

#include <string_view>

THRONG_API_BEGIN
namespace throng {

// --- Runtime (throng_format): reading the curve ------------------------------------------

// (d.x, d.z, yaw) of clip `clip` at clip time `time` (mapped by clipTime(time, duration, loop);
// tweened between baked frames as the frames are). Zero where the clip has no curve.
glm::vec3 rootMotionAt(const BakedClip& clip, double time);

// How a member playing `clip` moves between clip times t0 and t1 (t1 >= t0, not wrapped: a
// looping clip adds one whole cycle's travel per loop passed), in the member's own frame as it
// was at t0: the translation (x, z) and the turn (yaw, radians), so that the member's transform
// at t1 = its transform at t0 * T(pivot) * T(x, 0, z) * Ry(yaw) * T(-pivot). Not looping: times
// clamp to the clip. Zero where the clip has no curve.
struct RootDelta {
    glm::vec2 translation{0.0f};
    float yaw = 0.0f;
};
RootDelta rootMotionBetween(const BakedClip& clip, double t0, double t1);

// One cycle's horizontal travel / duration: the clip's root speed in model units per second (0
// without a curve or for a clip of duration 0). `throng info` prints it.
double rootSpeed(const BakedClip& clip);

// --- Offline (throng_bake): taking the motion out ---------------------------------------

// The joint `spec` names for root motion: a joint name of the model's skeleton, or "auto": the
// topmost joint (fewest ancestors, then lowest index) whose horizontal travel over a clip (from
// its place at the start to its place at the end) exceeds 10% of the bind pose's diagonal in any
// clip; -1 when none does (a foot swinging in an in-place cycle ends where it began) or when
// that joint does not carry the whole model. The joint must carry it: every palette joint and
// every joint a rigid mesh hangs from is the joint or below it, and nothing above it is animated
// (the motion is taken out of the joint's own keys).
// Errors: a name the skeleton does not have (the message lists a few that it has), a joint that
// does not carry the whole model (RobotExpressive's `Body`: its IK feet hang beside it).
Result<int32_t> rootMotionJoint(const Model& model, std::string_view spec);

// Per clip of `model`: joint `joint`'s horizontal travel from the clip's start to its end over
// its duration, model units per second (0 for a clip of duration 0): the root speed a bake with
// that joint would store. `throng info` prints it for the `auto` joint.
std::vector<double> rootSpeeds(const Model& model, uint32_t joint);

// Per clip of `model`, what removeRootMotion takes out: the pivot and the motion at any time.
struct RootMotionSource {
    uint32_t joint = 0;
    std::vector<glm::dvec2> pivots;  // per clip
    std::vector<glm::dvec3> start;   // per clip: p(0)
    std::vector<double> start_twist; // per clip: the twist angle of R(0) about +y
};

// Takes the motion of joint `joint` out of every clip of `model` (see the top): its translation
// keys lose the horizontal part of p(t_k) - p(0), expressed in its parent's frame at t_k (cubic
// tangents lose the horizontal part of theirs), its rotation keys the twist about +y of R(t_k)
// relative to R(0). Returns what was taken out, for rootCurve(). A clip that does not move the
// joint is unchanged. Contract (asserted): joint < model.skeleton.size(), model valid.
RootMotionSource removeRootMotion(Model& model, uint32_t joint);

// The motion of clip `clip` of `original` (the model before removeRootMotion) at clip time
// `time`: (d.x, d.z, yaw), double precision; the yaw in (-pi, pi] (callers unwrap along frames).
glm::dvec3 rootMotionOf(const Model& original, const RootMotionSource& source, uint32_t clip, double time);

} // namespace throng
THRONG_API_END
