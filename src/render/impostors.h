// Animated impostors (issue #11, section 3; docs/FAR_FIELD.md): members smaller on screen than a
// set number of pixels are drawn as one quad each, showing the baked picture (BakedImpostors in
// throng/baked.h) of the view nearest to the direction the member is seen from, at the picture
// nearest its clip time, lit by the picture's normals. Any technique, any GPU (a graphics pass
// with an indirect draw: no compute rasterizer, no 64-bit atomics).
//
// The culling pass chooses them (CullSettings::impostor_px: a member whose bounding sphere is
// fewer pixels across goes to the visible list's impostor region instead of a LOD region) and
// writes the draw; this pass, `impostors`, draws it after the crowd's other passes.
#pragma once

#include "crowd_gpu.h"
#include "history.h"

#include "../gpu/owned.h"
#include "../gpu/passes.h"
#include "../gpu/pipeline.h"

#include <throng/baked.h>

#include <string>

namespace throng::render {

// Why `asset` cannot be drawn with impostors (empty: it can).
std::string impostorProblem(const BakedAsset& asset);

// The eye of a perspective view-projection (the point it maps to x = y = w = 0).
glm::vec3 cameraPosition(const glm::mat4& view_projection);

class ImpostorPass {
  public:
    // The pictures of `baked` on the GPU, drawing the impostor region of `crowd` (which must be
    // culled with CullSettings::impostor_px > 0) into targets of the given formats; `slots`
    // frames in flight. `clips` and `looks`: the asset's ClipRecord buffer and looks table
    // (GpuAsset::clips, GpuAsset::looks). Throws gpu::GpuError. Contract: impostorProblem(baked)
    // is empty.
    ImpostorPass(gpu::Allocator& allocator, const BakedAsset& baked, VkBuffer clips, VkBuffer looks,
                 const CrowdGpu& crowd, const gpu::TargetFormats& targets, uint32_t slots,
                 const MemberHistory* history = nullptr);

    // The `impostors` pass of frame slot `slot` at `constants` (camera, light, time). Keeps
    // `this`. Call after the crowd's other passes: it draws what their culling chose.
    // With motion vectors (a history given at construction) `previous` is the frame's
    // (MemberHistory::begin): each quad's corners placed again by the member's last record.
    void addPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const gpu::shader::DrawConstants& constants,
                   const PreviousFrame* previous = nullptr);

    uint64_t imageBytes() const { return image_bytes_; }

  private:
    const CrowdGpu* crowd_;
    gpu::shader::ImpostorParams base_{};
    uint64_t image_bytes_ = 0;
    gpu::OwnedImage color_, normal_;
    gpu::OwnedBuffer frames_, quad_;
    std::vector<gpu::OwnedBuffer> params_; // per slot (host-visible)
    gpu::Unique<VkSampler> sampler_;
    gpu::Unique<VkDescriptorSetLayout> set_layout_;
    gpu::Unique<VkPipelineLayout> layout_;
    gpu::Unique<VkPipeline> pipeline_;
    gpu::Unique<VkDescriptorPool> pool_;
    std::vector<VkDescriptorSet> sets_;
};

} // namespace throng::render
