#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "sim_shared.h"
#include "sim_common.glsl"

// The exclusive prefix sum of the per-cell counts, one level of it (gpu_sim.cpp: record).
// Scanning (no THRONG_SIM_FLAG_SCAN_ADD): each workgroup scans one block of 1,024 elements of the
// level in place, 8 consecutive ones per thread, and with THRONG_SIM_FLAG_SCAN_SUMS writes the
// block's total to element `sums + block`. Adding: each element of block b gets element
// `sums + b` (the next level, scanned) added. Integers: the result is exact.

shared uint partial[THRONG_SIM_LOCAL_SIZE];

void main() {
    uint block = groupIndex();
    bool live = block * uint(THRONG_SIM_SCAN_BLOCK) < constants.count;  // the same for the whole group
    uint tid = gl_LocalInvocationID.x;
    uint base = constants.offset + block * uint(THRONG_SIM_SCAN_BLOCK) + tid * uint(THRONG_SIM_SCAN_ITEMS);
    if ((constants.flags & THRONG_SIM_FLAG_SCAN_ADD) != 0u) {
        if (!live) return;
        uint add = starts[constants.sums + block];
        for (uint k = 0u; k < uint(THRONG_SIM_SCAN_ITEMS); ++k) starts[base + k] += add;
        return;
    }
    uint before[THRONG_SIM_SCAN_ITEMS];
    uint total = 0u;
    if (live) {
        for (uint k = 0u; k < uint(THRONG_SIM_SCAN_ITEMS); ++k) {
            before[k] = total;
            total += starts[base + k];
        }
    }
    partial[tid] = total;
    barrier();
    // Inclusive scan of the threads' totals (Hillis-Steele).
    for (uint d = 1u; d < uint(THRONG_SIM_LOCAL_SIZE); d <<= 1) {
        uint left = tid >= d ? partial[tid - d] : 0u;
        barrier();
        partial[tid] += left;
        barrier();
    }
    if (live) {
        uint offset = partial[tid] - total;
        for (uint k = 0u; k < uint(THRONG_SIM_SCAN_ITEMS); ++k) starts[base + k] = offset + before[k];
        if ((constants.flags & THRONG_SIM_FLAG_SCAN_SUMS) != 0u && tid == uint(THRONG_SIM_LOCAL_SIZE) - 1u)
            starts[constants.sums + block] = partial[tid];
    }
}
