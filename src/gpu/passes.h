// The frame as an ordered list of passes (docs/GPU_DRIVEN.md, section 1). Whoever builds a
// frame (the headless renderer, the benchmark through it, the viewer) collects passes from the
// crowd, the technique and itself, and recordPasses() turns the list into commands: the only
// place where a frame's passes, their barriers, their render targets and their timestamps are
// written. Each pass says what it reads and writes; the barriers between passes follow from that
// (planBarriers), so a pass waits only for the earlier passes whose results it touches.
#pragma once

#include "frame.h"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace throng::gpu {

enum class PassKind : uint8_t { Transfer, Compute, Graphics };

// What a graphics pass draws into, rendering begun and ended by recordPasses(). ColorDepth and
// DepthOnly: the frame's targets; OwnDepth: the pass's own depth image (Pass::depth: a shadow map).
enum class PassTargets : uint8_t { ColorDepth, DepthOnly, OwnDepth };

// A pass's own depth image (PassTargets::OwnDepth). recordPasses() moves it from `before` to
// DEPTH_ATTACHMENT_OPTIMAL, clears it to 0 (reversed Z: nothing in the way) or loads it, renders
// at its full extent, then moves it to `after`.
struct PassDepth {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkExtent2D extent{};
    bool load = false;
    VkImageLayout before = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageLayout after = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
};

// What a pass reads and writes, as a set of bits. Whoever builds the frame names its own
// resources with the low bits (render/frame_resources.h: the members, the culled lists, ...);
// the two targets are the gpu layer's. A pass that declares nothing reads and writes everything:
// a full barrier before it and before the next pass that touches anything.
using Resources = uint32_t;
constexpr Resources kColorTarget = 1u << 30; // FrameTargets::color
constexpr Resources kDepthTarget = 1u << 31; // FrameTargets::depth
constexpr Resources kEveryResource = ~0u;

struct Pass {
    std::string name; // reported by `bench`, `render` and the viewer's time ruler
    PassKind kind = PassKind::Graphics;
    PassTargets targets = PassTargets::ColorDepth; // graphics passes only
    std::function<void(VkCommandBuffer)> record;   // graphics passes: inside dynamic rendering
    // Contract: every resource the pass's commands read or write, in any of its kind's stages
    // (passStages). A graphics pass on the frame's targets reads and writes them without saying
    // so (ColorDepth: both, DepthOnly: depth). Barriers a pass needs between its own commands
    // (a clear before a dispatch, a layout transition) stay its own.
    Resources reads = kEveryResource;
    Resources writes = kEveryResource;
    PassDepth depth{}; // PassTargets::OwnDepth only
};

// The pipeline stages a pass of `kind` may run commands in: Transfer: every transfer stage;
// Compute: compute shaders, indirect dispatch and transfers (clears and copies beside its
// dispatches); Graphics: every graphics stage.
VkPipelineStageFlags2 passStages(PassKind kind);

// The barrier recorded before one pass: every write in `src` stages made visible to `dst`
// stages (a global memory barrier). Both zero: none needed.
struct PassBarrier {
    VkPipelineStageFlags2 src = 0;
    VkPipelineStageFlags2 dst = 0;
    bool needed() const { return dst != 0; }
};

// The barriers before each of `passes` (same order), from what each reads and writes: before a
// pass, the stages of the last earlier writer of anything it reads or writes (read after write,
// write after write) and of the earlier readers of anything it writes (write after read),
// unless an earlier barrier already covers them for this pass's stages. The first pass gets a
// full barrier (the frames submitted before on the same queue). Pure: tested without a device.
std::vector<PassBarrier> planBarriers(std::span<const Pass> passes);

// At most this many passes in a frame (the timestamp pool holds one more query).
constexpr uint32_t kMaxPasses = 24;
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
    // Motion vectors (optional): a second colour attachment of every ColorDepth pass, cleared
    // to 0 (no motion) when its layout is UNDEFINED; left in COLOR_ATTACHMENT_OPTIMAL.
    VkImage velocity = VK_NULL_HANDLE;
    VkImageView velocity_view = VK_NULL_HANDLE;
    VkImageLayout velocity_layout = VK_IMAGE_LAYOUT_UNDEFINED;
    // Optional views a compute shader may write (gpu::createImageWithStorageView): the colour's
    // R8G8B8A8_UNORM, the velocity's R32_UINT. Given (both, where there is a velocity target), the
    // crowd's frame clears them by compute (render/target_clear.h) and records its passes with
    // their layouts GENERAL: loaded, not cleared. recordPasses() itself does not read them.
    VkImageView color_storage_view = VK_NULL_HANDLE;
    VkImageView velocity_storage_view = VK_NULL_HANDLE;
};

// Records `passes` into `cmd` (begun by beginFrame(), which wrote timestamp 0): for pass i its
// barrier (planBarriers), the commands, then timestamp i + 1 into `queries` (none when the slot
// has no query pool). Contract: passes.size() <= kMaxPasses; the slot's pool holds
// kPassTimestamps queries; every pass has a record function.
void recordPasses(VkCommandBuffer cmd, const FrameSlot& slot, std::span<const Pass> passes,
                  const FrameTargets& targets);

// GPU milliseconds of each of the `count` passes of the slot's last frame, and of the whole
// frame (the last element), once its fence has signalled. Empty when the slot has no queries.
std::vector<double> readPassTimes(const Context& context, const FrameSlot& slot, size_t count);

// The names of `passes`, in order.
std::vector<std::string> passNames(std::span<const Pass> passes);

} // namespace throng::gpu
