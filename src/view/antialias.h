// The viewer's temporal anti-aliasing (`view --aa taa`, console `aa`; render/taa.h): with it the
// crowd is drawn through a jittered projection into the viewer's own colour and velocity images
// (with the swapchain's depth), and the TAA pass blits the anti-aliased picture into the
// swapchain image, which the overlay then draws over. Made for one swapchain extent; the viewer
// drops it with the swapchain and when TAA is turned off.
#pragma once

#include "../gpu/owned.h"
#include "../gpu/passes.h"
#include "../gpu/resources.h"
#include "../render/taa.h"

#include <glm/glm.hpp>

namespace throng::view {

class ViewerTaa {
  public:
    // For a swapchain of `extent`. Throws gpu::GpuError.
    ViewerTaa(gpu::Allocator& allocator, VkExtent2D extent);

    // This frame's camera: `view_projection` jittered by the next sub-pixel offset. Once a frame.
    glm::mat4 jitter(const glm::mat4& view_projection) { return taa_.jitter(view_projection); }
    // The crowd's targets this frame: the viewer's colour and velocity images, the swapchain's
    // `depth` (SAMPLED usage).
    gpu::FrameTargets targets(const gpu::Image& depth) const;
    // The `taa` pass after the crowd's (CrowdRenderer::record's `after`), writing into the
    // swapchain image `output` (TRANSFER_DST usage), left as a colour attachment for the overlay.
    gpu::Pass pass(const gpu::FrameTargets& targets, VkImage output);
    VkExtent2D extent() const { return extent_; }

  private:
    VkExtent2D extent_{};
    gpu::OwnedImage color_, velocity_;
    render::TemporalAA taa_;
};

} // namespace throng::view
