// Linear blend skinning on blocks of W vertices, written once over an instruction set `Isa`
// (SSE2: W = 4, AVX2: 8, AVX-512: 16) and included by the one file compiled for each.
//
// The idea, after ozz-animation's SkinningJob and the usual SoA practice:
//   1. blend each vertex's matrices where they lie (a 4x4 matrix is one AVX-512 register, two
//      AVX2 or four SSE registers): one load and one FMA per influence and register, no gathers;
//   2. transpose the W blended matrices into structure-of-arrays form, 12 registers (the affine
//      3x4 part), W vertices per register;
//   3. do the rest -- position, cofactor normal, sign, normalisation -- on whole registers, after
//      deinterleaving the xyz streams the same way.
// Influence slots that have zero weight on every vertex of a block are skipped; the test is per
// block, so a mesh with a fixed influence count predicts it perfectly.
//
// ODR: this code is compiled with different -m flags in different files. Everything here is a
// template of `Isa`, and every Isa is a type with internal linkage, so every instantiation has
// internal linkage and the linker can never hand an AVX-512 copy to an SSE2 caller. For the same
// reason these files use no glm or standard-library functions: only raw pointers and intrinsics.
#pragma once

#include <cstddef>
#include <cstdint>

namespace throng::detail {

// The streams of a SkinningJob that passed validate(), as raw arrays.
struct SkinStreams {
    const float* matrices = nullptr;  // column-major 4x4, 16 floats each
    const float* positions = nullptr; // xyz per vertex
    const float* normals = nullptr;   // xyz per vertex; nullptr when the job has no normals
    const uint16_t* joints = nullptr; // 4 per vertex
    const float* weights = nullptr;   // 4 per vertex
    float* out_positions = nullptr;   // xyz per vertex
    float* out_normals = nullptr;     // xyz per vertex; nullptr iff normals is
};

// Each skins the whole blocks of [begin, end) and returns where they stopped; the caller does the
// rest with the scalar loop. Defined in skin_simd.cpp, skin_simd_avx2.cpp, skin_simd_avx512.cpp.
size_t skinBlocksSse2(const SkinStreams& s, size_t begin, size_t end);
size_t skinBlocksAvx2(const SkinStreams& s, size_t begin, size_t end);
size_t skinBlocksAvx512(const SkinStreams& s, size_t begin, size_t end);

// What an Isa provides (F: a register of W floats, M: a lane mask):
//   kWidth; unsigned usedSlots(weights): bit i set when slot i has a non-zero weight in the block;
//   blend(s, first_vertex, slots, c[12]): c[3 * column + row] of the blended 3x4 matrices, SoA;
//   loadXyz(p, xyz[3]) / storeXyz(p, xyz[3]): W interleaved xyz triples <-> SoA registers;
//   add, mul, fmadd(a, b, c) = a * b + c, fmsub(a, b, c) = a * b - c, sqrt, div, set1;
//   M lessThanZero(F), M greaterThanZero(F), negate(M, F) (negates the masked lanes),
//   select(M, a, b) (a in masked lanes, else b).
template <class Isa> struct SkinKernel {
    using F = typename Isa::F;

    static void cross(const F* a, const F* b, F* out) {
        out[0] = Isa::fmsub(a[1], b[2], Isa::mul(a[2], b[1]));
        out[1] = Isa::fmsub(a[2], b[0], Isa::mul(a[0], b[2]));
        out[2] = Isa::fmsub(a[0], b[1], Isa::mul(a[1], b[0]));
    }

    static F dot(const F* a, const F* b) {
        return Isa::fmadd(a[0], b[0], Isa::fmadd(a[1], b[1], Isa::mul(a[2], b[2])));
    }

    template <bool kNormals> static size_t run(const SkinStreams& s, size_t begin, size_t end) {
        constexpr size_t kWidth = Isa::kWidth;
        size_t v = begin;
        for (; end - v >= kWidth; v += kWidth) {
            F c[12]; // blended columns c0, c1, c2 (linear part) and c3 (translation), xyz each
            Isa::blend(s, v, Isa::usedSlots(s.weights + 4 * v), c);

            F p[3], out[3];
            Isa::loadXyz(s.positions + 3 * v, p);
            for (int r = 0; r < 3; ++r)
                out[r] = Isa::fmadd(c[r], p[0], Isa::fmadd(c[3 + r], p[1], Isa::fmadd(c[6 + r], p[2], c[9 + r])));
            Isa::storeXyz(s.out_positions + 3 * v, out);

            if constexpr (kNormals) {
                // Cofactor columns = det * inverse transpose: right under non-uniform scale, and
                // no division; the sign of det restores the outward side for mirroring matrices.
                F k0[3], k1[3], k2[3], n[3], r[3];
                cross(c + 3, c + 6, k0);
                cross(c + 6, c + 0, k1);
                cross(c + 0, c + 3, k2);
                Isa::loadXyz(s.normals + 3 * v, n);
                for (int i = 0; i < 3; ++i)
                    r[i] = Isa::fmadd(k0[i], n[0], Isa::fmadd(k1[i], n[1], Isa::mul(k2[i], n[2])));
                const auto mirrored = Isa::lessThanZero(dot(c, k0));
                for (int i = 0; i < 3; ++i) r[i] = Isa::negate(mirrored, r[i]);
                const F len2 = dot(r, r);
                // A degenerate blend keeps the bind normal, as the scalar loop does.
                const auto usable = Isa::greaterThanZero(len2);
                const F inv_len = Isa::div(Isa::set1(1.0f), Isa::sqrt(len2));
                for (int i = 0; i < 3; ++i) out[i] = Isa::select(usable, Isa::mul(r[i], inv_len), n[i]);
                Isa::storeXyz(s.out_normals + 3 * v, out);
            }
        }
        return v;
    }

    static size_t skin(const SkinStreams& s, size_t begin, size_t end) {
        return s.normals != nullptr ? run<true>(s, begin, end) : run<false>(s, begin, end);
    }
};

} // namespace throng::detail
