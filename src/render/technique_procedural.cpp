// Technique `procedural`: the fish swim in the vertex shader (procedural.vert), from the rest
// mesh alone — no skeleton, no animation data, nothing written per frame.
#include "mesh_pass.h"

#include "../gpu/shader_blobs.h"

#include <array>

namespace throng::render {

namespace {

class ProceduralTechnique final : public Technique {
public:
    ProceduralTechnique(const TechniqueSetup& setup, const gpu::shader::SwimParams& swim) : setup_(setup) {
        gpu::Allocator& a = *setup.allocator;
        instances_ = uploadInstances(a, *setup.instances);
        instance_count_ = uint32_t(setup.instances->size());
        swim_ = gpu::createBuffer(a, sizeof(swim), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Device);
        gpu::uploadBuffer(a, swim_, &swim, sizeof(swim));
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::procedural_vert_spv;
        const VkShaderStageFlags vs = VK_SHADER_STAGE_VERTEX_BIT;
        desc.bindings = {{THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr},
                         {THRONG_BINDING_SWIM, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vs, nullptr}};
        desc.write = [&](VkDescriptorSet set, uint32_t) {
            const VkDescriptorBufferInfo inst{instances_.buffer, 0, VK_WHOLE_SIZE};
            const VkDescriptorBufferInfo params{swim_.buffer, 0, VK_WHOLE_SIZE};
            std::array<VkWriteDescriptorSet, 2> w{};
            for (auto& x : w) {
                x.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
                x.dstSet = set;
                x.descriptorCount = 1;
            }
            w[0].dstBinding = THRONG_BINDING_INSTANCES;
            w[0].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            w[0].pBufferInfo = &inst;
            w[1].dstBinding = THRONG_BINDING_SWIM;
            w[1].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
            w[1].pBufferInfo = &params;
            vkUpdateDescriptorSets(a.context->device, uint32_t(w.size()), w.data(), 0, nullptr);
        };
        createMeshPass(setup, desc, pass_);
    }
    ~ProceduralTechnique() override {
        destroyMeshPass(*setup_.allocator->context, pass_);
        gpu::destroyBuffer(*setup_.allocator, swim_);
        gpu::destroyBuffer(*setup_.allocator, instances_);
    }
    std::string_view name() const override { return "procedural"; }
    void record(VkCommandBuffer cmd, uint32_t, const gpu::shader::DrawConstants& constants) override {
        recordMeshPass(cmd, pass_, *setup_.asset, constants, instance_count_);
    }

private:
    TechniqueSetup setup_;
    gpu::Buffer instances_;
    gpu::Buffer swim_;
    uint32_t instance_count_ = 0;
    MeshPass pass_;
};

} // namespace

gpu::shader::SwimParams defaultSwim() {
    // For a body of length 2: a gentle sway, a visible yaw, one wavelength along the body.
    return {0.04f, 0.12f, 0.12f, 0.25f, 3.1415927f, 1.5f, 0.6f, -0.6f};
}

Result<std::unique_ptr<Technique>> createProceduralTechnique(const TechniqueSetup& setup) {
    return std::unique_ptr<Technique>(std::make_unique<ProceduralTechnique>(setup, setup.swim));
}

} // namespace throng::render
