// Temporal anti-aliasing of throng's own headless frames (issue #26 section 2, docs/IN_MOTION.md;
// `render --aa taa`): each frame is drawn through a projection shifted by a sub-pixel offset
// (Halton 2, 3: taaJitter), with motion vectors (history.h), and a compute pass (taa.comp)
// blends it into the picture accumulated over the frames before, reprojected by the vectors and
// clamped to the frame's own neighbourhood; the result is copied back into the frame's colour
// image, so the readback and the PNG are the anti-aliased picture.
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

class TemporalAA {
  public:
    // For colour images of `extent`, read through their sRGB views (SAMPLED usage) and written by
    // a blit (TRANSFER_DST usage). Throws gpu::GpuError.
    TemporalAA(gpu::Allocator& allocator, VkExtent2D extent);
    ~TemporalAA();
    TemporalAA(const TemporalAA&) = delete;
    TemporalAA& operator=(const TemporalAA&) = delete;

    // After the frame's passes: `targets.color` (COLOR_ATTACHMENT_OPTIMAL, drawn with `jitter`)
    // and `velocity` (its vectors, COLOR_ATTACHMENT_OPTIMAL) blended with the accumulated picture
    // (the last frame drawn with `previous_jitter`; none on the first call), the result written
    // back into targets.color, left in COLOR_ATTACHMENT_OPTIMAL. Frames are recorded in order on
    // one queue.
    void record(VkCommandBuffer cmd, const gpu::FrameTargets& targets, VkImage velocity, VkImageView velocity_view,
                glm::vec2 jitter, glm::vec2 previous_jitter);

  private:
    struct Objects;
    gpu::Allocator* allocator_;
    VkExtent2D extent_{};
    gpu::OwnedImage pictures_[2]; // the accumulated picture, this frame's and the last's in turn
    uint32_t frames_ = 0;
    std::unique_ptr<Objects> objects_; // pipeline, layout, sampler, descriptor pool
};

} // namespace throng::render
