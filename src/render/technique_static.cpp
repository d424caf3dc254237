// Technique `static`: the bind pose, instanced, no animation at all — the ceiling every
// animated technique is measured against.
#include "mesh_pass.h"

#include "../gpu/shader_blobs.h"

namespace throng::render {

namespace {

class StaticTechnique final : public Technique {
public:
    explicit StaticTechnique(const TechniqueSetup& setup) : setup_(setup) {
        gpu::Allocator& a = *setup.allocator;
        instances_ = uploadInstances(a, *setup.instances);
        instance_count_ = uint32_t(setup.instances->size());
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::static_vert_spv;
        desc.bindings = {{THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr}};
        desc.write = [&](VkDescriptorSet set, uint32_t) {
            const VkDescriptorBufferInfo info{instances_.buffer, 0, VK_WHOLE_SIZE};
            VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            w.dstSet = set;
            w.dstBinding = THRONG_BINDING_INSTANCES;
            w.descriptorCount = 1;
            w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
            w.pBufferInfo = &info;
            vkUpdateDescriptorSets(a.context->device, 1, &w, 0, nullptr);
        };
        createMeshPass(setup, desc, pass_);
    }
    ~StaticTechnique() override {
        destroyMeshPass(*setup_.allocator->context, pass_);
        gpu::destroyBuffer(*setup_.allocator, instances_);
    }
    std::string_view name() const override { return "static"; }
    void record(VkCommandBuffer cmd, uint32_t, const gpu::shader::DrawConstants& constants) override {
        recordMeshPass(cmd, pass_, *setup_.asset, constants, instance_count_);
    }

private:
    TechniqueSetup setup_;
    gpu::Buffer instances_;
    uint32_t instance_count_ = 0;
    MeshPass pass_;
};

} // namespace

Result<std::unique_ptr<Technique>> createStaticTechnique(const TechniqueSetup& setup) { return std::unique_ptr<Technique>(std::make_unique<StaticTechnique>(setup)); }

} // namespace throng::render
