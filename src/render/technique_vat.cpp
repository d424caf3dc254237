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

void writeVatBindings(VkDevice device, VkDescriptorSet set, VkBuffer instances, const GpuAsset& asset) {
    const gpu::DescriptorWrite writes[] = {
        gpu::DescriptorWrite::storage(THRONG_BINDING_INSTANCES, instances),
        gpu::DescriptorWrite::storage(THRONG_BINDING_CLIPS, asset.clips.buffer),
        gpu::DescriptorWrite::sampled(THRONG_BINDING_VAT, asset.point, asset.vat.view)};
    gpu::writeDescriptors(device, set, writes);
}

std::string vatUnavailable(const GpuAsset& asset) {
    if (asset.has_vat) return {};
    if (!asset.vat_problem.empty()) return "technique vat: " + asset.vat_problem;
    return "technique vat needs vertex animation data: bake with --vat";
}

namespace {

class VatTechnique final : public MeshTechnique {
  public:
    explicit VatTechnique(const TechniqueSetup& setup) : MeshTechnique(setup) {
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::vat_vert_spv;
        desc.capture_spirv = gpu::shaders::vat_capture_vert_spv;
        for (const VkDescriptorSetLayoutBinding& b : vatLayoutBindings(VK_SHADER_STAGE_VERTEX_BIT))
            desc.bindings.push_back(b);
        desc.write = [&](VkDescriptorSet set, uint32_t) {
            writeVatBindings(device(), set, crowd().instances(), *setup_.asset);
        };
        buildPass(desc);
    }
    std::string_view name() const override { return "vat"; }
};

} // namespace

Result<std::unique_ptr<Technique>> createVatTechnique(const TechniqueSetup& setup) {
    if (std::string why = vatUnavailable(*setup.asset); !why.empty()) return Error{why};
    return std::unique_ptr<Technique>(std::make_unique<VatTechnique>(setup));
}

} // namespace throng::render
