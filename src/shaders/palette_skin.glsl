// Skinning from per-instance palettes written by the CPU, shared by palette.vert (storage
// buffer) and palette_ubo.vert (uniform block, in batches). The including shader defines
// PALETTE_VEC4(i) (vec4 i of the palettes it can see) and PALETTE_INSTANCE (the palette of
// member `member` within them).

layout(push_constant) uniform Push { DrawConstants draw; };
layout(constant_id = THRONG_SPEC_PALETTE_QUATERNION) const bool kQuaternionPalette = false;

#include "member.glsl"
#include "dual_quaternion.glsl"
#include "palette_joint.glsl"

// A joint's 3x4 matrix, built so that vec4(p, 1) * m transforms p (columns are the matrix rows).
mat3x4 paletteJoint(uint instance, uint joint) {
    uint entry = instance * draw.joint_count + joint;
    if (kQuaternionPalette) return quaternionPaletteJoint(PALETTE_VEC4(2u * entry), PALETTE_VEC4(2u * entry + 1u));
    return mat3x4(PALETTE_VEC4(3u * entry), PALETTE_VEC4(3u * entry + 1u), PALETTE_VEC4(3u * entry + 2u));
}

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    uint member = memberIndex();
    InstanceRecord inst = instances[member];
    JointBlend blend = beginJointBlend();
    for (int i = 0; i < 4; ++i)
        if (vtx.weights[i] != 0.0) addJoint(blend, paletteJoint(PALETTE_INSTANCE, vtx.joints[i]), vtx.weights[i]);
    mat3x4 skin = endJointBlend(blend);
    vec3 p = vec4(vtx.position, 1.0) * skin;
    vec3 n = vec4(vtx.normal, 0.0) * skin;
    emitVertex(member, inst, vtx, p, n);
}
