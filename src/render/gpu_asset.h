// A BakedAsset on the GPU: immutable mesh, animation image, clip table and textures.
#pragma once

#include "../gpu/resources.h"

#include <throng/baked.h>

#include <string>
#include <vector>

namespace throng::render {

// Where the animation texels live on the GPU. Auto: the image array when it fits the device's
// image limits (width 3 * joints, height frames, layers clips), else a uniform texel buffer.
enum class AnimationStorage { Auto, Image, TexelBuffer };

struct GpuAsset {
    gpu::Buffer vertices;   // BakedVertex[]
    gpu::Buffer indices;    // uint32
    gpu::Buffer clips;      // shader::ClipRecord[]
    gpu::Image animation;   // RGBA32F or RGBA16F, (3 * joints) x max_frames x clips (1x1x1 placeholder on the buffer path)
    gpu::Buffer animation_texels;  // the same texels in a uniform texel buffer (1-texel placeholder on the image path)
    VkBufferView animation_view = VK_NULL_HANDLE;
    bool animation_in_buffer = false;
    // Vertex animation (technique vat): RGBA32F or RGBA16F, (2 * vertices) x max_frames x clips,
    // when the asset has it and it fits the image limits; else a 1x1x1 placeholder, has_vat is
    // false and, when the asset had the data, vat_problem says why it is not usable.
    gpu::Image vat;
    bool has_vat = false;
    std::string vat_problem;
    std::vector<gpu::Image> textures;  // RGBA8 sRGB, one per BakedTexture (white 1x1 when it would not decode)
    gpu::Image white;       // 1x1, bound where a submesh has no texture
    VkSampler point = VK_NULL_HANDLE;   // the animation image: texelFetch only, but a sampler is required
    VkSampler linear = VK_NULL_HANDLE;  // colour textures
    std::vector<BakedSubmesh> submeshes;
    uint32_t vertex_count = 0;
    uint32_t index_count = 0;
    uint32_t clip_count = 0;
    uint32_t joint_count = 0;  // palette entries
    Bounds bind_bounds;
    std::vector<std::string> warnings;
};

// Errors: the animation exceeds both the image limits and maxTexelBufferElements (or, when
// `storage` forces the image, the image limits), with the sizes and limits named.
Result<GpuAsset> uploadAsset(gpu::Allocator& allocator, const BakedAsset& asset, AnimationStorage storage = AnimationStorage::Auto);

// The specialization constant THRONG_SPEC_ANIMATION_IN_BUFFER for pipelines that skin from `asset`.
struct AnimationSpecialization {
    VkBool32 in_buffer = VK_FALSE;
    VkSpecializationMapEntry entry{0, 0, sizeof(VkBool32)};
    VkSpecializationInfo info{1, &entry, sizeof(VkBool32), &in_buffer};
    explicit AnimationSpecialization(const GpuAsset& asset) : in_buffer(asset.animation_in_buffer ? VK_TRUE : VK_FALSE) {}
    AnimationSpecialization(const AnimationSpecialization&) = delete;  // info points into this object
    AnimationSpecialization& operator=(const AnimationSpecialization&) = delete;
};
void destroyAsset(gpu::Allocator& allocator, GpuAsset& asset);

} // namespace throng::render
