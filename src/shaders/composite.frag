#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The compute rasterizer's last pass (src/render/compute_raster.h): writes what the resolve
// shaded (resolve_body.glsl) into the frame's colour and depth, depth-tested against what the
// hardware drew; pixels the resolve left (THRONG_RESOLVED_NONE) keep the target's.

layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PARAMS) readonly buffer Params { RasterParams raster; };
layout(std430, set = 0, binding = THRONG_BINDING_RESOLVED) readonly buffer Resolved { uvec4 resolved[]; };

layout(location = 0) out vec4 out_color;
#ifdef THRONG_VELOCITY
layout(std430, set = 0, binding = THRONG_BINDING_VELOCITY) readonly buffer Velocity { uint velocity[]; };
layout(location = 1) out vec2 out_velocity;
#endif

void main() {
    uvec2 px = uvec2(gl_FragCoord.xy);
    uvec4 r = resolved[px.y * uint(raster.viewport.x) + px.x];
    if (r.w == THRONG_RESOLVED_NONE) discard;
    out_color = vec4(uintBitsToFloat(r.xyz), 1.0);
    gl_FragDepth = uintBitsToFloat(r.w);
#ifdef THRONG_VELOCITY
    out_velocity = unpackHalf2x16(velocity[px.y * uint(raster.viewport.x) + px.x]);
#endif
}
