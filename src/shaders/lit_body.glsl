// The lit fragment of every mesh technique (lit.frag; with THRONG_SHADOWS defined,
// lit_shadowed.frag): a directional light plus ambient, two-sided so thin parts (fins, capes)
// light from both sides, the light dimmed by the shadow map where the crowd casts shadows.
// Expects shared.h.

layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec2 in_uv;
layout(location = 2) in vec4 in_color;
layout(location = 3) in vec3 in_world; // member.glsl writes it for shadows; read below either way, so the
                                       // interfaces match without maintenance4
layout(location = 4) flat in uint in_layer; // the member's layer of the texture array (texture variants)
#ifdef THRONG_SHADOWS
#include "shadow.glsl"
#endif

layout(set = 0, binding = THRONG_BINDING_TEXTURE) uniform sampler2DArray base_texture; // gpu_textures.h
layout(push_constant) uniform Push { DrawConstants draw; };

layout(location = 0) out vec4 out_color;
#ifdef THRONG_VELOCITY
#include "motion.glsl"
layout(location = 5) in vec4 in_previous; // member.glsl: the last frame's clip position of the point
layout(location = 1) out vec2 out_velocity;
#endif

void main() {
    if (any(isnan(in_world))) discard; // a broken vertex draws nothing
    vec3 n = normalize(in_normal);
    if (!gl_FrontFacing) n = -n;
    float diffuse = max(dot(n, -draw.light_direction.xyz), 0.0);
#ifdef THRONG_SHADOWS
    if (diffuse > 0.0) diffuse *= shadowLight(in_world, n, draw.light_direction.xyz, (draw.draw_bits >> THRONG_DRAW_SLOT_SHIFT) & THRONG_DRAW_SLOT_MASK);
#endif
    vec4 albedo = in_color;
    if ((draw.draw_bits & THRONG_DRAW_TEXTURED) != 0u) albedo *= texture(base_texture, vec3(in_uv, float(in_layer)));
    float light = draw.light_direction.w + (1.0 - draw.light_direction.w) * diffuse;
    out_color = vec4(albedo.rgb * light, 1.0);
#ifdef THRONG_VELOCITY
    out_velocity = velocityAt(gl_FragCoord.xy, in_previous, (draw.draw_bits >> THRONG_DRAW_SLOT_SHIFT) & THRONG_DRAW_SLOT_MASK);
#endif
}
