// Technique `vat`; see technique_vat.h.
#include "technique_vat.h"

#include "mesh_pass.h"

#include "../gpu/shader_blobs.h"

namespace throng::render {

using gpu::shader::DrawConstants;

std::array<VkDescriptorSetLayoutBinding, kVatBindingCount> vatLayoutBindings(VkShaderStageFlags stages) {
    return {{
        {THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr},
        {THRONG_BINDING_CLIPS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr},
        {THRONG_BINDING_VAT, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, stages, nullptr},
    }};
}

void writeVatBindings(VkDevice device, VkDescriptorSet set, const gpu::Buffer& instances, const GpuAsset& asset) {
    const VkDescriptorBufferInfo inst{instances.buffer, 0, VK_WHOLE_SIZE};
    const VkDescriptorBufferInfo clips{asset.clips.buffer, 0, VK_WHOLE_SIZE};
    const VkDescriptorImageInfo vat{asset.point, asset.vat.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    std::array<VkWriteDescriptorSet, kVatBindingCount> w{};
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
    w[2].dstBinding = THRONG_BINDING_VAT;
    w[2].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    w[2].pImageInfo = &vat;
    vkUpdateDescriptorSets(device, uint32_t(w.size()), w.data(), 0, nullptr);
}

std::string vatUnavailable(const GpuAsset& asset) {
    if (asset.has_vat) return {};
    if (!asset.vat_problem.empty()) return "technique vat: " + asset.vat_problem;
    return "technique vat needs vertex animation data: bake with --vat";
}

namespace {

class VatTechnique final : public Technique {
  public:
    explicit VatTechnique(const TechniqueSetup& setup) : setup_(setup) {
        gpu::Allocator& a = *setup.allocator;
        instances_ = uploadInstances(a, *setup.instances);
        instance_count_ = uint32_t(setup.instances->size());
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::vat_vert_spv;
        for (const VkDescriptorSetLayoutBinding& b : vatLayoutBindings(VK_SHADER_STAGE_VERTEX_BIT))
            desc.bindings.push_back(b);
        desc.write = [&](VkDescriptorSet set, uint32_t) {
            writeVatBindings(a.context->device, set, instances_, *setup.asset);
        };
        createMeshPass(setup, desc, pass_);
    }
    ~VatTechnique() override {
        destroyMeshPass(*setup_.allocator->context, pass_);
        gpu::destroyBuffer(*setup_.allocator, instances_);
    }
    std::string_view name() const override { return "vat"; }
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

Result<std::unique_ptr<Technique>> createVatTechnique(const TechniqueSetup& setup) {
    if (std::string why = vatUnavailable(*setup.asset); !why.empty()) return Error{why};
    return std::unique_ptr<Technique>(std::make_unique<VatTechnique>(setup));
}

} // namespace throng::render
