// The frame as an ordered list of passes (docs/GPU_DRIVEN.md, section 1). Whoever builds a
// frame (the headless renderer, the benchmark through it, the viewer) collects passes from the
// crowd, the technique and itself, and recordPasses() turns the list into commands: the only
// place where a frame's passes, their barriers, their render targets and their timestamps are
// written.
#pragma once

#include "frame.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace throng::gpu {

enum class PassKind : uint8_t { Transfer, Compute, Graphics };

// What a graphics pass draws into. ColorDepth and DepthOnly: the frame's targets, rendering
// begun and ended by recordPasses(); Own: the pass begins and ends its own rendering (the
// viewer's overlay in its render pass over the swapchain image).
enum class PassTargets : uint8_t { ColorDepth, DepthOnly, Own };

struct Pass {
    std::string name; // reported by `bench`, `render` and the viewer's time ruler
    PassKind kind = PassKind::Graphics;
    PassTargets targets = PassTargets::ColorDepth; // graphics passes only
    std::function<void(VkCommandBuffer)> record;   // inside dynamic rendering for ColorDepth/DepthOnly
};

// At most this many passes in a frame (the timestamp pool holds one more query).
constexpr uint32_t kMaxPasses = 20;
constexpr uint32_t kPassTimestamps = kMaxPasses + 1;

// The frame's render targets. By default their contents are undefined when the frame starts:
// the first graphics pass that uses a target clears it (colour to `clear`, depth to 0: reversed
// Z), later passes load it. A target whose `*_layout` is not UNDEFINED holds a picture the frame
// draws over (a host's own passes before throng's): it is moved from that layout to its
// attachment layout and loaded, not cleared. After recordPasses() the colour image is in
// COLOR_ATTACHMENT_OPTIMAL and the depth image in DEPTH_ATTACHMENT_OPTIMAL if a pass used
// them; with `settle`, a target no pass used is cleared (or kept) and moved there at the end too.
struct FrameTargets {
    VkImage color = VK_NULL_HANDLE;
    VkImageView color_view = VK_NULL_HANDLE;
    VkImage depth = VK_NULL_HANDLE;
    VkImageView depth_view = VK_NULL_HANDLE;
    VkExtent2D extent{};
    VkClearColorValue clear{};
    VkImageLayout color_layout = VK_IMAGE_LAYOUT_UNDEFINED; // at the start of the frame
    VkImageLayout depth_layout = VK_IMAGE_LAYOUT_UNDEFINED;
    bool settle = false;
};

// Records `passes` into `cmd` (begun by beginFrame(), which wrote timestamp 0): for pass i the
// commands, then timestamp i + 1 into `queries` (none when the slot has no query pool); before
// every pass one full memory barrier (every write before every later read or write, indirect
// command reads included), and one such barrier before the first pass, against the frames
// submitted before on the same queue. Contract: passes.size() <= kMaxPasses; the slot's pool holds
// kPassTimestamps queries; every pass has a record function.
void recordPasses(VkCommandBuffer cmd, const FrameSlot& slot, std::span<const Pass> passes,
                  const FrameTargets& targets);

// GPU milliseconds of each of the `count` passes of the slot's last frame, and of the whole
// frame (the last element), once its fence has signalled. Empty when the slot has no queries.
std::vector<double> readPassTimes(const Context& context, const FrameSlot& slot, size_t count);

// The names of `passes`, in order.
std::vector<std::string> passNames(std::span<const Pass> passes);

} // namespace throng::gpu
