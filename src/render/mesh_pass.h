// The part every mesh-drawing technique shares: the vertex storage buffer the shaders pull
// BakedVertex from (vertex.glsl), a descriptor set per colour texture (set 0 = white), the lit
// fragment shader, and the per-submesh instanced draw loop. A technique brings its vertex shader, its extra bindings
// and their writes.
#pragma once

#include "technique.h"

#include "../gpu/owned.h"
#include "../gpu/pipeline.h"

#include <functional>
#include <span>

namespace throng::render {

// Owns its objects (gpu/owned.h): they go with it, also when createMeshPass() throws halfway.
struct MeshPass {
    gpu::Unique<VkDescriptorSetLayout> set_layout;
    gpu::Unique<VkPipelineLayout> layout;
    gpu::Unique<VkPipeline> pipeline;
    gpu::Unique<VkPipeline> depth_pipeline; // shadows only: the same vertex shader, depth only
    bool depth_only = false;                // recordMeshPass() binds depth_pipeline (MeshTechnique::recordDepth)
    gpu::Unique<VkDescriptorPool> pool;     // its sets go with it
    uint32_t textures = 1;                  // sets per slot: [0] white, [1 + t] texture t
    std::vector<VkDescriptorSet> sets;      // [slot * textures + texture]
};

struct MeshPassDesc {
    std::span<const uint32_t> vertex_spirv;
    std::span<const uint32_t>
        capture_spirv; // the same shader built with THRONG_CAPTURE, used when TechniqueSetup::capture is set
    const VkSpecializationInfo* vertex_specialization = nullptr;
    std::vector<VkDescriptorSetLayoutBinding> bindings; // the technique's own; the texture binding is added
    uint32_t slots = 1; // frames in flight with their own buffers (techniques that write per frame), else 1
    std::function<void(VkDescriptorSet, uint32_t slot)> write;    // writes the technique's own bindings into a set
    std::vector<VkSpecializationMapEntry> specialization_entries; // optional, with specialization_data
    std::vector<uint8_t> specialization_data;
};

void createMeshPass(const TechniqueSetup& setup, const MeshPassDesc& desc, MeshPass& pass);

// palette.vert's and palette_ubo.vert's specialisation (techniques palette, palette-ubo, pose):
// quaternion palette entries, dual-quaternion blending.
void setPaletteSpecialization(MeshPassDesc& desc, bool quaternion_palette, Skinning skinning);

// The draws of every submesh through `crowd` (CrowdGpu::drawSubmesh: the culled LODs, or
// members first_instance .. first_instance + instance_count - 1), constants pushed per submesh,
// with the descriptor sets of frame slot `slot` (0 for single-slot passes). `dynamic_offsets`
// (none, or one per dynamic uniform buffer of the set, in binding order) go to the set.
void recordMeshPass(VkCommandBuffer cmd, const MeshPass& pass, const GpuAsset& asset, const CrowdGpu& crowd,
                    gpu::shader::DrawConstants constants, uint32_t instance_count, uint32_t slot = 0,
                    uint32_t first_instance = 0, std::span<const uint32_t> dynamic_offsets = {});

// An error naming `what` when one storage buffer of `bytes` exceeds the device's
// maxStorageBufferRange (the largest range a shader may read; 4 GiB - 1 on many GPUs), so an
// absurd crowd fails with a clear message instead of a validation error or a lost device.
Status checkStorageBuffer(const TechniqueSetup& setup, uint64_t bytes, const std::string& what);

// The shell every mesh technique shares: the crowd on the GPU (TechniqueSetup::crowd), one mesh
// pass, and record() drawing it. A technique builds its pass in its constructor with buildPass(), frees its own
// resources in its destructor (the base then frees the pass and the instances), and may adjust
// the draw constants (adjustConstants) or add per-frame work (update, recordTransfers). Its
// buffers and images are its own members, owners (gpu/owned.h) that free them also when its
// constructor throws halfway (out of memory).
class MeshTechnique : public Technique {
  public:
    explicit MeshTechnique(const TechniqueSetup& setup);
    ~MeshTechnique() override;
    void record(VkCommandBuffer cmd, uint32_t slot, const gpu::shader::DrawConstants& constants) override;
    // record() with the pass's depth-only pipeline: every technique's own draw loop, unchanged.
    void recordDepth(VkCommandBuffer cmd, uint32_t slot, const gpu::shader::DrawConstants& constants) final;

  protected:
    void buildPass(const MeshPassDesc& desc);
    virtual void adjustConstants(gpu::shader::DrawConstants& constants) const { (void)constants; }
    VkDevice device() const { return setup_.allocator->context->device; }
    gpu::DescriptorWrite instancesWrite() const {
        return gpu::DescriptorWrite::storage(THRONG_BINDING_INSTANCES, crowd().instances());
    }
    const CrowdGpu& crowd() const { return *setup_.crowd; }

    TechniqueSetup setup_;
    uint32_t instance_count_ = 0;
    MeshPass pass_;
    uint32_t slots_ = 1; // descriptor-set slots the pass was built with
};

} // namespace throng::render
