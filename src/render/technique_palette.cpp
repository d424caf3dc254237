// Technique `palette`: the CPU samples every instance's pose each frame (crowd_pose.h, all
// cores) and writes the skinning palettes into the frame slot's own host-visible buffer — 3x4
// matrices (48 bytes a joint) or quaternion + translation + uniform scale (32 bytes) — and the
// vertex shader (palette.vert) skins from it. A slot's buffer is rewritten only after its fence
// has signalled, so the CPU never writes what the GPU may be reading.
#include "crowd_pose.h"
#include "mesh_pass.h"

#include "../gpu/shader_blobs.h"

#include <chrono>
#include <cstring>

namespace throng::render {

namespace {

using Clock = std::chrono::steady_clock;

class PaletteTechnique final : public MeshTechnique {
public:
    explicit PaletteTechnique(const TechniqueSetup& setup) : MeshTechnique(setup) {
        gpu::Allocator& a = *setup.allocator;
        const bool quat = setup.encoding == PaletteEncoding::Quaternion;
        const size_t entries = size_t(instance_count_) * setup.source->palette.size();
        bytes_per_frame_ = entries * (quat ? 32 : 48);
        poses_.resize(quat ? entries : 0);
        for (uint32_t s = 0; s < setup.frames_in_flight; ++s)
            palettes_.push_back(gpu::createBuffer(a, std::max<size_t>(bytes_per_frame_, 16), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                  gpu::MemoryUse::Upload));
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::palette_vert_spv;
        desc.slots = setup.frames_in_flight;
        const VkShaderStageFlags vs = VK_SHADER_STAGE_VERTEX_BIT;
        desc.bindings = {{THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr},
                         {THRONG_BINDING_PALETTE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr}};
        desc.specialization_entries = {{THRONG_SPEC_PALETTE_QUATERNION, 0, sizeof(VkBool32)}};
        const VkBool32 flag = quat ? VK_TRUE : VK_FALSE;
        desc.specialization_data.resize(sizeof(flag));
        std::memcpy(desc.specialization_data.data(), &flag, sizeof(flag));
        desc.write = [&](VkDescriptorSet set, uint32_t slot) {
            const gpu::DescriptorWrite writes[] = {instancesWrite(), gpu::DescriptorWrite::storage(THRONG_BINDING_PALETTE, palettes_[slot].buffer)};
            gpu::writeDescriptors(device(), set, writes);
        };
        buildPass(desc);
    }
    ~PaletteTechnique() override {
        for (gpu::Buffer& b : palettes_) gpu::destroyBuffer(*setup_.allocator, b);
    }
    std::string_view name() const override { return setup_.encoding == PaletteEncoding::Quaternion ? "palette (quat)" : "palette"; }

    void update(uint32_t slot, float time) override {
        const auto start = Clock::now();
        const size_t entries = poses_.empty() ? bytes_per_frame_ / 48 : poses_.size();
        if (poses_.empty()) {
            // Matrix encoding: sample straight into the mapped buffer (MatrixRows is the GPU layout).
            sampleCrowdPoses(*setup_.source, *setup_.instances, time, {static_cast<MatrixRows*>(palettes_[slot].mapped()), entries});
            stats_.sample_ms = millisecondsSince(start);
            stats_.upload_ms = 0.0;
        } else {
            sampleCrowdPoses(*setup_.source, *setup_.instances, time, poses_);
            stats_.sample_ms = millisecondsSince(start);
            const auto upload = Clock::now();
            auto* out = static_cast<glm::vec4*>(palettes_[slot].mapped());
            for (size_t e = 0; e < entries; ++e) encodeQuaternion(poses_[e], out + 2 * e);
            stats_.upload_ms = millisecondsSince(upload);
        }
        stats_.upload_bytes = bytes_per_frame_;
    }

    TechniqueStats stats() const override { return stats_; }

private:
    std::vector<gpu::Buffer> palettes_;  // one per frame in flight, host-visible
    std::vector<MatrixRows> poses_;      // quaternion encoding: matrices before encoding
    size_t bytes_per_frame_ = 0;
    TechniqueStats stats_;
};

} // namespace

Result<std::unique_ptr<Technique>> createPaletteTechnique(const TechniqueSetup& setup) {
    if (setup.source == nullptr || setup.source->empty())
        return Error{"technique palette samples poses on the CPU and needs the source animation, which this asset lacks"};
    return std::unique_ptr<Technique>(std::make_unique<PaletteTechnique>(setup));
}

} // namespace throng::render
