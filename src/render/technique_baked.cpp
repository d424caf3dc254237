// Technique `baked`; see technique_baked.h.
#include "technique_baked.h"

#include "mesh_pass.h"

#include "../gpu/shader_blobs.h"

#include <array>

namespace throng::render {

using gpu::shader::DrawConstants;

std::array<VkDescriptorSetLayoutBinding, kAnimationBindingCount> animationLayoutBindings(VkShaderStageFlags stages) {
    return {{
        {THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr},
        {THRONG_BINDING_CLIPS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr},
        {THRONG_BINDING_ANIMATION, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, stages, nullptr},
        {THRONG_BINDING_ANIMATION_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, stages, nullptr},
    }};
}

void writeAnimationBindings(VkDevice device, VkDescriptorSet set, const gpu::Buffer& instances, const GpuAsset& asset) {
    const VkDescriptorBufferInfo inst{instances.buffer, 0, VK_WHOLE_SIZE};
    const VkDescriptorBufferInfo clips{asset.clips.buffer, 0, VK_WHOLE_SIZE};
    const VkDescriptorImageInfo anim{asset.point, asset.animation.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    std::array<VkWriteDescriptorSet, 4> w{};
    for (auto& x : w) {
        x.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        x.dstSet = set;
        x.descriptorCount = 1;
    }
    w[0].dstBinding = THRONG_BINDING_INSTANCES;
    w[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w[0].pBufferInfo = &inst;
    w[1].dstBinding = THRONG_BINDING_CLIPS;
    w[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    w[1].pBufferInfo = &clips;
    w[2].dstBinding = THRONG_BINDING_ANIMATION;
    w[2].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    w[2].pImageInfo = &anim;
    w[3].dstBinding = THRONG_BINDING_ANIMATION_BUFFER;
    w[3].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
    w[3].pTexelBufferView = &asset.animation_view;
    vkUpdateDescriptorSets(device, uint32_t(w.size()), w.data(), 0, nullptr);
}

namespace {

class BakedTechnique final : public Technique {
public:
    explicit BakedTechnique(const TechniqueSetup& setup) : setup_(setup) {
        gpu::Allocator& a = *setup.allocator;
        instances_ = uploadInstances(a, *setup.instances);
        instance_count_ = uint32_t(setup.instances->size());
        const AnimationSpecialization specialization(*setup.asset);
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::baked_vert_spv;
        desc.vertex_specialization = &specialization.info;
        for (const VkDescriptorSetLayoutBinding& b : animationLayoutBindings(VK_SHADER_STAGE_VERTEX_BIT)) desc.bindings.push_back(b);
        desc.write = [&](VkDescriptorSet set, uint32_t) { writeAnimationBindings(a.context->device, set, instances_, *setup.asset); };
        createMeshPass(setup, desc, pass_);
    }
    ~BakedTechnique() override {
        destroyMeshPass(*setup_.allocator->context, pass_);
        gpu::destroyBuffer(*setup_.allocator, instances_);
    }
    std::string_view name() const override { return "baked"; }
    void record(VkCommandBuffer cmd, uint32_t, const DrawConstants& constants) override {
        recordMeshPass(cmd, pass_, *setup_.asset, constants, instance_count_);
    }

private:
    TechniqueSetup setup_;
    gpu::Buffer instances_;
    uint32_t instance_count_ = 0;
    MeshPass pass_;
};

} // namespace

Result<std::unique_ptr<Technique>> createBakedTechnique(const TechniqueSetup& setup) { return std::unique_ptr<Technique>(std::make_unique<BakedTechnique>(setup)); }

} // namespace throng::render
