// The ground under a crowd (issue #26 section 2; CrowdOptions::ground, `--ground`, on by default
// on the command line): one quad at the floor of the crowd's area, a grey with a faint one-unit
// checker (so motion reads), lit by the frame's light as the members are and, with shadows,
// darkened where the crowd's shadow falls (the shadow map's 3 x 3 percentage-closer filtering).
// With motion vectors its vector is the camera's motion (it stands still).
//
// Frame order (crowd_frame.cpp): after the shadow passes, before the camera's `cull`: the members
// are drawn over it.
#pragma once

#include "../gpu/memory.h"
#include "../gpu/owned.h"
#include "../gpu/passes.h"
#include "../gpu/pipeline.h"
#include "../shaders/shared.h"

#include <throng/options.h>

namespace throng::render {

class ShadowMap;

class Ground {
  public:
    // For targets of `targets`' formats, `slots` frames in flight. `shadows`: the map it receives
    // (null: lit without shadows); outlives the ground. `motions`: with motion vectors
    // (targets.velocity), MemberHistory::motions(), which its velocity variant reads; else null.
    // Throws gpu::GpuError.
    Ground(gpu::Allocator& allocator, const gpu::TargetFormats& targets, const ShadowMap* shadows,
           VkBuffer motions = VK_NULL_HANDLE);
    ~Ground();
    Ground(const Ground&) = delete;
    Ground& operator=(const Ground&) = delete;

    // `ground`: the quad under `area` (wide enough for the shadows of what stands in it under the
    // constants' light) in the frame's colour and depth targets (ColorDepth), seen with `constants`.
    gpu::Pass pass(uint32_t slot, const gpu::shader::DrawConstants& constants, const Bounds& area) const;

  private:
    bool shadowed_ = false;
    gpu::Unique<VkDescriptorSetLayout> set_layout_;
    gpu::Unique<VkPipelineLayout> layout_;
    gpu::Unique<VkPipeline> pipeline_;
    gpu::Unique<VkDescriptorPool> pool_;
    VkDescriptorSet set_ = VK_NULL_HANDLE; // none: nothing to read (no shadows, no vectors)
};

} // namespace throng::render
