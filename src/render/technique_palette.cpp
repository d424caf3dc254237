// Technique `palette`: the CPU samples every instance's pose each frame (crowd_pose.h, all
// cores) and writes the skinning palettes into the frame slot's own host-visible buffer — 3x4
// matrices (48 bytes a joint) or quaternion + translation + uniform scale (32 bytes) — and the
// vertex shader (palette.vert, palette_ubo.vert) skins from it, as does the compute rasterizer (--raster
// compute|auto: computePalettes; palette-ubo's uniform blocks read as a storage buffer, batch by
// batch). A slot's buffer is rewritten only
// after its fence has signalled, so the CPU never writes what the GPU may be reading. With motion
// vectors both keep the last frame's palettes on the CPU and write them into a second buffer per
// slot, laid out as the first (the limbs' motion; twice the upload).
#include "crowd_pose.h"
#include "mesh_pass.h"

#include "../gpu/shader_blobs.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstring>

namespace throng::render {

namespace {

using Clock = std::chrono::steady_clock;

// Where palettes go: one storage buffer for the whole crowd, or batches of a 16 KiB uniform block.
enum class PaletteStore { Storage, Uniform };

constexpr VkDeviceSize kUniformBlockBytes = THRONG_UBO_VEC4S * 16;

class PaletteTechnique final : public MeshTechnique {
  public:
    PaletteTechnique(const TechniqueSetup& setup, PaletteStore store) : MeshTechnique(setup), store_(store) {
        gpu::Allocator& a = *setup.allocator;
        const bool quat = setup.encoding == JointEncoding::Quaternion;
        joints_ = setup.sources.joints;
        const size_t entries = size_t(instance_count_) * joints_;
        entry_bytes_ = quat ? 32 : 48;
        bytes_per_frame_ = entries * entry_bytes_;
        const bool uniform = store_ == PaletteStore::Uniform;
        if (uniform) {
            per_batch_ = uint32_t(kUniformBlockBytes / (joints_ * entry_bytes_));
            batches_ = (instance_count_ + per_batch_ - 1) / per_batch_;
            const VkDeviceSize align = a.context->properties.limits.minUniformBufferOffsetAlignment;
            batch_stride_ = (kUniformBlockBytes + align - 1) / align * align;
        }
        // With motion vectors each slot also holds the palettes the last frame drew, kept on the
        // CPU (last_) and written beside this frame's, laid out the same: the velocity variants
        // and the resolve skin the last position from them.
        previous_ = setup.velocity_format != VK_FORMAT_UNDEFINED;
        // Matrices in a storage buffer are sampled in place; everything else (and what is kept
        // for the next frame) goes through poses_.
        poses_.resize(quat || uniform || previous_ ? entries : 0);
        const VkDeviceSize bytes = uniform ? VkDeviceSize(std::max(batches_, 1u)) * batch_stride_
                                           : std::max<VkDeviceSize>(bytes_per_frame_, 16);
        for (uint32_t s = 0; s < setup.frames_in_flight; ++s)
            palettes_.push_back(
                gpu::ownBuffer(a, bytes,
                               // palette-ubo's blocks are also the compute rasterizer's storage buffer
                               uniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
                                       : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               gpu::MemoryUse::Upload));
        for (uint32_t s = 0; previous_ && s < setup.frames_in_flight; ++s)
            previous_palettes_.push_back(
                gpu::ownBuffer(a, bytes,
                               uniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
                                       : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                               gpu::MemoryUse::Upload));
        MeshPassDesc desc;
        desc.vertex_spirv = uniform ? gpu::shaders::palette_ubo_vert_spv : gpu::shaders::palette_vert_spv;
        desc.capture_spirv =
            uniform ? gpu::shaders::palette_ubo_capture_vert_spv : gpu::shaders::palette_capture_vert_spv;
        desc.slots = setup.frames_in_flight;
        const VkShaderStageFlags vs = VK_SHADER_STAGE_VERTEX_BIT;
        desc.bindings = {{THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr},
                         uniform
                             ? VkDescriptorSetLayoutBinding{THRONG_BINDING_PALETTE_UBO,
                                                            VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, vs, nullptr}
                             : VkDescriptorSetLayoutBinding{THRONG_BINDING_PALETTE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                            1, vs, nullptr}};
        if (previous_)
            desc.bindings.push_back(
                uniform ? VkDescriptorSetLayoutBinding{THRONG_BINDING_PREVIOUS_PALETTE_UBO,
                                                       VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, vs, nullptr}
                        : VkDescriptorSetLayoutBinding{THRONG_BINDING_PREVIOUS_PALETTE,
                                                       VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr});
        setPaletteSpecialization(desc, quat, setup.skinning);
        desc.write = [&](VkDescriptorSet set, uint32_t slot) {
            if (previous_) {
                const VkBuffer last = previous_palettes_[slot]->buffer;
                const gpu::DescriptorWrite write =
                    uniform ? gpu::DescriptorWrite{THRONG_BINDING_PREVIOUS_PALETTE_UBO,
                                                   VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
                                                   {last, 0, kUniformBlockBytes},
                                                   {},
                                                   VK_NULL_HANDLE}
                            : gpu::DescriptorWrite::storage(THRONG_BINDING_PREVIOUS_PALETTE, last);
                gpu::writeDescriptors(device(), set, std::span(&write, 1));
            }
            gpu::DescriptorWrite palette =
                gpu::DescriptorWrite::storage(THRONG_BINDING_PALETTE, palettes_[slot]->buffer);
            if (uniform)
                palette = {THRONG_BINDING_PALETTE_UBO,
                           VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
                           {palettes_[slot]->buffer, 0, kUniformBlockBytes},
                           {},
                           VK_NULL_HANDLE};
            const gpu::DescriptorWrite writes[] = {instancesWrite(), palette};
            gpu::writeDescriptors(device(), set, writes);
        };
        buildPass(desc);
        name_ = std::string(uniform ? "palette-ubo" : "palette") + (quat ? " (quat)" : "") +
                (setup.skinning == Skinning::DualQuaternion ? " (dual-quaternion)" : "");
        if (uniform) name_ += ", " + std::to_string(per_batch_) + " instances per 16 KiB block";
    }
    std::string_view name() const override { return name_; }

    void update(uint32_t slot, float time) override {
        const auto start = Clock::now();
        auto* mapped = static_cast<uint8_t*>(palettes_[slot]->mapped());
        if (poses_.empty()) {
            // Matrices in a storage buffer: sample straight into the mapped buffer (MatrixRows is the GPU layout).
            sampleCrowdPoses(setup_.sources, *setup_.instances, time,
                             {reinterpret_cast<MatrixRows*>(mapped), size_t(instance_count_) * joints_},
                             setup_.pose_layers);
            stats_.sample_ms = millisecondsSince(start);
            stats_.upload_ms = 0.0;
        } else {
            sampleCrowdPoses(setup_.sources, *setup_.instances, time, poses_, setup_.pose_layers);
            stats_.sample_ms = millisecondsSince(start);
            const auto upload = Clock::now();
            write(mapped, poses_);
            if (previous_) {
                // The last frame's palettes (the first frame: this one's, no motion) beside them.
                write(static_cast<uint8_t*>(previous_palettes_[slot]->mapped()), last_.empty() ? poses_ : last_);
                last_ = poses_;
            }
            stats_.upload_ms = millisecondsSince(upload);
        }
        stats_.upload_bytes = bytes_per_frame_ * (previous_ ? 2 : 1);
    }

    // `poses` encoded into a slot's mapped buffer: in its batch's block when uniform, else contiguous.
    void write(uint8_t* mapped, const std::vector<MatrixRows>& poses) const {
        const bool quat = setup_.encoding == JointEncoding::Quaternion;
        tbb::parallel_for(
            tbb::blocked_range<size_t>(0, poses.size(), 1024), [&](const tbb::blocked_range<size_t>& range) {
                for (size_t e = range.begin(); e != range.end(); ++e) {
                    const size_t instance = e / joints_;
                    const size_t offset = store_ == PaletteStore::Uniform
                                              ? (instance / per_batch_) * batch_stride_ +
                                                    ((instance % per_batch_) * joints_ + e % joints_) * entry_bytes_
                                              : e * entry_bytes_;
                    if (quat)
                        encodeQuaternion(poses[e], reinterpret_cast<glm::vec4*>(mapped + offset));
                    else
                        std::memcpy(mapped + offset, &poses[e], sizeof(MatrixRows));
                }
            });
    }

    void record(VkCommandBuffer cmd, uint32_t slot, const gpu::shader::DrawConstants& constants) override {
        if (store_ == PaletteStore::Storage) return MeshTechnique::record(cmd, slot, constants);
        for (uint32_t b = 0; b < batches_; ++b) {
            gpu::shader::DrawConstants c = constants;
            c.first_instance = b * per_batch_;
            // The batch's block, and with vectors the same block of the last frame's.
            const uint32_t offsets[2] = {uint32_t(b * batch_stride_), uint32_t(b * batch_stride_)};
            recordMeshPass(cmd, pass_, *setup_.asset, crowd(), c,
                           std::min(per_batch_, instance_count_ - c.first_instance), slot, c.first_instance,
                           std::span(offsets, previous_ ? 2 : 1));
        }
    }

    // The compute rasterizer skins from the same palettes, the slot's own (update() writes it
    // before the frame's passes are recorded): palette-ubo's padded blocks as batches.
    ComputePalettes computePalettes(uint32_t slot) const override {
        ComputePalettes p;
        p.buffer = palettes_[slot]->buffer;
        p.bytes = palettes_[slot]->size;
        p.encoding = setup_.encoding;
        if (previous_) p.previous = previous_palettes_[slot]->buffer;
        if (store_ == PaletteStore::Uniform) {
            p.batch_members = per_batch_;
            p.batch_stride = uint32_t(batch_stride_ / 16);
        }
        return p;
    }

    TechniqueStats stats() const override { return stats_; }
    // The uniform blocks hold batches of consecutive members: palette-ubo draws every member.
    bool drawsCulled() const override { return store_ == PaletteStore::Storage; }

  private:
    std::vector<gpu::OwnedBuffer> palettes_;          // per frame slot, host-visible, written by update()
    std::vector<gpu::OwnedBuffer> previous_palettes_; // the same, the last frame's palettes (motion vectors)
    PaletteStore store_;
    bool previous_ = false;         // motion vectors: the last frame's palettes kept and written
    std::vector<MatrixRows> poses_; // when the GPU layout differs from the sampled matrices, or kept
    std::vector<MatrixRows> last_;  // the last frame's poses (previous_)
    size_t joints_ = 0, entry_bytes_ = 48, bytes_per_frame_ = 0;
    uint32_t per_batch_ = 0, batches_ = 0;
    VkDeviceSize batch_stride_ = 0;
    std::string name_;
    TechniqueStats stats_;
};

} // namespace

Result<std::unique_ptr<Technique>> createPaletteTechnique(const TechniqueSetup& setup) {
    if (setup.sources.empty())
        return Error{
            "technique palette samples poses on the CPU and needs the source animation, which this asset lacks"};
    const uint64_t entry = setup.encoding == JointEncoding::Quaternion ? 32 : 48;
    if (Status s =
            checkStorageBuffer(setup, uint64_t(setup.instances->size()) * setup.sources.joints * entry,
                               "technique palette: " + std::to_string(setup.instances->size()) + " instances x " +
                                   std::to_string(setup.sources.joints) + " joints x " + std::to_string(entry) + " B");
        !s)
        return s.error();
    return std::unique_ptr<Technique>(std::make_unique<PaletteTechnique>(setup, PaletteStore::Storage));
}

Result<std::unique_ptr<Technique>> createPaletteUboTechnique(const TechniqueSetup& setup) {
    if (setup.sources.empty())
        return Error{
            "technique palette-ubo samples poses on the CPU and needs the source animation, which this asset lacks"};
    // The bone limit: one instance's palette must fit in the 16 KiB block.
    const bool quat = setup.encoding == JointEncoding::Quaternion;
    const size_t limit = THRONG_UBO_VEC4S / (quat ? 2 : 3);
    const size_t joints = setup.sources.joints;
    if (joints > limit)
        return Error{"technique palette-ubo holds at most " + std::to_string(limit) +
                     " joints per instance in a 16 KiB uniform block (" +
                     (quat ? "quaternions" : "3x4 matrices; quaternions allow 512") + "); this model has " +
                     std::to_string(joints)};
    // Dynamic offsets are 32-bit: every batch's block must start below 4 GiB.
    const uint64_t per_batch = std::max<uint64_t>(1, kUniformBlockBytes / (joints * (quat ? 32 : 48)));
    const uint64_t batches = (setup.instances->size() + per_batch - 1) / per_batch;
    if (batches * (kUniformBlockBytes + 256) > UINT32_MAX) // 256: the largest minUniformBufferOffsetAlignment
        return Error{"technique palette-ubo: " + std::to_string(batches) +
                     " blocks of 16 KiB pass the 4 GiB that dynamic offsets reach: use fewer instances"};
    return std::unique_ptr<Technique>(std::make_unique<PaletteTechnique>(setup, PaletteStore::Uniform));
}

} // namespace throng::render
