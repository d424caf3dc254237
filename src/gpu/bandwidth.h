// The device's memory bandwidth as a copy sees it: what `bench` measures the compute rasterizer's
// vertex cache against (docs/FAR_FIELD.md). Vulkan does not report a bandwidth, so it is measured.
#pragma once

#include "resources.h"

namespace throng::gpu {

// Copies a buffer of `bytes` (device memory) into another `repeats` times and returns the best
// rate in GB/s counting both the bytes read and the bytes written (a copy of 1 GB moves 2 GB).
// 0 when the queue writes no timestamps. Throws GpuError (out of memory, a lost device).
double measureCopyBandwidth(Allocator& allocator, VkDeviceSize bytes, uint32_t repeats = 5);

} // namespace throng::gpu
