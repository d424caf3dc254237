#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "sim_shared.h"
#include "sim_common.glsl"

// Per member: its position and velocity into its slot of the members sorted by cell (the cell's
// first slot from the prefix sum, plus its rank).
void main() {
    uint i = memberIndex();
    if (i >= models[0].params.members) return;
    uvec2 cell = cells[i];
    SortedMember s;
    s.position = ivec4(ivec3(members[i].position), int(i));
    s.velocity = ivec4(ivec3(members[i].velocity), 0);
    sorted[starts[cell.x] + cell.y] = s;
}
