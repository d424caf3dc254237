// Temporal anti-aliasing of headless frames; see taa.h.
#include "taa.h"

#include "../gpu/pipeline.h"
#include "../gpu/resources.h"
#include "../gpu/shader_blobs.h"

#include <cassert>

namespace throng::render {

namespace {

double halton(uint32_t index, uint32_t base) {
    double f = 1.0, r = 0.0;
    for (uint32_t i = index; i > 0; i /= base) {
        f /= double(base);
        r += f * double(i % base);
    }
    return r;
}

struct Push {
    glm::vec2 size;
    glm::vec2 jitter_delta;
    glm::vec2 jitter;
    float blend;
    uint32_t first;
};

} // namespace

glm::vec2 taaJitter(uint32_t frame) {
    const uint32_t index = frame % 16 + 1;
    return glm::vec2(float(halton(index, 2) - 0.5), float(halton(index, 3) - 0.5));
}

glm::mat4 jitterProjection(const glm::mat4& view_projection, glm::vec2 jitter, VkExtent2D extent) {
    // Clip x, y move by 2 * jitter / size times w: a translation in NDC applied after the projection.
    glm::mat4 shift(1.0f);
    shift[3][0] = 2.0f * jitter.x / float(extent.width);
    shift[3][1] = 2.0f * jitter.y / float(extent.height);
    return shift * view_projection;
}

struct TemporalAA::Objects {
    gpu::Unique<VkSampler> nearest, linear;
    gpu::Unique<VkDescriptorSetLayout> set_layout;
    gpu::Unique<VkPipelineLayout> layout;
    gpu::Unique<VkPipeline> pipeline;
    gpu::Unique<VkDescriptorPool> pool;
    std::vector<VkDescriptorSet> sets; // per picture written: [k] writes pictures_[k], reads the other
    VkImageView color_view = VK_NULL_HANDLE, velocity_view = VK_NULL_HANDLE, depth_view = VK_NULL_HANDLE; // read
};

TemporalAA::TemporalAA(gpu::Allocator& a, VkExtent2D extent)
    : allocator_(&a), extent_(extent), objects_(std::make_unique<Objects>()) {
    const gpu::Context& ctx = *a.context;
    for (gpu::OwnedImage& p : pictures_)
        p = gpu::OwnedImage(a, gpu::createImage(a, VK_FORMAT_R16G16B16A16_SFLOAT, extent.width, extent.height, 1,
                                                VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT));
    for (bool smooth : {false, true}) {
        VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
        sci.magFilter = sci.minFilter = smooth ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
        sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        VkSampler sampler = VK_NULL_HANDLE;
        VK_CHECK(vkCreateSampler(ctx.device, &sci, gpu::hostCallbacks(ctx.device), &sampler));
        (smooth ? objects_->linear : objects_->nearest) = gpu::Unique<VkSampler>(ctx.device, sampler);
    }
    const VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {3, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {4, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    objects_->set_layout = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, bindings));
    objects_->layout = gpu::Unique<VkPipelineLayout>(
        ctx.device, gpu::createPipelineLayout(ctx, objects_->set_layout, sizeof(Push), VK_SHADER_STAGE_COMPUTE_BIT));
    objects_->pipeline = gpu::Unique<VkPipeline>(
        ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::taa_comp_spv, objects_->layout));
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 8},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 2}};
    objects_->pool = gpu::createDescriptorPool(ctx, 2, sizes);
    objects_->sets = gpu::allocateSets(ctx, objects_->pool, objects_->set_layout, 2);
}

TemporalAA::~TemporalAA() = default;

glm::mat4 TemporalAA::jitter(const glm::mat4& view_projection) {
    previous_ = jitter_;
    jitter_ = taaJitter(frames_);
    return jitterProjection(view_projection, jitter_, extent_);
}

gpu::Pass TemporalAA::pass(const TaaFrame& frame) {
    Objects& o = *objects_;
    const gpu::FrameTargets& t = frame.targets;
    if (o.color_view != t.color_view || o.velocity_view != t.velocity_view || o.depth_view != t.depth_view) {
        // New targets (the GPU is idle: the contract): the sets read them from now on.
        for (uint32_t k = 0; k < 2; ++k) {
            const gpu::DescriptorWrite writes[] = {gpu::DescriptorWrite::sampled(0, o.nearest, t.color_view),
                                                   gpu::DescriptorWrite::sampled(1, o.nearest, t.velocity_view),
                                                   gpu::DescriptorWrite::sampled(2, o.linear, pictures_[1 - k]->view),
                                                   gpu::DescriptorWrite::storageImage(3, pictures_[k]->view),
                                                   gpu::DescriptorWrite::sampled(4, o.nearest, t.depth_view)};
            gpu::writeDescriptors(allocator_->context->device, o.sets[k], writes);
        }
        o.color_view = t.color_view;
        o.velocity_view = t.velocity_view;
        o.depth_view = t.depth_view;
    }
    const uint32_t index = frames_++;
    gpu::Pass p;
    p.name = "taa";
    p.kind = gpu::PassKind::Compute;
    p.record = [this, frame, index, delta = jitter_ - previous_, jitter = jitter_](VkCommandBuffer cmd) {
        record(cmd, frame, index, delta, jitter);
    };
    // The velocity target is written only by passes that write the colour too (ColorDepth).
    p.reads = gpu::kColorTarget | gpu::kDepthTarget;
    p.writes = gpu::kColorTarget;
    return p;
}

void TemporalAA::record(VkCommandBuffer cmd, const TaaFrame& frame, uint32_t index, glm::vec2 jitter_delta,
                        glm::vec2 jitter) const {
    const Objects& o = *objects_;
    const gpu::FrameTargets& t = frame.targets;
    const uint32_t k = index % 2;
    const VkImage written = pictures_[k]->image, read = pictures_[1 - k]->image;
    const VkImageLayout read_only = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    const VkImageLayout drawn = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    gpu::transitionImage(cmd, t.color, drawn, read_only);
    gpu::transitionImage(cmd, t.velocity, drawn, read_only);
    gpu::transitionImage(cmd, t.depth, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, read_only, VK_IMAGE_ASPECT_DEPTH_BIT);
    // The last frame's picture (its blit left it a transfer source; none yet: its contents unused).
    gpu::transitionImage(cmd, read, index == 0 ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         read_only);
    gpu::transitionImage(cmd, written, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o.layout, 0, 1, &o.sets[k], 0, nullptr);
    const Push push{glm::vec2(float(extent_.width), float(extent_.height)), jitter_delta, jitter, kTaaBlend,
                    index == 0 ? 1u : 0u};
    vkCmdPushConstants(cmd, o.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    vkCmdDispatch(cmd, (extent_.width + 7) / 8, (extent_.height + 7) / 8, 1);
    // The result into the output (a blit converts to its format and encoding).
    const bool own = frame.output == VK_NULL_HANDLE || frame.output == t.color;
    const VkImage output = own ? t.color : frame.output;
    gpu::transitionImage(cmd, written, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    gpu::transitionImage(cmd, output, own ? read_only : frame.output_before, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    gpu::transitionImage(cmd, read, read_only, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkImageBlit blit{};
    blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.srcOffsets[1] = blit.dstOffsets[1] = {int32_t(extent_.width), int32_t(extent_.height), 1};
    vkCmdBlitImage(cmd, written, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, output, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                   &blit, VK_FILTER_NEAREST);
    gpu::transitionImage(cmd, output, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, own ? drawn : frame.output_after);
    if (!own) gpu::transitionImage(cmd, t.color, read_only, drawn);
    gpu::transitionImage(cmd, t.velocity, read_only, drawn);
    gpu::transitionImage(cmd, t.depth, read_only, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT);
}

} // namespace throng::render
