// SkinningJob::run() and runParallel(): the widest skinning kernel this CPU runs, chosen once at
// run time, over the whole job or over fixed chunks on oneTBB's threads; plus the SSE2 kernel,
// the x86-64 baseline that needs no detection.
//
// Release builds stay portable (no -march=native): the AVX2 and AVX-512 kernels are separate
// files with their own -m flags, reached only through the checks below.
#include "skin_simd.h"

#include "skin_simd_kernel.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include <algorithm>
#include <cassert>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace throng {
namespace detail {

// The kernels read the job's spans as flat float and uint16 arrays.
static_assert(sizeof(glm::mat4) == 16 * sizeof(float) && sizeof(glm::vec3) == 3 * sizeof(float));
static_assert(sizeof(glm::vec4) == 4 * sizeof(float) && sizeof(glm::u16vec4) == 4 * sizeof(uint16_t));

#if defined(__SSE2__)
namespace {

// Four vertices per block; no FMA in the baseline, so a * b + c is two roundings.
struct Sse2 {
    using F = __m128;
    using M = __m128;
    static constexpr size_t kWidth = 4;

    static F add(F a, F b) { return _mm_add_ps(a, b); }
    static F mul(F a, F b) { return _mm_mul_ps(a, b); }
    static F fmadd(F a, F b, F c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }
    static F fmsub(F a, F b, F c) { return _mm_sub_ps(_mm_mul_ps(a, b), c); }
    static F sqrt(F a) { return _mm_sqrt_ps(a); }
    static F div(F a, F b) { return _mm_div_ps(a, b); }
    static F set1(float x) { return _mm_set1_ps(x); }
    static M lessThanZero(F a) { return _mm_cmplt_ps(a, _mm_setzero_ps()); }
    static M greaterThanZero(F a) { return _mm_cmpgt_ps(a, _mm_setzero_ps()); }
    static F negate(M m, F a) { return _mm_xor_ps(a, _mm_and_ps(m, _mm_set1_ps(-0.0f))); }
    static F select(M m, F a, F b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }

    // 4 vertices x 4 slots: lane i of the OR is slot i.
    static unsigned usedSlots(const float* w) {
        const __m128i any = _mm_or_si128(_mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w)),
                                                      _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 4))),
                                         _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 8)),
                                                      _mm_loadu_si128(reinterpret_cast<const __m128i*>(w + 12))));
        const __m128i magnitude = _mm_and_si128(any, _mm_set1_epi32(0x7fffffff)); // -0 counts as 0
        const int zero = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(magnitude, _mm_setzero_si128())));
        return ~unsigned(zero) & 0xfu;
    }

    static void blendOne(const SkinStreams& s, size_t vertex, unsigned slots, F col[4]) {
        const uint16_t* j = s.joints + 4 * vertex;
        const float* w = s.weights + 4 * vertex;
        const float* m = s.matrices + 16 * size_t(j[0]);
        F wi = _mm_set1_ps(w[0]);
        for (int k = 0; k < 4; ++k) col[k] = _mm_mul_ps(_mm_loadu_ps(m + 4 * k), wi);
        for (int i = 1; i < 4; ++i) {
            if (!(slots & (1u << i))) continue;
            m = s.matrices + 16 * size_t(j[i]);
            wi = _mm_set1_ps(w[i]);
            for (int k = 0; k < 4; ++k) col[k] = _mm_add_ps(col[k], _mm_mul_ps(_mm_loadu_ps(m + 4 * k), wi));
        }
    }

    static void blend(const SkinStreams& s, size_t v, unsigned slots, F c[12]) {
        F m[4][4]; // [vertex][column]
        for (int k = 0; k < 4; ++k) blendOne(s, v + k, slots, m[k]);
        for (int col = 0; col < 4; ++col) {
            const F t0 = _mm_unpacklo_ps(m[0][col], m[1][col]); // ax bx ay by
            const F t1 = _mm_unpackhi_ps(m[0][col], m[1][col]); // az bz aw bw
            const F t2 = _mm_unpacklo_ps(m[2][col], m[3][col]);
            const F t3 = _mm_unpackhi_ps(m[2][col], m[3][col]);
            c[3 * col + 0] = _mm_movelh_ps(t0, t2);
            c[3 * col + 1] = _mm_movehl_ps(t2, t0);
            c[3 * col + 2] = _mm_movelh_ps(t1, t3);
        }
    }

    // a = x0 y0 z0 x1, b = y1 z1 x2 y2, c = z2 x3 y3 z3.
    static void loadXyz(const float* p, F xyz[3]) {
        const F a = _mm_loadu_ps(p), b = _mm_loadu_ps(p + 4), c = _mm_loadu_ps(p + 8);
        xyz[0] = _mm_shuffle_ps(a, _mm_shuffle_ps(b, c, _MM_SHUFFLE(1, 1, 2, 2)), _MM_SHUFFLE(2, 0, 3, 0));
        xyz[1] = _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 1, 1)),
                                _mm_shuffle_ps(b, c, _MM_SHUFFLE(2, 2, 3, 3)), _MM_SHUFFLE(2, 0, 2, 0));
        xyz[2] = _mm_shuffle_ps(_mm_shuffle_ps(a, b, _MM_SHUFFLE(1, 1, 2, 2)), c, _MM_SHUFFLE(3, 0, 2, 0));
    }

    static void storeXyz(float* p, const F xyz[3]) {
        const F x = xyz[0], y = xyz[1], z = xyz[2];
        _mm_storeu_ps(p, _mm_shuffle_ps(_mm_shuffle_ps(x, y, _MM_SHUFFLE(0, 0, 0, 0)),
                                        _mm_shuffle_ps(z, x, _MM_SHUFFLE(1, 1, 0, 0)), _MM_SHUFFLE(2, 0, 2, 0)));
        _mm_storeu_ps(p + 4, _mm_shuffle_ps(_mm_shuffle_ps(y, z, _MM_SHUFFLE(1, 1, 1, 1)),
                                            _mm_shuffle_ps(x, y, _MM_SHUFFLE(2, 2, 2, 2)), _MM_SHUFFLE(2, 0, 2, 0)));
        _mm_storeu_ps(p + 8, _mm_shuffle_ps(_mm_shuffle_ps(z, x, _MM_SHUFFLE(3, 3, 2, 2)),
                                            _mm_shuffle_ps(y, z, _MM_SHUFFLE(3, 3, 3, 3)), _MM_SHUFFLE(2, 0, 2, 0)));
    }
};

} // namespace

size_t skinBlocksSse2(const SkinStreams& s, size_t begin, size_t end) { return SkinKernel<Sse2>::skin(s, begin, end); }
#endif

namespace {

#if defined(THRONG_SKIN_X86)
// CPU features, asked once. GCC's and Clang's __builtin_cpu_supports also check that the OS
// saves the wide registers (XCR0), so "avx512f" means usable, not merely present.
struct CpuFeatures {
    bool avx2_fma = false;
    bool avx512f = false;
};

const CpuFeatures& cpuFeatures() {
    static const CpuFeatures features = [] {
        CpuFeatures f;
#if defined(__GNUC__) || defined(__clang__)
        __builtin_cpu_init();
        f.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
        f.avx512f = __builtin_cpu_supports("avx512f");
#endif
        return f;
    }();
    return features;
}
#endif

// Only the x86 kernels so far: elsewhere (aarch64) every level but Scalar is unsupported.
#if defined(__SSE2__) || defined(THRONG_SKIN_X86)
SkinStreams streamsOf(const SkinningJob& job) {
    SkinStreams s;
    s.matrices = reinterpret_cast<const float*>(job.matrices.data());
    s.positions = reinterpret_cast<const float*>(job.positions.data());
    s.normals = job.normals.empty() ? nullptr : reinterpret_cast<const float*>(job.normals.data());
    s.joints = reinterpret_cast<const uint16_t*>(job.joints.data());
    s.weights = reinterpret_cast<const float*>(job.weights.data());
    s.out_positions = reinterpret_cast<float*>(job.out_positions.data());
    s.out_normals = job.normals.empty() ? nullptr : reinterpret_cast<float*>(job.out_normals.data());
    return s;
}
#endif

} // namespace

const char* toString(SimdLevel level) {
    switch (level) {
    case SimdLevel::Scalar: return "scalar";
    case SimdLevel::Sse2: return "sse2";
    case SimdLevel::Avx2: return "avx2";
    case SimdLevel::Avx512: return "avx512";
    }
    return "?";
}

bool simdLevelSupported(SimdLevel level) {
    switch (level) {
    case SimdLevel::Scalar: return true;
#if defined(__SSE2__)
    case SimdLevel::Sse2: return true;
#endif
#if defined(THRONG_SKIN_X86)
    case SimdLevel::Avx2: return cpuFeatures().avx2_fma;
    case SimdLevel::Avx512: return cpuFeatures().avx512f;
#endif
    default: return false;
    }
}

SimdLevel bestSimdLevel() {
    static const SimdLevel best = [] {
        for (SimdLevel level : {SimdLevel::Avx512, SimdLevel::Avx2, SimdLevel::Sse2})
            if (simdLevelSupported(level)) return level;
        return SimdLevel::Scalar;
    }();
    return best;
}

void skinRange(SimdLevel level, const SkinningJob& job, size_t begin, size_t end) {
    assert(simdLevelSupported(level) && begin <= end && end <= job.positions.size());
    size_t done = begin;
    switch (level) {
    case SimdLevel::Scalar: break;
#if defined(__SSE2__)
    case SimdLevel::Sse2: done = skinBlocksSse2(streamsOf(job), begin, end); break;
#endif
#if defined(THRONG_SKIN_X86)
    case SimdLevel::Avx2: done = skinBlocksAvx2(streamsOf(job), begin, end); break;
    case SimdLevel::Avx512: done = skinBlocksAvx512(streamsOf(job), begin, end); break;
#endif
    default: break;
    }
    skinScalar(job, done, end);
}

} // namespace detail

bool SkinningJob::run() const {
    if (!validate()) return false;
    detail::skinRange(detail::bestSimdLevel(), *this, 0, positions.size());
    return true;
}

bool SkinningJob::runParallel() const {
    const size_t n = positions.size();
    const size_t chunks = (n + kSkinningChunk - 1) / kSkinningChunk;
    if (chunks <= 1) return run();
    auto chunkEnd = [&](size_t c) { return std::min(n, (c + 1) * kSkinningChunk); };
    // validate(), with its pass over every joint index split like the skinning, so that the
    // serial part is only the size checks; nothing is written until all of it passed.
    if (!detail::validShapes(*this)) return false;
    const uint16_t max_joint = tbb::parallel_reduce(
        tbb::blocked_range<size_t>(0, chunks), uint16_t(0),
        [&](const tbb::blocked_range<size_t>& r, uint16_t m) {
            for (size_t c = r.begin(); c != r.end(); ++c)
                m = std::max(m, detail::maxJointIndex(*this, c * kSkinningChunk, chunkEnd(c)));
            return m;
        },
        [](uint16_t a, uint16_t b) { return std::max(a, b); });
    if (max_joint >= matrices.size()) return false;
    // Chunks are whole blocks of every kernel, so the split changes no result bit.
    static_assert(kSkinningChunk % 16 == 0);
    const detail::SimdLevel level = detail::bestSimdLevel();
    tbb::parallel_for(size_t(0), chunks,
                      [&](size_t c) { detail::skinRange(level, *this, c * kSkinningChunk, chunkEnd(c)); });
    return true;
}

} // namespace throng
