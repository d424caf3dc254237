// What every sim_*.comp shares: the set 0 buffers (gpu_sim.h), the push constants, the member
// step (sim_member.h, the CPU reference's very code) and the 2D dispatch index. Expects, before
// inclusion: shared.h and sim_shared.h.

layout(local_size_x = THRONG_SIM_LOCAL_SIZE) in;

layout(std430, set = 0, binding = THRONG_SIM_BINDING_PARAMS) readonly buffer Params {
    SimModelParams models[]; // per model (sim_shared.h); the crowd's fields are every one's
};
// The model whose root motion table SIM_ROOT reads (sim_step.comp sets it per member).
uint sim_model = 0u;
layout(std430, set = 0, binding = THRONG_SIM_BINDING_MEMBERS) buffer Members { MemberState members[]; };
layout(std430, set = 0, binding = THRONG_SIM_BINDING_CELLS) buffer Cells { uvec2 cells[]; };
layout(std430, set = 0, binding = THRONG_SIM_BINDING_STARTS) buffer Starts { uint starts[]; };
layout(std430, set = 0, binding = THRONG_SIM_BINDING_SORTED) buffer Sorted { SortedMember sorted[]; };
layout(std430, set = 0, binding = THRONG_SIM_BINDING_INSTANCES) writeonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_SIM_BINDING_NEXT_COUNTS) buffer NextCounts { uint next_counts[]; };

layout(push_constant) uniform Push { SimConstants constants; };

#define SIM_FN
#define SIM_INOUT(T) inout T
#define SIM_IN(T) T
#define SIM_PRECISE precise
#define SIM_ROOT_PARAM
#define SIM_ROOT_ARG
#define SIM_ROOT(i) models[sim_model].root[i]
#include "sim_member.h"

// Dispatches are 2D when there are more groups than a row may hold (gpu_sim.cpp: split).
uint groupIndex() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }
uint memberIndex() { return groupIndex() * THRONG_SIM_LOCAL_SIZE + gl_LocalInvocationID.x; }
