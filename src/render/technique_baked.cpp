// Technique `baked`; see technique_baked.h.
#include "technique_baked.h"

#include "../gpu/shader_blobs.h"

#include <array>

namespace throng::render {

using gpu::shader::DrawConstants;

std::array<VkDescriptorSetLayoutBinding, kAnimationBindingCount> animationLayoutBindings(VkShaderStageFlags stages) {
    return {{
        {THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr},
        {THRONG_BINDING_CLIPS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr},
        {THRONG_BINDING_ANIMATION, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, stages, nullptr},
        {THRONG_BINDING_ANIMATION_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, stages, nullptr},
    }};
}

void writeAnimationBindings(VkDevice device, VkDescriptorSet set, const gpu::Buffer& instances, const GpuAsset& asset) {
    const VkDescriptorBufferInfo inst{instances.buffer, 0, VK_WHOLE_SIZE};
    const VkDescriptorBufferInfo clips{asset.clips.buffer, 0, VK_WHOLE_SIZE};
    const VkDescriptorImageInfo anim{asset.point, asset.animation.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    std::array<VkWriteDescriptorSet, 4> w{};
    for (auto& x : w) {
        x.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        x.dstSet = set;
        x.descriptorCount = 1;
    }
    w[0].dstBinding = THRONG_BINDING_INSTANCES;
    w[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w[0].pBufferInfo = &inst;
    w[1].dstBinding = THRONG_BINDING_CLIPS;
    w[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w[1].pBufferInfo = &clips;
    w[2].dstBinding = THRONG_BINDING_ANIMATION;
    w[2].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    w[2].pImageInfo = &anim;
    w[3].dstBinding = THRONG_BINDING_ANIMATION_BUFFER;
    w[3].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    w[3].pTexelBufferView = &asset.animation_view;
    vkUpdateDescriptorSets(device, uint32_t(w.size()), w.data(), 0, nullptr);
}

void createBakedTechnique(gpu::Allocator& a, BakedTechnique& t, const GpuAsset& asset,
                          const std::vector<gpu::shader::InstanceRecord>& instances, VkFormat color_format, VkFormat depth_format) {
    const gpu::Context& ctx = *a.context;
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const VkDescriptorSetLayoutBinding& b : animationLayoutBindings(VK_SHADER_STAGE_VERTEX_BIT)) bindings.push_back(b);
    bindings.push_back({THRONG_BINDING_TEXTURE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
    t.set_layout = gpu::createSetLayout(ctx, bindings);
    t.layout = gpu::createPipelineLayout(ctx, t.set_layout, sizeof(DrawConstants), VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT);

    gpu::GraphicsPipelineDesc d;
    d.vertex_spirv = gpu::shaders::baked_vert_spv;
    d.fragment_spirv = gpu::shaders::lit_frag_spv;
    d.bindings = {{0, sizeof(BakedVertex), VK_VERTEX_INPUT_RATE_VERTEX}};
    d.attributes = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(BakedVertex, position)},
        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(BakedVertex, normal)},
        {2, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(BakedVertex, uv)},
        {3, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(BakedVertex, color)},
        {4, 0, VK_FORMAT_R16G16B16A16_UINT, offsetof(BakedVertex, joints)},
        {5, 0, VK_FORMAT_R32G32B32A32_SFLOAT, offsetof(BakedVertex, weights)},
    };
    const AnimationSpecialization specialization(asset);
    d.vertex_specialization = &specialization.info;
    d.layout = t.layout;
    d.color_format = color_format;
    d.depth_format = depth_format;
    t.pipeline = gpu::createGraphicsPipeline(ctx, d);

    t.instance_count = uint32_t(instances.size());
    t.instances = gpu::createBuffer(a, std::max<size_t>(instances.size(), 1) * sizeof(instances[0]),
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, t.instances, instances.data(), instances.size() * sizeof(instances[0]));

    const uint32_t set_count = 1 + uint32_t(asset.textures.size());
    const std::array<VkDescriptorPoolSize, 3> sizes = {{{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * set_count},
                                                        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2 * set_count},
                                                        {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, set_count}}};
    VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = set_count;
    pci.poolSizeCount = uint32_t(sizes.size());
    pci.pPoolSizes = sizes.data();
    VK_CHECK(vkCreateDescriptorPool(ctx.device, &pci, nullptr, &t.pool));
    std::vector<VkDescriptorSetLayout> layouts(set_count, t.set_layout);
    t.sets.resize(set_count);
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = t.pool;
    ai.descriptorSetCount = set_count;
    ai.pSetLayouts = layouts.data();
    VK_CHECK(vkAllocateDescriptorSets(ctx.device, &ai, t.sets.data()));
    for (uint32_t s = 0; s < set_count; ++s) {
        writeAnimationBindings(ctx.device, t.sets[s], t.instances, asset);
        const gpu::Image& tex = s == 0 ? asset.white : asset.textures[s - 1];
        const VkDescriptorImageInfo info{asset.linear, tex.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = t.sets[s];
        w.dstBinding = THRONG_BINDING_TEXTURE;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        w.pImageInfo = &info;
        vkUpdateDescriptorSets(ctx.device, 1, &w, 0, nullptr);
    }
}

void destroyBakedTechnique(gpu::Allocator& a, BakedTechnique& t) {
    const VkDevice device = a.context->device;
    gpu::destroyBuffer(a, t.instances);
    if (t.pool != VK_NULL_HANDLE) vkDestroyDescriptorPool(device, t.pool, nullptr);
    if (t.pipeline != VK_NULL_HANDLE) vkDestroyPipeline(device, t.pipeline, nullptr);
    if (t.layout != VK_NULL_HANDLE) vkDestroyPipelineLayout(device, t.layout, nullptr);
    if (t.set_layout != VK_NULL_HANDLE) vkDestroyDescriptorSetLayout(device, t.set_layout, nullptr);
    t = BakedTechnique{};
}

void recordBakedTechnique(VkCommandBuffer cmd, const BakedTechnique& t, const GpuAsset& asset, const DrawConstants& constants) {
    if (t.instance_count == 0) return;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, t.pipeline);
    const VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &asset.vertices.buffer, &offset);
    vkCmdBindIndexBuffer(cmd, asset.indices.buffer, 0, VK_INDEX_TYPE_UINT32);
    for (const BakedSubmesh& sub : asset.submeshes) {
        if (sub.index_count == 0) continue;
        const uint32_t set = sub.texture >= 0 && size_t(sub.texture) < asset.textures.size() ? uint32_t(sub.texture) + 1 : 0;
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, t.layout, 0, 1, &t.sets[set], 0, nullptr);
        DrawConstants c = constants;
        c.base_color = sub.base_color;
        c.has_texture = set != 0 ? 1u : 0u;
        vkCmdPushConstants(cmd, t.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(c), &c);
        vkCmdDrawIndexed(cmd, sub.index_count, t.instance_count, sub.first_index, 0, 0);
    }
}

} // namespace throng::render
