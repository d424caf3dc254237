// The part every mesh-drawing technique shares: the BakedVertex input layout, a descriptor set
// per colour texture (set 0 = white), the lit fragment shader, and the per-submesh instanced
// draw loop. A technique brings its vertex shader, its extra bindings and their writes.
#pragma once

#include "technique.h"

#include "../gpu/pipeline.h"

#include <functional>
#include <span>

namespace throng::render {

struct MeshPass {
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    std::vector<VkDescriptorSet> sets;  // [0]: white texture, [1 + t]: texture t
};

struct MeshPassDesc {
    std::span<const uint32_t> vertex_spirv;
    bool skinning_attributes = true;  // joints (location 4) and weights (5): only for shaders that read them
    const VkSpecializationInfo* vertex_specialization = nullptr;
    std::vector<VkDescriptorSetLayoutBinding> bindings;  // the technique's own; the texture binding is added
    std::function<void(VkDescriptorSet)> write;          // writes the technique's own bindings into a set
};

void createMeshPass(const TechniqueSetup& setup, const MeshPassDesc& desc, MeshPass& pass);
void destroyMeshPass(const gpu::Context& context, MeshPass& pass);

// One instanced draw per submesh, `instance_count` instances, constants pushed per submesh.
void recordMeshPass(VkCommandBuffer cmd, const MeshPass& pass, const GpuAsset& asset, gpu::shader::DrawConstants constants,
                    uint32_t instance_count);

// A device-local storage buffer holding the instance records (uploaded once).
gpu::Buffer uploadInstances(gpu::Allocator& allocator, const std::vector<gpu::shader::InstanceRecord>& instances);

} // namespace throng::render
