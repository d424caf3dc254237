#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#ifndef THRONG_GROUND_UNSHADOWED
#include "shadow.glsl"
#endif

// The ground's colour (src/render/ground.h): a grey with a faint one-unit checker (so motion
// reads), lit as the crowd is and darkened where the crowd's shadow falls (without shadows:
// the THRONG_GROUND_UNSHADOWED variant).

layout(push_constant) uniform Push { GroundConstants ground; };
layout(location = 0) in vec3 in_world;
layout(location = 0) out vec4 out_color;
#ifdef THRONG_VELOCITY
#include "motion.glsl"
layout(location = 1) in vec4 in_previous;
layout(location = 1) out vec2 out_velocity;
#endif

void main() {
    vec3 n = vec3(0.0, 1.0, 0.0);
    float diffuse = max(dot(n, -ground.light_direction.xyz), 0.0);
#ifndef THRONG_GROUND_UNSHADOWED
    if (diffuse > 0.0) diffuse *= shadowLight(in_world, n, ground.light_direction.xyz, ground.slot);
#endif
    ivec2 cell = ivec2(floor(in_world.xz));
    float albedo = ((cell.x + cell.y) & 1) == 0 ? 0.55 : 0.5;
    float light = ground.light_direction.w + (1.0 - ground.light_direction.w) * diffuse;
    out_color = vec4(vec3(albedo * light), 1.0);
#ifdef THRONG_VELOCITY
    out_velocity = velocityAt(gl_FragCoord.xy, in_previous, ground.slot);
#endif
}
