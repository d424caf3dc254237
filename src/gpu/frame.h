// What one frame in flight owns: a command buffer, a fence (created signalled, so the first wait
// returns at once) and a pool of timestamp queries. The headless renderer and the viewer both
// cycle through kFramesInFlight of these.
#pragma once

#include "context.h"

namespace throng::gpu {

struct FrameSlot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
};

FrameSlot createFrameSlot(const Context& context, uint32_t timestamps);
void destroyFrameSlot(const Context& context, FrameSlot& slot);  // the GPU must be done with it

} // namespace throng::gpu
