// Recording a frame's passes; see passes.h.
#include "passes.h"

#include "resources.h"

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

// Begins dynamic rendering on the targets a pass uses, moving each to its attachment layout
// (and clearing it, unless it holds the host's picture) the first time.
void beginRendering(VkCommandBuffer cmd, const FrameTargets& t, bool color, bool& color_used, bool& depth_used) {
    const bool keep_color = t.color_layout != VK_IMAGE_LAYOUT_UNDEFINED;
    const bool keep_depth = t.depth_layout != VK_IMAGE_LAYOUT_UNDEFINED;
    if (color && !color_used && t.color_layout != VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
        transitionImage(cmd, t.color, t.color_layout, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    if (!depth_used && t.depth_layout != VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL)
        transitionImage(cmd, t.depth, t.depth_layout, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                        VK_IMAGE_ASPECT_DEPTH_BIT);
    VkClearValue color_clear{}, depth_clear{};
    color_clear.color = t.clear;
    depth_clear.depthStencil = {0.0f, 0};
    const VkRenderingAttachmentInfo ca =
        attachment(t.color_view, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, !color_used && !keep_color, color_clear);
    const VkRenderingAttachmentInfo da =
        attachment(t.depth_view, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, !depth_used && !keep_depth, depth_clear);
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = {{0, 0}, t.extent};
    ri.layerCount = 1;
    ri.colorAttachmentCount = color ? 1 : 0;
    ri.pColorAttachments = color ? &ca : nullptr;
    ri.pDepthAttachment = &da;
    vkCmdBeginRendering(cmd, &ri);
    const VkViewport viewport{0.0f, 0.0f, float(t.extent.width), float(t.extent.height), 0.0f, 1.0f};
    const VkRect2D scissor{{0, 0}, t.extent};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    color_used = color_used || color;
    depth_used = true;
}

} // namespace

void recordPasses(VkCommandBuffer cmd, const FrameSlot& slot, std::span<const Pass> passes,
                  const FrameTargets& targets) {
    assert(passes.size() <= kMaxPasses);
    bool color_used = false, depth_used = false;
    for (size_t i = 0; i < passes.size(); ++i) {
        const Pass& p = passes[i];
        // Also before the first pass: the previous frame on this queue may still read what this
        // one writes (the visible list, the members).
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
        const bool rendering = p.kind == PassKind::Graphics && p.targets != PassTargets::Own;
        if (rendering) beginRendering(cmd, targets, p.targets == PassTargets::ColorDepth, color_used, depth_used);
        p.record(cmd);
        if (rendering) vkCmdEndRendering(cmd);
        writeTimestamp(cmd, slot, uint32_t(i + 1));
    }
    // Targets no pass used still end cleared (or kept) in their attachment layouts.
    if (targets.settle && (!color_used || !depth_used) && targets.color != VK_NULL_HANDLE &&
        targets.depth != VK_NULL_HANDLE) {
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
        beginRendering(cmd, targets, !color_used, color_used, depth_used);
        vkCmdEndRendering(cmd);
    }
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
