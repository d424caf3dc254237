// An asset's colour textures on the GPU (the upload half of GpuAsset: gpu_asset.h).
//
// Every texture is an image array, sampled as sampler2DArray by the hardware path's lit
// fragment (lit_body.glsl) and the compute rasterizer's resolve (resolve_body.glsl): one layer
// for a material's own texture, one layer per colour for a look with texture variants
// (Look::textures, throng/looks.h), the member's colour choosing the layer (looks.glsl
// lookLayer). A variant set's textures are resampled to one size, the largest width and height
// among them (texture::resample), each with its own mip chain.
#pragma once

#include "gpu_asset.h"

#include <glm/vec3.hpp>

#include <vector>

namespace throng::render {

// Uploads asset.textures into g.textures (each a one-layer array; a texture only textured
// looks sample stays a 1x1 white placeholder, its texels living in the looks' arrays), then an
// array per look with texture variants, sets g.submesh_textures (per submesh: the index in
// g.textures it samples, or THRONG_NO_TEXTURE) and g.no_texture, and warns of textures that do
// not decode (white used). Returns each of asset.textures' mean colour (linear RGB; white where
// it does not decode), for lookTable's impostor colours. Throws gpu::GpuError (out of memory:
// what it made is in `g`, which frees it).
std::vector<glm::vec3> uploadTextures(gpu::Allocator& allocator, const BakedAsset& asset, GpuAssetData& g);

// A 1x1 RGBA8 sRGB image of `pixel` (4 bytes), its view of type `view`.
gpu::Image pixelImage(gpu::Allocator& allocator, const uint8_t* pixel, VkImageViewType view);

} // namespace throng::render
