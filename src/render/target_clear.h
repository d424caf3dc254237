// The frame's colour and motion-vector targets cleared by a compute pass (docs/IN_MOTION.md, "The
// clears"). On an H100 or H200 the graphics units (which only two TPCs have) clear a 1920x1080
// 4-byte attachment in about 0.15 ms, the first graphics pass's load op or a transfer clear
// alike; a compute shader writes it through a storage view in microseconds. Used by
// CrowdRenderer::record where the targets have storage views (gpu::FrameTargets::
// color_storage_view) and hold nothing to keep; the depth target is still cleared by the first
// pass that uses it (a depth format is no storage image).
#pragma once

#include "../gpu/memory.h"
#include "../gpu/owned.h"
#include "../gpu/passes.h"

namespace throng::render {

// Whether `targets` are cleared by TargetClear: a storage view of the colour target (and of the
// velocity target where there is one), and neither holding a picture to keep (layouts UNDEFINED).
bool clearedByCompute(const gpu::FrameTargets& targets);

// What the passes after the clear see: the colour and velocity targets in GENERAL, to be loaded.
gpu::FrameTargets afterComputeClear(const gpu::FrameTargets& targets);

class TargetClear {
  public:
    // Throws gpu::GpuError.
    explicit TargetClear(gpu::Allocator& allocator);
    ~TargetClear();
    TargetClear(const TargetClear&) = delete;
    TargetClear& operator=(const TargetClear&) = delete;

    // The `clear` pass (compute): `targets`' colour to targets.clear and velocity to 0 (no motion),
    // both moved from UNDEFINED to GENERAL. Contract: clearedByCompute(targets); the passes after
    // it are recorded with afterComputeClear(targets); the storage views change only while the GPU
    // is idle (the descriptor set is rewritten then).
    gpu::Pass pass(const gpu::FrameTargets& targets);

  private:
    gpu::Allocator* allocator_;
    gpu::Unique<VkDescriptorSetLayout> set_layout_;
    gpu::Unique<VkPipelineLayout> layout_;
    gpu::Unique<VkPipeline> color_only_, with_velocity_;
    gpu::Unique<VkDescriptorPool> pool_;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    VkImageView color_ = VK_NULL_HANDLE, velocity_ = VK_NULL_HANDLE; // what set_ holds
};

} // namespace throng::render
