// The compute rasterizer (docs/FAR_FIELD.md): `--raster compute` draws the crowd of technique
// `baked` or `static` without the hardware rasterizer. Two passes replace the technique's draw:
//   raster   (compute) clears the visibility buffer, plans one workgroup per (member, cluster)
//            of each LOD from the culling counts, then per LOD skins each cluster's vertices once
//            into shared memory and rasterizes its triangles with 64-bit atomic min;
//   resolve  (graphics, colour + depth) shades every pixel the visibility buffer names.
#pragma once

#include "clusters.h"
#include "crowd_gpu.h"

#include "../gpu/owned.h"
#include "../gpu/passes.h"

#include <string_view>

namespace throng::render {

// Who rasterizes the crowd. Compute: every member through the compute rasterizer. Auto: members
// at LOD 0 (the largest on screen, whose triangles are many pixels across) through the hardware,
// members at coarser levels (triangles of a few pixels at the LOD error they are chosen at)
// through the compute rasterizer; the resolve pass depth-tests against the hardware's picture.
enum class RasterMode : uint8_t { Hardware, Compute, Auto };
const char* toString(RasterMode mode);

// Techniques the compute rasterizer draws.
bool techniqueRastersInCompute(std::string_view technique);

// Why the compute rasterizer cannot draw this crowd (empty: it can): the device lacks 64-bit
// buffer atomics, the technique has no compute path, the chain has more than 65,535 triangles or
// the crowd more than 16,777,216 members (the visibility buffer's id fields).
std::string computeRasterProblem(const gpu::Context& context, std::string_view technique, const BakedAsset& asset, uint64_t members);

class ComputeRaster {
public:
    // `baked`: the asset `asset` was uploaded from (its clusters are built here). `crowd`: the
    // members and their culling. Targets of `extent` and the given formats; `slots` frames in
    // flight. Throws gpu::GpuError. Contract: computeRasterProblem(...) is empty.
    ComputeRaster(gpu::Allocator& allocator, std::string_view technique, const BakedAsset& baked, const GpuAsset& asset, const CrowdGpu& crowd,
                  VkExtent2D extent, VkFormat color_format, VkFormat depth_format, uint32_t slots);

    // The `raster` and `resolve` passes of frame slot `slot`, drawing at `constants` (camera,
    // light, time, coarse LODs) the members at LOD `first_lod` and coarser. Keeps `this`. Call
    // after the crowd's addPasses for the frame.
    void addPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const gpu::shader::DrawConstants& constants, uint32_t first_lod = 0);

    const ClusterChain& clusters() const { return chain_; }

    // Tests: the visibility buffer of the last frame (the device must be idle).
    std::vector<uint64_t> visibility() const;

private:
    void recordRaster(VkCommandBuffer cmd, uint32_t slot) const;
    void recordResolve(VkCommandBuffer cmd, uint32_t slot) const;

    gpu::Allocator* allocator_;
    const CrowdGpu* crowd_;
    VkExtent2D extent_{};
    ClusterChain chain_;
    gpu::shader::RasterParams base_{};  // what does not change between frames
    gpu::OwnedBuffer clusters_, cluster_vertices_, cluster_triangles_, resolve_triangles_, submesh_colors_, visibility_, plan_;
    std::vector<gpu::OwnedBuffer> params_;  // per slot (host-visible)
    gpu::Unique<VkDescriptorSetLayout> set_layout_;
    gpu::Unique<VkPipelineLayout> layout_;
    gpu::Unique<VkPipeline> plan_pipeline_, raster_pipeline_, resolve_pipeline_;
    gpu::Unique<VkDescriptorPool> pool_;
    std::vector<VkDescriptorSet> sets_;  // per slot
};

} // namespace throng::render
