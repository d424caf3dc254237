// Technique `baked`: one instanced draw per submesh; the vertex shader fetches two frames of up
// to 4 joints from the baked animation image, tweens them, cross-fades two clips and skins.
// The CPU writes nothing per frame: each instance's clip time is time * speed + time_offset,
// computed on the GPU from the frame's time (a push constant).
#pragma once

#include "crowd.h"
#include "gpu_asset.h"

#include "../gpu/pipeline.h"

#include <array>

namespace throng::render {

struct BakedTechnique {
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    std::vector<VkDescriptorSet> sets;  // [0]: white texture, [1 + t]: texture t
    gpu::Buffer instances;              // InstanceRecord[], device local, written once
    uint32_t instance_count = 0;
};

void createBakedTechnique(gpu::Allocator& allocator, BakedTechnique& technique, const GpuAsset& asset,
                          const std::vector<gpu::shader::InstanceRecord>& instances, VkFormat color_format, VkFormat depth_format);
void destroyBakedTechnique(gpu::Allocator& allocator, BakedTechnique& technique);

// Records the draws into a command buffer inside dynamic rendering (viewport already set).
void recordBakedTechnique(VkCommandBuffer cmd, const BakedTechnique& technique, const GpuAsset& asset,
                          const gpu::shader::DrawConstants& constants);

// The bindings every skinning shader reads — instances, clips, animation image, animation texel
// buffer — and their descriptor writes; shared with the compute check.
constexpr uint32_t kAnimationBindingCount = 4;
std::array<VkDescriptorSetLayoutBinding, kAnimationBindingCount> animationLayoutBindings(VkShaderStageFlags stages);
void writeAnimationBindings(VkDevice device, VkDescriptorSet set, const gpu::Buffer& instances, const GpuAsset& asset);

} // namespace throng::render
