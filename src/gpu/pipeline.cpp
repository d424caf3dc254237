// Pipelines for dynamic rendering; see pipeline.h.
#include "pipeline.h"

namespace throng::gpu {

VkShaderModule createShaderModule(const Context& ctx, std::span<const uint32_t> spirv) {
    VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    ci.codeSize = spirv.size_bytes();
    ci.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    VK_CHECK(vkCreateShaderModule(ctx.device, &ci, gpu::hostCallbacks(ctx.device), &module));
    return module;
}

VkPipeline createGraphicsPipeline(const Context& ctx, const GraphicsPipelineDesc& d) {
    VkShaderModule vs = createShaderModule(ctx, d.vertex_spirv);
    VkShaderModule fs = VK_NULL_HANDLE;
    try {
        if (!d.depth_only) fs = createShaderModule(ctx, d.fragment_spirv);
    } catch (...) {
        vkDestroyShaderModule(ctx.device, vs, gpu::hostCallbacks(ctx.device));
        throw;
    }
    VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                 {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vs;
    stages[0].pName = "main";
    stages[0].pSpecializationInfo = d.vertex_specialization;
    stages[1].pSpecializationInfo = d.fragment_specialization;
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = fs;
    stages[1].pName = "main";
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vi.vertexBindingDescriptionCount = uint32_t(d.bindings.size());
    vi.pVertexBindingDescriptions = d.bindings.data();
    vi.vertexAttributeDescriptionCount = uint32_t(d.attributes.size());
    vi.pVertexAttributeDescriptions = d.attributes.data();
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vp.viewportCount = 1;
    vp.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = d.cull;
    rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    rs.lineWidth = 1.0f;
    rs.depthBiasEnable = d.depth_only && (d.depth_bias_constant != 0.0f || d.depth_bias_slope != 0.0f);
    rs.depthBiasConstantFactor = d.depth_bias_constant;
    rs.depthBiasSlopeFactor = d.depth_bias_slope;
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    ds.depthTestEnable = d.depth_format != VK_FORMAT_UNDEFINED;
    ds.depthWriteEnable = ds.depthTestEnable;
    ds.depthCompareOp = VK_COMPARE_OP_GREATER; // reversed Z: 1 near, 0 far
    const bool velocity = !d.depth_only && d.velocity_format != VK_FORMAT_UNDEFINED;
    const uint32_t colors = d.depth_only ? 0 : velocity ? 2 : 1;
    VkPipelineColorBlendAttachmentState blend[2]{};
    blend[0].colorWriteMask =
        VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    blend[1].colorWriteMask =
        blend[0].colorWriteMask; // every shader of a frame with velocity writes it (no independentBlend needed)
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = colors;
    cb.pAttachments = blend;
    const VkDynamicState dynamic[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
    VkPipelineDynamicStateCreateInfo dy{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dy.dynamicStateCount = 2;
    dy.pDynamicStates = dynamic;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    const VkFormat formats[2] = {d.color_format, d.velocity_format};
    rendering.colorAttachmentCount = colors;
    rendering.pColorAttachmentFormats = formats;
    rendering.depthAttachmentFormat = d.depth_format;
    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    ci.stageCount = d.depth_only ? 1 : 2;
    ci.pStages = stages;
    ci.pVertexInputState = &vi;
    ci.pInputAssemblyState = &ia;
    ci.pViewportState = &vp;
    ci.pRasterizationState = &rs;
    ci.pMultisampleState = &ms;
    ci.pDepthStencilState = &ds;
    ci.pColorBlendState = &cb;
    ci.pDynamicState = &dy;
    ci.layout = d.layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    try {
        VK_CHECK(
            vkCreateGraphicsPipelines(ctx.device, VK_NULL_HANDLE, 1, &ci, gpu::hostCallbacks(ctx.device), &pipeline));
    } catch (...) { // out of memory: the modules must not outlive the failure
        vkDestroyShaderModule(ctx.device, vs, gpu::hostCallbacks(ctx.device));
        if (fs != VK_NULL_HANDLE) vkDestroyShaderModule(ctx.device, fs, gpu::hostCallbacks(ctx.device));
        throw;
    }
    vkDestroyShaderModule(ctx.device, vs, gpu::hostCallbacks(ctx.device));
    if (fs != VK_NULL_HANDLE) vkDestroyShaderModule(ctx.device, fs, gpu::hostCallbacks(ctx.device));
    return pipeline;
}

VkPipeline createComputePipeline(const Context& ctx, std::span<const uint32_t> spirv, VkPipelineLayout layout,
                                 const VkSpecializationInfo* specialization) {
    VkShaderModule cs = createShaderModule(ctx, spirv);
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = cs;
    ci.stage.pName = "main";
    ci.stage.pSpecializationInfo = specialization;
    ci.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    try {
        VK_CHECK(
            vkCreateComputePipelines(ctx.device, VK_NULL_HANDLE, 1, &ci, gpu::hostCallbacks(ctx.device), &pipeline));
    } catch (...) {
        vkDestroyShaderModule(ctx.device, cs, gpu::hostCallbacks(ctx.device));
        throw;
    }
    vkDestroyShaderModule(ctx.device, cs, gpu::hostCallbacks(ctx.device));
    return pipeline;
}

void writeDescriptors(VkDevice device, VkDescriptorSet set, std::span<const DescriptorWrite> writes) {
    std::vector<VkWriteDescriptorSet> w(writes.size());
    for (size_t i = 0; i < writes.size(); ++i) {
        const DescriptorWrite& d = writes[i];
        w[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w[i].dstSet = set;
        w[i].dstBinding = d.binding;
        w[i].descriptorCount = 1;
        w[i].descriptorType = d.type;
        switch (d.type) {
        case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
        case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
        case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: w[i].pImageInfo = &d.image; break;
        case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: w[i].pTexelBufferView = &d.texel_view; break;
        default: w[i].pBufferInfo = &d.buffer; break;
        }
    }
    vkUpdateDescriptorSets(device, uint32_t(w.size()), w.data(), 0, nullptr);
}

Unique<VkDescriptorPool> createDescriptorPool(const Context& ctx, uint32_t max_sets,
                                              std::span<const VkDescriptorPoolSize> sizes) {
    VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = max_sets;
    pci.poolSizeCount = uint32_t(sizes.size());
    pci.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDescriptorPool(ctx.device, &pci, gpu::hostCallbacks(ctx.device), &pool));
    return Unique<VkDescriptorPool>(ctx.device, pool);
}

std::vector<VkDescriptorSet> allocateSets(const Context& ctx, VkDescriptorPool pool, VkDescriptorSetLayout layout,
                                          uint32_t count) {
    const std::vector<VkDescriptorSetLayout> layouts(count, layout);
    std::vector<VkDescriptorSet> sets(count);
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool;
    ai.descriptorSetCount = count;
    ai.pSetLayouts = layouts.data();
    VK_CHECK(vkAllocateDescriptorSets(ctx.device, &ai, sets.data()));
    return sets;
}

VkDescriptorSetLayout createSetLayout(const Context& ctx, std::span<const VkDescriptorSetLayoutBinding> bindings) {
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    ci.bindingCount = uint32_t(bindings.size());
    ci.pBindings = bindings.data();
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDescriptorSetLayout(ctx.device, &ci, gpu::hostCallbacks(ctx.device), &layout));
    return layout;
}

VkPipelineLayout createPipelineLayout(const Context& ctx, VkDescriptorSetLayout set_layout, uint32_t push_bytes,
                                      VkShaderStageFlags stages) {
    VkPushConstantRange range{stages, 0, push_bytes};
    VkPipelineLayoutCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    ci.setLayoutCount = 1;
    ci.pSetLayouts = &set_layout;
    ci.pushConstantRangeCount = push_bytes > 0 ? 1 : 0;
    ci.pPushConstantRanges = &range;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VK_CHECK(vkCreatePipelineLayout(ctx.device, &ci, gpu::hostCallbacks(ctx.device), &layout));
    return layout;
}

} // namespace throng::gpu
