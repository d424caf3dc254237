// The depth pyramid occlusion culling tests against (docs/GPU_DRIVEN.md, "Occlusion"): an
// R32_SFLOAT image with one level per halving of a frame's depth image (sizes rounded up, down
// to 1x1), level 0 a copy of it, each texel of level k + 1 the farthest depth (reversed Z: the
// minimum) of the 2x2 texels of level k it covers, so texel x of level k holds the farthest
// depth of pixels x << k .. ((x + 1) << k) - 1. Built by the `pyramid` pass from whatever the
// frame drew before it.
//
// Where the compute rasterizer drew (compute_raster.h) level 0 comes from its visibility buffer
// (the depth in each key), alone or merged with the depth image (PyramidSource).
//
// Owned by whoever owns the depth image (the renderer, the viewer's swapchain) and rebuilt with
// it: its size is the depth image's.
#pragma once

#include "../gpu/owned.h"
#include "../gpu/passes.h"
#include "../shaders/shared.h"

#include <memory>
#include <vector>

namespace throng::render {

// The pyramid's pipeline, layout and sampler: built once per owner and shared by its pyramids (a
// viewer makes a new one on every resize).
struct PyramidPipelines {
    gpu::Unique<VkDescriptorSetLayout> set_layout;
    gpu::Unique<VkPipelineLayout> layout;
    gpu::Unique<VkPipeline> reduce;
    // Level 0 from a visibility buffer (and the depth image), made when first recorded (a pipeline
    // costs lavapipe about 0.15 s to build: the hardware path needs neither).
    mutable gpu::Unique<VkPipeline> from_visibility, from_both;
    VkPipeline levelZero(const gpu::Context& context, bool with_depth) const;
    gpu::Unique<VkSampler> sampler; // nearest, clamped: the shaders only texelFetch
};
// Throws gpu::GpuError. Contract: context.depth_pyramid.
std::shared_ptr<const PyramidPipelines> createPyramidPipelines(const gpu::Context& context);

// Levels of a pyramid over `extent`, halving with sizes rounded up down to 1x1 (at most
// THRONG_MAX_PYRAMID_LEVELS: sides up to 32768).
uint32_t pyramidLevels(VkExtent2D extent);

// What level 0 is made of: the depth image (the hardware drew), the compute rasterizer's
// visibility buffer (it drew everything: the depth image is not touched), or the nearer of both
// per pixel (auto).
enum class PyramidSource : uint8_t { Depth, Visibility, DepthAndVisibility };

class DepthPyramid {
  public:
    // `depth`, `depth_view`: the frame's depth image (D32_SFLOAT, made with SAMPLED usage) and a
    // view of its depth aspect. Throws gpu::GpuError (out of memory). Contract:
    // context.depth_pyramid.
    DepthPyramid(gpu::Allocator& allocator, VkImage depth, VkImageView depth_view, VkExtent2D extent,
                 std::shared_ptr<const PyramidPipelines> pipelines = nullptr);

    // The `pyramid` compute pass: moves the depth image from DEPTH_ATTACHMENT_OPTIMAL to
    // SHADER_READ_ONLY_OPTIMAL, builds every level, and moves it back (with Visibility it leaves
    // the depth image alone). Keeps `this`. Contract: with a visibility source, bindVisibility()
    // was called.
    gpu::Pass pass(PyramidSource source = PyramidSource::Depth) const;
    void record(VkCommandBuffer cmd, PyramidSource source = PyramidSource::Depth) const;
    // The visibility buffer (extent's pixels, 8 bytes each) level 0 reads with a visibility source.
    // Rewrites a descriptor when the buffer differs from the last: no frame that uses this pyramid
    // may be in flight (the renderer keeps one per frame slot and calls it when recording it).
    void bindVisibility(VkBuffer visibility);

    // The whole pyramid for shaders (GENERAL layout, every level) and its sampler.
    VkImageView view() const { return image_->view; }
    VkSampler sampler() const { return pipelines_->sampler; }
    uint32_t levels() const { return levels_; }
    VkExtent2D extent() const { return extent_; }

    // Tests: the texels of level `level`, ceil(extent / 2^level) of them (the device must be idle).
    std::vector<float> download(uint32_t level) const;

  private:
    gpu::Allocator* allocator_;
    VkImage depth_ = VK_NULL_HANDLE;
    VkExtent2D extent_{};
    uint32_t levels_ = 0;
    std::shared_ptr<const PyramidPipelines> pipelines_;
    gpu::OwnedImage image_;
    std::vector<gpu::Unique<VkImageView>> level_views_;
    gpu::Unique<VkDescriptorPool> pool_;
    std::vector<VkDescriptorSet> sets_;               // per level: its source and itself as the target
    VkDescriptorSet visibility_set_ = VK_NULL_HANDLE; // level 0 with the visibility buffer
    VkBuffer visibility_ = VK_NULL_HANDLE;
};

} // namespace throng::render
