#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// Technique `pose`, a thread per (member, skeleton node), THRONG_POSE_GROUP_NODES threads a
// workgroup holding as many whole members as fit (skeletons of at most that many nodes;
// pose.comp takes larger ones): each thread samples and blends its node's local pose
// (pose_sample.glsl) into shared memory; then composes its ancestors' local matrices, root first,
// into its model matrix; then the member's threads write its palette, each entry
// model[node] x inverse bind, 3 rows (palette.vert and the compute rasterizer read it). Threads
// take their (member, node) node-major while they sample and compose (consecutive threads: one
// node of consecutive members, so that a subgroup's threads take the same tracks, keys and
// branches; member-major, a subgroup held 32 different nodes' code paths) and member-major
// while they write (consecutive threads: consecutive rows of one palette). A thread per member
// (pose.comp) walks its nodes one after another, 21 key searches deep for the walker, with few
// threads a processor: the GPU waits on memory there.
layout(local_size_x = THRONG_POSE_GROUP_NODES) in;

layout(std430, set = 0, binding = THRONG_BINDING_POSE_JOINTS) readonly buffer Joints { PoseJoint joints[]; };
layout(std430, set = 0, binding = THRONG_BINDING_PALETTE) writeonly buffer Palettes { vec4 palette[]; };

#include "pose_sample.glsl"

shared mat3x4 model[THRONG_POSE_GROUP_NODES]; // member slot s, node n at n * per_group + s

void main() {
    uint lanes = pose.nodes, per_group = THRONG_POSE_GROUP_NODES / lanes;
    uint t = gl_LocalInvocationID.x, first_member = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * per_group;
    // Sampling and composing: node n of member slot s.
    uint s = t % per_group, n = t / per_group, member = first_member + s;
    bool live = n < lanes && member < pose.members;
    if (live) model[n * per_group + s] = poseLocal(memberClock(member), n);
    barrier();
    // Its model matrix: the local matrices of its ancestors, root first (a few levels: no
    // barrier per level).
    mat3x4 m;
    if (live) {
        m = model[n * per_group + s];
        for (int parent = nodes[n].parent; parent >= 0; parent = nodes[parent].parent)
            m = compose(model[uint(parent) * per_group + s], m);
    }
    barrier();
    if (live) model[n * per_group + s] = m;
    barrier();
    // Writing: the joints j = n, n + lanes, ... of member slot s.
    s = t / lanes;
    n = t % lanes;
    member = first_member + s;
    if (s >= per_group || member >= pose.members) return;
    for (uint j = n; j < pose.joints; j += lanes) {
        PoseJoint joint = joints[j];
        writeEntry(member, joint.entry, model[joint.node * per_group + s], joint);
    }
}
