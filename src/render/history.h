// The crowd as the last frame drew it: what motion vectors are measured against (issue #26,
// docs/IN_MOTION.md, section 1).
//
// A pixel's motion vector is where its surface point is in this frame minus where the same point
// was in the last frame, in pixels. The same point last frame is the same vertex weights of the
// same triangle, skinned from the member's last record (its placement, clips, phase, blend) at the
// last frame's draw time, placed and projected by the last frame's view-projection. So a crowd
// with velocity keeps one more record per member: a copy of every record as the last frame drew
// it (MemberHistory::previous(), 48 bytes a member), made by the frame's first pass (`history`)
// before anything (the host's edits, the simulation) changes them, when the last frame changed
// them: after a frame that neither stepped the simulation nor uploaded edits, the history
// already holds what that frame drew and the pass copies nothing (a simulation of 30 steps a
// second drawn at 60 frames copies every other frame; a crowd only animated, once). A member
// the host says teleported has its copy replaced by its new record after the edits are
// uploaded: it draws without motion that frame.
//
// Contract with the GPU queue: the frames of a crowd are submitted in the order they are
// recorded (every frame's `history` pass copies what the frame before left).
#pragma once

#include "../gpu/memory.h"
#include "../gpu/owned.h"
#include "../gpu/passes.h"

#include <glm/glm.hpp>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace throng::render {

// The velocity target's format: two half floats, pixels (x right, y down), this frame's
// position minus the last frame's.
constexpr VkFormat kVelocityFormat = VK_FORMAT_R16G16_SFLOAT;

// What this frame's motion is measured against (null in CrowdFrame: no motion vectors).
struct PreviousFrame {
    VkBuffer records = VK_NULL_HANDLE; // the members as the last frame drew them (InstanceRecord each)
    glm::mat4 view_projection{1.0f};   // the last frame's camera, unjittered
    float time = 0.0f;                 // the last frame's draw time (the motion's clock)
    VkExtent2D viewport{};             // this frame's targets
    // False on the first frame: it measures against itself (this frame's camera and time: no motion).
    bool drawn = false;
};

class MemberHistory {
  public:
    // The history of the `capacity` records of `instances` (CrowdGpu::instances()), for `slots`
    // frames in flight. Throws gpu::GpuError.
    MemberHistory(gpu::Allocator& allocator, VkBuffer instances, uint32_t capacity, uint32_t slots);

    VkBuffer previous() const { return previous_->buffer; }
    // MotionParams per frame slot (THRONG_BINDING_MOTION): what the hardware passes read.
    VkBuffer motions() const { return motions_->buffer; }

    // The member (a record index) moved without passing through the space between, or is new:
    // the next frame draws it without motion. Indexes past the capacity are ignored.
    void teleported(uint32_t member);
    // The record at index `from` moved to `to` (the render API fills a removed member's hole with
    // the last): its history follows it. Moves compose until the next copyPass().
    void moved(uint32_t from, uint32_t to);

    // The frame's first pass: every record copied into the history (what the last frame drew; in
    // compute, at the memory's rate) unless the last frame changed none (drew()), then the moved
    // ones' from where the last frame drew them. The pass is there either way (a frame's pass
    // list stays the same).
    gpu::Pass copyPass();
    // After the members' upload: the teleported members' new records copied over their history;
    // none when none teleported since the last call (then the list empties).
    std::optional<gpu::Pass> teleportPass();

    // What frame slot `slot`, drawn at `view_projection` and `time` into targets of `viewport`,
    // measures its motion against (the first frame: itself), written into the slot's
    // MotionParams too (the slot's last frame has finished).
    PreviousFrame begin(uint32_t slot, const glm::mat4& view_projection, float time, VkExtent2D viewport);
    // The camera and draw time (the motion's clock) of the frame just recorded, which the next
    // measures against, and whether any of its passes wrote the records (the host's upload, a
    // simulation step): if not, the next frame's copyPass() has nothing to copy.
    void drew(const glm::mat4& view_projection, float time, bool changed_records);

  private:
    VkBuffer instances_ = VK_NULL_HANDLE;
    uint32_t capacity_ = 0;
    gpu::OwnedBuffer previous_;
    gpu::OwnedBuffer motions_; // MotionParams per slot, host-visible
    // The copy's pipeline (history.comp) and its one set (instances -> previous).
    gpu::Unique<VkDescriptorSetLayout> set_layout_;
    gpu::Unique<VkPipelineLayout> layout_;
    gpu::Unique<VkPipeline> pipeline_;
    gpu::Unique<VkDescriptorPool> pool_;
    VkDescriptorSet set_ = VK_NULL_HANDLE;
    std::vector<uint32_t> teleported_;
    std::vector<std::pair<uint32_t, uint32_t>> moves_; // (to, where the last frame drew it)
    uint32_t slots_ = 1;
    PreviousFrame last_;
    bool stale_ = true; // the records may differ from the history (true before the first frame)
};

} // namespace throng::render
