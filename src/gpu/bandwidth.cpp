// Memory bandwidth by a compute copy; see bandwidth.h.
#include "bandwidth.h"

#include "owned.h"
#include "pipeline.h"
#include "shader_blobs.h"

#include "../shaders/shared.h"

#include <algorithm>

namespace throng::gpu {

double measureCopyBandwidth(Allocator& a, VkDeviceSize bytes, uint32_t repeats) {
    const Context& ctx = *a.context;
    bytes = std::min<VkDeviceSize>(bytes, ctx.properties.limits.maxStorageBufferRange) / 16 * 16;
    if (!ctx.timestamps || bytes == 0) return 0.0;
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    OwnedBuffer source = ownBuffer(a, bytes, usage, MemoryUse::Device);
    OwnedBuffer target = ownBuffer(a, bytes, usage, MemoryUse::Device);

    const VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    const Unique<VkDescriptorSetLayout> set_layout(ctx.device, createSetLayout(ctx, bindings));
    const Unique<VkPipelineLayout> layout(
        ctx.device, createPipelineLayout(ctx, set_layout, sizeof(uint32_t), VK_SHADER_STAGE_COMPUTE_BIT));
    const Unique<VkPipeline> pipeline(ctx.device, createComputePipeline(ctx, shaders::bandwidth_comp_spv, layout));
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
    const Unique<VkDescriptorPool> pool = createDescriptorPool(ctx, 1, sizes);
    const VkDescriptorSet set = allocateSets(ctx, pool, set_layout, 1)[0];
    const DescriptorWrite writes[] = {DescriptorWrite::storage(0, source->buffer),
                                      DescriptorWrite::storage(1, target->buffer)};
    writeDescriptors(ctx.device, set, writes);

    VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = 2;
    VkQueryPool raw = VK_NULL_HANDLE;
    VK_CHECK(vkCreateQueryPool(ctx.device, &qi, gpu::hostCallbacks(ctx.device), &raw));
    const Unique<VkQueryPool> queries(ctx.device, raw);
    submitAndWait(ctx,
                  [&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, source->buffer, 0, VK_WHOLE_SIZE, 0x5a5a5a5au); });
    const uint32_t words = uint32_t(std::min<VkDeviceSize>(bytes / 16, UINT32_MAX));
    const uint32_t groups =
        std::max(1u, std::min((words + THRONG_BANDWIDTH_LOCAL_SIZE - 1) / THRONG_BANDWIDTH_LOCAL_SIZE, 65535u));
    double best = 0.0;
    for (uint32_t r = 0; r < std::max(repeats, 1u); ++r) {
        submitAndWait(ctx, [&](VkCommandBuffer cmd) {
            memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                          VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
            vkCmdResetQueryPool(cmd, queries, 0, 2);
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
            vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof words, &words);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 0);
            vkCmdDispatch(cmd, groups, 1, 1);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 1);
        });
        uint64_t stamps[2] = {};
        VK_CHECK(vkGetQueryPoolResults(ctx.device, queries, 0, 2, sizeof stamps, stamps, sizeof(uint64_t),
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        const double seconds = double(stamps[1] - stamps[0]) * double(ctx.properties.limits.timestampPeriod) * 1e-9;
        if (seconds > 0.0) best = std::max(best, 2.0 * double(words) * 16.0 / seconds * 1e-9);
    }
    return best;
}

} // namespace throng::gpu
