// The targets' clear by compute; see target_clear.h.
#include "target_clear.h"

#include "../gpu/pipeline.h"
#include "../gpu/resources.h"
#include "../gpu/shader_blobs.h"
#include "../shaders/shared.h"
#include "../texture/texture.h"

#include <cassert>
#include <cmath>

namespace throng::render {

using gpu::shader::ClearConstants;

namespace {

// The clear colour (linear, as a load op takes it for an sRGB attachment) as the R8G8B8A8_UNORM
// view stores it: encoded, and rounded to the byte the load op would write.
glm::vec4 storedColor(const VkClearColorValue& clear) {
    glm::vec4 c;
    for (int i = 0; i < 4; ++i) {
        const double v = std::clamp(double(clear.float32[i]), 0.0, 1.0);
        c[i] = float(std::round((i < 3 ? texture::linearToSrgb(v) : v) * 255.0) / 255.0);
    }
    return c;
}

} // namespace

bool clearedByCompute(const gpu::FrameTargets& t) {
    const bool velocity = t.velocity_view != VK_NULL_HANDLE;
    return t.color_storage_view != VK_NULL_HANDLE && t.color_layout == VK_IMAGE_LAYOUT_UNDEFINED &&
           (!velocity || (t.velocity_storage_view != VK_NULL_HANDLE && t.velocity_layout == VK_IMAGE_LAYOUT_UNDEFINED));
}

gpu::FrameTargets afterComputeClear(const gpu::FrameTargets& targets) {
    gpu::FrameTargets t = targets;
    t.color_layout = VK_IMAGE_LAYOUT_GENERAL;
    if (t.velocity != VK_NULL_HANDLE) t.velocity_layout = VK_IMAGE_LAYOUT_GENERAL;
    return t;
}

TargetClear::TargetClear(gpu::Allocator& a) : allocator_(&a) {
    const gpu::Context& ctx = *a.context;
    const VkDescriptorSetLayoutBinding bindings[] = {
        {THRONG_CLEAR_BINDING_COLOR, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {THRONG_CLEAR_BINDING_VELOCITY, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    set_layout_ = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, bindings));
    layout_ = gpu::Unique<VkPipelineLayout>(
        ctx.device, gpu::createPipelineLayout(ctx, set_layout_, sizeof(ClearConstants), VK_SHADER_STAGE_COMPUTE_BIT));
    color_only_ = gpu::Unique<VkPipeline>(
        ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::clear_targets_comp_spv, layout_));
    with_velocity_ = gpu::Unique<VkPipeline>(
        ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::clear_targets_velocity_comp_spv, layout_));
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 2}};
    pool_ = gpu::createDescriptorPool(ctx, 1, sizes);
    set_ = gpu::allocateSets(ctx, pool_, set_layout_, 1)[0];
}

TargetClear::~TargetClear() = default;

gpu::Pass TargetClear::pass(const gpu::FrameTargets& t) {
    assert(clearedByCompute(t));
    const bool velocity = t.velocity_view != VK_NULL_HANDLE;
    if (color_ != t.color_storage_view || (velocity && velocity_ != t.velocity_storage_view)) {
        // New views (the GPU is idle: the contract). The colour-only pipeline leaves binding 1 unread.
        const gpu::DescriptorWrite color =
            gpu::DescriptorWrite::storageImage(THRONG_CLEAR_BINDING_COLOR, t.color_storage_view);
        if (velocity) {
            const gpu::DescriptorWrite writes[] = {
                color, gpu::DescriptorWrite::storageImage(THRONG_CLEAR_BINDING_VELOCITY, t.velocity_storage_view)};
            gpu::writeDescriptors(allocator_->context->device, set_, writes);
        } else {
            gpu::writeDescriptors(allocator_->context->device, set_, std::span(&color, 1));
        }
        color_ = t.color_storage_view;
        if (velocity) velocity_ = t.velocity_storage_view;
    }
    ClearConstants c{};
    c.color = storedColor(t.clear);
    c.extent = glm::uvec2(t.extent.width, t.extent.height);
    const VkPipeline pipeline = velocity ? VkPipeline(with_velocity_) : VkPipeline(color_only_);
    const VkPipelineLayout layout = layout_;
    const VkDescriptorSet set = set_;
    const VkImage color_image = t.color, velocity_image = t.velocity;
    gpu::Pass p;
    p.name = "clear";
    p.kind = gpu::PassKind::Compute;
    p.record = [=](VkCommandBuffer cmd) {
        // Whatever the targets held is dropped (UNDEFINED); the frames before on this queue are
        // behind the first pass's full barrier (gpu::recordPasses).
        const gpu::ImageTransition moves[] = {{color_image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL},
                                              {velocity_image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL}};
        gpu::transitionImages(cmd, std::span(moves, velocity_image != VK_NULL_HANDLE ? 2 : 1));
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof c, &c);
        vkCmdDispatch(cmd, (c.extent.x + THRONG_CLEAR_LOCAL_SIZE - 1) / THRONG_CLEAR_LOCAL_SIZE,
                      (c.extent.y + THRONG_CLEAR_LOCAL_SIZE - 1) / THRONG_CLEAR_LOCAL_SIZE, 1);
    };
    p.reads = 0;
    p.writes = gpu::kColorTarget; // the velocity target goes with the colour (gpu::FrameTargets)
    return p;
}

} // namespace throng::render
