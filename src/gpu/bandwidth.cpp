// Memory bandwidth by copy; see bandwidth.h.
#include "bandwidth.h"

#include "owned.h"

#include <algorithm>

namespace throng::gpu {

double measureCopyBandwidth(Allocator& a, VkDeviceSize bytes, uint32_t repeats) {
    const Context& ctx = *a.context;
    if (!ctx.timestamps || bytes == 0) return 0.0;
    OwnedBuffer source = ownBuffer(a, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Device);
    OwnedBuffer target = ownBuffer(a, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Device);
    VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = 2;
    VkQueryPool raw = VK_NULL_HANDLE;
    VK_CHECK(vkCreateQueryPool(ctx.device, &qi, nullptr, &raw));
    const Unique<VkQueryPool> queries(ctx.device, raw);
    submitAndWait(ctx, [&](VkCommandBuffer cmd) { vkCmdFillBuffer(cmd, source->buffer, 0, VK_WHOLE_SIZE, 0x5a5a5a5au); });
    double best = 0.0;
    for (uint32_t r = 0; r < std::max(repeats, 1u); ++r) {
        submitAndWait(ctx, [&](VkCommandBuffer cmd) {
            vkCmdResetQueryPool(cmd, queries, 0, 2);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 0);
            const VkBufferCopy region{0, 0, bytes};
            vkCmdCopyBuffer(cmd, source->buffer, target->buffer, 1, &region);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 1);
        });
        uint64_t stamps[2] = {};
        VK_CHECK(vkGetQueryPoolResults(ctx.device, queries, 0, 2, sizeof stamps, stamps, sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        const double seconds = double(stamps[1] - stamps[0]) * double(ctx.properties.limits.timestampPeriod) * 1e-9;
        if (seconds > 0.0) best = std::max(best, 2.0 * double(bytes) / seconds * 1e-9);
    }
    return best;
}

} // namespace throng::gpu
