// Compute dispatch of skin_check.comp and vat_check.comp; see skin_check.h.
#include "skin_check.h"

#include "technique_baked.h"
#include "technique_vat.h"

#include "../gpu/pipeline.h"
#include "../gpu/shader_blobs.h"

#include <array>
#include <functional>
#include <span>

namespace throng::render {

namespace {

// What differs between the two checks: the shader, its own bindings and their writes.
struct CheckShader {
    std::span<const uint32_t> spirv;
    const VkSpecializationInfo* specialization = nullptr;
    std::vector<VkDescriptorSetLayoutBinding> bindings; // besides vertices and output
    std::function<void(VkDescriptorSet, const gpu::Buffer& instances)> write;
};

std::vector<glm::vec3> runCheck(gpu::Allocator& a, const GpuAsset& asset,
                                const std::vector<gpu::shader::InstanceRecord>& queries, float time,
                                const CheckShader& shader) {
    const gpu::Context& ctx = *a.context;
    const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
    std::vector<VkDescriptorSetLayoutBinding> bindings = shader.bindings;
    bindings.push_back({THRONG_BINDING_VERTICES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr});
    bindings.push_back({THRONG_BINDING_CHECK_OUTPUT, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr});
    VkDescriptorSetLayout set_layout = gpu::createSetLayout(ctx, bindings);
    VkPipelineLayout layout = gpu::createPipelineLayout(ctx, set_layout, sizeof(gpu::shader::CheckConstants), cs);
    VkPipeline pipeline = gpu::createComputePipeline(ctx, shader.spirv, layout, shader.specialization);

    const size_t count = queries.size() * asset.vertex_count;
    gpu::Buffer instances = gpu::createBuffer(a, std::max<size_t>(queries.size(), 1) * sizeof(queries[0]),
                                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                              gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, instances, queries.data(), queries.size() * sizeof(queries[0]));
    gpu::Buffer output = gpu::createBuffer(a, std::max<size_t>(count, 1) * 16,
                                           VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                           gpu::MemoryUse::Device);

    const std::array<VkDescriptorPoolSize, 3> sizes = {{{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 5},
                                                        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                                        {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1}}};
    VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = 1;
    pci.poolSizeCount = uint32_t(sizes.size());
    pci.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDescriptorPool(ctx.device, &pci, gpu::hostCallbacks(ctx.device), &pool));
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &set_layout;
    VkDescriptorSet set = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateDescriptorSets(ctx.device, &ai, &set));
    shader.write(set, instances);
    const gpu::DescriptorWrite writes[] = {
        gpu::DescriptorWrite::storage(THRONG_BINDING_VERTICES, asset.vertices.buffer),
        gpu::DescriptorWrite::storage(THRONG_BINDING_CHECK_OUTPUT, output.buffer)};
    gpu::writeDescriptors(ctx.device, set, writes);

    const gpu::shader::CheckConstants constants{asset.vertex_count, uint32_t(queries.size()), time, 0};
    gpu::submitAndWait(ctx, [&](VkCommandBuffer cmd) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, layout, cs, 0, sizeof(constants), &constants);
        vkCmdDispatch(cmd, uint32_t((count + THRONG_CHECK_LOCAL_SIZE - 1) / THRONG_CHECK_LOCAL_SIZE), 1, 1);
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    });
    std::vector<glm::vec4> raw(count);
    gpu::downloadBuffer(a, output, raw.data(), count * 16);
    std::vector<glm::vec3> out(count);
    for (size_t i = 0; i < count; ++i) out[i] = glm::vec3(raw[i]);

    vkDestroyDescriptorPool(ctx.device, pool, gpu::hostCallbacks(ctx.device));
    gpu::destroyBuffer(a, output);
    gpu::destroyBuffer(a, instances);
    vkDestroyPipeline(ctx.device, pipeline, gpu::hostCallbacks(ctx.device));
    vkDestroyPipelineLayout(ctx.device, layout, gpu::hostCallbacks(ctx.device));
    vkDestroyDescriptorSetLayout(ctx.device, set_layout, gpu::hostCallbacks(ctx.device));
    return out;
}

} // namespace

std::vector<glm::vec3> skinOnGpu(gpu::Allocator& a, const GpuAsset& asset,
                                 const std::vector<gpu::shader::InstanceRecord>& queries, float time) {
    const AnimationSpecialization specialization(asset);
    CheckShader shader;
    shader.spirv = gpu::shaders::skin_check_comp_spv;
    shader.specialization = &specialization.info;
    for (const VkDescriptorSetLayoutBinding& b : animationLayoutBindings(VK_SHADER_STAGE_COMPUTE_BIT))
        shader.bindings.push_back(b);
    shader.write = [&](VkDescriptorSet set, const gpu::Buffer& instances) {
        writeAnimationBindings(a.context->device, set, instances.buffer, asset);
    };
    return runCheck(a, asset, queries, time, shader);
}

std::vector<glm::vec3> skinVatOnGpu(gpu::Allocator& a, const GpuAsset& asset,
                                    const std::vector<gpu::shader::InstanceRecord>& queries, float time) {
    if (!asset.has_vat) return {};
    CheckShader shader;
    shader.spirv = gpu::shaders::vat_check_comp_spv;
    for (const VkDescriptorSetLayoutBinding& b : vatLayoutBindings(VK_SHADER_STAGE_COMPUTE_BIT))
        shader.bindings.push_back(b);
    shader.write = [&](VkDescriptorSet set, const gpu::Buffer& instances) {
        writeVatBindings(a.context->device, set, instances.buffer, asset);
    };
    return runCheck(a, asset, queries, time, shader);
}

} // namespace throng::render
