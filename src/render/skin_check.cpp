// Compute dispatch of skin_check.comp and vat_check.comp; see skin_check.h.
#include "skin_check.h"

#include "technique_baked.h"
#include "technique_vat.h"

#include "../gpu/owned.h"
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
    // Owned from here: a failure (out of memory, a lost device) frees what was made.
    const gpu::Unique<VkDescriptorSetLayout> set_layout(ctx.device, gpu::createSetLayout(ctx, bindings));
    const gpu::Unique<VkPipelineLayout> layout(
        ctx.device, gpu::createPipelineLayout(ctx, set_layout, sizeof(gpu::shader::CheckConstants), cs));
    const gpu::Unique<VkPipeline> pipeline(
        ctx.device, gpu::createComputePipeline(ctx, shader.spirv, layout, shader.specialization));

    const size_t count = queries.size() * asset.vertex_count;
    const gpu::OwnedBuffer instances =
        gpu::ownBuffer(a, std::max<size_t>(queries.size(), 1) * sizeof(queries[0]),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, *instances, queries.data(), queries.size() * sizeof(queries[0]));
    const gpu::OwnedBuffer output =
        gpu::ownBuffer(a, std::max<size_t>(count, 1) * 16,
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, gpu::MemoryUse::Device);

    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 5},
                                          {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                          {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1}};
    const gpu::Unique<VkDescriptorPool> pool = gpu::createDescriptorPool(ctx, 1, sizes);
    const VkDescriptorSet set = gpu::allocateSets(ctx, pool, set_layout, 1)[0];
    shader.write(set, *instances);
    const gpu::DescriptorWrite writes[] = {
        gpu::DescriptorWrite::storage(THRONG_BINDING_VERTICES, asset.vertices.buffer),
        gpu::DescriptorWrite::storage(THRONG_BINDING_CHECK_OUTPUT, output->buffer)};
    gpu::writeDescriptors(ctx.device, set, writes);

    const gpu::shader::CheckConstants constants{asset.vertex_count, uint32_t(queries.size()), time, 0};
    gpu::submitAndWait(ctx, [&](VkCommandBuffer cmd) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        const VkDescriptorSet sets[] = {set};
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, sets, 0, nullptr);
        vkCmdPushConstants(cmd, layout, cs, 0, sizeof(constants), &constants);
        vkCmdDispatch(cmd, uint32_t((count + THRONG_CHECK_LOCAL_SIZE - 1) / THRONG_CHECK_LOCAL_SIZE), 1, 1);
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    });
    std::vector<glm::vec4> raw(count);
    gpu::downloadBuffer(a, *output, raw.data(), count * 16);
    std::vector<glm::vec3> out(count);
    for (size_t i = 0; i < count; ++i) out[i] = glm::vec3(raw[i]);
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
