// Reading a clip's root motion curve: throng/root_motion.h, runtime part.
#include <throng/root_motion.h>

#include <algorithm>
#include <cmath>

namespace throng {
namespace {

// A move in the ground plane: p -> Ry(yaw) p + offset (x, z), yaw about +y (+z turns toward +x).
struct PlaneMove {
    glm::dvec2 offset{0.0};
    double yaw = 0.0;
};

glm::dvec2 rotate(double yaw, glm::dvec2 v) {
    const double c = std::cos(yaw), s = std::sin(yaw);
    return {c * v.x + s * v.y, -s * v.x + c * v.y};
}

PlaneMove then(const PlaneMove& a, const PlaneMove& b) { return {a.offset + rotate(a.yaw, b.offset), a.yaw + b.yaw}; }
PlaneMove inverse(const PlaneMove& a) { return {-rotate(-a.yaw, a.offset), -a.yaw}; }

PlaneMove power(PlaneMove m, uint64_t n) {
    PlaneMove r;
    for (; n != 0; n >>= 1, m = then(m, m))
        if (n & 1) r = then(r, m);
    return r;
}

// The curve at a time already inside [0, duration], tweened between baked frames.
PlaneMove at(const BakedClip& clip, double t) {
    if (clip.root_motion.empty()) return {};
    const uint32_t last = uint32_t(clip.root_motion.size()) - 1;
    glm::dvec3 v = glm::dvec3(clip.root_motion[0]);
    if (last > 0 && clip.duration > 0.0f) {
        const double u = std::clamp(t / double(clip.duration), 0.0, 1.0) * double(last);
        const uint32_t f0 = std::min(uint32_t(u), last);
        const uint32_t f1 = std::min(f0 + 1, last);
        const double s = u - double(f0);
        v = glm::dvec3(clip.root_motion[f0]) * (1.0 - s) + glm::dvec3(clip.root_motion[f1]) * s;
    }
    return {{v.x, v.y}, v.z};
}

} // namespace

glm::vec3 rootMotionAt(const BakedClip& clip, double time) {
    const double d = double(clip.duration);
    double t = 0.0;
    if (d > 0.0 && std::isfinite(time)) t = clip.loop ? time - std::floor(time / d) * d : std::clamp(time, 0.0, d);
    const PlaneMove m = at(clip, t);
    return {float(m.offset.x), float(m.offset.y), float(m.yaw)};
}

RootDelta rootMotionBetween(const BakedClip& clip, double t0, double t1) {
    const double d = double(clip.duration);
    if (clip.root_motion.empty() || d <= 0.0 || !std::isfinite(t0) || !std::isfinite(t1) || t1 <= t0) return {};
    PlaneMove m;
    if (!clip.loop) {
        m = then(inverse(at(clip, std::clamp(t0, 0.0, d))), at(clip, std::clamp(t1, 0.0, d)));
    } else {
        const double c0 = std::floor(t0 / d), c1 = std::floor(t1 / d);
        const double r0 = t0 - c0 * d, r1 = t1 - c1 * d;
        if (c0 == c1) {
            m = then(inverse(at(clip, r0)), at(clip, r1));
        } else {
            const PlaneMove cycle = at(clip, d);
            const double whole = std::min(c1 - c0 - 1.0, 1e18); // cycles passed in full
            m = then(then(then(inverse(at(clip, r0)), cycle), power(cycle, uint64_t(whole))), at(clip, r1));
        }
    }
    return {glm::vec2(m.offset), float(m.yaw)};
}

double rootSpeed(const BakedClip& clip) {
    if (clip.root_motion.empty() || clip.duration <= 0.0f) return 0.0;
    const glm::vec3 end = clip.root_motion.back();
    return double(glm::length(glm::vec2(end.x, end.y))) / double(clip.duration);
}

} // namespace throng
