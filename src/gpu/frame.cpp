// Per-frame-in-flight objects; see frame.h.
#include "frame.h"

namespace throng::gpu {

FrameSlot createFrameSlot(const Context& ctx, uint32_t timestamps) {
    FrameSlot f;
    try { // out of memory halfway: free what exists
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = ctx.command_pool;
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        VK_CHECK(vkAllocateCommandBuffers(ctx.device, &ai, &f.cmd));
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fci.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        VK_CHECK(vkCreateFence(ctx.device, &fci, gpu::hostCallbacks(ctx.device), &f.fence));
        if (ctx.timestamps && timestamps > 0) {
            VkQueryPoolCreateInfo qci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
            qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
            qci.queryCount = timestamps;
            VK_CHECK(vkCreateQueryPool(ctx.device, &qci, gpu::hostCallbacks(ctx.device), &f.queries));
        }
    } catch (...) {
        destroyFrameSlot(ctx, f);
        throw;
    }
    return f;
}

void destroyFrameSlot(const Context& ctx, FrameSlot& f) {
    if (f.queries != VK_NULL_HANDLE) vkDestroyQueryPool(ctx.device, f.queries, gpu::hostCallbacks(ctx.device));
    if (f.fence != VK_NULL_HANDLE) vkDestroyFence(ctx.device, f.fence, gpu::hostCallbacks(ctx.device));
    if (f.cmd != VK_NULL_HANDLE) vkFreeCommandBuffers(ctx.device, ctx.command_pool, 1, &f.cmd);
    f = FrameSlot{};
}

void beginFrame(const Context& ctx, FrameSlot& f, uint32_t timestamps) {
    VK_CHECK(vkResetFences(ctx.device, 1, &f.fence));
    VK_CHECK(vkResetCommandBuffer(f.cmd, 0));
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(f.cmd, &bi));
    if (f.queries != VK_NULL_HANDLE) vkCmdResetQueryPool(f.cmd, f.queries, 0, timestamps);
    writeTimestamp(f.cmd, f, 0);
}

void writeTimestamp(VkCommandBuffer cmd, const FrameSlot& f, uint32_t query) {
    if (f.queries != VK_NULL_HANDLE) vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, f.queries, query);
}

} // namespace throng::gpu
