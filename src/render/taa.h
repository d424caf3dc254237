// Temporal anti-aliasing of throng's own frames (issue #26 section 2, docs/IN_MOTION.md;
// `render --aa taa`, `bench` NAME@taa, `view --aa taa`): each frame is drawn through a projection
// shifted by a sub-pixel offset (Halton 2, 3: taaJitter), with motion vectors (history.h), and a
// compute pass (taa.comp) blends it into the picture accumulated over the frames before,
// reprojected by the vectors, clamped to the frame's own neighbourhood and dropped where the
// depth shows a disocclusion; the result goes into the frame's colour image (headless: the
// readback and the PNG are the anti-aliased picture; written by a second compute pass through a
// storage view, TaaFrame::color_storage) or is blitted into the viewer's swapchain image. The
// pass reads the frame's colour once per tile into shared memory (taa.comp) and moves its images'
// layouts in three barriers (before, between, after).
//
// Converges over about 1 / kTaaBlend frames: `render --aa taa` draws at least throng::kTaaFrames
// (throng/headless.h).
#pragma once

#include "../gpu/memory.h"
#include "../gpu/owned.h"
#include "../gpu/passes.h"

#include <glm/glm.hpp>

namespace throng::render {

constexpr float kTaaBlend = 0.04f; // this frame's weight in the accumulated picture

// Frame `frame`'s sub-pixel offset in pixels, in (-0.5, 0.5)^2: Halton (2, 3) from index 1,
// repeating every 16 frames.
glm::vec2 taaJitter(uint32_t frame);
// `view_projection` shifted on screen by `jitter` pixels in targets of `extent`.
glm::mat4 jitterProjection(const glm::mat4& view_projection, glm::vec2 jitter, VkExtent2D extent);

// One frame's anti-aliasing: what TemporalAA::pass() reads and where its result goes.
struct TaaFrame {
    // The frame's targets, left by the crowd's passes in their attachment layouts: colour drawn
    // through TemporalAA::jitter()'s camera (SAMPLED usage; read through its sRGB view), depth
    // (SAMPLED usage) and velocity (its motion vectors, SAMPLED usage).
    gpu::FrameTargets targets;
    // Where the anti-aliased picture is blitted (TRANSFER_DST usage; a format blits convert to):
    // null: targets.color. Moved from `output_before` (UNDEFINED: its contents are not kept) to
    // TRANSFER_DST, then to `output_after`.
    VkImage output = VK_NULL_HANDLE;
    VkImageLayout output_before = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageLayout output_after = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    // Where the output is targets.color: a view of it a compute shader may write, R8G8B8A8_UNORM
    // of its sRGB image (gpu::createImageWithStorageView). Given, the picture is written through
    // it by a compute pass (sRGB encoded in the shader) instead of blitted: on an H100 or H200 a
    // blit goes through the graphics units, which only two TPCs have. Null: blitted.
    VkImageView color_storage = VK_NULL_HANDLE;
};

class TemporalAA {
  public:
    // For targets of `extent`. Throws gpu::GpuError.
    TemporalAA(gpu::Allocator& allocator, VkExtent2D extent);
    ~TemporalAA();
    TemporalAA(const TemporalAA&) = delete;
    TemporalAA& operator=(const TemporalAA&) = delete;

    // This frame's camera: `view_projection` shifted by the next sub-pixel offset (taaJitter of
    // the frames so far). Once a frame, before its pass().
    glm::mat4 jitter(const glm::mat4& view_projection);
    // The `taa` pass (compute; placed after the passes that draw the frame, whose barriers and
    // timestamps it shares: CrowdRenderer::record's `after`): `frame`'s colour blended with the
    // picture accumulated over the frames before (none on the first pass), reprojected by the
    // vectors, clamped to the frame's neighbourhood as far as the surface moved, dropped where
    // the depth shows another surface; written to `frame.output`. The targets are back in their
    // attachment layouts after it. Contract: passes are recorded in the order they are made, on
    // one queue; the targets' views change only while the GPU is idle (the descriptor sets
    // reading them are rewritten).
    gpu::Pass pass(const TaaFrame& frame);

  private:
    void record(VkCommandBuffer cmd, const TaaFrame& frame, uint32_t index, glm::vec2 jitter_delta,
                glm::vec2 jitter) const;
    struct Objects;
    gpu::Allocator* allocator_;
    VkExtent2D extent_{};
    gpu::OwnedImage pictures_[2];             // the accumulated picture, this frame's and the last's in turn
    uint32_t frames_ = 0;                     // passes made so far
    glm::vec2 jitter_{0.0f}, previous_{0.0f}; // this frame's offset and the last frame's (0 before the first)
    std::unique_ptr<Objects> objects_;        // pipeline, layout, samplers, descriptor pool
};

} // namespace throng::render
