// Technique `cpu`: the baseline. The CPU samples every instance's pose and skins every vertex
// (SkinningJob: SIMD where the CPU has it, instances spread over all cores with oneTBB) straight
// into the frame slot's own host-visible buffer; the GPU only places each instance (cpu.vert).
// Bytes uploaded per frame: instances x vertices x 24 (position + normal).
#include "crowd_pose.h"
#include "mesh_pass.h"

#include "../gpu/shader_blobs.h"

#include <throng/anim.h>

#include <tbb/parallel_for.h>


namespace throng::render {

namespace {

using Clock = std::chrono::steady_clock;

class CpuTechnique final : public MeshTechnique {
public:
    CpuTechnique(const TechniqueSetup& setup, const BakedAssetMesh& mesh) : MeshTechnique(setup), mesh_(mesh) {
        gpu::Allocator& a = *setup.allocator;
        vertex_count_ = uint32_t(mesh_.positions.size());
        poses_.resize(size_t(instance_count_) * setup.source->palette.size());
        bytes_per_frame_ = size_t(instance_count_) * vertex_count_ * 24;
        for (uint32_t s = 0; s < setup.frames_in_flight; ++s)
            skinned_.push_back(gpu::createBuffer(a, std::max<size_t>(bytes_per_frame_, 16), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                 gpu::MemoryUse::Upload));
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::cpu_vert_spv;
        desc.capture_spirv = gpu::shaders::cpu_capture_vert_spv;
        desc.slots = setup.frames_in_flight;
        const VkShaderStageFlags vs = VK_SHADER_STAGE_VERTEX_BIT;
        desc.bindings = {{THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr},
                         {THRONG_BINDING_SKINNED, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr}};
        desc.write = [&](VkDescriptorSet set, uint32_t slot) {
            const gpu::DescriptorWrite writes[] = {instancesWrite(), gpu::DescriptorWrite::storage(THRONG_BINDING_SKINNED, skinned_[slot].buffer)};
            gpu::writeDescriptors(device(), set, writes);
        };
        buildPass(desc);
    }
    ~CpuTechnique() override {
        for (gpu::Buffer& b : skinned_) gpu::destroyBuffer(*setup_.allocator, b);
    }
    std::string_view name() const override { return "cpu"; }

    void update(uint32_t slot, float time) override {
        const auto start = Clock::now();
        sampleCrowdPoses(*setup_.source, *setup_.instances, time, poses_);
        stats_.sample_ms = millisecondsSince(start);
        const auto skin = Clock::now();
        const size_t joints = setup_.source->palette.size();
        const size_t total = size_t(instance_count_) * vertex_count_;
        auto* out = static_cast<glm::vec3*>(skinned_[slot].mapped());
        tbb::parallel_for(tbb::blocked_range<size_t>(0, instance_count_, 4), [&](const tbb::blocked_range<size_t>& range) {
            std::vector<glm::mat4> matrices(joints);
            for (size_t i = range.begin(); i != range.end(); ++i) {
                for (size_t j = 0; j < joints; ++j) matrices[j] = toMatrix(poses_[i * joints + j]);
                const std::span<glm::vec3> positions(out + i * vertex_count_, vertex_count_);
                const std::span<glm::vec3> normals(out + total + i * vertex_count_, vertex_count_);
                SkinningJob{matrices, mesh_.positions, mesh_.normals, mesh_.joints, mesh_.weights, positions, normals}.run();
            }
        });
        stats_.skin_ms = millisecondsSince(skin);
        stats_.upload_ms = 0.0;  // written in place: the upload is the skinning's own stores
        stats_.upload_bytes = bytes_per_frame_;
    }

    void adjustConstants(gpu::shader::DrawConstants& constants) const override { constants.vertex_count = vertex_count_; }
    TechniqueStats stats() const override { return stats_; }

private:
    BakedAssetMesh mesh_;
    std::vector<gpu::Buffer> skinned_;  // per frame in flight, host-visible
    std::vector<MatrixRows> poses_;
    size_t bytes_per_frame_ = 0;
    uint32_t vertex_count_ = 0;
    TechniqueStats stats_;
};

} // namespace

Result<std::unique_ptr<Technique>> createCpuTechnique(const TechniqueSetup& setup) {
    if (setup.source == nullptr || setup.source->empty() || setup.mesh == nullptr)
        return Error{"technique cpu skins on the CPU and needs the source animation and mesh, which this asset lacks"};
    return std::unique_ptr<Technique>(std::make_unique<CpuTechnique>(setup, *setup.mesh));
}

} // namespace throng::render
