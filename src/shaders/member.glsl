// The member a vertex belongs to and where it lands, shared by every vertex shader. Expects,
// before inclusion: shared.h, vertex.glsl and the push constant block `draw` (DrawConstants).
//
// Draws never index the crowd directly: instance i of a draw stands for member
// visible[gl_InstanceIndex], where gl_InstanceIndex includes the draw's firstInstance. The
// culling pass writes, per LOD, the visible members into their own region of that list and
// draws each region from its start; without culling the draw reads the identity region (member
// i at slot identity_base + i), so the same shaders serve both.

layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_VISIBLE) readonly buffer Visible { uint visible[]; };
layout(std430, set = 0, binding = THRONG_BINDING_LOOKS) readonly buffer Looks { uint looks[]; };

#include "instance.glsl"
#include "looks.glsl"

uint memberIndex() { return visible[uint(gl_InstanceIndex)]; }

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec2 out_uv;
layout(location = 2) out vec4 out_color;
layout(location = 3) out vec3 out_world; // read by lit_shadowed.frag only
layout(location = 4) flat out uint out_layer; // the layer of the submesh's texture array (looks.glsl lookLayer)
#ifdef THRONG_VELOCITY
// Motion vectors (the *_velocity variants, motion.glsl): the members as the last frame drew them.
layout(std430, set = 0, binding = THRONG_BINDING_PREVIOUS_INSTANCES) readonly buffer Previous { InstanceRecord previous_instances[]; };
#include "motion.glsl"
layout(location = 5) out vec4 out_previous; // the last frame's clip position of the vertex
uint drawSlot() { return (draw.draw_bits >> THRONG_DRAW_SLOT_SHIFT) & THRONG_DRAW_SLOT_MASK; } // MotionParams' index
float previousTime() { return motions[drawSlot()].previous_time; }
#endif

// Places model-space position `p` and normal `n` of `vtx` as member `member` and writes every
// output of the vertex; with motion vectors also `then`, where the vertex was in model space in
// the last frame, placed by the member's last record and projected by the last frame's camera. A vertex of a prop or kit part (the submesh's wear selector in
// draw_bits) on a member that does not wear it lands outside the clip volume (its triangles
// vanish; capture: NaN).
void emitVertexFrom(uint member, InstanceRecord inst, MeshVertex vtx, vec3 p, vec3 n, vec3 then) {
    uint key = inst.key != 0u ? inst.key : member;
    if (!throngWears(key, draw.draw_bits >> THRONG_DRAW_WEAR_SHIFT)) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        captureWorld(member, vec3(uintBitsToFloat(0x7fc00000u)));
        out_normal = vec3(0.0, 1.0, 0.0);
        out_uv = vec2(0.0);
        out_color = vec4(0.0);
        out_world = vec3(0.0);
        out_layer = 0u;
#ifdef THRONG_VELOCITY
        out_previous = vec4(0.0, 0.0, 0.0, 1.0);
#endif
        return;
    }
    vec4 q = instanceOrientation(inst);
    vec3 world = rotateByQuaternion(q, p) * inst.position_scale.w + inst.position_scale.xyz;
    gl_Position = draw.view_projection * vec4(world, 1.0);
#ifdef THRONG_VELOCITY
    out_previous = previousClip(placeMember(previous_instances[member], then), drawSlot());
#endif
    captureWorld(member, world);
    out_world = world;
    out_normal = rotateByQuaternion(q, n);
    out_uv = vtx.uv;
    // A prop keeps its own colours: the member's tint is the member's. A look (a prop's too: hair
    // colours) colours the submesh by the member's key, instead of the tint (a skin tone tinted
    // green is no skin tone).
    bool untinted = (draw.draw_bits & THRONG_DRAW_UNTINTED) != 0u || draw.look != 0u;
    out_color = vtx.color * (untinted ? vec4(1.0) : unpackUnorm4x8(inst.color)) * draw.base_color *
                vec4(lookColor(draw.look, key), 1.0);
    out_layer = lookLayer(draw.look, key);
}

// The same where the last frame's shape of the vertex is this frame's (the bind pose's; the
// techniques that keep a last shape call emitVertexFrom), placed by the member's last record.
void emitVertex(uint member, InstanceRecord inst, MeshVertex vtx, vec3 p, vec3 n) { emitVertexFrom(member, inst, vtx, p, n, p); }
