// One-off command buffers: record, submit, wait (uploads and readback); see context.h.
#include "context.h"

namespace throng::gpu {

VkCommandBuffer beginOneTime(const Context& ctx) {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = ctx.command_pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateCommandBuffers(ctx.device, &ai, &cmd));
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (VkResult r = vkBeginCommandBuffer(cmd, &bi); r != VK_SUCCESS) {
        vkFreeCommandBuffers(ctx.device, ctx.command_pool, 1, &cmd);
        throwVkError(r, "vkBeginCommandBuffer", __FILE__, __LINE__);
    }
    return cmd;
}

void abandonOneTime(const Context& ctx, VkCommandBuffer cmd) {
    vkFreeCommandBuffers(ctx.device, ctx.command_pool, 1, &cmd);
}

void endOneTimeAndWait(const Context& ctx, VkCommandBuffer cmd) {
    VkFence fence = VK_NULL_HANDLE;
    try {
        VK_CHECK(vkEndCommandBuffer(cmd));
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VK_CHECK(vkCreateFence(ctx.device, &fci, hostCallbacks(ctx.device), &fence));
        VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
        cbi.commandBuffer = cmd;
        VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
        si.commandBufferInfoCount = 1;
        si.pCommandBufferInfos = &cbi;
        VK_CHECK(vkQueueSubmit2(ctx.queue, 1, &si, fence));
        VK_CHECK(vkWaitForFences(ctx.device, 1, &fence, VK_TRUE, UINT64_MAX));
    } catch (const GpuError&) {
        // The submission may still be running (or the device is lost): wait for it, ignoring the
        // result, before the command buffer and whatever it copies (the caller's staging) go.
        vkDeviceWaitIdle(ctx.device);
        if (fence != VK_NULL_HANDLE) vkDestroyFence(ctx.device, fence, hostCallbacks(ctx.device));
        vkFreeCommandBuffers(ctx.device, ctx.command_pool, 1, &cmd);
        throw;
    }
    vkDestroyFence(ctx.device, fence, hostCallbacks(ctx.device));
    vkFreeCommandBuffers(ctx.device, ctx.command_pool, 1, &cmd);
}

} // namespace throng::gpu
