#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "vertex.glsl"

// Technique `palette-ubo`: as `palette`, but the palettes sit in a uniform block of
// THRONG_UBO_VEC4S vec4 (16 KiB, the size every Vulkan device guarantees), so instances are drawn
// in batches that fit in it, and a model has a bone limit: 341 joints as 3x4 matrices, 512 as
// quaternion + translation (the seeds' constant-register story, 59 -> 117, at a larger size).

layout(std140, set = 0, binding = THRONG_BINDING_PALETTE_UBO) uniform PaletteBlock { vec4 palette_block[THRONG_UBO_VEC4S]; };

#define PALETTE_VEC4(i) palette_block[i]
#define PALETTE_INSTANCE (member - draw.first_instance)
#ifdef THRONG_VELOCITY
// The same batch as the last frame drew it (the CPU keeps the last frame's poses): the limbs'
// motion in the vectors.
layout(std140, set = 0, binding = THRONG_BINDING_PREVIOUS_PALETTE_UBO) uniform PreviousBlock { vec4 previous_block[THRONG_UBO_VEC4S]; };
#define PREVIOUS_PALETTE_VEC4(i) previous_block[i]
#endif
#include "palette_skin.glsl"
