// Shader modules, descriptor set layouts and pipelines (dynamic rendering, no render passes).
#pragma once

#include "context.h"

#include <span>
#include <vector>

namespace throng::gpu {

VkShaderModule createShaderModule(const Context& context, std::span<const uint32_t> spirv);

struct GraphicsPipelineDesc {
    std::span<const uint32_t> vertex_spirv;
    std::span<const uint32_t> fragment_spirv;
    std::vector<VkVertexInputBindingDescription> bindings;
    std::vector<VkVertexInputAttributeDescription> attributes;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkFormat color_format = VK_FORMAT_UNDEFINED;
    VkFormat depth_format = VK_FORMAT_UNDEFINED;
    VkCullModeFlags cull = VK_CULL_MODE_NONE;  // imported models are not reliably closed or wound
    const VkSpecializationInfo* vertex_specialization = nullptr;
};

// Viewport and scissor are dynamic state.
VkPipeline createGraphicsPipeline(const Context& context, const GraphicsPipelineDesc& desc);
VkPipeline createComputePipeline(const Context& context, std::span<const uint32_t> spirv, VkPipelineLayout layout,
                                 const VkSpecializationInfo* specialization = nullptr);

VkDescriptorSetLayout createSetLayout(const Context& context, std::span<const VkDescriptorSetLayoutBinding> bindings);
VkPipelineLayout createPipelineLayout(const Context& context, VkDescriptorSetLayout set_layout, uint32_t push_constant_bytes,
                                      VkShaderStageFlags push_stages);

} // namespace throng::gpu
