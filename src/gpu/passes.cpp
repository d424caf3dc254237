// Recording a frame's passes; see passes.h.
#include "passes.h"

#include "resources.h"

#include <array>
#include <cassert>

namespace throng::gpu {

namespace {

VkRenderingAttachmentInfo attachment(VkImageView view, VkImageLayout layout, bool clear, VkClearValue value) {
    VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    a.imageView = view;
    a.imageLayout = layout;
    a.loadOp = clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    a.clearValue = value;
    return a;
}

// Begins dynamic rendering over all of `extent` into `colors` (the colour, then the velocity
// when there is one; none: empty) and `depth`, with the viewport and scissor covering it.
void beginAttachments(VkCommandBuffer cmd, VkExtent2D extent, std::span<const VkRenderingAttachmentInfo> colors,
                      const VkRenderingAttachmentInfo& depth) {
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = {{0, 0}, extent};
    ri.layerCount = 1;
    ri.colorAttachmentCount = uint32_t(colors.size());
    ri.pColorAttachments = colors.data();
    ri.pDepthAttachment = &depth;
    vkCmdBeginRendering(cmd, &ri);
    const VkViewport viewport{0.0f, 0.0f, float(extent.width), float(extent.height), 0.0f, 1.0f};
    const VkRect2D scissor{{0, 0}, extent};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
}

// Begins dynamic rendering on the targets a pass uses, moving each to its attachment layout
// (and clearing it, unless it holds the host's picture) the first time.
void beginRendering(VkCommandBuffer cmd, const FrameTargets& t, bool color, bool& color_used, bool& depth_used) {
    const bool keep_color = t.color_layout != VK_IMAGE_LAYOUT_UNDEFINED;
    const bool keep_depth = t.depth_layout != VK_IMAGE_LAYOUT_UNDEFINED;
    const bool velocity = t.velocity_view != VK_NULL_HANDLE;
    if (color && !color_used && t.color_layout != VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
        transitionImage(cmd, t.color, t.color_layout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    if (color && velocity && !color_used && t.velocity_layout != VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
        transitionImage(cmd, t.velocity, t.velocity_layout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    if (!depth_used && t.depth_layout != VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL)
        transitionImage(cmd, t.depth, t.depth_layout, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                        VK_IMAGE_ASPECT_DEPTH_BIT);
    VkClearValue color_clear{}, depth_clear{};
    color_clear.color = t.clear;
    depth_clear.depthStencil = {0.0f, 0};
    const VkClearValue no_motion{};
    const VkRenderingAttachmentInfo ca[2] = {
        attachment(t.color_view, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, !color_used && !keep_color, color_clear),
        attachment(t.velocity_view, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                   !color_used && t.velocity_layout == VK_IMAGE_LAYOUT_UNDEFINED, no_motion)};
    const VkRenderingAttachmentInfo da =
        attachment(t.depth_view, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, !depth_used && !keep_depth, depth_clear);
    beginAttachments(cmd, t.extent, std::span(ca, color ? (velocity ? 2 : 1) : 0), da);
    color_used = color_used || color;
    depth_used = true;
}

// Whether a barrier's stage mask `mask` takes in every stage of `stages`.
bool covers(VkPipelineStageFlags2 mask, VkPipelineStageFlags2 stages) {
    return (mask & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT) != 0 || (stages & ~mask) == 0;
}

// A graphics pass on the frame's targets reads and writes them.
Resources targetsOf(const Pass& p) {
    if (p.kind != PassKind::Graphics) return 0;
    if (p.targets == PassTargets::ColorDepth) return kColorTarget | kDepthTarget;
    if (p.targets == PassTargets::DepthOnly) return kDepthTarget;
    return 0;
}

// Renders a pass into its own depth image (PassTargets::OwnDepth).
void recordOwnDepth(VkCommandBuffer cmd, const Pass& p) {
    const PassDepth& d = p.depth;
    if (d.before != VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL)
        transitionImage(cmd, d.image, d.before, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT);
    VkClearValue clear{};
    clear.depthStencil = {0.0f, 0};
    beginAttachments(cmd, d.extent, {}, attachment(d.view, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, !d.load, clear));
    p.record(cmd);
    vkCmdEndRendering(cmd);
    if (d.after != VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL)
        transitionImage(cmd, d.image, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, d.after, VK_IMAGE_ASPECT_DEPTH_BIT);
}

} // namespace

VkPipelineStageFlags2 passStages(PassKind kind) {
    switch (kind) {
    case PassKind::Transfer: return VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
    case PassKind::Compute:
        return VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
               VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
    case PassKind::Graphics: return VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT;
    }
    return VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
}

std::vector<PassBarrier> planBarriers(std::span<const Pass> passes) {
    // Per resource bit: the stages of its last writer, the stages that write is visible to
    // (through a barrier since), the stages that read it since, and the stages those reads are
    // ordered before.
    struct State {
        VkPipelineStageFlags2 written = 0, visible = 0, read = 0, read_ordered = 0;
    };
    std::array<State, 32> state{};
    std::vector<PassBarrier> out(passes.size());
    for (size_t i = 0; i < passes.size(); ++i) {
        const Pass& p = passes[i];
        const VkPipelineStageFlags2 stages = passStages(p.kind);
        const Resources targets = targetsOf(p);
        const Resources reads = p.reads | targets, writes = p.writes | targets;
        PassBarrier& b = out[i];
        if (i == 0) b = {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT};
        for (uint32_t r = 0; r < 32; ++r) {
            const Resources bit = 1u << r;
            if (((reads | writes) & bit) == 0) continue;
            const State& s = state[r];
            if (s.written != 0 && !covers(s.visible, stages)) { // read after write, write after write
                b.src |= s.written;
                b.dst |= stages;
            }
            if ((writes & bit) != 0 && s.read != 0 && !covers(s.read_ordered, stages)) { // write after read
                b.src |= s.read;
                b.dst |= stages;
            }
        }
        if (b.needed()) // what it covers from here on
            for (State& s : state) {
                if (s.written != 0 && covers(b.src, s.written)) s.visible |= b.dst;
                if (s.read != 0 && covers(b.src, s.read)) s.read_ordered |= b.dst;
            }
        for (uint32_t r = 0; r < 32; ++r) {
            const Resources bit = 1u << r;
            State& s = state[r];
            if ((writes & bit) != 0) {
                s = State{stages, 0, 0, 0};
            } else if ((reads & bit) != 0) {
                s.read |= stages;
                s.read_ordered = 0; // this read is ordered before nothing yet
            }
        }
    }
    return out;
}

void recordPasses(VkCommandBuffer cmd, const FrameSlot& slot, std::span<const Pass> passes,
                  const FrameTargets& targets) {
    assert(passes.size() <= kMaxPasses);
    bool color_used = false, depth_used = false;
    // Targets no pass drew into cleared (or kept) and moved to their attachment layouts.
    auto settle = [&] {
        if ((color_used && depth_used) || targets.color == VK_NULL_HANDLE || targets.depth == VK_NULL_HANDLE) return;
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
        beginRendering(cmd, targets, !color_used, color_used, depth_used);
        vkCmdEndRendering(cmd);
    };
    const std::vector<PassBarrier> barriers = planBarriers(passes);
    for (size_t i = 0; i < passes.size(); ++i) {
        const Pass& p = passes[i];
        // A compute or transfer pass that reads the targets finds them drawn or cleared.
        if (p.kind != PassKind::Graphics && p.reads != kEveryResource && (p.reads & (kColorTarget | kDepthTarget)) != 0)
            settle();
        // The first pass's is full: the previous frame on this queue may still read what this
        // one writes (the visible list, the members).
        if (const PassBarrier& b = barriers[i]; b.needed())
            memoryBarrier(cmd, b.src, VK_ACCESS_2_MEMORY_WRITE_BIT, b.dst,
                          VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
        if (p.kind != PassKind::Graphics) {
            p.record(cmd);
        } else if (p.targets == PassTargets::OwnDepth) {
            recordOwnDepth(cmd, p);
        } else {
            beginRendering(cmd, targets, p.targets == PassTargets::ColorDepth, color_used, depth_used);
            p.record(cmd);
            vkCmdEndRendering(cmd);
        }
        writeTimestamp(cmd, slot, uint32_t(i + 1));
    }
    // Targets no pass used still end cleared (or kept) in their attachment layouts.
    if (targets.settle) settle();
}

std::vector<double> readPassTimes(const Context& ctx, const FrameSlot& slot, size_t count) {
    if (slot.queries == VK_NULL_HANDLE) return {};
    std::vector<uint64_t> t(count + 1);
    VK_CHECK(vkGetQueryPoolResults(ctx.device, slot.queries, 0, uint32_t(count + 1), t.size() * sizeof(uint64_t),
                                   t.data(), sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    const double to_ms = double(ctx.properties.limits.timestampPeriod) * 1e-6;
    std::vector<double> ms(count + 1);
    for (size_t i = 0; i < count; ++i) ms[i] = double(t[i + 1] - t[i]) * to_ms;
    ms[count] = double(t[count] - t[0]) * to_ms;
    return ms;
}

std::vector<std::string> passNames(std::span<const Pass> passes) {
    std::vector<std::string> names;
    for (const Pass& p : passes) names.push_back(p.name);
    return names;
}

} // namespace throng::gpu
