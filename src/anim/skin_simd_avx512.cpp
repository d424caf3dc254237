// The AVX-512 skinning kernel: blocks of 16 vertices, one register per blended 4x4 matrix
// (compiled with -mavx512f; called only when the CPU has AVX-512F, see skin_simd.cpp).
//
// The 16 blended matrices become 12 SoA registers in two steps: a 4x4 transpose inside each
// 128-bit lane per group of 4 vertices (the lanes are the columns), then a 4x4 transpose of the
// 128-bit lanes across the 4 groups. The xyz streams are (de)interleaved with two-source permutes.
#include "skin_simd_kernel.h"

// GCC 12's AVX-512 intrinsics start from _mm512_undefined_ps(), which -W(maybe-)uninitialized
// flags once inlined (GCC bug 105593, fixed in 13); the pragmas must precede the header.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

namespace throng::detail {
namespace {

// Permute indices for 16 xyz triples (48 floats in three registers a, b, c). Deinterleaving takes
// component `comp` of vertex l, element e = 3l + comp: first from a:b (indices 0..31), then the
// elements past 31 from c. Interleaving reverses it: x and y first, then z.
struct XyzPermutes {
    alignas(64) int from_ab[3][16];
    alignas(64) int from_c[3][16];
    alignas(64) int to_xy[3][16];
    alignas(64) int to_z[3][16];
};

constexpr XyzPermutes makeXyzPermutes() {
    XyzPermutes p{};
    for (int comp = 0; comp < 3; ++comp)
        for (int l = 0; l < 16; ++l) {
            const int e = 3 * l + comp;
            p.from_ab[comp][l] = e < 32 ? e : 0;
            p.from_c[comp][l] = e < 32 ? l : 16 + (e - 32);
        }
    for (int reg = 0; reg < 3; ++reg)
        for (int l = 0; l < 16; ++l) {
            const int e = 16 * reg + l, comp = e % 3, vertex = e / 3;
            p.to_xy[reg][l] = comp == 0 ? vertex : comp == 1 ? 16 + vertex : 0;
            p.to_z[reg][l] = comp == 2 ? 16 + vertex : l;
        }
    return p;
}

constexpr XyzPermutes kXyz = makeXyzPermutes();

struct Avx512 {
    using F = __m512;
    using M = __mmask16;
    static constexpr size_t kWidth = 16;

    static F add(F a, F b) { return _mm512_add_ps(a, b); }
    static F mul(F a, F b) { return _mm512_mul_ps(a, b); }
    static F fmadd(F a, F b, F c) { return _mm512_fmadd_ps(a, b, c); }
    static F fmsub(F a, F b, F c) { return _mm512_fmsub_ps(a, b, c); }
    static F sqrt(F a) { return _mm512_sqrt_ps(a); }
    static F div(F a, F b) { return _mm512_div_ps(a, b); }
    static F set1(float x) { return _mm512_set1_ps(x); }
    static M lessThanZero(F a) { return _mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_LT_OQ); }
    static M greaterThanZero(F a) { return _mm512_cmp_ps_mask(a, _mm512_setzero_ps(), _CMP_GT_OQ); }
    static F negate(M m, F a) {
        const __m512i sign = _mm512_set1_epi32(int32_t(0x80000000u));
        return _mm512_castsi512_ps(_mm512_mask_xor_epi32(_mm512_castps_si512(a), m, _mm512_castps_si512(a), sign));
    }
    static F select(M m, F a, F b) { return _mm512_mask_blend_ps(m, b, a); }

    // 16 vertices x 4 slots = 64 weights; lane l of the OR holds slot l % 4 of 4 vertices.
    static unsigned usedSlots(const float* w) {
        const __m512i any = _mm512_or_si512(_mm512_or_si512(_mm512_loadu_si512(w), _mm512_loadu_si512(w + 16)),
                                            _mm512_or_si512(_mm512_loadu_si512(w + 32), _mm512_loadu_si512(w + 48)));
        const unsigned lanes = _mm512_test_epi32_mask(any, _mm512_set1_epi32(0x7fffffff)); // -0 counts as 0
        return (lanes | lanes >> 4 | lanes >> 8 | lanes >> 12) & 0xfu;
    }

    static F blendOne(const SkinStreams& s, size_t vertex, unsigned slots) {
        const uint16_t* j = s.joints + 4 * vertex;
        const float* w = s.weights + 4 * vertex;
        F m = _mm512_mul_ps(_mm512_loadu_ps(s.matrices + 16 * size_t(j[0])), _mm512_set1_ps(w[0]));
        for (int i = 1; i < 4; ++i)
            if (slots & (1u << i))
                m = _mm512_fmadd_ps(_mm512_loadu_ps(s.matrices + 16 * size_t(j[i])), _mm512_set1_ps(w[i]), m);
        return m;
    }

    static void blend(const SkinStreams& s, size_t v, unsigned slots, F c[12]) {
        F x[4], y[4], z[4]; // per group of 4 vertices; 128-bit lane k = column k
#pragma GCC unroll 4        // keeps x, y, z in registers rather than on the stack
        for (int g = 0; g < 4; ++g) {
            const F a = blendOne(s, v + 4 * g, slots), b = blendOne(s, v + 4 * g + 1, slots);
            const F cc = blendOne(s, v + 4 * g + 2, slots), d = blendOne(s, v + 4 * g + 3, slots);
            const __m512d t0 = _mm512_castps_pd(_mm512_unpacklo_ps(a, b));  // ax bx ay by
            const __m512d t1 = _mm512_castps_pd(_mm512_unpackhi_ps(a, b));  // az bz aw bw
            const __m512d t2 = _mm512_castps_pd(_mm512_unpacklo_ps(cc, d)); // cx dx cy dy
            const __m512d t3 = _mm512_castps_pd(_mm512_unpackhi_ps(cc, d)); // cz dz cw dw
            x[g] = _mm512_castpd_ps(_mm512_unpacklo_pd(t0, t2));
            y[g] = _mm512_castpd_ps(_mm512_unpackhi_pd(t0, t2));
            z[g] = _mm512_castpd_ps(_mm512_unpacklo_pd(t1, t3));
        }
        const F* comps[3] = {x, y, z};
        for (int r = 0; r < 3; ++r) {
            const F* q = comps[r];
            const F u0 = _mm512_shuffle_f32x4(q[0], q[1], _MM_SHUFFLE(1, 0, 1, 0)); // g0.col0 g0.col1 g1.col0 g1.col1
            const F u1 = _mm512_shuffle_f32x4(q[0], q[1], _MM_SHUFFLE(3, 2, 3, 2)); // columns 2, 3
            const F u2 = _mm512_shuffle_f32x4(q[2], q[3], _MM_SHUFFLE(1, 0, 1, 0));
            const F u3 = _mm512_shuffle_f32x4(q[2], q[3], _MM_SHUFFLE(3, 2, 3, 2));
            c[0 + r] = _mm512_shuffle_f32x4(u0, u2, _MM_SHUFFLE(2, 0, 2, 0));
            c[3 + r] = _mm512_shuffle_f32x4(u0, u2, _MM_SHUFFLE(3, 1, 3, 1));
            c[6 + r] = _mm512_shuffle_f32x4(u1, u3, _MM_SHUFFLE(2, 0, 2, 0));
            c[9 + r] = _mm512_shuffle_f32x4(u1, u3, _MM_SHUFFLE(3, 1, 3, 1));
        }
    }

    static void loadXyz(const float* p, F xyz[3]) {
        const F a = _mm512_loadu_ps(p), b = _mm512_loadu_ps(p + 16), c = _mm512_loadu_ps(p + 32);
        for (int comp = 0; comp < 3; ++comp) {
            const F ab = _mm512_permutex2var_ps(a, _mm512_load_si512(kXyz.from_ab[comp]), b);
            xyz[comp] = _mm512_permutex2var_ps(ab, _mm512_load_si512(kXyz.from_c[comp]), c);
        }
    }

    static void storeXyz(float* p, const F xyz[3]) {
        for (int reg = 0; reg < 3; ++reg) {
            const F xy = _mm512_permutex2var_ps(xyz[0], _mm512_load_si512(kXyz.to_xy[reg]), xyz[1]);
            _mm512_storeu_ps(p + 16 * reg, _mm512_permutex2var_ps(xy, _mm512_load_si512(kXyz.to_z[reg]), xyz[2]));
        }
    }
};

} // namespace

size_t skinBlocksAvx512(const SkinStreams& s, size_t begin, size_t end) {
    return SkinKernel<Avx512>::skin(s, begin, end);
}

} // namespace throng::detail
