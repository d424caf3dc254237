#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `palette`: the CPU writes every instance's skinning palette each frame (a buffer per
// frame in flight); the vertex shader blends up to 4 of them and skins.

layout(std430, set = 0, binding = THRONG_BINDING_PALETTE) readonly buffer Palettes { vec4 palette[]; };

#define PALETTE_VEC4(i) palette[i]
#define PALETTE_INSTANCE member
#include "palette_skin.glsl"
