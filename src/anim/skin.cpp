// SkinningJob: the contract check and linear blend skinning as a plain float loop, the path the
// SIMD kernels (skin_simd*.cpp) use for their tails and are tested against.
#include "skin_simd.h"

#include <algorithm>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace throng {
namespace {

// The largest of `count` indices. SSE2 has no unsigned 16-bit max, so the values are biased into
// signed range; four accumulators keep four independent chains in flight (GCC vectorises the
// plain loop into one chain, or not at all).
uint16_t maxIndex(const uint16_t* index, size_t count) {
    size_t i = 0;
    uint16_t result = 0;
#if defined(__SSE2__)
    const __m128i bias = _mm_set1_epi16(int16_t(0x8000));
    __m128i m0 = _mm_set1_epi16(int16_t(0x8000)), m1 = m0, m2 = m0, m3 = m0; // biased 0
    auto load = [&](size_t at) {
        return _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(index + at)), bias);
    };
    for (; i + 32 <= count; i += 32) {
        m0 = _mm_max_epi16(m0, load(i));
        m1 = _mm_max_epi16(m1, load(i + 8));
        m2 = _mm_max_epi16(m2, load(i + 16));
        m3 = _mm_max_epi16(m3, load(i + 24));
    }
    alignas(16) uint16_t lanes[8];
    _mm_store_si128(reinterpret_cast<__m128i*>(lanes),
                    _mm_xor_si128(_mm_max_epi16(_mm_max_epi16(m0, m1), _mm_max_epi16(m2, m3)), bias));
    for (uint16_t lane : lanes) result = std::max(result, lane);
#endif
    for (; i < count; ++i) result = std::max(result, index[i]);
    return result;
}

} // namespace

namespace detail {

bool validShapes(const SkinningJob& job) {
    const size_t n = job.positions.size();
    if (job.joints.size() != n || job.weights.size() != n || job.out_positions.size() != n) return false;
    if (job.normals.empty() != job.out_normals.empty()) return false;
    return job.normals.empty() || (job.normals.size() == n && job.out_normals.size() == n);
}

// A max reduction over the flat index array rather than an early exit per vertex, because
// run() pays for this pass over every vertex.
uint16_t maxJointIndex(const SkinningJob& job, size_t begin, size_t end) {
    static_assert(sizeof(glm::u16vec4) == 4 * sizeof(uint16_t));
    return maxIndex(reinterpret_cast<const uint16_t*>(job.joints.data()) + 4 * begin, 4 * (end - begin));
}

} // namespace detail

bool SkinningJob::validate() const {
    if (!detail::validShapes(*this)) return false;
    return positions.empty() || detail::maxJointIndex(*this, 0, positions.size()) < matrices.size();
}

namespace detail {

void skinScalar(const SkinningJob& job, size_t begin, size_t end) {
    const bool with_normals = !job.normals.empty();
    for (size_t v = begin; v < end; ++v) {
        const glm::u16vec4 j = job.joints[v];
        const glm::vec4 w = job.weights[v];
        const std::span<const glm::mat4> matrices = job.matrices;
        // Blend only the affine 3x4 part: the last row of a skinning matrix is (0, 0, 0, 1).
        glm::vec3 c0 = glm::vec3(matrices[j.x][0]) * w.x, c1 = glm::vec3(matrices[j.x][1]) * w.x;
        glm::vec3 c2 = glm::vec3(matrices[j.x][2]) * w.x, c3 = glm::vec3(matrices[j.x][3]) * w.x;
        for (int i = 1; i < 4; ++i) {
            if (w[i] == 0.0f) continue;
            const glm::mat4& m = matrices[j[i]];
            c0 += glm::vec3(m[0]) * w[i];
            c1 += glm::vec3(m[1]) * w[i];
            c2 += glm::vec3(m[2]) * w[i];
            c3 += glm::vec3(m[3]) * w[i];
        }
        const glm::vec3 p = job.positions[v];
        job.out_positions[v] = c0 * p.x + c1 * p.y + c2 * p.z + c3;
        if (with_normals) {
            // Cofactor columns = det * inverse transpose: right for non-uniform scale too.
            const glm::vec3 k0 = glm::cross(c1, c2), k1 = glm::cross(c2, c0), k2 = glm::cross(c0, c1);
            const glm::vec3 nrm = job.normals[v];
            glm::vec3 r = k0 * nrm.x + k1 * nrm.y + k2 * nrm.z;
            if (glm::dot(c0, k0) < 0.0f) r = -r; // a mirroring matrix: keep the outward side
            const float len = glm::length(r);
            job.out_normals[v] = len > 0.0f ? r / len : nrm;
        }
    }
}

} // namespace detail
} // namespace throng
