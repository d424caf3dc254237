// The ground under a crowd; see ground.h.
#include "ground.h"

#include "frame_resources.h"
#include "shadows.h"

#include "../gpu/shader_blobs.h"

#include <cassert>
#include <vector>

namespace throng::render {

using gpu::shader::GroundConstants;

Ground::Ground(gpu::Allocator& a, const gpu::TargetFormats& targets, const ShadowMap* shadows, VkBuffer motions)
    : shadowed_(shadows != nullptr) {
    const gpu::Context& ctx = *a.context;
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    std::vector<gpu::DescriptorWrite> writes;
    if (shadows != nullptr) {
        shadows->addBindings(bindings);
        writes = shadows->writes();
    }
    const bool velocity = targets.velocity != VK_FORMAT_UNDEFINED;
    assert(!velocity || motions != VK_NULL_HANDLE);
    if (velocity) {
        bindings.push_back({THRONG_BINDING_MOTION, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                            VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
        writes.push_back(gpu::DescriptorWrite::storage(THRONG_BINDING_MOTION, motions));
    }
    set_layout_ = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, bindings));
    layout_ = gpu::Unique<VkPipelineLayout>(
        ctx.device, gpu::createPipelineLayout(ctx, set_layout_, sizeof(GroundConstants),
                                              VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT));
    gpu::GraphicsPipelineDesc d;
    d.vertex_spirv = velocity ? gpu::shaders::ground_velocity_vert_spv : gpu::shaders::ground_vert_spv;
    if (shadowed_)
        d.fragment_spirv = velocity ? gpu::shaders::ground_velocity_frag_spv : gpu::shaders::ground_frag_spv;
    else
        d.fragment_spirv =
            velocity ? gpu::shaders::ground_unshadowed_velocity_frag_spv : gpu::shaders::ground_unshadowed_frag_spv;
    d.layout = layout_;
    d.setTargets(targets);
    pipeline_ = gpu::Unique<VkPipeline>(ctx.device, gpu::createGraphicsPipeline(ctx, d));
    if (bindings.empty()) return; // nothing to read
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
    pool_ = gpu::createDescriptorPool(ctx, 1, sizes);
    set_ = gpu::allocateSets(ctx, pool_, set_layout_, 1)[0];
    gpu::writeDescriptors(ctx.device, set_, writes);
}

Ground::~Ground() = default;

gpu::Pass Ground::pass(uint32_t slot, const gpu::shader::DrawConstants& constants, const Bounds& area) const {
    GroundConstants g{};
    g.view_projection = constants.view_projection;
    g.light_direction = constants.light_direction;
    g.rect = groundRect(area, glm::normalize(glm::vec3(constants.light_direction)));
    g.height = area.min.y;
    g.slot = slot;
    const VkPipeline pipeline = pipeline_;
    const VkPipelineLayout layout = layout_;
    const VkDescriptorSet set = set_;
    return {"ground",
            gpu::PassKind::Graphics,
            gpu::PassTargets::ColorDepth,
            [pipeline, layout, set, g](VkCommandBuffer cmd) {
                vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
                if (set != VK_NULL_HANDLE)
                    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
                vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof g,
                                   &g);
                vkCmdDraw(cmd, 6, 1, 0, 0);
            },
            shadowed_ ? frame::ShadowMap : gpu::Resources(0),
            0};
}

} // namespace throng::render
