// What one frame in flight owns: a command buffer, a fence (created signalled, so the first wait
// returns at once) and a pool of timestamp queries (none when the device's queue writes no
// timestamps, Context::timestamps: GPU times are then unavailable). The headless renderer and
// the viewer both cycle through kFramesInFlight of these.
#pragma once

#include "context.h"

namespace throng::gpu {

struct FrameSlot {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool queries = VK_NULL_HANDLE;
};

// Frees what it made when it fails halfway.
FrameSlot createFrameSlot(const Context& context, uint32_t timestamps);
void destroyFrameSlot(const Context& context, FrameSlot& slot); // the GPU must be done with it

// Starts recording the slot's next frame (its fence must have signalled): resets the fence and
// the command buffer, begins it, resets the `timestamps` queries and writes timestamp 0.
void beginFrame(const Context& context, FrameSlot& slot, uint32_t timestamps);

// Writes timestamp `query` of the slot; nothing when the slot has no queries.
void writeTimestamp(VkCommandBuffer cmd, const FrameSlot& slot, uint32_t query);

} // namespace throng::gpu
