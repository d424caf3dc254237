#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec2 in_uv;
layout(location = 2) in vec4 in_color;

layout(set = 0, binding = THRONG_BINDING_TEXTURE) uniform sampler2D base_texture;
layout(push_constant) uniform Push { DrawConstants draw; };

layout(location = 0) out vec4 out_color;

// Directional light plus ambient; two-sided so thin parts (fins, capes) light from both sides.
void main() {
    vec3 n = normalize(in_normal);
    if (!gl_FrontFacing) n = -n;
    float diffuse = max(dot(n, -draw.light_direction.xyz), 0.0);
    vec4 albedo = in_color;
    if (draw.has_texture != 0u) albedo *= texture(base_texture, in_uv);
    float light = draw.light_direction.w + (1.0 - draw.light_direction.w) * diffuse;
    out_color = vec4(albedo.rgb * light, 1.0);
}
