// Skinning from per-instance palettes written by the CPU, shared by palette.vert (storage
// buffer) and palette_ubo.vert (uniform block, in batches). The including shader declares
// `instances`, defines PALETTE_VEC4(i) (vec4 i of the palettes it can see) and PALETTE_INSTANCE
// (this instance's palette within them).

layout(push_constant) uniform Push { DrawConstants draw; };
layout(constant_id = THRONG_SPEC_PALETTE_QUATERNION) const bool kQuaternionPalette = false;

#include "instance.glsl"

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec4 out_color;

// A joint's 3x4 matrix, built so that vec4(p, 1) * m transforms p (columns are the matrix rows).
mat3x4 paletteJoint(uint instance, uint joint) {
    uint entry = instance * draw.joint_count + joint;
    if (kQuaternionPalette) {
        vec4 q = PALETTE_VEC4(2u * entry);
        vec4 ts = PALETTE_VEC4(2u * entry + 1u);  // translation, uniform scale
        vec3 x = rotateByQuaternion(q, vec3(ts.w, 0.0, 0.0));
        vec3 y = rotateByQuaternion(q, vec3(0.0, ts.w, 0.0));
        vec3 z = rotateByQuaternion(q, vec3(0.0, 0.0, ts.w));
        return mat3x4(vec4(x.x, y.x, z.x, ts.x), vec4(x.y, y.y, z.y, ts.y), vec4(x.z, y.z, z.z, ts.z));
    }
    return mat3x4(PALETTE_VEC4(3u * entry), PALETTE_VEC4(3u * entry + 1u), PALETTE_VEC4(3u * entry + 2u));
}

void main() {
    MeshVertex vtx = fetchVertex(uint(gl_VertexIndex));
    InstanceRecord inst = instances[gl_InstanceIndex];
    mat3x4 skin = mat3x4(0.0);
    for (int i = 0; i < 4; ++i)
        if (vtx.weights[i] != 0.0) skin += paletteJoint(PALETTE_INSTANCE, vtx.joints[i]) * vtx.weights[i];
    vec3 p = vec4(vtx.position, 1.0) * skin;
    vec3 n = vec4(vtx.normal, 0.0) * skin;
    vec4 q = instanceOrientation(inst);
    vec3 world = rotateByQuaternion(q, p) * inst.position_scale.w + inst.position_scale.xyz;
    gl_Position = draw.view_projection * vec4(world, 1.0);
    captureWorld(world);
    out_normal = rotateByQuaternion(q, n);
    out_uv = vtx.uv;
    out_color = vtx.color * unpackUnorm4x8(inst.color) * draw.base_color;
}
