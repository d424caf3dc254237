#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// The composite's quads (two triangles, no vertex data): one per tile the resolve listed
// (THRONG_BINDING_RESOLVE_TILES), so the fragment work is the pixels near what the compute
// rasterizer drew, not the whole target.

layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PARAMS) readonly buffer Params { RasterParams raster; };
layout(std430, set = 0, binding = THRONG_BINDING_RESOLVE_TILES) readonly buffer Tiles { uint resolve_tiles[]; };

void main() {
    uvec2 tiles = throngResolveTiles(uvec2(raster.viewport));
    uint tile = resolve_tiles[THRONG_RESOLVE_TILES_FLAGS + tiles.x * tiles.y + uint(gl_VertexIndex) / 6u];
    // Corners (0, 0), (1, 0), (0, 1) and (0, 1), (1, 0), (1, 1): x is 1 at 1, 4, 5; y at 2, 3, 5.
    uint corner = uint(gl_VertexIndex) % 6u;
    uvec2 at = uvec2((0x32u >> corner) & 1u, (0x2cu >> corner) & 1u);
    vec2 pixel = vec2((uvec2(tile % tiles.x, tile / tiles.x) + at) * THRONG_RESOLVE_TILE);
    gl_Position = vec4(min(pixel, raster.viewport) / raster.viewport * 2.0 - 1.0, 0.0, 1.0);
}
