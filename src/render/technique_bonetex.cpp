// Technique `bonetex`: the CPU samples every instance's pose each frame and writes each joint
// as two texels — quaternion, then (translation, uniform scale) — into a float or half
// texture; one texture and one staging buffer per frame in flight (the idea of the seeds'
// FlipTexture2D), copied into place before the frame renders. The vertex shader (bonetex.vert)
// fetches the texels with point sampling. Texel k of the crowd sits at (k % width, k / width).
// With motion vectors the CPU keeps the last frame's poses and writes them into a second texture
// per slot (its own staging), which the velocity variants read: the limbs' motion, twice the upload.
#include "crowd_pose.h"
#include "mesh_pass.h"

#include "../gpu/shader_blobs.h"

#include <tbb/parallel_for.h>

#include <cstring>

namespace throng::render {

namespace {

using Clock = std::chrono::steady_clock;

class BonetexTechnique final : public MeshTechnique {
  public:
    explicit BonetexTechnique(const TechniqueSetup& setup) : MeshTechnique(setup) {
        gpu::Allocator& a = *setup.allocator;
        const gpu::Context& ctx = *a.context;
        half_ = setup.bone_precision == Precision::Float16;
        const size_t entries = size_t(instance_count_) * setup.sources.joints;
        const size_t texels = std::max<size_t>(2 * entries, 1);
        width_ = uint32_t(std::min<size_t>(texels, ctx.properties.limits.maxImageDimension2D));
        height_ = uint32_t((texels + width_ - 1) / width_);
        bytes_per_frame_ = size_t(width_) * height_ * (half_ ? 8 : 16);
        poses_.resize(entries);
        previous_ = setup.velocity_format != VK_FORMAT_UNDEFINED;
        const VkFormat format = half_ ? VK_FORMAT_R16G16B16A16_SFLOAT : VK_FORMAT_R32G32B32A32_SFLOAT;
        // Per slot this frame's texture, then with vectors the last frame's: [slot * kinds + kind].
        for (uint32_t s = 0; s < setup.frames_in_flight * (previous_ ? 2 : 1); ++s) {
            staging_.push_back(
                gpu::ownBuffer(a, bytes_per_frame_, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, gpu::MemoryUse::Upload));
            std::memset(staging_.back()->mapped(), 0, bytes_per_frame_);
            bones_.emplace_back(a, gpu::createImage(a, format, width_, height_, 1,
                                                    VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
        }
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::bonetex_vert_spv;
        desc.capture_spirv = gpu::shaders::bonetex_capture_vert_spv;
        desc.slots = setup.frames_in_flight;
        const VkShaderStageFlags vs = VK_SHADER_STAGE_VERTEX_BIT;
        desc.bindings = {{THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr},
                         {THRONG_BINDING_BONES, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, vs, nullptr}};
        if (previous_)
            desc.bindings.push_back(
                {THRONG_BINDING_PREVIOUS_BONES, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, vs, nullptr});
        desc.write = [&](VkDescriptorSet set, uint32_t slot) {
            std::vector<gpu::DescriptorWrite> writes = {
                instancesWrite(),
                gpu::DescriptorWrite::sampled(THRONG_BINDING_BONES, setup_.asset->point, bones(slot, false).view)};
            if (previous_)
                writes.push_back(gpu::DescriptorWrite::sampled(THRONG_BINDING_PREVIOUS_BONES, setup_.asset->point,
                                                               bones(slot, true).view));
            gpu::writeDescriptors(device(), set, writes);
        };
        buildPass(desc);
    }
    std::string_view name() const override { return half_ ? "bonetex (half)" : "bonetex"; }

    void update(uint32_t slot, float time) override {
        const auto start = Clock::now();
        sampleCrowdPoses(setup_.sources, *setup_.instances, time, poses_, setup_.pose_layers);
        stats_.sample_ms = millisecondsSince(start);
        const auto upload = Clock::now();
        encode(slot, false, poses_);
        if (previous_) {
            // The last frame's poses (the first frame: this one's, no motion).
            encode(slot, true, last_.empty() ? poses_ : last_);
            last_ = poses_;
        }
        stats_.upload_ms = millisecondsSince(upload);
        stats_.upload_bytes = bytes_per_frame_ * (previous_ ? 2 : 1);
    }

    // `poses` as texels into the staging of slot `slot`'s texture (`previous`: the last frame's).
    void encode(uint32_t slot, bool previous, const std::vector<MatrixRows>& poses) const {
        const size_t k = index(slot, previous);
        // Encoding (and converting to half) on all cores, like the sampling: serial, it cost 3 to
        // 10 times the sampling on the H200's 16 cores (docs/BENCHMARKS.md).
        const tbb::blocked_range<size_t> entries(0, poses.size(), 1024);
        if (half_) {
            auto* out = static_cast<uint16_t*>(staging_[k]->mapped());
            tbb::parallel_for(entries, [&](const tbb::blocked_range<size_t>& range) {
                glm::vec4 texel[2];
                for (size_t e = range.begin(); e != range.end(); ++e) {
                    encodeQuaternion(poses[e], texel);
                    for (int t = 0; t < 2; ++t)
                        for (int c = 0; c < 4; ++c) out[8 * e + 4 * size_t(t) + size_t(c)] = floatToHalf(texel[t][c]);
                }
            });
        } else {
            auto* out = static_cast<glm::vec4*>(staging_[k]->mapped());
            tbb::parallel_for(entries, [&](const tbb::blocked_range<size_t>& range) {
                for (size_t e = range.begin(); e != range.end(); ++e) encodeQuaternion(poses[e], out + 2 * e);
            });
        }
    }

    bool hasTransfers() const override { return true; }
    void recordTransfers(VkCommandBuffer cmd, uint32_t slot) override {
        for (bool previous : {false, true}) {
            if (previous && !previous_) break;
            const gpu::Image& img = bones(slot, previous);
            gpu::transitionImage(cmd, img.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
            VkBufferImageCopy region{};
            region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            region.imageExtent = {width_, height_, 1};
            vkCmdCopyBufferToImage(cmd, staging_[index(slot, previous)]->buffer, img.image,
                                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
            gpu::transitionImage(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
        }
    }

    // The compute rasterizer reads the slot's bone texture as the vertex shader does (the upload
    // pass fills it before the raster's passes).
    ComputePalettes computePalettes(uint32_t slot) const override {
        ComputePalettes p;
        p.image = bones(slot, false).view;
        if (previous_) p.previous_image = bones(slot, true).view;
        p.image_width = width_;
        p.encoding = JointEncoding::Quaternion;
        return p;
    }

    TechniqueStats stats() const override { return stats_; }

  private:
    size_t index(uint32_t slot, bool previous) const { return previous_ ? 2 * size_t(slot) + previous : slot; }
    const gpu::Image& bones(uint32_t slot, bool previous) const { return *bones_[index(slot, previous)]; }

    std::vector<gpu::OwnedBuffer> staging_; // per texture: host-visible texels written by update()
    std::vector<gpu::OwnedImage> bones_;    // per frame slot (and with vectors the last frame's): what the shader reads
    std::vector<MatrixRows> poses_;
    std::vector<MatrixRows> last_; // the last frame's poses (previous_)
    bool previous_ = false;        // motion vectors: the last frame's texels kept in a second texture per slot
    uint32_t width_ = 1, height_ = 1;
    size_t bytes_per_frame_ = 0;
    bool half_ = false;
    TechniqueStats stats_;
};

} // namespace

Result<std::unique_ptr<Technique>> createBonetexTechnique(const TechniqueSetup& setup) {
    if (setup.sources.empty())
        return Error{
            "technique bonetex samples poses on the CPU and needs the source animation, which this asset lacks"};
    const uint64_t texels = 2ull * setup.instances->size() * setup.sources.joints;
    const uint64_t limit = uint64_t(setup.allocator->context->properties.limits.maxImageDimension2D);
    if (texels > limit * limit)
        return Error{"bonetex: " + std::to_string(texels) + " texels exceed one texture of this device"};
    return std::unique_ptr<Technique>(std::make_unique<BonetexTechnique>(setup));
}

} // namespace throng::render
