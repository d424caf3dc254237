// Shader modules, descriptor set layouts and pipelines (dynamic rendering, no render passes).
#pragma once

#include "context.h"
#include "owned.h"

#include <span>
#include <vector>

namespace throng::gpu {

VkShaderModule createShaderModule(const Context& context, std::span<const uint32_t> spirv);

// The formats of a frame's attachments: colour, depth and, with motion vectors, velocity.
struct TargetFormats {
    VkFormat color = VK_FORMAT_UNDEFINED;
    VkFormat depth = VK_FORMAT_UNDEFINED;
    VkFormat velocity = VK_FORMAT_UNDEFINED; // none
};

struct GraphicsPipelineDesc {
    std::span<const uint32_t> vertex_spirv;
    std::span<const uint32_t> fragment_spirv;
    std::vector<VkVertexInputBindingDescription> bindings;
    std::vector<VkVertexInputAttributeDescription> attributes;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkFormat color_format = VK_FORMAT_UNDEFINED;
    VkFormat depth_format = VK_FORMAT_UNDEFINED;
    // A second colour attachment, the frame's motion vectors (FrameTargets::velocity): every
    // pipeline drawing into a frame with one has it, and its fragment shader writes location 1
    // (the attachments' write masks must be the same without independentBlend).
    VkFormat velocity_format = VK_FORMAT_UNDEFINED;
    void setTargets(const TargetFormats& t) {
        color_format = t.color;
        depth_format = t.depth;
        velocity_format = t.velocity;
    }
    VkCullModeFlags cull = VK_CULL_MODE_NONE; // imported models are not reliably closed or wound
    const VkSpecializationInfo* vertex_specialization = nullptr;
    const VkSpecializationInfo* fragment_specialization = nullptr;
    // Depth only (a shadow map): no fragment shader (fragment_spirv ignored), no colour
    // attachment, the depth pushed away by this bias (reversed Z: negative moves it farther).
    bool depth_only = false;
    float depth_bias_constant = 0.0f;
    float depth_bias_slope = 0.0f;
};

// Viewport and scissor are dynamic state.
VkPipeline createGraphicsPipeline(const Context& context, const GraphicsPipelineDesc& desc);
VkPipeline createComputePipeline(const Context& context, std::span<const uint32_t> spirv, VkPipelineLayout layout,
                                 const VkSpecializationInfo* specialization = nullptr);

// One descriptor of a set: a buffer, an image with its sampler, or a texel buffer view.
struct DescriptorWrite {
    uint32_t binding = 0;
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    VkDescriptorBufferInfo buffer{};
    VkDescriptorImageInfo image{};
    VkBufferView texel_view = VK_NULL_HANDLE;

    static DescriptorWrite storage(uint32_t binding, VkBuffer buffer) {
        return {binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, {buffer, 0, VK_WHOLE_SIZE}, {}, VK_NULL_HANDLE};
    }
    static DescriptorWrite uniform(uint32_t binding, VkBuffer buffer) {
        return {binding, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, {buffer, 0, VK_WHOLE_SIZE}, {}, VK_NULL_HANDLE};
    }
    static DescriptorWrite sampled(uint32_t binding, VkSampler sampler, VkImageView view,
                                   VkImageLayout layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL) {
        return {binding, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, {}, {sampler, view, layout}, VK_NULL_HANDLE};
    }
    // An image without a sampler (HLSL's Texture2D read with Load), shader-read-only.
    static DescriptorWrite sampledImage(uint32_t binding, VkImageView view) {
        return {binding,
                VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                {},
                {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
                VK_NULL_HANDLE};
    }
    static DescriptorWrite storageImage(uint32_t binding, VkImageView view) { // in GENERAL layout
        return {binding,
                VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                {},
                {VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL},
                VK_NULL_HANDLE};
    }
    static DescriptorWrite texels(uint32_t binding, VkBufferView view) {
        return {binding, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, {}, {}, view};
    }
};

// Writes every descriptor of `writes` into `set` in one call.
void writeDescriptors(VkDevice device, VkDescriptorSet set, std::span<const DescriptorWrite> writes);

VkDescriptorSetLayout createSetLayout(const Context& context, std::span<const VkDescriptorSetLayoutBinding> bindings);

// A descriptor pool for at most `max_sets` sets holding `sizes` descriptors, and `count` sets of
// `layout` allocated from one. Throw GpuError.
Unique<VkDescriptorPool> createDescriptorPool(const Context& context, uint32_t max_sets,
                                              std::span<const VkDescriptorPoolSize> sizes);
std::vector<VkDescriptorSet> allocateSets(const Context& context, VkDescriptorPool pool, VkDescriptorSetLayout layout,
                                          uint32_t count);
VkPipelineLayout createPipelineLayout(const Context& context, VkDescriptorSetLayout set_layout,
                                      uint32_t push_constant_bytes, VkShaderStageFlags push_stages);

} // namespace throng::gpu
