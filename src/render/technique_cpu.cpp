// Technique `cpu`: the baseline. The CPU samples every instance's pose and skins every vertex
// (SkinningJob: SIMD where the CPU has it, instances spread over all cores with oneTBB) straight
// into the frame slot's own host-visible buffers; the GPU only places each instance (cpu.vert).
// Bytes uploaded per frame: instances x vertices x 24 (position + normal).
//
// With motion vectors the CPU also skins each vertex's position from the last frame's poses into a
// second buffer per (slot, batch), laid out the same (the normals' places unused): the limbs'
// motion in the vectors, for about half a skinning more.
//
// Each instance's block holds its positions then its normals. The blocks are split into
// batches, one buffer each, so that no buffer passes the device's maxStorageBufferRange
// (128 MiB on lavapipe: 1,050 walkers); each batch is one draw with its own descriptor set.
#include "crowd_pose.h"
#include "mesh_pass.h"

#include "../gpu/shader_blobs.h"

#include <throng/anim.h>

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdio>

namespace throng::render {

namespace {

using Clock = std::chrono::steady_clock;

class CpuTechnique final : public MeshTechnique {
  public:
    CpuTechnique(const TechniqueSetup& setup, const BakedAssetMesh& mesh) : MeshTechnique(setup), mesh_(mesh) {
        gpu::Allocator& a = *setup.allocator;
        vertex_count_ = uint32_t(mesh_.positions.size());
        poses_.resize(size_t(instance_count_) * setup.sources.joints);
        previous_ = setup.velocity_format != VK_FORMAT_UNDEFINED;
        const uint64_t block = uint64_t(vertex_count_) * 24;
        bytes_per_frame_ = size_t(instance_count_) * block;
        per_batch_ = uint32_t(std::clamp<uint64_t>(storageBufferLimit(setup) / std::max<uint64_t>(block, 1), 1,
                                                   std::max(instance_count_, 1u)));
        batches_ = std::max((instance_count_ + per_batch_ - 1) / per_batch_, 1u);
        for (uint32_t s = 0; s < setup.frames_in_flight; ++s)
            for (uint32_t b = 0; b < batches_; ++b) {
                const uint32_t members =
                    std::min(per_batch_, instance_count_ - std::min(instance_count_, b * per_batch_));
                skinned_.push_back(gpu::ownBuffer(a, std::max<VkDeviceSize>(members * block, 16),
                                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryUse::Upload));
                if (previous_)
                    previous_skinned_.push_back(gpu::ownBuffer(a, std::max<VkDeviceSize>(members * block, 16),
                                                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                               gpu::MemoryUse::Upload));
            }
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::cpu_vert_spv;
        desc.capture_spirv = gpu::shaders::cpu_capture_vert_spv;
        desc.slots = setup.frames_in_flight * batches_; // a descriptor set per (frame slot, batch)
        const VkShaderStageFlags vs = VK_SHADER_STAGE_VERTEX_BIT;
        desc.bindings = {{THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr},
                         {THRONG_BINDING_SKINNED, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr}};
        if (previous_)
            desc.bindings.push_back(
                {THRONG_BINDING_PREVIOUS_SKINNED, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr});
        desc.write = [&](VkDescriptorSet set, uint32_t slot) {
            std::vector<gpu::DescriptorWrite> writes = {
                instancesWrite(), gpu::DescriptorWrite::storage(THRONG_BINDING_SKINNED, skinned_[slot]->buffer)};
            if (previous_)
                writes.push_back(
                    gpu::DescriptorWrite::storage(THRONG_BINDING_PREVIOUS_SKINNED, previous_skinned_[slot]->buffer));
            gpu::writeDescriptors(device(), set, writes);
        };
        buildPass(desc);
        name_ = batches_ > 1 ? "cpu, " + std::to_string(batches_) + " batches of " + std::to_string(per_batch_) : "cpu";
    }
    std::string_view name() const override { return name_; }

    void update(uint32_t slot, float time) override {
        const auto start = Clock::now();
        sampleCrowdPoses(setup_.sources, *setup_.instances, time, poses_, setup_.pose_layers);
        stats_.sample_ms = millisecondsSince(start);
        const auto skin = Clock::now();
        skinInto(skinned_, slot, poses_, true);
        if (previous_) {
            // The last frame's poses (the first frame: this one's, no motion), positions only.
            skinInto(previous_skinned_, slot, last_.empty() ? poses_ : last_, false);
            last_ = poses_;
        }
        stats_.skin_ms = millisecondsSince(skin);
        stats_.upload_ms = 0.0; // written in place: the upload is the skinning's own stores
        stats_.upload_bytes = bytes_per_frame_ * (previous_ ? 2 : 1);
    }

    // Every member skinned from `poses` into the (slot, batch) buffers of `buffers`: positions,
    // and normals where `normals` (else their places are left as they are).
    void skinInto(const std::vector<gpu::OwnedBuffer>& buffers, uint32_t slot, const std::vector<MatrixRows>& poses,
                  bool normals) const {
        const size_t joints = setup_.sources.joints;
        tbb::parallel_for(
            tbb::blocked_range<size_t>(0, instance_count_, 4), [&](const tbb::blocked_range<size_t>& range) {
                std::vector<glm::mat4> matrices(joints);
                for (size_t i = range.begin(); i != range.end(); ++i) {
                    for (size_t j = 0; j < joints; ++j) matrices[j] = toMatrix(poses[i * joints + j]);
                    auto* batch = static_cast<glm::vec3*>(buffers[slot * batches_ + i / per_batch_]->mapped());
                    glm::vec3* out = batch + (i % per_batch_) * 2 * size_t(vertex_count_);
                    const std::span<glm::vec3> positions(out, vertex_count_);
                    const std::span<glm::vec3> normals_out =
                        normals ? std::span<glm::vec3>(out + vertex_count_, vertex_count_) : std::span<glm::vec3>();
                    const std::span<const glm::vec3> normals_in =
                        normals ? std::span<const glm::vec3>(mesh_.normals) : std::span<const glm::vec3>();
                    SkinningJob{matrices,      mesh_.positions, normals_in, mesh_.joints,
                                mesh_.weights, positions,       normals_out}
                        .run();
                }
            });
    }

    void record(VkCommandBuffer cmd, uint32_t slot, const gpu::shader::DrawConstants& constants) override {
        for (uint32_t b = 0; b < batches_; ++b) {
            gpu::shader::DrawConstants c = constants;
            c.vertex_count = vertex_count_;
            c.first_instance = b * per_batch_;
            if (c.first_instance >= instance_count_) break;
            recordMeshPass(cmd, pass_, *setup_.asset, crowd(), c,
                           std::min(per_batch_, instance_count_ - c.first_instance), slot * batches_ + b,
                           c.first_instance);
        }
    }
    TechniqueStats stats() const override { return stats_; }
    // Batches index their skinned vertices by member from the batch's first: one batch only.
    bool drawsCulled() const override { return batches_ == 1; }
    // The compute rasterizer reads the slot's vertices where one buffer holds them all.
    VkBuffer computeVertices(uint32_t slot) const override {
        return batches_ == 1 ? skinned_[slot]->buffer : VK_NULL_HANDLE;
    }
    VkBuffer computePreviousVertices(uint32_t slot) const override {
        return batches_ == 1 && previous_ ? previous_skinned_[slot]->buffer : VK_NULL_HANDLE;
    }

  private:
    // Per (frame slot, batch), at slot * batches_ + batch: the host-visible skinned vertices.
    std::vector<gpu::OwnedBuffer> skinned_;
    std::vector<gpu::OwnedBuffer> previous_skinned_; // the same, the last frame's positions (motion vectors)
    bool previous_ = false;                          // motion vectors: the last frame's poses kept and skinned
    std::vector<MatrixRows> last_;                   // the last frame's poses (previous_)
    BakedAssetMesh mesh_;
    uint32_t per_batch_ = 1, batches_ = 1;
    std::string name_;
    std::vector<MatrixRows> poses_;
    size_t bytes_per_frame_ = 0;
    uint32_t vertex_count_ = 0;
    TechniqueStats stats_;
};

} // namespace

Result<std::unique_ptr<Technique>> createCpuTechnique(const TechniqueSetup& setup) {
    if (setup.sources.one() == nullptr || setup.mesh == nullptr)
        return Error{"technique cpu skins on the CPU and needs the source animation and mesh, which this asset lacks"};
    // All frame slots' vertices must fit the host-visible heap (checked before allocating, so
    // an absurd crowd fails at once instead of after gigabytes of allocations).
    const gpu::Context& ctx = *setup.allocator->context;
    const uint64_t heap =
        gpu::largestHeap(ctx, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    const uint64_t total =
        uint64_t(setup.frames_in_flight) * setup.instances->size() * setup.mesh->positions.size() * 24;
    if (total > heap / 2) {
        char text[256];
        std::snprintf(text, sizeof text,
                      "technique cpu: %zu instances x %zu vertices x 24 B x %u frames in flight = %.1f GB of "
                      "host-visible memory; "
                      "this device's heap has %.1f GB (at most half is used): use fewer instances",
                      setup.instances->size(), setup.mesh->positions.size(), setup.frames_in_flight,
                      double(total) * 1e-9, double(heap) * 1e-9);
        return Error{text};
    }
    // One instance's block must fit one storage buffer; batches take care of the rest.
    if (Status s = checkStorageBuffer(setup, uint64_t(setup.mesh->positions.size()) * 24,
                                      "technique cpu: one instance's " + std::to_string(setup.mesh->positions.size()) +
                                          " skinned vertices x 24 B");
        !s)
        return s.error();
    return std::unique_ptr<Technique>(std::make_unique<CpuTechnique>(setup, *setup.mesh));
}

} // namespace throng::render
