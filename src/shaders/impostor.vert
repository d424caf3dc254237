#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// One animated impostor per instance (src/render/impostors.h; BakedImpostors in throng/baked.h):
// the view nearest to the direction the member is seen from, a quad in that view's plane through
// the sphere every tile frames, and the picture nearest the member's clip time (clip B once a
// cross-fade is past half way).

layout(std430, set = 0, binding = THRONG_IMPOSTOR_BINDING_PARAMS) readonly buffer Params { ImpostorParams im; };
layout(std430, set = 0, binding = THRONG_IMPOSTOR_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_IMPOSTOR_BINDING_VISIBLE) readonly buffer Visible { uint visible[]; };
layout(std430, set = 0, binding = THRONG_IMPOSTOR_BINDING_CLIPS) readonly buffer Clips { ClipRecord clips[]; };
layout(std430, set = 0, binding = THRONG_IMPOSTOR_BINDING_FRAMES) readonly buffer Frames { uint frames[]; };

#include "instance.glsl"

layout(location = 0) out vec3 out_uvw;
layout(location = 1) flat out vec4 out_tint;
layout(location = 2) flat out vec4 out_rotation;
layout(location = 3) flat out uint out_key; // the member's key (looks)
#ifdef THRONG_VELOCITY // the quad's corner placed by the member's last record, seen by the last frame's camera
layout(std430, set = 0, binding = THRONG_IMPOSTOR_BINDING_PREVIOUS) readonly buffer Previous { InstanceRecord previous_instances[]; };
layout(location = 4) out vec4 out_previous;
#endif

const float kPi = 3.14159265358979;
const vec2 kCorners[4] = vec2[](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(1.0, 1.0));

void main() {
    uint member = visible[gl_InstanceIndex];
    InstanceRecord inst = instances[member];
    out_key = inst.key != 0u ? inst.key : member;
    vec4 q = instanceOrientation(inst);
    float scale = inst.position_scale.w;
    vec3 center = rotateByQuaternion(q, im.sphere.xyz) * scale + inst.position_scale.xyz;
    vec3 to_eye = rotateByQuaternion(vec4(-q.xyz, q.w), normalize(im.camera_position.xyz - center));  // model space

    int azimuths = int(im.azimuths), elevations = int(im.elevations);
    int a = int(round(atan(to_eye.x, to_eye.z) / (2.0 * kPi) * float(azimuths)));
    a = ((a % azimuths) + azimuths) % azimuths;
    int e = clamp(int(round(asin(clamp(to_eye.y, -1.0, 1.0)) / (0.5 * kPi) * float(elevations))), 0, elevations - 1);
    float view_a = 2.0 * kPi * float(a) / float(azimuths), view_e = 0.5 * kPi * float(e) / float(elevations);
    vec3 dir = vec3(sin(view_a) * cos(view_e), sin(view_e), cos(view_a) * cos(view_e));
    vec3 right = normalize(cross(vec3(0.0, 1.0, 0.0), dir));
    vec3 up = cross(dir, right);

    vec2 corner = kCorners[gl_VertexIndex];
    vec3 model = im.sphere.xyz + (corner.x * right + corner.y * up) * im.sphere.w;
    gl_Position = im.view_projection * vec4(rotateByQuaternion(q, model) * scale + inst.position_scale.xyz, 1.0);
#ifdef THRONG_VELOCITY
    InstanceRecord before = previous_instances[member];
    vec3 then = rotateByQuaternion(instanceOrientation(before), model) * before.position_scale.w + before.position_scale.xyz;
    out_previous = im.previous_view_projection * vec4(then, 1.0);
#endif

    uint clip = inst.blend > 0.5 ? throngClipB(inst.clips) : throngClipA(inst.clips);
    ClipRecord c = clips[clip];
    float local = im.time * inst.speed + inst.time_offset;
    float t = c.loop != 0u ? mod(local, c.duration) : clamp(local, 0.0, c.duration);
    uint pictures = frames[clip];
    uint frame = c.duration > 0.0 && pictures > 1u ? min(uint(round(t / c.duration * float(pictures - 1u))), pictures - 1u) : 0u;
    uint view = uint(e * azimuths + a);
    out_uvw = vec3((float(view) + 0.5 + 0.5 * corner.x) / float(azimuths * elevations), (float(frame) + 0.5 - 0.5 * corner.y) / float(im.max_frames),
                   float(clip));
    out_tint = unpackUnorm4x8(inst.color);
    out_rotation = q;
}
