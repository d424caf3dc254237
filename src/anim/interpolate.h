// Keyframe interpolation with glTF 2.0 sampler semantics, templated on the scalar so the float
// runtime and the double reference share one definition (internal to throng_anim).
#pragma once

#include <throng/model.h>

#include <algorithm>
#include <cmath>

namespace throng::detail {

template <class T> using Vec4 = glm::vec<4, T, glm::defaultp>;

// Shortest-arc spherical interpolation of unit quaternions stored (x, y, z, w); falls back to
// a normalised lerp when the two are almost parallel, where slerp's sin() ratio is unstable.
template <class T> Vec4<T> slerpShortest(Vec4<T> a, Vec4<T> b, T s) {
    T cos_angle = glm::dot(a, b);
    if (cos_angle < T(0)) {
        b = -b;
        cos_angle = -cos_angle;
    }
    Vec4<T> r;
    if (cos_angle > T(1) - T(1e-6)) {
        r = a + (b - a) * s;
    } else {
        const T angle = std::acos(cos_angle);
        const T inv_sin = T(1) / std::sin(angle);
        r = a * (std::sin((T(1) - s) * angle) * inv_sin) + b * (std::sin(s * angle) * inv_sin);
    }
    return r / glm::length(r);
}

// Value of `track` at time t (seconds, already mapped onto the clip).
template <class T> Vec4<T> sampleTrackT(const Track& track, T t) {
    const std::vector<float>& times = track.times;
    const size_t n = times.size();
    const bool cubic = track.interpolation == Interpolation::CubicSpline;
    auto value = [&](size_t k) { return Vec4<T>(track.values[cubic ? 3 * k + 1 : k]); };
    if (n == 1 || t <= T(times[0])) return value(0);
    if (t >= T(times[n - 1])) return value(n - 1);
    // k: the last key at or before t (times[k] <= t < times[k + 1]).
    const size_t k =
        size_t(std::upper_bound(times.begin(), times.end(), t, [](T a, float b) { return a < T(b); }) - times.begin()) -
        1;
    const T t0 = T(times[k]);
    const T d = T(times[k + 1]) - t0;
    const T s = (t - t0) / d;
    // A key time returns the key itself, bit for bit, in every mode.
    if (s == T(0) || track.interpolation == Interpolation::Step) return value(k);
    const bool rotation = track.target == TrackTarget::Rotation;
    if (track.interpolation == Interpolation::Linear)
        return rotation ? slerpShortest(value(k), value(k + 1), s) : value(k) + (value(k + 1) - value(k)) * s;
    // CUBICSPLINE: Hermite basis; stored tangents are per second, so they scale with d.
    const T s2 = s * s, s3 = s2 * s;
    const Vec4<T> p0 = value(k), p1 = value(k + 1);
    const Vec4<T> out0 = Vec4<T>(track.values[3 * k + 2]) * d;
    const Vec4<T> in1 = Vec4<T>(track.values[3 * (k + 1)]) * d;
    Vec4<T> r = p0 * (T(2) * s3 - T(3) * s2 + T(1)) + out0 * (s3 - T(2) * s2 + s) + p1 * (T(-2) * s3 + T(3) * s2) +
                in1 * (s3 - s2);
    if (rotation) r /= glm::length(r);
    return r;
}

} // namespace throng::detail
