// Technique `baked`; see technique_baked.h.
#include "technique_baked.h"

#include "mesh_pass.h"

#include <algorithm>

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
        {THRONG_BINDING_ANIMATION_WORDS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr},
    }};
}

namespace {

// The words binding covers the texels only on the storage-buffer path; elsewhere the same
// buffer may be larger than maxStorageBufferRange, so one texel of it is bound.
gpu::DescriptorWrite animationWordsWrite(const GpuAsset& asset) {
    gpu::DescriptorWrite w =
        gpu::DescriptorWrite::storage(THRONG_BINDING_ANIMATION_WORDS, asset.animation_texels.buffer);
    if (asset.animation_storage != AnimationStorage::StorageBuffer)
        w.buffer.range = std::min<VkDeviceSize>(asset.animation_texels.size, 16);
    return w;
}

} // namespace

void writeAnimationBindings(VkDevice device, VkDescriptorSet set, VkBuffer instances, const GpuAsset& asset) {
    const gpu::DescriptorWrite writes[] = {
        gpu::DescriptorWrite::storage(THRONG_BINDING_INSTANCES, instances),
        gpu::DescriptorWrite::storage(THRONG_BINDING_CLIPS, asset.clips.buffer),
        gpu::DescriptorWrite::sampled(THRONG_BINDING_ANIMATION, asset.point, asset.animation.view),
        gpu::DescriptorWrite::texels(THRONG_BINDING_ANIMATION_BUFFER, asset.animation_view),
        animationWordsWrite(asset)};
    gpu::writeDescriptors(device, set, writes);
}

namespace {

class BakedTechnique final : public MeshTechnique {
  public:
    explicit BakedTechnique(const TechniqueSetup& setup) : MeshTechnique(setup) {
        const AnimationSpecialization specialization(*setup.asset, setup.skinning == Skinning::DualQuaternion);
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::baked_vert_spv;
        desc.capture_spirv = gpu::shaders::baked_capture_vert_spv;
        desc.vertex_specialization = &specialization.info;
        for (const VkDescriptorSetLayoutBinding& b : animationLayoutBindings(VK_SHADER_STAGE_VERTEX_BIT))
            desc.bindings.push_back(b);
        desc.write = [&](VkDescriptorSet set, uint32_t) {
            writeAnimationBindings(device(), set, crowd().instances(), *setup_.asset);
        };
        buildPass(desc);
    }
    std::string_view name() const override { return name_; }

  private:
    std::string name_ = (setup_.asset->animation_storage == AnimationStorage::Image
                             ? std::string("baked")
                             : std::string("baked (") + toString(setup_.asset->animation_storage) + ")") +
                        (setup_.skinning == Skinning::DualQuaternion ? " (dual-quaternion)" : "");
};

} // namespace

Result<std::unique_ptr<Technique>> createBakedTechnique(const TechniqueSetup& setup) {
    return std::unique_ptr<Technique>(std::make_unique<BakedTechnique>(setup));
}

} // namespace throng::render
