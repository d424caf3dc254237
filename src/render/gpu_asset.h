// A BakedAsset on the GPU: immutable mesh, animation image, clip table and textures.
#pragma once

#include "../gpu/resources.h"

#include <throng/baked.h>

#include <string>
#include <vector>

namespace throng::render {

struct GpuAsset {
    gpu::Buffer vertices;   // BakedVertex[]
    gpu::Buffer indices;    // uint32
    gpu::Buffer clips;      // shader::ClipRecord[]
    gpu::Image animation;   // RGBA32F or RGBA16F, (3 * joints) x max_frames x clips
    std::vector<gpu::Image> textures;  // RGBA8 sRGB, one per BakedTexture (white 1x1 when it would not decode)
    gpu::Image white;       // 1x1, bound where a submesh has no texture
    VkSampler point = VK_NULL_HANDLE;   // the animation image: texelFetch only, but a sampler is required
    VkSampler linear = VK_NULL_HANDLE;  // colour textures
    std::vector<BakedSubmesh> submeshes;
    uint32_t vertex_count = 0;
    uint32_t index_count = 0;
    uint32_t clip_count = 0;
    Bounds bind_bounds;
    std::vector<std::string> warnings;
};

// Errors: the animation exceeds the device's image limits (width, height or layers), named.
Result<GpuAsset> uploadAsset(gpu::Allocator& allocator, const BakedAsset& asset);
void destroyAsset(gpu::Allocator& allocator, GpuAsset& asset);

} // namespace throng::render
