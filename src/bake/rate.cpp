// rate.cpp — error-bounded baking (issue #13, part 6): per clip, the fewest frames whose
// tweening stays within a bound of exact sampling. See clipRate() in throng/bake.h.
//
// The error of a frame count N: between consecutive frames the GPU blends the two frames'
// skinning matrices linearly (baked.h, "To sample time t"); the error is the largest distance,
// over every vertex of every mesh, between the vertex skinned by that blend and skinned by the
// exact matrices at the same time, measured at the quarter points of every interval (1/4, 1/2,
// 3/4: tweening error vanishes at the frames and is largest inside). All in double.
//
// Search: the error shrinks as N grows (not strictly: a frame may land on a turning point), so
// the frame count is found by doubling and then bisecting with the bound as the test, and only a
// measured count is ever returned: achieved <= bound holds for what is measured.
#include <throng/bake.h>

#include <throng/anim.h>

#include <algorithm>
#include <cmath>

namespace throng {

namespace {

// Every mesh's vertices skinned with `m` (double), concatenated.
std::vector<glm::dvec3> skinAll(const Model& model, const std::vector<glm::dmat4>& m) {
    std::vector<glm::dvec3> out;
    for (const Mesh& mesh : model.meshes) {
        const SkinnedVertices s = referenceSkin(mesh, m);
        out.insert(out.end(), s.positions.begin(), s.positions.end());
    }
    return out;
}

// Frame time of frame f of n over `duration` (baked.h).
double frameTime(double duration, uint32_t n, uint32_t f) {
    return n <= 1 ? 0.0 : (f + 1 == n ? duration : double(f) * duration / double(n - 1));
}

} // namespace

double tweenError(const Model& model, const Clip* clip, float duration, uint32_t frames) {
    if (clip == nullptr || duration <= 0.0f || frames < 2) return 0.0;
    double worst = 0.0;
    std::vector<glm::dmat4> a = referenceSkinningMatrices(model, clip, 0.0, false), b;
    for (uint32_t f = 0; f + 1 < frames; ++f) {
        const double t0 = frameTime(duration, frames, f), t1 = frameTime(duration, frames, f + 1);
        b = referenceSkinningMatrices(model, clip, t1, false);
        for (const double s : {0.25, 0.5, 0.75}) {
            std::vector<glm::dmat4> blend(a.size());
            for (size_t k = 0; k < a.size(); ++k) blend[k] = a[k] * (1.0 - s) + b[k] * s;
            const std::vector<glm::dvec3> tweened = skinAll(model, blend);
            const std::vector<glm::dvec3> exact =
                skinAll(model, referenceSkinningMatrices(model, clip, t0 + (t1 - t0) * s, false));
            for (size_t v = 0; v < exact.size(); ++v) worst = std::max(worst, glm::length(tweened[v] - exact[v]));
        }
        a = std::move(b);
    }
    return worst;
}

ClipRate clipRate(const Model& model, const Clip* clip, float duration, double max_error) {
    ClipRate r;
    if (clip == nullptr || duration <= 0.0f) { // one frame holds it exactly
        r.frames = 1;
        return r;
    }
    const uint32_t most = bakedFrameCount(duration, 1000.0f); // the fastest rate bake() allows
    auto error = [&](uint32_t n) { return tweenError(model, clip, duration, n); };
    // Doubling from two frames, then bisection between the last count over the bound and the
    // first within it.
    uint32_t hi = 2;
    double hi_error = error(hi);
    uint32_t lo = 1; // over the bound (or not measured: fewer than 2 frames cannot tween)
    while (hi_error > max_error && hi < most) {
        lo = hi;
        hi = std::min(most, hi * 2);
        hi_error = error(hi);
    }
    while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        const double e = error(mid);
        if (e <= max_error) {
            hi = mid;
            hi_error = e;
        } else {
            lo = mid;
        }
    }
    r.frames = hi;
    r.error = hi_error;
    r.met = hi_error <= max_error;
    return r;
}

} // namespace throng
