// Dual-quaternion skinning in double: the reference of src/shaders/dual_quaternion.glsl. See
// throng/anim.h.
#include <throng/anim.h>

#include <glm/gtc/quaternion.hpp>

#include <cmath>

namespace throng {
namespace {

// The rotation of the 3x3 matrix r (column-major, r[c][row]) as a unit quaternion, by the branch
// of its largest diagonal term, exactly as dual_quaternion.glsl's quaternionOfRows (so that a
// matrix that is not quite a rotation, such as a cross-fade of two, gives the same quaternion).
glm::dquat quaternionOf(const glm::dmat3& r) {
    const double r00 = r[0][0], r11 = r[1][1], r22 = r[2][2];
    const double r01 = r[1][0], r02 = r[2][0], r10 = r[0][1], r12 = r[2][1], r20 = r[0][2], r21 = r[1][2];
    const double trace = r00 + r11 + r22;
    glm::dvec4 q; // x, y, z, w
    if (trace > 0.0) {
        const double s = 2.0 * std::sqrt(trace + 1.0);
        q = glm::dvec4(r21 - r12, r02 - r20, r10 - r01, 0.25 * s * s) / s;
    } else if (r00 > r11 && r00 > r22) {
        const double s = 2.0 * std::sqrt(1.0 + r00 - r11 - r22);
        q = glm::dvec4(0.25 * s * s, r01 + r10, r02 + r20, r21 - r12) / s;
    } else if (r11 > r22) {
        const double s = 2.0 * std::sqrt(1.0 + r11 - r00 - r22);
        q = glm::dvec4(r01 + r10, 0.25 * s * s, r12 + r21, r02 - r20) / s;
    } else {
        const double s = 2.0 * std::sqrt(1.0 + r22 - r00 - r11);
        q = glm::dvec4(r02 + r20, r12 + r21, 0.25 * s * s, r10 - r01) / s;
    }
    q = glm::normalize(q);
    return glm::dquat(q.w, q.x, q.y, q.z);
}

} // namespace

DualQuaternion toDualQuaternion(const glm::dmat4& m) {
    DualQuaternion q;
    q.scale = (glm::length(glm::dvec3(m[0])) + glm::length(glm::dvec3(m[1])) + glm::length(glm::dvec3(m[2]))) / 3.0;
    if (q.scale > 1e-8)
        q.real = quaternionOf(glm::dmat3(m) / q.scale);
    else
        q.scale = 0.0; // scaled to nothing: the identity rotation, as dual_quaternion.glsl does
    q.dual = 0.5 * (glm::dquat(0.0, glm::dvec3(m[3])) * q.real);
    return q;
}

glm::dmat4 dualQuaternionBlend(std::span<const glm::dmat4> matrices, const glm::u16vec4& joints,
                               const glm::vec4& weights) {
    glm::dquat real(0.0, 0.0, 0.0, 0.0), dual(0.0, 0.0, 0.0, 0.0), first(0.0, 0.0, 0.0, 0.0);
    double scale = 0.0;
    bool started = false;
    for (int i = 0; i < 4; ++i) {
        const double w = weights[i];
        if (w == 0.0) continue;
        const DualQuaternion q = toDualQuaternion(matrices[joints[i]]);
        if (!started) first = q.real;
        started = true;
        const double signed_w = glm::dot(first, q.real) < 0.0 ? -w : w;
        real = real + q.real * signed_w;
        dual = dual + q.dual * signed_w;
        scale += w * q.scale;
    }
    const double length = glm::length(real);
    if (!(length > 0.0)) return glm::dmat4(0.0);
    real = real / length;
    dual = dual / length;
    const glm::dquat td = dual * glm::conjugate(real);
    const glm::dvec3 t = 2.0 * glm::dvec3(td.x, td.y, td.z);
    glm::dmat4 out(glm::mat3_cast(real) * scale);
    out[3] = glm::dvec4(t, 1.0);
    return out;
}

} // namespace throng
