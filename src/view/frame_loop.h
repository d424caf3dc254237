// One frame, in the steps the viewer takes in order: wait for the frame slot (reading the GPU
// times of the frame it last held), acquire a swapchain image, begin recording, record the crowd
// (LiveCrowd::record) and the overlay (overlay.h), each ending with endPass(), submit, present.
// kSlots frames are in flight; what a frame writes on the CPU belongs to its slot. Everything but
// acquire and present works without a window (tests record and submit crowd frames headless).
#pragma once

#include "swapchain.h"
#include "time_ruler.h"

#include "../gpu/frame.h"
#include "../gpu/passes.h"
#include "../render/renderer.h"

#include <array>
#include <string>
#include <vector>

namespace throng::view {

constexpr uint32_t kSlots = render::kFramesInFlight;
// Timestamp 0 starts the frame; each pass's end writes the next (the crowd's passes, the overlay).
constexpr uint32_t kTimestamps = gpu::kPassTimestamps;

struct FrameSlot : gpu::FrameSlot {
    VkSemaphore acquired = VK_NULL_HANDLE; // the swapchain image is ready
    bool pending = false;                  // timestamps written and not yet read
    std::vector<std::string> timed;        // the passes of its frame in order: pass i ends at timestamp i + 1
};
using FrameSlots = std::array<FrameSlot, kSlots>;

// kTimestamps queries and an `acquired` semaphore each. destroyFrameSlots() frees what exists, also
// after a failure halfway; the GPU must be done with the slots.
void createFrameSlots(const gpu::Context& context, FrameSlots& slots);
void destroyFrameSlots(const gpu::Context& context, FrameSlots& slots);

// After vkDeviceWaitIdle: the slots' timestamps are not read.
void forgetTimestamps(FrameSlots& slots);

// Waits for the slot's fence. Returns the GPU times of the frame it held when they were written
// and not yet read (empty when not, or when the device has no timestamps).
std::vector<GpuPassTime> waitForSlot(const gpu::Context& context, FrameSlot& slot);

// Acquires the next image into `image`, signalling slot.acquired. False when the swapchain is out
// of date (no image; `resize` set); suboptimal: an image, and `resize` set. Throws gpu::GpuError
// on other failures (a lost device: gpu::DeviceLost).
bool acquireImage(const gpu::Context& context, const Swapchain& swapchain, FrameSlot& slot, uint32_t& image,
                  bool& resize);

// Starts recording the slot's frame (gpu::beginFrame: timestamp 0) with no pass timed yet.
void beginFrame(const gpu::Context& context, FrameSlot& slot);

// Ends the pass `name` of the frame: writes the timestamp after it (none without queries).
// Contract: at most kTimestamps - 1 passes a frame.
void endPass(VkCommandBuffer cmd, FrameSlot& slot, const char* name);

// The frame's GPU passes for the time ruler: `frame` as the viewer's own timestamps measured it
// (the `crowd`, recorded by render::CrowdRenderer, then the `overlay`), with `crowd` replaced by
// the crowd's own passes (`sample`: CrowdRenderer::collect's; simulate, cull, draw, ...) laid end
// to end from where it started. Unchanged when `sample` has no times (the crowd was rebuilt, a
// device without timestamps).
std::vector<GpuPassTime> withCrowdPasses(std::vector<GpuPassTime> frame, const render::FrameSample& sample);

// Ends the slot's command buffer's submission: submits it, waiting for `wait` (all commands) and
// signalling `signal` (each skipped when VK_NULL_HANDLE) and the slot's fence.
void submitFrame(const gpu::Context& context, FrameSlot& slot, VkSemaphore wait, VkSemaphore signal);

// Presents `image` once swapchain.rendered[image] is signalled. `resize` set when out of date or
// suboptimal; throws gpu::GpuError on other failures.
void present(const gpu::Context& context, const Swapchain& swapchain, uint32_t image, bool& resize);

} // namespace throng::view
