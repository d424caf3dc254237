// The depth pyramid; see depth_pyramid.h.
#include "depth_pyramid.h"
#include "frame_resources.h"

#include "../gpu/pipeline.h"
#include "../gpu/shader_blobs.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <span>

namespace throng::render {

using gpu::shader::PyramidConstants;

namespace {

VkExtent2D levelExtent(VkExtent2D e, uint32_t level) {
    // Rounded up at every halving, which is the same as rounding up once.
    return {std::max(1u, (e.width + (1u << level) - 1) >> level),
            std::max(1u, (e.height + (1u << level) - 1) >> level)};
}

} // namespace

VkPipeline PyramidPipelines::levelZero(const gpu::Context& ctx, bool with_depth) const {
    gpu::Unique<VkPipeline>& p = with_depth ? from_both : from_visibility;
    if (p.get() == VK_NULL_HANDLE)
        p = gpu::Unique<VkPipeline>(
            ctx.device, gpu::createComputePipeline(ctx,
                                                   with_depth ? gpu::shaders::pyramid_visibility_merge_comp_spv
                                                              : gpu::shaders::pyramid_visibility_comp_spv,
                                                   layout));
    return p;
}

uint32_t pyramidLevels(VkExtent2D e) {
    const uint32_t largest = std::max({e.width, e.height, 1u});
    return std::min<uint32_t>(uint32_t(std::countr_zero(std::bit_ceil(largest))) + 1, THRONG_MAX_PYRAMID_LEVELS);
}

std::shared_ptr<const PyramidPipelines> createPyramidPipelines(const gpu::Context& ctx) {
    auto p = std::make_shared<PyramidPipelines>();
    const VkDescriptorSetLayoutBinding bindings[] = {
        {THRONG_PYRAMID_BINDING_SOURCE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
         nullptr},
        {THRONG_PYRAMID_BINDING_TARGET, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {THRONG_PYRAMID_BINDING_VISIBILITY, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
         nullptr}};
    p->set_layout = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, bindings));
    p->layout = gpu::Unique<VkPipelineLayout>(
        ctx.device,
        gpu::createPipelineLayout(ctx, p->set_layout, sizeof(PyramidConstants), VK_SHADER_STAGE_COMPUTE_BIT));
    p->reduce =
        gpu::Unique<VkPipeline>(ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::pyramid_comp_spv, p->layout));
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
    sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sci.maxLod = VK_LOD_CLAMP_NONE;
    VkSampler sampler = VK_NULL_HANDLE;
    VK_CHECK(vkCreateSampler(ctx.device, &sci, gpu::hostCallbacks(ctx.device), &sampler));
    p->sampler = gpu::Unique<VkSampler>(ctx.device, sampler);
    return p;
}

DepthPyramid::DepthPyramid(gpu::Allocator& a, VkImage depth, VkImageView depth_view, VkExtent2D extent,
                           std::shared_ptr<const PyramidPipelines> pipelines)
    : allocator_(&a), depth_(depth), extent_(extent), levels_(pyramidLevels(extent)) {
    const gpu::Context& ctx = *a.context;
    pipelines_ = pipelines ? std::move(pipelines) : createPyramidPipelines(ctx);
    // Vulkan's levels round down; the pyramid's round up (no odd edge lost), so the image's level
    // 0 is the next power of two of each side and each level's used part is levelExtent().
    image_ = gpu::OwnedImage(
        a, gpu::createImage(a, VK_FORMAT_R32_SFLOAT, std::bit_ceil(std::max(extent.width, 1u)),
                            std::bit_ceil(std::max(extent.height, 1u)), 1,
                            VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                            VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_VIEW_TYPE_2D, levels_));
    for (uint32_t l = 0; l < levels_; ++l) {
        VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vci.image = image_->image;
        vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vci.format = VK_FORMAT_R32_SFLOAT;
        vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, l, 1, 0, 1};
        VkImageView view = VK_NULL_HANDLE;
        VK_CHECK(vkCreateImageView(ctx.device, &vci, gpu::hostCallbacks(ctx.device), &view));
        level_views_.emplace_back(ctx.device, view);
    }
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, levels_ + 1},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, levels_ + 1},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
    pool_ = gpu::createDescriptorPool(ctx, levels_ + 1, sizes);
    sets_ = gpu::allocateSets(ctx, pool_, pipelines_->set_layout, levels_);
    visibility_set_ = gpu::allocateSets(ctx, pool_, pipelines_->set_layout, 1)[0];
    const gpu::DescriptorWrite level0[] = {
        gpu::DescriptorWrite::sampled(THRONG_PYRAMID_BINDING_SOURCE, pipelines_->sampler, depth_view),
        gpu::DescriptorWrite::storageImage(THRONG_PYRAMID_BINDING_TARGET, level_views_[0])};
    gpu::writeDescriptors(ctx.device, visibility_set_, level0);
    for (uint32_t l = 0; l < levels_; ++l) {
        // Level 0 reads the depth image; the others the level below (the pyramid stays in GENERAL).
        const gpu::DescriptorWrite writes[] = {
            l == 0 ? gpu::DescriptorWrite::sampled(THRONG_PYRAMID_BINDING_SOURCE, pipelines_->sampler, depth_view)
                   : gpu::DescriptorWrite::sampled(THRONG_PYRAMID_BINDING_SOURCE, pipelines_->sampler,
                                                   level_views_[l - 1], VK_IMAGE_LAYOUT_GENERAL),
            gpu::DescriptorWrite::storageImage(THRONG_PYRAMID_BINDING_TARGET, level_views_[l])};
        gpu::writeDescriptors(ctx.device, sets_[l], writes);
    }
    gpu::submitAndWait(ctx, [&](VkCommandBuffer cmd) {
        gpu::transitionImage(cmd, image_->image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
    });
}

gpu::Pass DepthPyramid::pass(PyramidSource source) const {
    const gpu::Resources reads = source == PyramidSource::Depth        ? gpu::kDepthTarget
                                 : source == PyramidSource::Visibility ? frame::Visibility
                                                                       : gpu::kDepthTarget | frame::Visibility;
    // Depth: its layout changes to be sampled and back, a write for the barriers.
    const gpu::Resources writes = frame::Pyramid | (reads & gpu::kDepthTarget);
    return {"pyramid",
            gpu::PassKind::Compute,
            gpu::PassTargets::ColorDepth,
            [this, source](VkCommandBuffer cmd) { record(cmd, source); },
            reads,
            writes};
}

void DepthPyramid::bindVisibility(VkBuffer visibility) {
    if (visibility == visibility_) return;
    const gpu::DescriptorWrite write = gpu::DescriptorWrite::storage(THRONG_PYRAMID_BINDING_VISIBILITY, visibility);
    gpu::writeDescriptors(allocator_->context->device, visibility_set_, std::span(&write, 1));
    visibility_ = visibility;
}

void DepthPyramid::record(VkCommandBuffer cmd, PyramidSource from) const {
    const bool depth = from != PyramidSource::Visibility;
    assert(from == PyramidSource::Depth || visibility_ != VK_NULL_HANDLE);
    if (depth)
        gpu::transitionImage(cmd, depth_, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                             VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT);
    for (uint32_t l = 0; l < levels_; ++l) {
        if (l > 0)
            gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                               VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
        if (l <= 1) // level 0 by its source's pipeline, the others by the reduction
            vkCmdBindPipeline(
                cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                l > 0 || from == PyramidSource::Depth
                    ? VkPipeline(pipelines_->reduce)
                    : pipelines_->levelZero(*allocator_->context, from == PyramidSource::DepthAndVisibility));
        const VkExtent2D source = levelExtent(extent_, l == 0 ? 0 : l - 1), target = levelExtent(extent_, l);
        const PyramidConstants c{glm::ivec2(source.width, source.height), glm::ivec2(target.width, target.height)};
        const VkDescriptorSet set = l == 0 && from != PyramidSource::Depth ? visibility_set_ : sets_[l];
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_->layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, pipelines_->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof c, &c);
        vkCmdDispatch(cmd, (target.width + THRONG_PYRAMID_LOCAL_SIZE - 1) / THRONG_PYRAMID_LOCAL_SIZE,
                      (target.height + THRONG_PYRAMID_LOCAL_SIZE - 1) / THRONG_PYRAMID_LOCAL_SIZE, 1);
    }
    if (depth)
        gpu::transitionImage(cmd, depth_, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                             VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT);
}

std::vector<float> DepthPyramid::download(uint32_t level) const {
    const VkExtent2D e = levelExtent(extent_, level);
    std::vector<float> texels(size_t(e.width) * e.height);
    gpu::OwnedBuffer staging = gpu::ownBuffer(*allocator_, texels.size() * sizeof(float),
                                              VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Readback);
    gpu::submitAndWait(*allocator_->context, [&](VkCommandBuffer cmd) {
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, 1};
        region.imageExtent = {e.width, e.height, 1};
        vkCmdCopyImageToBuffer(cmd, image_->image, VK_IMAGE_LAYOUT_GENERAL, staging->buffer, 1, &region);
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    });
    std::copy_n(static_cast<const float*>(staging->mapped()), texels.size(), texels.data());
    return texels;
}

} // namespace throng::render
