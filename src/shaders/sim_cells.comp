#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "sim_shared.h"
#include "sim_common.glsl"

// Per member: its cell, and its rank among the cell's members from an atomic add to the cell's
// count (the counts were cleared before; the order of ranks is the atomics' and does not matter).
void main() {
    uint i = memberIndex();
    if (i >= models[0].params.members) return;
    uint cell = simCellIndex(simCellOf(ivec3(members[i].position), models[0].params), models[0].params);
    cells[i] = uvec2(cell, atomicAdd(starts[cell], 1u));
}
