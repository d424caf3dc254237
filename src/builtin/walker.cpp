// walker.cpp — builtin:walker, a rigged humanoid generated in code, with looping clips.
//
// About 1.8 units tall, standing on y = 0, facing +z, Y up (so its left is +x). 21 joints;
// the bind pose is the rest pose, with every rest rotation the identity, so each inverse bind
// matrix is a plain translation by minus the joint's rest position.
//
// The skin is seven straight lofted tubes (torso with head, two arms, two legs, two feet) of
// elliptical cross-section. Along each tube a chain of joints owns consecutive stretches;
// around every joint the weight moves from one bone to the next with a smoothstep, so
// vertices near a joint have 2-3 influences. Colours are per vertex (shirt, trousers, skin,
// hair, shoes); UVs give each tube a column of the unit square (u around, v along).
//
// Clips (`walk`, `idle`) are sampled from pose functions of a phase in [0, 2 pi): every
// curve is a sum of whole harmonics, and the last key is a copy of the first, so the clips
// loop seamlessly. LINEAR rotation tracks plus a hips translation track.
#include <throng/builtin.h>

#include "walker_colors.h"

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <span>
#include <vector>

namespace throng {
namespace {

enum Joint : uint16_t {
    kHips,
    kSpine,
    kChest,
    kNeck,
    kHead,
    kShoulderL,
    kUpperArmL,
    kForearmL,
    kHandL,
    kShoulderR,
    kUpperArmR,
    kForearmR,
    kHandR,
    kThighL,
    kShinL,
    kFootL,
    kToeL,
    kThighR,
    kShinR,
    kFootR,
    kToeR,
    kJointCount
};

// The right-side twin of a left joint: both sides list their joints in the same order.
static_assert(kShoulderR - kShoulderL == 4 && kThighR - kThighL == 4);
uint16_t sided(Joint leftJoint, bool left) { return uint16_t(left ? leftJoint : leftJoint + 4); }

struct JointDef {
    const char* name;
    int32_t parent;
    glm::vec3 position; // rest position, model space
};

// Parent before child. Left is +x (the walker faces +z).
constexpr JointDef kJoints[kJointCount] = {
    {"hips", kNoParent, {0.0f, 0.95f, 0.0f}},
    {"spine", kHips, {0.0f, 1.05f, 0.0f}},
    {"chest", kSpine, {0.0f, 1.25f, 0.0f}},
    {"neck", kChest, {0.0f, 1.50f, 0.0f}},
    {"head", kNeck, {0.0f, 1.58f, 0.0f}},
    {"shoulder_l", kChest, {0.05f, 1.44f, 0.0f}},
    {"upper_arm_l", kShoulderL, {0.19f, 1.44f, 0.0f}},
    {"forearm_l", kUpperArmL, {0.19f, 1.16f, 0.0f}},
    {"hand_l", kForearmL, {0.19f, 0.90f, 0.0f}},
    {"shoulder_r", kChest, {-0.05f, 1.44f, 0.0f}},
    {"upper_arm_r", kShoulderR, {-0.19f, 1.44f, 0.0f}},
    {"forearm_r", kUpperArmR, {-0.19f, 1.16f, 0.0f}},
    {"hand_r", kForearmR, {-0.19f, 0.90f, 0.0f}},
    {"thigh_l", kHips, {0.09f, 0.92f, 0.0f}},
    {"shin_l", kThighL, {0.09f, 0.50f, 0.0f}},
    {"foot_l", kShinL, {0.09f, 0.085f, 0.0f}},
    {"toe_l", kFootL, {0.09f, 0.03f, 0.13f}},
    {"thigh_r", kHips, {-0.09f, 0.92f, 0.0f}},
    {"shin_r", kThighR, {-0.09f, 0.50f, 0.0f}},
    {"foot_r", kShinR, {-0.09f, 0.085f, 0.0f}},
    {"toe_r", kFootR, {-0.09f, 0.03f, 0.13f}},
};

// --- Mesh ---------------------------------------------------------------------------------

// One cross-section of a tube: distance s along the axis, semi-axes ra (along the tube's
// side vector a) and rb (along b = dir x a), and lift, an offset of the centre along b.
// The first and last stations of a tube have zero radius and become rounded poles.
struct TubeStation {
    double s, ra, rb, lift;
};

// From s onward (until the next node) the tube belongs to `joint`; the hand-over from the
// previous joint is a smoothstep over [s - blend, s + blend].
struct Node {
    double s;
    uint16_t joint;
    double blend;
};

// An extra influence that fades out with the distance from `centre` (armpits, buttocks).
struct Pull {
    uint16_t joint;
    glm::dvec3 centre;
    double radius, strength;
};

enum class Region { Torso, Arm, Leg, Foot };

struct Tube {
    Region region;
    glm::dvec3 origin, dir, side; // s = dot(p - origin, dir); side is a, perpendicular to dir
    int segments;                 // quads around
    double spacing;               // between rings, in model units
    std::vector<TubeStation> profile;
    int32_t parent; // joint that owns the tube before its first node, or -1
    std::vector<Node> nodes;
    std::vector<Pull> pulls;
};

constexpr int kTubeCapRings = 4;
constexpr double kTubeEps = 1e-4; // finite-difference step for the normals

using namespace walker_colors;

// The cross-section at fractional station index x: quarter ellipses over the first and last
// intervals (round poles), cubic Hermite with finite-difference slopes elsewhere (C1).
TubeStation sectionAt(std::span<const TubeStation> st, double x) {
    const int n = int(st.size());
    if (x <= 0.0) return st[0];
    if (x >= n - 1) return st[n - 1];
    const int k = int(x);
    const double u = x - k, phi = u * glm::half_pi<double>();
    const TubeStation& a = st[k];
    const TubeStation& b = st[k + 1];
    if (k == 0) {
        const double c = 1.0 - std::cos(phi), s = std::sin(phi);
        return {a.s + (b.s - a.s) * c, b.ra * s, b.rb * s, b.lift};
    }
    if (k == n - 2) {
        const double c = std::cos(phi), s = std::sin(phi);
        return {a.s + (b.s - a.s) * s, a.ra * c, a.rb * c, a.lift};
    }
    auto slope = [&](int i, double TubeStation::*r) {
        if (i <= 1 || i >= n - 2) return 0.0;
        return (st[i + 1].*r - st[i - 1].*r) / (st[i + 1].s - st[i - 1].s);
    };
    const double h = b.s - a.s;
    const double h00 = (1 + 2 * u) * (1 - u) * (1 - u), h10 = u * (1 - u) * (1 - u);
    const double h01 = u * u * (3 - 2 * u), h11 = u * u * (u - 1);
    auto hermite = [&](double TubeStation::*r) {
        return h00 * a.*r + h10 * h * slope(k, r) + h01 * b.*r + h11 * h * slope(k + 1, r);
    };
    return {a.s + h * u, hermite(&TubeStation::ra), hermite(&TubeStation::rb), hermite(&TubeStation::lift)};
}

glm::dvec3 tubePoint(const Tube& t, double x, double theta) {
    const TubeStation c = sectionAt(t.profile, x);
    const glm::dvec3 b = glm::cross(t.dir, t.side);
    return t.origin + t.dir * c.s + t.side * (c.ra * std::cos(theta)) + b * (c.rb * std::sin(theta) + c.lift);
}

// Up to kMaxInfluences (joint, weight) pairs, heaviest first, summing to 1.
void skinWeights(const Tube& t, const glm::dvec3& p, double s, glm::u16vec4& joints, glm::vec4& weights) {
    std::array<double, kJointCount> w{};
    // Telescoping ramps: ramp k rises from 0 to 1 around node k, joint k gets ramp k minus
    // ramp k+1 and the parent 1 - ramp 0, so the weights sum to 1 by construction.
    auto ramp = [&](size_t k) {
        if (k >= t.nodes.size()) return 0.0;
        if (k == 0 && t.parent < 0) return 1.0;
        const Node& n = t.nodes[k];
        return glm::smoothstep(n.s - n.blend, n.s + n.blend, s);
    };
    if (t.parent >= 0) w[size_t(t.parent)] += 1.0 - ramp(0);
    for (size_t k = 0; k < t.nodes.size(); ++k) w[t.nodes[k].joint] += std::max(0.0, ramp(k) - ramp(k + 1));
    for (const Pull& pull : t.pulls) {
        const double f = pull.strength * (1.0 - glm::smoothstep(0.0, pull.radius, glm::distance(p, pull.centre)));
        for (double& x : w) x *= 1.0 - f;
        w[pull.joint] += f;
    }
    std::array<uint16_t, kJointCount> order;
    for (uint16_t j = 0; j < kJointCount; ++j) order[j] = j;
    std::stable_sort(order.begin(), order.end(), [&](uint16_t a, uint16_t b) { return w[a] > w[b]; });
    double kept[kMaxInfluences] = {};
    double sum = 0.0;
    for (uint32_t i = 0; i < kMaxInfluences; ++i) {
        kept[i] = w[order[i]] >= 1e-3 ? w[order[i]] : 0.0; // drop negligible influences
        sum += kept[i];
    }
    for (uint32_t i = 0; i < kMaxInfluences; ++i) {
        joints[i] = kept[i] > 0.0 ? order[i] : 0; // palette entry k is joint k
        weights[i] = float(kept[i] / sum);
    }
}

glm::vec4 regionColor(Region region, const glm::dvec3& p, double s) {
    switch (region) {
    case Region::Torso: {
        const bool eye = p.z > 0.06 && std::abs(p.y - 1.685) < 0.012 && std::abs(std::abs(p.x) - 0.035) < 0.014;
        if (eye) return kEyes;
        if (p.y > 1.72 || (p.y > 1.62 && p.z < -0.03)) return kHair;
        if (p.y > 1.50) return kSkin;
        return p.y > 1.06 ? kShirt : kTrousers;
    }
    case Region::Arm: return s < 0.29 ? kShirt : kSkin; // sleeves rolled up above the elbow
    case Region::Leg: return s < 0.86 ? kTrousers : kShoes;
    case Region::Foot: return kShoes;
    }
    return kSkin;
}

// Rings of segments + 1 vertices (the seam repeats for the UVs; a pole is a ring of
// coincident vertices). Normals: cross(dP/dtheta, dP/dx), outward because (a, b, dir) is
// right-handed; at the poles -dir and +dir.
void addTube(Mesh& mesh, const Tube& t, int column, int columns) {
    const int n = int(t.profile.size());
    std::vector<double> rings{0.0};
    for (int k = 0; k + 1 < n; ++k) {
        const bool cap = k == 0 || k == n - 2;
        const double len = t.profile[k + 1].s - t.profile[k].s;
        const int count = cap ? kTubeCapRings : std::max(1, int(std::ceil(len / t.spacing - 1e-9)));
        for (int i = 1; i <= count; ++i) rings.push_back(k + double(i) / count);
    }
    const uint32_t base = uint32_t(mesh.positions.size());
    const double length = t.profile.back().s - t.profile.front().s;
    for (size_t r = 0; r < rings.size(); ++r) {
        const double x = rings[r];
        const double xa = std::max(0.0, x - kTubeEps), xb = std::min(n - 1.0, x + kTubeEps);
        const double s = sectionAt(t.profile, x).s;
        for (int j = 0; j <= t.segments; ++j) {
            const double theta = glm::two_pi<double>() * (j % t.segments) / t.segments;
            const glm::dvec3 p = tubePoint(t, x, theta);
            glm::dvec3 normal = -t.dir;
            if (r + 1 == rings.size()) {
                normal = t.dir;
            } else if (r > 0) {
                const glm::dvec3 dx = tubePoint(t, xb, theta) - tubePoint(t, xa, theta);
                const glm::dvec3 dt = tubePoint(t, x, theta + kTubeEps) - tubePoint(t, x, theta - kTubeEps);
                normal = glm::cross(dt, dx);
            }
            mesh.positions.push_back(glm::vec3(p));
            mesh.normals.push_back(glm::vec3(glm::normalize(normal)));
            mesh.uvs.push_back(
                {float((column + double(j) / t.segments) / columns), float((s - t.profile.front().s) / length)});
            mesh.colors.push_back(regionColor(t.region, p, s));
            glm::u16vec4 joints;
            glm::vec4 weights;
            skinWeights(t, p, s, joints, weights);
            mesh.joints.push_back(joints);
            mesh.weights.push_back(weights);
        }
    }
    const uint32_t stride = uint32_t(t.segments) + 1;
    for (uint32_t r = 0; r + 1 < rings.size(); ++r) {
        for (uint32_t j = 0; j < uint32_t(t.segments); ++j) {
            const uint32_t v00 = base + r * stride + j, v01 = v00 + 1;
            const uint32_t v10 = v00 + stride, v11 = v10 + 1;
            if (r + 2 < rings.size()) mesh.indices.insert(mesh.indices.end(), {v00, v01, v11});
            if (r > 0) mesh.indices.insert(mesh.indices.end(), {v00, v11, v10});
        }
    }
}

glm::dvec3 jointPos(uint16_t j) { return glm::dvec3(kJoints[j].position); }

std::vector<Tube> walkerTubes() {
    const glm::dvec3 up{0, 1, 0}, down{0, -1, 0}, forward{0, 0, 1}, right{1, 0, 0};
    std::vector<Tube> tubes;
    // Torso and head along +y (s = y; b = -z, so a negative lift moves the head forward).
    tubes.push_back(
        {Region::Torso,
         {0, 0, 0},
         up,
         right,
         32,
         0.025,
         {{0.86, 0, 0, 0},
          {0.90, 0.13, 0.095, 0},
          {0.95, 0.165, 0.11, 0},
          {1.00, 0.165, 0.11, 0},
          {1.10, 0.145, 0.10, 0},
          {1.22, 0.155, 0.11, 0},
          {1.34, 0.165, 0.115, 0},
          {1.42, 0.19, 0.105, 0},
          {1.47, 0.165, 0.085, 0},
          {1.505, 0.09, 0.065, 0},
          {1.535, 0.055, 0.055, 0},
          {1.57, 0.052, 0.055, -0.005},
          {1.61, 0.075, 0.085, -0.015},
          {1.68, 0.09, 0.10, -0.02},
          {1.75, 0.08, 0.09, -0.015},
          {1.80, 0, 0, -0.015}},
         -1,
         {{0.86, kHips, 0}, {1.05, kSpine, 0.06}, {1.25, kChest, 0.10}, {1.50, kNeck, 0.04}, {1.58, kHead, 0.04}},
         {{kUpperArmL, jointPos(kUpperArmL), 0.12, 0.5},
          {kUpperArmR, jointPos(kUpperArmR), 0.12, 0.5},
          {kThighL, jointPos(kThighL) - glm::dvec3(0, 0.04, 0), 0.12, 0.5},
          {kThighR, jointPos(kThighR) - glm::dvec3(0, 0.04, 0), 0.12, 0.5}}});
    for (double x : {1.0, -1.0}) {
        const bool left = x > 0;
        // Arm from the shoulder top down to the finger tips; the hand is flat in y-z.
        tubes.push_back({Region::Arm,
                         {0.19 * x, 1.49, 0},
                         down,
                         right,
                         16,
                         0.025,
                         {{0.00, 0, 0, 0},
                          {0.04, 0.05, 0.055, 0},
                          {0.11, 0.048, 0.05, 0},
                          {0.23, 0.042, 0.045, 0},
                          {0.33, 0.038, 0.04, 0},
                          {0.43, 0.04, 0.042, 0},
                          {0.56, 0.028, 0.034, 0},
                          {0.60, 0.024, 0.042, 0},
                          {0.68, 0.02, 0.046, 0},
                          {0.75, 0.017, 0.034, 0},
                          {0.79, 0, 0, 0}},
                         sided(kShoulderL, left),
                         {{0.05, sided(kUpperArmL, left), 0.05},
                          {0.33, sided(kForearmL, left), 0.05},
                          {0.59, sided(kHandL, left), 0.03}},
                         {}});
        // Leg from inside the hips down to the ankle (the foot tube covers the end).
        tubes.push_back({Region::Leg,
                         {0.09 * x, 1.00, 0},
                         down,
                         right,
                         20,
                         0.03,
                         {{0.00, 0, 0, 0},
                          {0.06, 0.072, 0.085, 0},
                          {0.16, 0.076, 0.085, 0},
                          {0.32, 0.065, 0.07, 0},
                          {0.46, 0.05, 0.055, 0},
                          {0.50, 0.048, 0.052, 0},
                          {0.60, 0.052, 0.06, 0.005},
                          {0.78, 0.038, 0.042, 0},
                          {0.88, 0.034, 0.04, 0},
                          {0.93, 0.034, 0.04, 0},
                          {0.96, 0, 0, 0}},
                         kHips,
                         {{0.08, sided(kThighL, left), 0.06},
                          {0.50, sided(kShinL, left), 0.05},
                          {0.915, sided(kFootL, left), 0.035}},
                         {}});
        // Foot from heel to toe tip along +z (b = +y); lift keeps the sole flat on y = 0.
        tubes.push_back({Region::Foot,
                         {0.09 * x, 0.045, -0.07},
                         forward,
                         right,
                         16,
                         0.025,
                         {{0.00, 0, 0, 0},
                          {0.04, 0.04, 0.045, 0},
                          {0.12, 0.045, 0.045, 0},
                          {0.20, 0.048, 0.032, -0.013},
                          {0.25, 0.042, 0.025, -0.02},
                          {0.28, 0, 0, -0.02}},
                         -1,
                         {{0.00, sided(kFootL, left), 0}, {0.20, sided(kToeL, left), 0.03}},
                         {}});
    }
    return tubes;
}

// --- Clips --------------------------------------------------------------------------------

struct Pose {
    std::array<glm::dquat, kJointCount> rotation;
    glm::dvec3 hips; // the root's local translation
};

// Degrees; applied pitch (about x) first, then roll (z), then yaw (y). For a bone pointing
// down, positive pitch swings its end backward (-z); positive roll swings it toward +x.
glm::dquat rot(double pitch, double yaw, double roll) {
    auto axis = [](double deg, glm::dvec3 a) { return glm::angleAxis(glm::radians(deg), a); };
    return axis(yaw, {0, 1, 0}) * axis(roll, {0, 0, 1}) * axis(pitch, {1, 0, 0});
}

// Model matrix of `joint` in `pose`: rest translations, pose rotations, the hips translation.
glm::dmat4 poseMatrix(const Pose& pose, uint16_t joint) {
    const int32_t parent = kJoints[joint].parent;
    const glm::dvec3 t = parent < 0 ? pose.hips : jointPos(joint) - jointPos(uint16_t(parent));
    const glm::dmat4 local = glm::translate(glm::dmat4(1.0), t) * glm::mat4_cast(pose.rotation[joint]);
    return parent < 0 ? local : poseMatrix(pose, uint16_t(parent)) * local;
}

// Moves the body up or down so that the lowest sole point (heel, ball, toe; left foot, the
// right one mirrored) touches y = 0: the feet neither sink nor float, whatever the legs do.
void plantOnGround(Pose& pose) {
    struct SolePoint {
        Joint joint;
        glm::dvec3 bind;
    };
    constexpr SolePoint kSole[] = {{kFootL, {0.09, 0.015, -0.06}},
                                   {kFootL, {0.09, 0.0, -0.03}},
                                   {kFootL, {0.09, 0.0, 0.10}},
                                   {kToeL, {0.09, 0.0, 0.18}}};
    double lowest = 1e9;
    for (bool left : {true, false}) {
        for (const SolePoint& sole : kSole) {
            const uint16_t j = sided(sole.joint, left);
            const glm::dvec3 bind{left ? sole.bind.x : -sole.bind.x, sole.bind.y, sole.bind.z};
            const glm::dvec4 p = poseMatrix(pose, j) * glm::dvec4(bind - jointPos(j), 1.0);
            lowest = std::min(lowest, p.y);
        }
    }
    pose.hips.y -= lowest;
}

Pose restPose() {
    Pose pose;
    pose.rotation.fill(glm::dquat(1, 0, 0, 0));
    pose.hips = jointPos(kHips);
    return pose;
}

// Legs tilt by asin(shift / kLegLength) to keep the feet in place when the hips shift sideways.
constexpr double kLegLength = double(kJoints[kThighL].position.y) - kJoints[kFootL].position.y;

// Walk, in place (the crowd moves the root). Per leg, phase p: hip flexion 22 sin p
// (forward positive; swing while it rises), knee flexion peaking early in the swing, and a
// foot pitch that is flat in mid stance, toes up at heel strike, heel up at toe-off.
Pose walkPose(double phase) {
    Pose pose = restPose();
    const double s = std::sin(phase), c = std::cos(phase), c2 = std::cos(2 * phase);
    const double shift = -0.015 * c; // over the stance foot; the height comes from the feet
    const double lean = glm::degrees(std::asin(shift / kLegLength));
    pose.hips.x += shift;
    pose.rotation[kHips] = rot(0, -5 * s, -4 * c);        // hip of the swing leg forward and down
    pose.rotation[kSpine] = rot(4, 3 * s, 2.5 * c);       // lean forward, keep the chest level
    pose.rotation[kChest] = rot(-1 + c2, 5 * s, 1.5 * c); // shoulders counter-rotate
    pose.rotation[kNeck] = rot(-1.5, -1.5 * s, 0);
    pose.rotation[kHead] = rot(-1.5 - 0.5 * c2, -1.5 * s, 0); // keep looking ahead
    for (int side = 0; side < 2; ++side) {
        const bool left = side == 0;
        const double p = phase + (left ? 0.0 : glm::pi<double>());
        const double sp = std::sin(p);
        const double hip = 22 * sp;
        const double knee =
            5 + 55 * std::pow(std::max(0.0, std::cos(p + 0.3)), 2) + 10 * std::pow(std::max(0.0, std::cos(p - 2.4)), 4);
        const double footWorld = -10 * sp + 25 * std::pow(std::max(0.0, -sp), 3);
        const double arm = -0.75 * hip; // arms swing against the legs
        const double out = left ? 1.0 : -1.0;
        // The legs swing in the sagittal plane whatever the pelvis does.
        pose.rotation[sided(kThighL, left)] = glm::conjugate(pose.rotation[kHips]) * rot(-hip, 0, -lean);
        pose.rotation[sided(kShinL, left)] = rot(knee, 0, 0);
        pose.rotation[sided(kFootL, left)] = rot(footWorld + hip - knee, 0, lean);
        pose.rotation[sided(kToeL, left)] = rot(-0.5 * std::max(0.0, footWorld), 0, 0);
        pose.rotation[sided(kShoulderL, left)] = rot(0, 2 * out * sp, 0); // with the arm
        pose.rotation[sided(kUpperArmL, left)] = rot(-arm, 0, 6 * out);
        pose.rotation[sided(kForearmL, left)] = rot(-(12 + 0.6 * std::max(0.0, arm)), 0, 0);
        pose.rotation[sided(kHandL, left)] = rot(-5, 0, 0);
    }
    return pose;
}

// Idle: one breath per cycle (spine, chest, shoulders), a slow look left and right, arms
// swaying, weight shifting from foot to foot with the legs tilted so the feet stay put.
Pose idlePose(double phase) {
    Pose pose = restPose();
    const double breath = std::sin(phase);
    const double shift = 0.010 * std::sin(phase);
    const double lean = glm::degrees(std::asin(shift / kLegLength));
    pose.hips.x += shift;
    pose.rotation[kSpine] = rot(1 + 0.8 * breath, 2 * std::sin(phase + 0.5), 0);
    pose.rotation[kChest] = rot(-1.2 * breath, 1.5 * std::sin(phase + 0.8), 0);
    pose.rotation[kNeck] = rot(0.5 * breath, 4 * std::sin(phase), 0);
    pose.rotation[kHead] = rot(2 * std::sin(2 * phase), 8 * std::sin(phase), 0);
    for (int side = 0; side < 2; ++side) {
        const bool left = side == 0;
        const double out = left ? 1.0 : -1.0;
        const double lag = left ? 0.0 : 0.4;
        pose.rotation[sided(kShoulderL, left)] = rot(0, 0, 1.5 * out * breath);
        pose.rotation[sided(kUpperArmL, left)] =
            rot(3 * std::sin(phase + 0.6 + lag), 0, out * (6 + 1.5 * std::sin(2 * phase + lag)));
        pose.rotation[sided(kForearmL, left)] = rot(-(10 + 3 * std::sin(phase + 1 + lag)), 0, 0);
        pose.rotation[sided(kHandL, left)] = rot(-5, 0, 0);
        pose.rotation[sided(kThighL, left)] = rot(-3, 0, -lean);
        pose.rotation[sided(kShinL, left)] = rot(6, 0, 0);
        pose.rotation[sided(kFootL, left)] = rot(-3, 0, lean);
    }
    return pose;
}

// builtin:waver's third clip: standing as in the idle, the right arm raised out to the side and
// the forearm waving three times a cycle; laid over the walk from the right shoulder down
// (`--technique pose --layer wave@shoulder_r`) the upper body waves while walking.
Pose wavePose(double phase) {
    Pose pose = idlePose(phase);
    const double wave = std::sin(3 * phase);
    pose.rotation[kShoulderR] = rot(0, 0, -12);
    pose.rotation[kUpperArmR] = rot(-10, 0, -128 - 4 * wave);
    pose.rotation[kForearmR] = rot(-8, 0, -(28 + 24 * wave));
    pose.rotation[kHandR] = rot(0, 0, -8 * wave);
    pose.rotation[kHead] = rot(-4, -10 + 3 * std::sin(phase), 0);
    return pose;
}

// Points along the sole of the left foot (bind pose; the right foot mirrors them): heel to toe.
constexpr glm::dvec3 kSolePoints[] = {{0.09, 0.0, -0.03}, {0.09, 0.0, 0.02}, {0.09, 0.0, 0.06}, {0.09, 0.0, 0.10}};

glm::dvec3 solePoint(const Pose& pose, bool left, size_t point) {
    const uint16_t j = sided(kFootL, left);
    const glm::dvec3 b = kSolePoints[point];
    const glm::dvec3 bind{left ? b.x : -b.x, b.y, b.z};
    return glm::dvec3(poseMatrix(pose, j) * glm::dvec4(bind - jointPos(j), 1.0));
}

// The mean of a foot's sole points.
glm::dvec3 soleCentre(const Pose& pose, bool left) {
    glm::dvec3 sum(0.0);
    for (size_t k = 0; k < std::size(kSolePoints); ++k) sum += solePoint(pose, left, k);
    return sum / double(std::size(kSolePoints));
}

// Root motion as captured motion has it: between two keys the hips advance by what the foot on
// the ground moves back in place (the foot moving back the more: the other one swings forward,
// however close to the ground), so that it stays put.
void travelForward(std::vector<Pose>& poses) {
    double travel = 0.0;
    std::vector<double> at(poses.size(), 0.0);
    for (size_t i = 1; i < poses.size(); ++i) {
        const double left = soleCentre(poses[i], true).z - soleCentre(poses[i - 1], true).z;
        const double right = soleCentre(poses[i], false).z - soleCentre(poses[i - 1], false).z;
        travel -= std::min(left, right);
        at[i] = travel;
    }
    for (size_t i = 0; i < poses.size(); ++i) poses[i].hips.z += at[i];
}

// `intervals` + 1 evenly spaced keys; the last key is a copy of the first, so the value at
// t = duration equals the value at t = 0 (with `travel`, the hips then advance: travelForward).
// Joints that never leave the identity get no track.
Clip makeClip(const char* name, float duration, int intervals, Pose (*pose)(double), bool travel = false) {
    std::vector<Pose> poses;
    for (int i = 0; i < intervals; ++i) poses.push_back(pose(glm::two_pi<double>() * i / intervals));
    for (Pose& p : poses) plantOnGround(p);
    poses.push_back(poses.front());
    if (travel) travelForward(poses);
    std::vector<float> times;
    for (int i = 0; i <= intervals; ++i) times.push_back(float(double(duration) * i / intervals));

    Clip clip;
    clip.name = name;
    clip.duration = duration;
    Track hips{kHips, TrackTarget::Translation, Interpolation::Linear, times, {}};
    for (const Pose& p : poses) hips.values.push_back(glm::vec4(glm::vec3(p.hips), 0.0f));
    clip.tracks.push_back(std::move(hips));
    for (uint16_t j = 0; j < kJointCount; ++j) {
        Track track{j, TrackTarget::Rotation, Interpolation::Linear, times, {}};
        bool moves = false;
        for (const Pose& p : poses) {
            const glm::quat q = glm::quat(glm::normalize(p.rotation[j]));
            moves = moves || q != glm::quat(1, 0, 0, 0);
            track.values.push_back({q.x, q.y, q.z, q.w});
        }
        if (moves) clip.tracks.push_back(std::move(track));
    }
    return clip;
}

} // namespace

Model makeWalker() {
    Model model;
    model.source = "builtin:walker";
    model.format = "built-in (generated)";
    Skin skin{"walker", {}};
    glm::vec3 world[kJointCount];
    for (uint16_t j = 0; j < kJointCount; ++j) {
        const JointDef& def = kJoints[j];
        Transform rest; // identity rotation: bind pose = rest pose
        rest.translation = def.position;
        if (def.parent >= 0) rest.translation -= kJoints[def.parent].position;
        // The model matrix of the rest pose is a translation by the sum of the local ones;
        // summing them the same way keeps the inverse bind exact to rounding.
        world[j] = def.parent < 0 ? rest.translation : world[def.parent] + rest.translation;
        model.skeleton.names.push_back(def.name);
        model.skeleton.parents.push_back(def.parent);
        model.skeleton.rest.push_back(rest);
        skin.joints.push_back(j);
        PaletteEntry entry{j, glm::mat4(1.0f)};
        entry.inverse_bind[3] = glm::vec4(-world[j], 1.0f);
        model.palette.push_back(entry);
    }
    model.skins.push_back(std::move(skin));
    model.materials = {Material{"walker", glm::vec4(1.0f), -1}}; // colour is in the vertices

    Mesh mesh;
    mesh.name = "walker";
    mesh.skin = 0;
    const std::vector<Tube> tubes = walkerTubes();
    for (size_t i = 0; i < tubes.size(); ++i) addTube(mesh, tubes[i], int(i), int(tubes.size()));
    mesh.submeshes = {Submesh{0, uint32_t(mesh.indices.size()), 0}};
    model.meshes.push_back(std::move(mesh));

    model.clips.push_back(makeClip("walk", 1.1f, 33, walkPose)); // keys at 30 per second: on the 30 fps bake frames
    model.clips.push_back(makeClip("idle", 3.0f, 32, idlePose));
    return model;
}

Model makeWaver() {
    Model model = makeWalker();
    model.source = "builtin:waver";
    model.clips.push_back(makeClip("wave", 1.5f, 45, wavePose)); // keys at 30 per second
    return model;
}

Model makeStrider() {
    Model model = makeWalker();
    model.source = "builtin:strider";
    model.clips[0] = makeClip("walk", 1.1f, 33, walkPose, true);
    return model;
}

} // namespace throng
