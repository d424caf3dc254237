// The shadow test of a lit surface (src/render/shadows.h): how much of the directional light
// reaches world point `world` with normal `n`, from the frame's shadow map. Expects shared.h.
//
// The map holds, per texel, the depth nearest the light (reversed Z: larger is nearer). The
// point is pushed along its normal (turned toward the light) by a fraction of a texel before it
// is projected, so a surface does not shadow itself; then 3 x 3 texels around it are compared
// (percentage-closer filtering; each tap the hardware's comparison of the 2 x 2 texels around it,
// weighted bilinearly where the device filters depth linearly) for a smooth edge. Outside the
// map: lit. Its one level sampled explicitly (the resolve shades in compute).

layout(set = 0, binding = THRONG_BINDING_SHADOW_MAP) uniform sampler2DShadow shadow_map;
layout(std430, set = 0, binding = THRONG_BINDING_SHADOW_PARAMS) readonly buffer ShadowFrames { ShadowParams shadow_frames[]; };

float shadowLight(vec3 world, vec3 n, vec3 light_direction, uint slot) {
    ShadowParams s = shadow_frames[slot];
    vec3 toward = dot(n, light_direction) > 0.0 ? -n : n;
    vec4 c = s.light_view_projection * vec4(world + toward * s.settings.y, 1.0);
    vec3 p = c.xyz / c.w;
    vec2 uv = p.xy * 0.5 + 0.5;
    if (any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0))) || p.z < 0.0 || p.z > 1.0) return 1.0;
    // The sampler compares (reference >= stored): lit unless something nearer the light is stored.
    float reference = p.z + s.settings.z;
    float lit = 0.0;
    for (int y = -1; y <= 1; ++y)
        for (int x = -1; x <= 1; ++x) lit += textureLod(shadow_map, vec3(uv + vec2(x, y) * s.settings.x, reference), 0.0);
    return lit / 9.0;
}
