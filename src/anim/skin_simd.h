// The skinning kernels behind SkinningJob, one per instruction set, and the run-time choice
// between them (internal to throng_anim; tests and benchmarks call each level directly).
//
// Release builds target plain x86-64 (SSE2), so the wider kernels live in their own files
// compiled with -mavx2 -mfma / -mavx512f and are only called after the CPU said it has them.
#pragma once

#include <throng/anim.h>

#include <cstddef>
#include <cstdint>

namespace throng::detail {

// Ordered from narrowest to widest; Scalar is the portable loop every level falls back to for
// the vertices that do not fill a block.
enum class SimdLevel { Scalar, Sse2, Avx2, Avx512 };
inline constexpr SimdLevel kSimdLevels[] = {SimdLevel::Scalar, SimdLevel::Sse2, SimdLevel::Avx2, SimdLevel::Avx512};

const char* toString(SimdLevel level);

// Whether this build has the kernel and this CPU (and OS) can run it.
bool simdLevelSupported(SimdLevel level);

// The widest supported level, detected once; SkinningJob::run() uses it.
SimdLevel bestSimdLevel();

// SkinningJob::validate() in two parts (skin.cpp), so runParallel() can split the second:
// every span size, and the largest joint index of vertices [begin, end) (0 when empty).
bool validShapes(const SkinningJob& job);
uint16_t maxJointIndex(const SkinningJob& job, size_t begin, size_t end);

// The portable float loop (skin.cpp): every kernel's tail, and the level every other is checked
// against. Same preconditions as skinRange.
void skinScalar(const SkinningJob& job, size_t begin, size_t end);

// Skins vertices [begin, end) of a job that passed validate(), with `level`'s kernel (which must
// be supported) for whole blocks and the scalar loop for the rest. Writes only that range, so
// disjoint ranges may run concurrently.
void skinRange(SimdLevel level, const SkinningJob& job, size_t begin, size_t end);

} // namespace throng::detail
