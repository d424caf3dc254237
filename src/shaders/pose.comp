#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// Technique `pose`, a thread per member (skeletons of more than THRONG_POSE_GROUP_NODES nodes;
// pose_nodes.comp takes the others): for every skeleton node, depth first (PoseStep), the
// member's blended local pose (pose_sample.glsl) composed with its parent's model matrix, then
// the node's entries of the member's skinning palette: model[node] x inverse bind, 3 rows per
// entry (palette.vert and the compute rasterizer read it). A thread keeps only the model
// matrices of the path from the root, in a stack as deep as the skeleton (THRONG_POSE_MAX_DEPTH
// levels at most).
layout(local_size_x = THRONG_POSE_LOCAL_SIZE) in;
layout(constant_id = THRONG_SPEC_POSE_DEPTH) const uint kPoseDepth = 16u;

layout(std430, set = 0, binding = THRONG_BINDING_POSE_JOINTS) readonly buffer Joints { PoseJoint joints[]; };
layout(std430, set = 0, binding = THRONG_BINDING_POSE_STEPS) readonly buffer Steps { PoseStep steps[]; };
layout(std430, set = 0, binding = THRONG_BINDING_PALETTE) writeonly buffer Palettes { vec4 palette[]; };

#include "pose_sample.glsl"

void main() {
    uint member = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * THRONG_POSE_LOCAL_SIZE +
                  gl_LocalInvocationID.x;
    if (member >= pose.members) return;
    MemberClock c = memberClock(member);
    mat3x4 path[kPoseDepth]; // path[d]: the model matrix of the last node of depth d
    for (uint i = 0u; i < pose.nodes; ++i) {
        PoseStep step = steps[i];
        mat3x4 m = poseLocal(c, step.node);
        if (step.depth > 0u) m = compose(path[step.depth - 1u], m);
        path[step.depth] = m;
        for (uint j = step.first_joint; j < step.first_joint + step.joints; ++j)
            writeEntry(member, joints[j].entry, m, joints[j]);
    }
}
