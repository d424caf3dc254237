// Technique `static`: the bind pose, instanced, no animation at all — the ceiling every
// animated technique is measured against.
#include "mesh_pass.h"

#include "../gpu/shader_blobs.h"

namespace throng::render {

namespace {

class StaticTechnique final : public MeshTechnique {
  public:
    explicit StaticTechnique(const TechniqueSetup& setup) : MeshTechnique(setup) {
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::static_vert_spv;
        desc.capture_spirv = gpu::shaders::static_capture_vert_spv;
        desc.bindings = {
            {THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr}};
        desc.write = [&](VkDescriptorSet set, uint32_t) {
            const gpu::DescriptorWrite writes[] = {instancesWrite()};
            gpu::writeDescriptors(device(), set, writes);
        };
        buildPass(desc);
    }
    std::string_view name() const override { return "static"; }
};

} // namespace

Result<std::unique_ptr<Technique>> createStaticTechnique(const TechniqueSetup& setup) {
    return std::unique_ptr<Technique>(std::make_unique<StaticTechnique>(setup));
}

} // namespace throng::render
