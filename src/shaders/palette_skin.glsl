// Skinning from per-instance palettes written by the CPU, shared by palette.vert (storage
// buffer) and palette_ubo.vert (uniform block, in batches). The including shader defines
// PALETTE_VEC4(i) (vec4 i of the palettes it can see) and PALETTE_INSTANCE (the palette of
// member `member` within them); with THRONG_VELOCITY also PREVIOUS_PALETTE_VEC4(i), the same
// vec4 of the palettes as the last frame drew them (motion.glsl: the vertex's last position is
// skinned from them).

layout(push_constant) uniform Push { DrawConstants draw; };
layout(constant_id = THRONG_SPEC_PALETTE_QUATERNION) const bool kQuaternionPalette = false;

#include "member.glsl"
#include "dual_quaternion.glsl"
#include "palette_joint.glsl"

// A joint's 3x4 matrix, built so that vec4(p, 1) * m transforms p (columns are the matrix rows):
// this frame's, or (`previous`) the last frame's.
mat3x4 paletteJoint(uint instance, uint joint, bool previous) {
    uint entry = instance * draw.joint_count + joint;
    uint first = (kQuaternionPalette ? 2u : 3u) * entry;
    vec4 rows[3];
    for (uint r = 0u; r < (kQuaternionPalette ? 2u : 3u); ++r)
#ifdef THRONG_VELOCITY
        rows[r] = previous ? PREVIOUS_PALETTE_VEC4(first + r) : PALETTE_VEC4(first + r);
#else
        rows[r] = PALETTE_VEC4(first + r);
#endif
    if (kQuaternionPalette) return quaternionPaletteJoint(rows[0], rows[1]);
    return mat3x4(rows[0], rows[1], rows[2]);
}

mat3x4 paletteSkin(uint member, MeshVertex vtx, bool previous) {
    JointBlend blend = beginJointBlend();
    for (int i = 0; i < 4; ++i)
        if (vtx.weights[i] != 0.0) addJoint(blend, paletteJoint(PALETTE_INSTANCE, vtx.joints[i], previous), vtx.weights[i]);
    return endJointBlend(blend);
}

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    uint member = memberIndex();
    InstanceRecord inst = instances[member];
    mat3x4 skin = paletteSkin(member, vtx, false);
    vec3 p = vec4(vtx.position, 1.0) * skin;
    vec3 n = vec4(vtx.normal, 0.0) * skin;
#ifdef THRONG_VELOCITY
    emitVertexFrom(member, inst, vtx, p, n, vec4(vtx.position, 1.0) * paletteSkin(member, vtx, true));
#else
    emitVertex(member, inst, vtx, p, n);
#endif
}
