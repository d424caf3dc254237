// The device's memory bandwidth as a shader sees it: what `bench` measures the compute
// rasterizer's vertex cache against (docs/FAR_FIELD.md). Vulkan reports no bandwidth, so it is
// measured: a compute shader copying one buffer into another (vkCmdCopyBuffer is no measure: on
// the H200 it ran at 851 GB/s, a copy engine's rate, not the memory's).
#pragma once

#include "resources.h"

namespace throng::gpu {

// Copies `bytes` (rounded down to 16, at most maxStorageBufferRange) between two device buffers
// `repeats` times in a compute shader and returns the best rate in GB/s, counting the bytes read
// and the bytes written (a copy of 1 GB moves 2 GB). 0 when the queue writes no timestamps.
// Throws GpuError (out of memory, a lost device).
double measureCopyBandwidth(Allocator& allocator, VkDeviceSize bytes, uint32_t repeats = 5);

} // namespace throng::gpu
