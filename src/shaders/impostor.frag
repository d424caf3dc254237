#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The impostor's picture: coverage below one half is not drawn; the stored colour (base colour x
// vertex colour) times the member's colour of the texel's look (the nearest texel's: looks are
// not filtered) where it has one, else times the member's tint (as member.glsl colours the
// mesh), lit by the stored normal turned as the member, as lit.frag lights the mesh. A look with
// texture variants gives its colour times the variant's mean (looks.glsl lookFlatColor: the
// pictures hold its submeshes untextured).

layout(std430, set = 0, binding = THRONG_IMPOSTOR_BINDING_PARAMS) readonly buffer Params { ImpostorParams im; };
layout(set = 0, binding = THRONG_IMPOSTOR_BINDING_COLOR) uniform sampler2DArray impostor_color;
layout(set = 0, binding = THRONG_IMPOSTOR_BINDING_NORMAL) uniform sampler2DArray impostor_normal;
layout(std430, set = 0, binding = THRONG_IMPOSTOR_BINDING_LOOKS) readonly buffer Looks { uint looks[]; };

layout(location = 0) in vec3 in_uvw;
layout(location = 1) flat in vec4 in_tint;
layout(location = 2) flat in vec4 in_rotation;
layout(location = 3) flat in uint in_key;

layout(location = 0) out vec4 out_color;
#ifdef THRONG_VELOCITY
#define THRONG_MOTION_OWN_PARAMS
#include "motion.glsl"
layout(location = 4) in vec4 in_previous;
layout(location = 1) out vec2 out_velocity;
#endif

#include "instance.glsl"
#include "looks.glsl"

void main() {
    vec4 albedo = texture(impostor_color, in_uvw);
    if (albedo.a < 0.5) discard;
    vec3 n = texture(impostor_normal, in_uvw).xyz * 2.0 - 1.0;
    n = rotateByQuaternion(in_rotation, length(n) > 1e-4 ? normalize(n) : vec3(0.0, 1.0, 0.0));
    float diffuse = max(dot(n, -im.light_direction.xyz), 0.0);
    float light = im.light_direction.w + (1.0 - im.light_direction.w) * diffuse;
    ivec3 size = textureSize(impostor_normal, 0);
    ivec3 texel = ivec3(clamp(ivec2(in_uvw.xy * vec2(size.xy)), ivec2(0), size.xy - 1), int(round(in_uvw.z)));
    uint look = uint(round(texelFetch(impostor_normal, texel, 0).a * 255.0));
    uint record = look == 0u ? 0u : lookRecord(look - 1u);
    vec3 colour = record != 0u ? lookFlatColor(record, in_key) : in_tint.rgb;
    out_color = vec4(albedo.rgb * colour * light, 1.0);
#ifdef THRONG_VELOCITY
    out_velocity = velocityFrom(gl_FragCoord.xy, in_previous, im.viewport);
#endif
}
