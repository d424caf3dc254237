#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The ground under a crowd (src/render/ground.h): one quad, two triangles, over the constants'
// x-z rectangle at their height.

layout(push_constant) uniform Push { GroundConstants ground; };
layout(location = 0) out vec3 out_world;
#ifdef THRONG_VELOCITY // the ground stands still: its motion is the camera's
#include "motion.glsl"
layout(location = 1) out vec4 out_previous;
#endif

void main() {
    const vec2 corners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));
    vec2 c = corners[gl_VertexIndex];
    vec3 world = vec3(mix(ground.rect.x, ground.rect.z, c.x), ground.height, mix(ground.rect.y, ground.rect.w, c.y));
    out_world = world;
    gl_Position = ground.view_projection * vec4(world, 1.0);
#ifdef THRONG_VELOCITY
    out_previous = previousClip(world, ground.slot);
#endif
}
