// Animated impostors; see impostors.h.
#include "impostors.h"
#include "frame_resources.h"

#include "../gpu/pipeline.h"
#include "../gpu/shader_blobs.h"

#include <cassert>
#include <cstring>

namespace throng::render {

using gpu::shader::ImpostorParams;

namespace {

constexpr VkShaderStageFlags kImpostorStages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

} // namespace

std::string impostorProblem(const BakedAsset& asset) {
    if (asset.impostors.empty()) return "'" + asset.name + "' has no impostors (bake it with --impostors)";
    return {};
}

glm::vec3 cameraPosition(const glm::mat4& vp) {
    // Rows 0, 1 and 3 of the matrix times (p, 1) vanish at the eye: three equations in p.
    const glm::dmat4 m(vp);
    glm::dmat3 a;
    glm::dvec3 b;
    const int rows[3] = {0, 1, 3};
    for (int i = 0; i < 3; ++i) {
        for (int c = 0; c < 3; ++c) a[c][i] = m[c][rows[i]];
        b[i] = -m[3][rows[i]];
    }
    return glm::vec3(glm::inverse(a) * b);
}

ImpostorPass::ImpostorPass(gpu::Allocator& a, const BakedAsset& baked, VkBuffer clips, VkBuffer looks,
                           const CrowdGpu& crowd, const gpu::TargetFormats& targets, uint32_t slots,
                           const MemberHistory* history)
    : crowd_(&crowd) {
    const gpu::Context& ctx = *a.context;
    const BakedImpostors& im = baked.impostors;
    const uint32_t layers = uint32_t(im.frames.size());
    const uint32_t width = uint32_t(im.width()), height = uint32_t(im.height());
    if (width > ctx.properties.limits.maxImageDimension2D || height > ctx.properties.limits.maxImageDimension2D ||
        layers > ctx.properties.limits.maxImageArrayLayers)
        throw gpu::GpuError("impostors of " + std::to_string(width) + " x " + std::to_string(height) + " x " +
                                std::to_string(layers) + " texels exceed this device's image limits",
                            ErrorKind::Unsupported);
    color_ = gpu::OwnedImage(a, gpu::createImage(a, VK_FORMAT_R8G8B8A8_SRGB, width, height, layers,
                                                 VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                 VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_VIEW_TYPE_2D_ARRAY));
    gpu::uploadImage(a, *color_, im.color.data(), im.color.size());
    normal_ = gpu::OwnedImage(a, gpu::createImage(a, VK_FORMAT_R8G8B8A8_UNORM, width, height, layers,
                                                  VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                  VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_VIEW_TYPE_2D_ARRAY));
    gpu::uploadImage(a, *normal_, im.normal.data(), im.normal.size());
    image_bytes_ = im.color.size() + im.normal.size();
    frames_ =
        gpu::ownBuffer(a, im.frames.size() * sizeof(uint32_t),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, *frames_, im.frames.data(), im.frames.size() * sizeof(uint32_t));
    for (uint32_t s = 0; s < slots; ++s)
        params_.push_back(
            gpu::ownBuffer(a, sizeof(ImpostorParams), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryUse::Upload));
    // An indexed draw of the quad's two triangles through a draw count: lavapipe (Mesa 22.3)
    // draws nothing for vkCmdDrawIndirect or vkCmdDrawIndexedIndirect here, and culling needs
    // vkCmdDrawIndexedIndirectCount anyway.
    const uint32_t quad[6] = {0, 1, 2, 2, 1, 3};
    quad_ = gpu::ownBuffer(a, sizeof quad, VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, *quad_, quad, sizeof quad);
    base_.sphere = glm::vec4(im.center, im.radius);
    base_.azimuths = im.azimuths;
    base_.elevations = im.elevations;
    base_.max_frames = im.max_frames;

    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
    sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    VkSampler sampler = VK_NULL_HANDLE;
    VK_CHECK(vkCreateSampler(ctx.device, &sci, gpu::hostCallbacks(ctx.device), &sampler));
    sampler_ = gpu::Unique<VkSampler>(ctx.device, sampler);

    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (uint32_t b : {THRONG_IMPOSTOR_BINDING_PARAMS, THRONG_IMPOSTOR_BINDING_INSTANCES,
                       THRONG_IMPOSTOR_BINDING_VISIBLE, THRONG_IMPOSTOR_BINDING_CLIPS, THRONG_IMPOSTOR_BINDING_FRAMES,
                       THRONG_IMPOSTOR_BINDING_LOOKS, THRONG_IMPOSTOR_BINDING_PREVIOUS})
        bindings.push_back({b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kImpostorStages, nullptr});
    for (uint32_t b : {THRONG_IMPOSTOR_BINDING_COLOR, THRONG_IMPOSTOR_BINDING_NORMAL})
        bindings.push_back({b, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
    set_layout_ = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, bindings));
    layout_ =
        gpu::Unique<VkPipelineLayout>(ctx.device, gpu::createPipelineLayout(ctx, set_layout_, 0, kImpostorStages));
    gpu::GraphicsPipelineDesc desc;
    const bool velocity = targets.velocity != VK_FORMAT_UNDEFINED;
    assert(!velocity || history != nullptr);
    desc.vertex_spirv = velocity ? gpu::shaders::impostor_velocity_vert_spv : gpu::shaders::impostor_vert_spv;
    desc.fragment_spirv = velocity ? gpu::shaders::impostor_velocity_frag_spv : gpu::shaders::impostor_frag_spv;
    desc.layout = layout_;
    desc.setTargets(targets);
    pipeline_ = gpu::Unique<VkPipeline>(ctx.device, gpu::createGraphicsPipeline(ctx, desc));

    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 7 * slots},
                                          {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2 * slots}};
    pool_ = gpu::createDescriptorPool(ctx, slots, sizes);
    sets_ = gpu::allocateSets(ctx, pool_, set_layout_, slots);
    for (uint32_t s = 0; s < slots; ++s) {
        const gpu::DescriptorWrite writes[] = {
            gpu::DescriptorWrite::storage(THRONG_IMPOSTOR_BINDING_PARAMS, params_[s]->buffer),
            gpu::DescriptorWrite::storage(THRONG_IMPOSTOR_BINDING_INSTANCES, crowd.instances()),
            gpu::DescriptorWrite::storage(THRONG_IMPOSTOR_BINDING_VISIBLE, crowd.visible()),
            gpu::DescriptorWrite::storage(THRONG_IMPOSTOR_BINDING_CLIPS, clips),
            gpu::DescriptorWrite::storage(THRONG_IMPOSTOR_BINDING_FRAMES, frames_->buffer),
            gpu::DescriptorWrite::storage(THRONG_IMPOSTOR_BINDING_LOOKS, looks),
            gpu::DescriptorWrite::storage(THRONG_IMPOSTOR_BINDING_PREVIOUS,
                                          history != nullptr ? history->previous() : crowd.instances()),
            gpu::DescriptorWrite::sampled(THRONG_IMPOSTOR_BINDING_COLOR, sampler_, color_->view,
                                          VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
            gpu::DescriptorWrite::sampled(THRONG_IMPOSTOR_BINDING_NORMAL, sampler_, normal_->view,
                                          VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)};
        gpu::writeDescriptors(ctx.device, sets_[s], writes);
    }
}

void ImpostorPass::addPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const gpu::shader::DrawConstants& constants,
                             const PreviousFrame* previous) {
    ImpostorParams p = base_;
    if (previous != nullptr) {
        p.previous_view_projection = previous->view_projection;
        p.previous_time = previous->time;
        p.viewport = glm::vec2(float(previous->viewport.width), float(previous->viewport.height));
    }
    p.view_projection = constants.view_projection;
    p.light_direction = constants.light_direction;
    p.camera_position = glm::vec4(cameraPosition(constants.view_projection), 1.0f);
    p.time = constants.time;
    std::memcpy(params_[slot]->mapped(), &p, sizeof p);
    passes.push_back(
        {"impostors", gpu::PassKind::Graphics, gpu::PassTargets::ColorDepth,
         [this, slot](VkCommandBuffer cmd) {
             vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &sets_[slot], 0, nullptr);
             vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_);
             vkCmdBindIndexBuffer(cmd, quad_->buffer, 0, VK_INDEX_TYPE_UINT32);
             vkCmdDrawIndexedIndirectCount(cmd, crowd_->impostorDraw(), 0, crowd_->impostorDraw(),
                                           sizeof(gpu::shader::DrawCommand), 1, sizeof(gpu::shader::DrawCommand));
         },
         frame::DrawReads, 0});
}

} // namespace throng::render
