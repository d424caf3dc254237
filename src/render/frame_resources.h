// The crowd frame's resources, as the bits its passes declare they read and write
// (gpu::Pass::reads and writes; gpu/passes.h derives the barriers between passes from them).
// One bit stands for everything of one kind a frame changes, whichever object owns it; data
// written once when the crowd is built (meshes, baked animation, impostor atlases) is not here:
// nothing in a frame writes it.
//
//   bit              written by                         read by
//   Members          members (upload), simulate         every pass that places a member
//   Simulation       simulate (its grid and goals)      simulate
//   Animation        upload, pose (palettes, vertices,  the draws, cache, raster, shadow, resolve
//                    bonetex's texture)
//   Culled           shadow-cull, cull, cull-late (the  the draws (indirect), the raster's plan,
//                    visible lists, draw commands,      shadow, impostors; the culling passes
//                    counts, drawn flags)               themselves (the last frame's drawn flags)
//   Cache            cache (the skinned vertices)       raster, raster-late, resolve
//   RasterWork       shadow (compute), raster,          the same passes, resolve and composite
//                    raster-late (plan, shadow depth)
//   Visibility       raster, raster-late                pyramid, resolve
//   Resolved         cache or raster (its clear),       composite
//                    resolve (colour and depth)
//   ShadowMap        shadow, shadow-near                ground, the draws, resolve, impostors
//   Pyramid          pyramid                            cull-late
//   History          history, teleport (the members as  resolve (motion vectors; history.h)
//                    the last frame drew them)
//
// The frame's colour and depth targets are gpu::kColorTarget and gpu::kDepthTarget (a graphics
// pass on them declares them without saying so).
#pragma once

#include "../gpu/passes.h"

namespace throng::render::frame {

constexpr gpu::Resources Members = 1u << 0;
constexpr gpu::Resources Simulation = 1u << 1;
constexpr gpu::Resources Animation = 1u << 2;
constexpr gpu::Resources Culled = 1u << 3;
constexpr gpu::Resources Cache = 1u << 4;
constexpr gpu::Resources RasterWork = 1u << 5;
constexpr gpu::Resources Visibility = 1u << 6;
constexpr gpu::Resources ShadowMap = 1u << 7;
constexpr gpu::Resources Pyramid = 1u << 8;
constexpr gpu::Resources Resolved = 1u << 9;
constexpr gpu::Resources History = 1u << 10;

// What a draw of the members reads: where they stand (and stood: motion vectors), their
// animation, which of them culling kept and how (the draw commands), and the shadow map they receive.
constexpr gpu::Resources DrawReads = Members | Animation | Culled | ShadowMap | History;

} // namespace throng::render::frame
