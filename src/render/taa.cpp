// Temporal anti-aliasing of headless frames; see taa.h.
#include "taa.h"

#include "../gpu/pipeline.h"
#include "../gpu/resources.h"
#include "../gpu/shader_blobs.h"

#include <cassert>
#include <vector>

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
    // taa_out.comp: the picture written into the colour image's storage view (TaaFrame::color_storage).
    gpu::Unique<VkDescriptorSetLayout> out_set_layout;
    gpu::Unique<VkPipelineLayout> out_layout;
    gpu::Unique<VkPipeline> out_pipeline;
    gpu::Unique<VkDescriptorPool> out_pool;
    std::vector<VkDescriptorSet> out_sets; // per picture written
    VkImageView storage_view = VK_NULL_HANDLE;
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
    const VkDescriptorSetLayoutBinding out_bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    objects_->out_set_layout = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, out_bindings));
    objects_->out_layout = gpu::Unique<VkPipelineLayout>(
        ctx.device, gpu::createPipelineLayout(ctx, objects_->out_set_layout, 0, VK_SHADER_STAGE_COMPUTE_BIT));
    objects_->out_pipeline = gpu::Unique<VkPipeline>(
        ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::taa_out_comp_spv, objects_->out_layout));
    const VkDescriptorPoolSize out_sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 4}};
    objects_->out_pool = gpu::createDescriptorPool(ctx, 2, out_sizes);
    objects_->out_sets = gpu::allocateSets(ctx, objects_->out_pool, objects_->out_set_layout, 2);
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
    if (frame.color_storage != VK_NULL_HANDLE && o.storage_view != frame.color_storage) {
        for (uint32_t k = 0; k < 2; ++k) {
            const gpu::DescriptorWrite writes[] = {gpu::DescriptorWrite::storageImage(0, pictures_[k]->view),
                                                   gpu::DescriptorWrite::storageImage(1, frame.color_storage)};
            gpu::writeDescriptors(allocator_->context->device, o.out_sets[k], writes);
        }
        o.storage_view = frame.color_storage;
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
    using T = gpu::ImageTransition;
    const Objects& o = *objects_;
    const gpu::FrameTargets& t = frame.targets;
    const uint32_t k = index % 2;
    const VkImage written = pictures_[k]->image, read = pictures_[1 - k]->image;
    const VkImageLayout read_only = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    const VkImageLayout drawn = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    const VkImageLayout depth_drawn = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    const VkImageLayout general = VK_IMAGE_LAYOUT_GENERAL, source = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    const VkImageAspectFlags depth_aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
    const bool own = frame.output == VK_NULL_HANDLE || frame.output == t.color;
    // The picture goes into the colour image by a compute pass where it has a storage view, else
    // by a blit.
    const bool compute_out = own && frame.color_storage != VK_NULL_HANDLE;
    // The targets to read, the last frame's picture (a transfer source between frames; none yet:
    // its contents unused) to sample, this frame's to write.
    const T before[] = {{t.color, drawn, read_only},
                        {t.velocity, drawn, read_only},
                        {t.depth, depth_drawn, read_only, depth_aspect},
                        {read, index == 0 ? VK_IMAGE_LAYOUT_UNDEFINED : source, read_only},
                        {written, VK_IMAGE_LAYOUT_UNDEFINED, general}};
    gpu::transitionImages(cmd, before);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o.pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o.layout, 0, 1, &o.sets[k], 0, nullptr);
    const Push push{glm::vec2(float(extent_.width), float(extent_.height)), jitter_delta, jitter, kTaaBlend,
                    index == 0 ? 1u : 0u};
    vkCmdPushConstants(cmd, o.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    constexpr uint32_t kTile = 16; // taa.comp's
    vkCmdDispatch(cmd, (extent_.width + kTile - 1) / kTile, (extent_.height + kTile - 1) / kTile, 1);
    if (compute_out) {
        const T between[] = {{written, general, general}, {t.color, read_only, general}};
        gpu::transitionImages(cmd, between);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o.out_pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o.out_layout, 0, 1, &o.out_sets[k], 0, nullptr);
        constexpr uint32_t kGroup = 16; // taa_out.comp's
        vkCmdDispatch(cmd, (extent_.width + kGroup - 1) / kGroup, (extent_.height + kGroup - 1) / kGroup, 1);
        const T after[] = {{written, general, source},
                           {read, read_only, source},
                           {t.color, general, drawn},
                           {t.velocity, read_only, drawn},
                           {t.depth, read_only, depth_drawn, depth_aspect}};
        gpu::transitionImages(cmd, after);
        return;
    }
    // The result into the output (a blit converts to its format and encoding).
    const VkImage output = own ? t.color : frame.output;
    const T between[] = {{written, general, source},
                         {output, own ? read_only : frame.output_before, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL},
                         {read, read_only, source}};
    gpu::transitionImages(cmd, between);
    VkImageBlit blit{};
    blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.srcOffsets[1] = blit.dstOffsets[1] = {int32_t(extent_.width), int32_t(extent_.height), 1};
    vkCmdBlitImage(cmd, written, source, output, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
    std::vector<T> after = {{output, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, own ? drawn : frame.output_after},
                            {t.velocity, read_only, drawn},
                            {t.depth, read_only, depth_drawn, depth_aspect}};
    if (!own) after.push_back({t.color, read_only, drawn});
    gpu::transitionImages(cmd, after);
}

} // namespace throng::render
