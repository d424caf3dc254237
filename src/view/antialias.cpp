// The viewer's temporal anti-aliasing; see antialias.h.
#include "antialias.h"

#include "../render/history.h"
#include "../render/renderer.h"

namespace throng::view {

ViewerTaa::ViewerTaa(gpu::Allocator& a, VkExtent2D extent) : extent_(extent), taa_(a, extent) {
    color_ = gpu::OwnedImage(a, gpu::createImage(a, render::kColorFormat, extent.width, extent.height, 1,
                                                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
    velocity_ = gpu::OwnedImage(a, gpu::createImage(a, render::kVelocityFormat, extent.width, extent.height, 1,
                                                    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
}

gpu::FrameTargets ViewerTaa::targets(const gpu::Image& depth) const {
    gpu::FrameTargets t;
    t.color = color_->image;
    t.color_view = color_->view;
    t.depth = depth.image;
    t.depth_view = depth.view;
    t.extent = extent_;
    t.clear = render::kBackground;
    t.velocity = velocity_->image;
    t.velocity_view = velocity_->view;
    return t;
}

gpu::Pass ViewerTaa::pass(const gpu::FrameTargets& targets, VkImage output) {
    render::TaaFrame f;
    f.targets = targets;
    f.output = output;
    f.output_before = VK_IMAGE_LAYOUT_UNDEFINED; // the whole image is written
    f.output_after = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    return taa_.pass(f);
}

} // namespace throng::view
