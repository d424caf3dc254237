#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "sim_shared.h"
#include "sim_common.glsl"

// Per member, with THRONG_SIM_FLAG_STEP: the neighbour sums over the cells around it (cells of
// one row are one range of the sorted members), then one step (sim_member.h). With
// THRONG_SIM_FLAG_WRITE: its InstanceRecord at constants.time. With THRONG_SIM_FLAG_COUNT (and
// STEP): its cell for the next step, as sim_cells.comp finds it. A member of a crowd of several
// models steps with its model's params (its clips, speeds, root motion); the grid is the crowd's.
void main() {
    uint i = memberIndex();
    if (i >= models[0].params.members) return;
    MemberState m = members[i];
    sim_model = min(simModelOf(m.clips), models[0].params.models - 1u);
    SimParams P = models[sim_model].params;
    if ((constants.flags & THRONG_SIM_FLAG_STEP) != 0u) {
        SimSums sums = simNoSums();
        ivec3 p = ivec3(m.position);
        uvec3 c = simCellOf(p, P);
        uvec3 lo = uvec3(c.x > 0u ? c.x - 1u : 0u, c.y > 0u ? c.y - 1u : 0u, c.z > 0u ? c.z - 1u : 0u);
        uvec3 hi = min(c + 1u, uvec3(P.grid_dims) - 1u);
        bool planar = P.kind == uint(THRONG_SIM_KIND_WALKERS);
        for (uint z = lo.z; z <= hi.z; ++z) {
            for (uint y = lo.y; y <= hi.y; ++y) {
                uint row = (z * P.grid_dims.y + y) * P.grid_dims.x;
                uint last = starts[row + hi.x + 1u];
                for (uint k = starts[row + lo.x]; k < last; ++k) {
                    SortedMember o = sorted[k];
                    uint j = uint(o.position.w);
                    if (j == i) continue;
                    simAccumulate(sums, p, i, ivec3(o.position), ivec3(o.velocity), j, planar, P.separation);
                }
            }
        }
        simStep(m, sums, P SIM_ROOT_ARG);
        members[i] = m;
        // What sim_cells.comp would do at the next step's start, with the position at hand: the
        // new cell, and the rank in it from the next step's counts (cleared before this step).
        if ((constants.flags & THRONG_SIM_FLAG_COUNT) != 0u) {
            uint cell = simCellIndex(simCellOf(ivec3(m.position), models[0].params), models[0].params);
            cells[i] = uvec2(cell, atomicAdd(next_counts[cell], 1u));
        }
    }
    if ((constants.flags & THRONG_SIM_FLAG_WRITE) != 0u) instances[i] = simInstance(m, P, constants.time SIM_ROOT_ARG);
}
