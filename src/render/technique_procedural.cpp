// Technique `procedural`: the fish swim in the vertex shader (procedural.vert, the function in
// swim.glsl), from the rest mesh alone — no skeleton, no animation data, nothing written per
// frame. The compute rasterizer (--raster compute|auto) swims the same function in its own
// variants, with the crowd's swim (compute_raster.h: RasterOptions::swim).
#include "mesh_pass.h"

#include "../gpu/shader_blobs.h"

namespace throng::render {

namespace {

class ProceduralTechnique final : public MeshTechnique {
  public:
    ProceduralTechnique(const TechniqueSetup& setup, const SwimParams& given) : MeshTechnique(setup) {
        const gpu::shader::SwimParams swim = toShader(given);
        gpu::Allocator& a = *setup.allocator;
        swim_ = gpu::ownBuffer(a, sizeof(swim), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               gpu::MemoryUse::Device);
        gpu::uploadBuffer(a, *swim_, &swim, sizeof(swim));
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::procedural_vert_spv;
        desc.capture_spirv = gpu::shaders::procedural_capture_vert_spv;
        const VkShaderStageFlags vs = VK_SHADER_STAGE_VERTEX_BIT;
        desc.bindings = {{THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr},
                         {THRONG_BINDING_SWIM, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, vs, nullptr}};
        desc.write = [&](VkDescriptorSet set, uint32_t) {
            const gpu::DescriptorWrite writes[] = {instancesWrite(),
                                                   gpu::DescriptorWrite::uniform(THRONG_BINDING_SWIM, swim_->buffer)};
            gpu::writeDescriptors(device(), set, writes);
        };
        buildPass(desc);
    }
    std::string_view name() const override { return "procedural"; }

  private:
    gpu::OwnedBuffer swim_; // the swim's parameters (a uniform block)
};

} // namespace

Result<std::unique_ptr<Technique>> createProceduralTechnique(const TechniqueSetup& setup) {
    return std::unique_ptr<Technique>(std::make_unique<ProceduralTechnique>(setup, setup.swim));
}

} // namespace throng::render
