// The AVX2 + FMA skinning kernel: blocks of 8 vertices, a blended 4x4 matrix in two registers
// (columns 0|1 and 2|3) (compiled with -mavx2 -mfma; called only when the CPU has both).
//
// Transpose: a 4x4 transpose inside each 128-bit half per group of 4 vertices, then the halves
// of the two groups recombined. The xyz streams: 3 is invertible mod 8, so the 8 values of one
// component sit in 8 distinct lanes of the three registers; two blends gather them into one
// register and a permute puts them in vertex order (and the reverse to store).
#include "skin_simd_kernel.h"

#include <immintrin.h>

namespace throng::detail {
namespace {

// Blend masks (bit l: take lane l from the second operand) and permutes for 8 xyz triples.
constexpr int fromB(int comp) { // elements 8..15 of component comp
    int m = 0;
    for (int e = 8; e < 16; ++e) m |= e % 3 == comp ? 1 << (e % 8) : 0;
    return m;
}
constexpr int fromC(int comp) { // elements 16..23
    int m = 0;
    for (int e = 16; e < 24; ++e) m |= e % 3 == comp ? 1 << (e % 8) : 0;
    return m;
}
constexpr int ofComponent(int reg, int comp) { // lanes of output register reg holding component comp
    int m = 0;
    for (int l = 0; l < 8; ++l) m |= (8 * reg + l) % 3 == comp ? 1 << l : 0;
    return m;
}

struct XyzPermutes {
    alignas(32) int gather[3][8];  // lane l <- lane (3l + comp) % 8
    alignas(32) int scatter[3][8]; // the inverse: lane (3v + comp) % 8 <- lane v
};

constexpr XyzPermutes makeXyzPermutes() {
    XyzPermutes p{};
    for (int comp = 0; comp < 3; ++comp)
        for (int l = 0; l < 8; ++l) {
            p.gather[comp][l] = (3 * l + comp) % 8;
            p.scatter[comp][(3 * l + comp) % 8] = l;
        }
    return p;
}

constexpr XyzPermutes kXyz = makeXyzPermutes();

struct Avx2 {
    using F = __m256;
    using M = __m256;
    static constexpr size_t kWidth = 8;

    static F add(F a, F b) { return _mm256_add_ps(a, b); }
    static F mul(F a, F b) { return _mm256_mul_ps(a, b); }
    static F fmadd(F a, F b, F c) { return _mm256_fmadd_ps(a, b, c); }
    static F fmsub(F a, F b, F c) { return _mm256_fmsub_ps(a, b, c); }
    static F sqrt(F a) { return _mm256_sqrt_ps(a); }
    static F div(F a, F b) { return _mm256_div_ps(a, b); }
    static F set1(float x) { return _mm256_set1_ps(x); }
    static M lessThanZero(F a) { return _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_LT_OQ); }
    static M greaterThanZero(F a) { return _mm256_cmp_ps(a, _mm256_setzero_ps(), _CMP_GT_OQ); }
    static F negate(M m, F a) { return _mm256_xor_ps(a, _mm256_and_ps(m, _mm256_set1_ps(-0.0f))); }
    static F select(M m, F a, F b) { return _mm256_blendv_ps(b, a, m); }

    // 8 vertices x 4 slots = 32 weights; lane l of the OR holds slot l % 4 of 4 vertices.
    static unsigned usedSlots(const float* w) {
        const __m256i any =
            _mm256_or_si256(_mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(w)),
                                            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 8))),
                            _mm256_or_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 16)),
                                            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 24))));
        const __m256i magnitude = _mm256_and_si256(any, _mm256_set1_epi32(0x7fffffff)); // -0 counts as 0
        const unsigned zero =
            unsigned(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(magnitude, _mm256_setzero_si256()))));
        const unsigned lanes = ~zero & 0xffu;
        return (lanes | lanes >> 4) & 0xfu;
    }

    static void blendOne(const SkinStreams& s, size_t vertex, unsigned slots, F& lo, F& hi) {
        const uint16_t* j = s.joints + 4 * vertex;
        const float* w = s.weights + 4 * vertex;
        const float* m = s.matrices + 16 * size_t(j[0]);
        F wi = _mm256_set1_ps(w[0]);
        lo = _mm256_mul_ps(_mm256_loadu_ps(m), wi);
        hi = _mm256_mul_ps(_mm256_loadu_ps(m + 8), wi);
        for (int i = 1; i < 4; ++i) {
            if (!(slots & (1u << i))) continue;
            m = s.matrices + 16 * size_t(j[i]);
            wi = _mm256_set1_ps(w[i]);
            lo = _mm256_fmadd_ps(_mm256_loadu_ps(m), wi, lo);
            hi = _mm256_fmadd_ps(_mm256_loadu_ps(m + 8), wi, hi);
        }
    }

    // 4x4 transpose in each 128-bit half of a..d: x = [a b c d].x of the low column | of the high.
    static void transpose4(F a, F b, F c, F d, F& x, F& y, F& z) {
        const __m256d t0 = _mm256_castps_pd(_mm256_unpacklo_ps(a, b));
        const __m256d t1 = _mm256_castps_pd(_mm256_unpackhi_ps(a, b));
        const __m256d t2 = _mm256_castps_pd(_mm256_unpacklo_ps(c, d));
        const __m256d t3 = _mm256_castps_pd(_mm256_unpackhi_ps(c, d));
        x = _mm256_castpd_ps(_mm256_unpacklo_pd(t0, t2));
        y = _mm256_castpd_ps(_mm256_unpackhi_pd(t0, t2));
        z = _mm256_castpd_ps(_mm256_unpacklo_pd(t1, t3));
    }

    static void blend(const SkinStreams& s, size_t v, unsigned slots, F c[12]) {
        F lo_xyz[2][3], hi_xyz[2][3]; // per group of 4 vertices: columns 0|1 and 2|3
        for (int g = 0; g < 2; ++g) {
            F lo[4], hi[4];
            for (int k = 0; k < 4; ++k) blendOne(s, v + 4 * g + k, slots, lo[k], hi[k]);
            transpose4(lo[0], lo[1], lo[2], lo[3], lo_xyz[g][0], lo_xyz[g][1], lo_xyz[g][2]);
            transpose4(hi[0], hi[1], hi[2], hi[3], hi_xyz[g][0], hi_xyz[g][1], hi_xyz[g][2]);
        }
        for (int r = 0; r < 3; ++r) {
            c[0 + r] = _mm256_permute2f128_ps(lo_xyz[0][r], lo_xyz[1][r], 0x20);
            c[3 + r] = _mm256_permute2f128_ps(lo_xyz[0][r], lo_xyz[1][r], 0x31);
            c[6 + r] = _mm256_permute2f128_ps(hi_xyz[0][r], hi_xyz[1][r], 0x20);
            c[9 + r] = _mm256_permute2f128_ps(hi_xyz[0][r], hi_xyz[1][r], 0x31);
        }
    }

    template <int kComp> static F gather(F a, F b, F c) {
        constexpr int kFromB = fromB(kComp), kFromC = fromC(kComp); // named, so -O0 sees immediates too
        const F mixed = _mm256_blend_ps(_mm256_blend_ps(a, b, kFromB), c, kFromC);
        return _mm256_permutevar8x32_ps(mixed, _mm256_load_si256(reinterpret_cast<const __m256i*>(kXyz.gather[kComp])));
    }

    static void loadXyz(const float* p, F xyz[3]) {
        const F a = _mm256_loadu_ps(p), b = _mm256_loadu_ps(p + 8), c = _mm256_loadu_ps(p + 16);
        xyz[0] = gather<0>(a, b, c);
        xyz[1] = gather<1>(a, b, c);
        xyz[2] = gather<2>(a, b, c);
    }

    template <int kReg> static F interleave(F x, F y, F z) {
        constexpr int kY = ofComponent(kReg, 1), kZ = ofComponent(kReg, 2);
        return _mm256_blend_ps(_mm256_blend_ps(x, y, kY), z, kZ);
    }

    static void storeXyz(float* p, const F xyz[3]) {
        F q[3];
        for (int comp = 0; comp < 3; ++comp)
            q[comp] = _mm256_permutevar8x32_ps(xyz[comp],
                                               _mm256_load_si256(reinterpret_cast<const __m256i*>(kXyz.scatter[comp])));
        _mm256_storeu_ps(p, interleave<0>(q[0], q[1], q[2]));
        _mm256_storeu_ps(p + 8, interleave<1>(q[0], q[1], q[2]));
        _mm256_storeu_ps(p + 16, interleave<2>(q[0], q[1], q[2]));
    }
};

} // namespace

size_t skinBlocksAvx2(const SkinStreams& s, size_t begin, size_t end) { return SkinKernel<Avx2>::skin(s, begin, end); }

} // namespace throng::detail
