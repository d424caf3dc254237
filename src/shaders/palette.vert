#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Techniques `palette` and `pose`: the CPU (a buffer per frame in flight) or pose's compute pass
// writes every member's skinning palette each frame; the vertex shader blends up to 4 of them and
// skins.

layout(std430, set = 0, binding = THRONG_BINDING_PALETTE) readonly buffer Palettes { vec4 palette[]; };

#define PALETTE_VEC4(i) palette[i]
#ifdef THRONG_VELOCITY
// The palettes as the last frame drew them (technique pose's second pose, the CPU's last frame's
// for technique palette): the limbs' motion in the vectors.
layout(std430, set = 0, binding = THRONG_BINDING_PREVIOUS_PALETTE) readonly buffer PreviousPalettes { vec4 previous_palette[]; };
#define PREVIOUS_PALETTE_VEC4(i) previous_palette[i]
#endif
#define PALETTE_INSTANCE member
#include "palette_skin.glsl"
