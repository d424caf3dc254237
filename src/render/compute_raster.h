// The compute rasterizer (docs/FAR_FIELD.md): `--raster compute` draws the crowd of any technique
// (TechniqueInfo::compute_raster: `baked`, which it skins from the baked animation; `pose`,
// `palette`, `palette-ubo` and `bonetex`, which it skins from the palettes the technique writes
// each frame — pose's `pose` pass, the others' CPU, in a storage buffer, padded uniform blocks
// or a texture, in either joint encoding —, these with linear or dual-quaternion skinning;
// `cpu`, whose CPU-skinned vertices it reads; `vat`, whose vertices it samples from the vertex
// animation; `procedural`, whose rest mesh it swims; and `static`, its bind pose), props included
// (a prop's clusters only on the members that carry it, untinted), without the hardware rasterizer.
// Passes replace the technique's
// draw (its prepare passes, e.g. `pose`, still run first: crowd_frame.h):
//   cache    (compute, a skinned technique with a vertex cache) clears the visibility buffer, plans the frame
//            from the culling counts (one workgroup per (member, cluster) of each LOD, and the
//            cache's layout), then per cached member (a workgroup) puts its joint matrices once
//            into shared memory (blended from the baked frames, or copied from the technique's
//            palette; with dual-quaternion skinning each then taken apart once into its dual
//            quaternion) and skins its LOD's vertices once (position and normal) into the vertex
//            cache (`vat`, `procedural`, `cpu`: computes or copies each vertex, no joints);
//   raster   (compute; plans first when there is no cache pass) per LOD loads each cluster's
//            vertices from the cache (one pipeline) or skins them (another: members the cache
//            has no room for, `baked`'s coarse-skinned levels) into shared memory and rasterizes its
//            triangles with 64-bit atomic min;
//            then the members culling drew as splats (CullSettings::splat_px; splats.h), a
//            thread each writing the few pixels of its coverage;
//   shadow   (compute, with a shadow map: addShadowPasses) the light's members (CrowdGpu's
//            shadow-cull) rasterized depth only, a 32-bit atomic maximum of each texel's depth,
//            every level skinned per cluster (no cache: it holds the camera's members), then
//            copied into the shadow map, which the resolve and the ground then read;
//   resolve  (compute, a thread per pixel) shades every pixel the visibility buffer names, reading
//            the cache's positions and normals where it holds the member, as the hardware path
//            shades it: vertex, member and submesh colour, the submesh's texture (its mip level
//            from the triangle's own UV derivatives), the light and, with a shadow map, its
//            shadows (resolve_body.glsl), into a buffer of colour and depth per pixel. One
//            dispatch per variant and texture of the asset (none: one);
//   composite (graphics, colour + depth) a quad per tile the resolve shaded a pixel of (its
//            list: THRONG_BINDING_RESOLVE_TILES) writing the resolved pixels into the frame's
//            targets, depth-tested against what the hardware drew (composite.vert, .frag): the
//            only fragment work left, since the H100's and H200's graphics work runs on 2 of
//            their 66 TPCs while compute runs on all.
// A crowd of several models (asset_library.h, docs/MIXED_CROWDS.md) goes through the same
// passes: each model has its own levels in the chain (ClusterChain::models) and a RasterModel
// (its clusters per level, sub-region of the visible list, cache box, coarse and cached levels);
// the plan gives each (LOD, model) a RasterRegion and shares each LOD's dispatches among the
// models, a workgroup finding its model by a binary search over their first workgroups.
#pragma once

#include "asset_library.h"
#include "clusters.h"
#include "crowd_gpu.h"
#include "history.h"
#include "technique.h"

#include "../gpu/owned.h"
#include "../gpu/passes.h"

#include <array>
#include <functional>
#include <string_view>

namespace throng::render {

// Techniques the compute rasterizer draws (TechniqueInfo::compute_raster; it skins those with
// skinned_in_compute, from their own palettes those with palettes_in_compute, and draws the
// others' bind pose).
bool techniqueRastersInCompute(std::string_view technique);

// Why the compute rasterizer cannot draw this crowd (empty: it can): the device lacks 64-bit
// buffer atomics, the technique has no compute path (or, for `vat`, the asset no vertex
// animation), or a model's levels have more than 65,535 triangles or the crowd more than
// 16,777,216 members (the visibility buffer's id fields). Every skinning its technique draws
// (skinningProblem) it draws too. `ranges`: the models of a library (asset_library.h; empty:
// the asset is one model).
std::string computeRasterProblem(const gpu::Context& context, std::string_view technique, const BakedAsset& asset,
                                 uint64_t members, std::span<const AssetRange> ranges = {});

// Why the compute rasterizer cannot read what `drawn` (a technique with compute_raster) keeps
// for it (empty: it can): technique cpu's vertices in more than one buffer, palettes in a buffer
// past the device's maxStorageBufferRange.
std::string computeSourceProblem(const gpu::Context& context, std::string_view technique, const Technique& drawn);

// The vertex cache's size (12 bytes a vertex: position 8, normal 4; throng/options.h): kVertexCacheAuto = what the
// crowd needs with every member at LOD 0, at most a quarter of the largest device-local heap
// and, with LOD on, at most kVertexCacheLodBytes; the positions within the device's
// maxStorageBufferRange; 0 = no cache (every vertex skinned per cluster, and again per pixel by
// the resolve). Skeletons of more than THRONG_CACHE_MAX_JOINTS (128) joints have no cache.
// Members the cache has no room for are skinned per cluster: the same picture, more work.

// With LOD on a member is at its finest level only where it is large on screen, so few are: on
// the H200 a million walkers cached 12.5 M vertices (150 MB) in the overview and 1.8 M in the
// street view (docs/h200-one-renderer/run1-*), where every member at LOD 0 would be 6.4 GB.
constexpr uint64_t kVertexCacheLodBytes = 512ull << 20;

// The cache's bytes by the rule above, for `members` whose finest level has `finest_vertices`
// vertices (`requested`: CrowdOptions::vertex_cache_bytes), in whole vertices.
uint64_t vertexCacheBytes(const gpu::Context& context, uint64_t requested, uint64_t members, uint64_t finest_vertices,
                          bool lod);

// The levels the vertex cache holds this frame: members at LODs below the result are skinned once
// into it, the others per cluster. None without a cache (`has_cache` false); else the levels
// before the first `baked` skins coarsely (`coarse_lods` as DrawConstants::coarse_lods; 6 texels
// a vertex, cheaper than the cache's traffic) and before the first with fewer vertices than the
// cache pass's workgroup has threads (THRONG_CACHE_LOCAL_SIZE; `lod_vertices[l].y`: level l's
// vertices): there a workgroup and a palette load a member would skin a few vertices (run 2 on
// an H100: a million `pose` walkers in the overview, 12 vertices a member, 1.78 ms of cache pass).
uint32_t cachedLevels(const glm::uvec4 (&lod_vertices)[THRONG_MAX_LODS], uint32_t coarse_lods, bool has_cache);

class ShadowMap;

struct RasterOptions {
    uint64_t vertex_cache_bytes = kVertexCacheAuto;
    bool lod = true;                 // the crowd culls with LOD (the default cache's size: vertexCacheBytes)
    SwimParams swim = defaultSwim(); // TechniqueInfo::swim_in_compute: the swim its technique draws
    // The crowd's shadow map, which the resolve then samples as lit_shadowed.frag does (members
    // drawn here receive shadows) and addShadowPasses draws into (they cast them); null: no
    // shadows. Kept: it must outlive the rasterizer.
    const ShadowMap* shadows = nullptr;
    // How the skeletal sources blend a vertex's joints (the crowd's; skinningProblem is empty for
    // the technique): specializes the cache pass, the per-cluster raster and the resolve.
    Skinning skinning = Skinning::Linear;
    // Motion vectors (history.h): the members' records as the last frame drew them
    // (MemberHistory::previous()), which the resolve skins and places again at each pixel with
    // the last frame's time and camera (addPasses' `previous`), and the format of the frame's
    // velocity attachment the composite then writes (VK_FORMAT_R16G16_SFLOAT). Null / UNDEFINED:
    // no motion vectors.
    VkBuffer previous_records = VK_NULL_HANDLE;
    VkFormat velocity_format = VK_FORMAT_UNDEFINED;
};

// What the vertex cache held in the last frame planned, and what its traffic is (read back
// from the GPU's plan; the device must be idle).
struct VertexCacheStats {
    uint64_t capacity_bytes = 0; // the cache buffers (12 bytes a vertex), 0: no cache
    uint64_t cached_vertices = 0;
    uint64_t cached_members = 0;
    uint64_t uncached_members = 0; // at cached levels, skinned per cluster for want of room
    // The cache pass's least traffic: the cache written (each LOD's vertex list, 40 bytes a
    // vertex or a 4-byte id for the per-vertex sources, and the animation are read from the L2
    // cache, not counted).
    uint64_t cache_pass_bytes = 0;
    // The rasterizer's reads of the cache (each cluster's vertices, 8 bytes each).
    uint64_t raster_read_bytes = 0;
};

class ComputeRaster {
  public:
    // `baked`: the asset `asset` was uploaded from (its clusters are built here; a library's,
    // asset.ranges its models). `crowd`: the
    // members and their culling. Targets of `extent` and the given formats; `slots` frames in
    // flight. `drawn`: the technique `technique` names, whose computePalettes(slot) the palette
    // variants read and whose computeVertices(slot) the vertices variants read (keeps it; needed
    // only with TechniqueInfo::palettes_in_compute or vertices_in_compute). Throws
    // gpu::GpuError. Contract: computeRasterProblem(...) and computeSourceProblem(...) are empty;
    // with palettes_in_compute, `drawn` is given and its palettes hold crowd.members() members of
    // baked.joint_count joints; with vertices_in_compute, its vertices as many members'.
    ComputeRaster(gpu::Allocator& allocator, std::string_view technique, const BakedAsset& baked, const GpuAsset& asset,
                  const CrowdGpu& crowd, VkExtent2D extent, VkFormat color_format, VkFormat depth_format,
                  uint32_t slots, const RasterOptions& options = {}, const Technique* drawn = nullptr);

    // The `raster`, `resolve` and `composite` passes of frame slot `slot`, drawing at `constants` (camera,
    // light, time, coarse LODs) the members of the culling pass's regions (the hardware's share
    // of auto, HardwareShare, lies apart: crowd_gpu.h), or every member at LOD 0. Keeps `this`.
    // Call after the crowd's addPasses for the frame. With `late_follows` (an occlusion-culled
    // frame: CrowdGpu::occluding()) the resolve waits for addLatePasses.
    // With motion vectors (RasterOptions::previous_records) `previous` is the last frame's camera
    // and time (required then; ignored without).
    void addPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const gpu::shader::DrawConstants& constants,
                   bool late_follows = false, const PreviousFrame* previous = nullptr);
    // Occlusion culling's late phase, after the `pyramid` pass (built from visibility(): the
    // early members) and the crowd's `cull-late`: `raster-late` (the members the late culling
    // pass added, skinned per cluster: the cache holds the early ones) into the same visibility
    // buffer, then the `resolve` and `composite` of both phases. Keeps `this`. Contract: addPasses(..., true) first.
    void addLatePasses(std::vector<gpu::Pass>& passes, uint32_t slot);
    // The visibility buffer (the depth pyramid's level 0 reads it: DepthPyramid::bindVisibility).
    VkBuffer visibilityBuffer() const { return visibility_->buffer; }

    // Whether addShadowPasses can draw the casters: a shadow map was given (RasterOptions::shadows)
    // whose texels, 4 bytes each, one storage buffer holds (a 2048 map takes 16 MiB; lavapipe's
    // 128 MiB hold a 5,792 map, the H200's 4 GiB any). Otherwise the technique draws them all.
    bool castsShadows() const { return shadow_depth_->buffer != VK_NULL_HANDLE; }
    // The `shadow` pass of frame slot `slot`: the members of the light's regions (CrowdGpu's
    // `shadow-cull`, recorded just before, less the hardware's share; every member at LOD 0 where
    // the light's view is not culled, `light_culled` false) rasterized in compute from the light
    // (the map's matrix for the slot; `constants`: the frame's time and slot), every level skinned
    // in full as the technique's depth draw does, and copied into the map. The map is then
    // readable, or with `hardware_follows` left as a depth attachment for the technique's depth
    // draw of the hardware's share on top (ShadowMap::shadowPass with `load`). Keeps `this`.
    // Contract: castsShadows().
    void addShadowPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const gpu::shader::DrawConstants& constants,
                         bool light_culled, bool hardware_follows);

    const ClusterChain& clusters() const { return chain_; }

    // Tests: the visibility buffer of the last frame (the device must be idle).
    std::vector<uint64_t> visibility() const;
    // Tests and bench: the vertex cache of the last frame (the device must be idle): its plan,
    // its contents (positions 8 bytes a vertex, normals 4: cached_vertices of them) and what they
    // add up to.
    gpu::shader::RasterPlan plan() const;
    std::vector<gpu::shader::RasterRegion> regions() const; // per (LOD, model): [lod * models + model]
    const std::vector<gpu::shader::RasterModel>& models() const { return models_; }
    std::vector<glm::uvec2> vertexCache(uint64_t vertices) const;
    std::vector<uint32_t> cacheNormals(uint64_t vertices) const; // octahedral, 2 x snorm16
    VertexCacheStats cacheStats() const;
    const gpu::shader::RasterParams& parameters() const { return base_; }

  private:
    using Levels = std::array<bool, THRONG_MAX_LODS>;
    enum class Work { Cache, Full, Coarse }; // the cache pass and the cached raster; the per-cluster raster
    static uint32_t cacheLevels(const gpu::shader::RasterModel& model, bool coarse);
    Levels levelsWith(Work kind, bool coarse) const;
    void recordPlan(VkCommandBuffer cmd, VkBuffer target, uint32_t clear_word, bool late = false) const;
    void recordShadow(VkCommandBuffer cmd, uint32_t slot, bool hardware_follows) const;
    void recordCache(VkCommandBuffer cmd, uint32_t slot, bool coarse) const;
    void recordRaster(VkCommandBuffer cmd, uint32_t slot, bool plan,
                      bool coarse) const; // plan: no cache pass planned the frame
    void recordSkinned(VkCommandBuffer cmd, VkPipeline full, bool coarse, bool late) const;
    void dispatchPerLod(VkCommandBuffer cmd, const Levels& levels, VkDeviceSize plan_offset, VkPipeline pipeline,
                        bool late = false) const;
    void recordLate(VkCommandBuffer cmd, uint32_t slot, bool coarse) const;
    void recordSplats(VkCommandBuffer cmd) const;
    void addResolvePass(std::vector<gpu::Pass>& passes, uint32_t slot);
    void recordResolve(VkCommandBuffer cmd, uint32_t slot, bool cache) const;
    void recordComposite(VkCommandBuffer cmd, uint32_t slot) const;

    gpu::Allocator* allocator_;
    const CrowdGpu* crowd_;
    VkExtent2D extent_{};
    ClusterChain chain_;
    gpu::shader::RasterParams base_{};             // what does not change between frames
    std::vector<gpu::shader::RasterModel> models_; // per model of the crowd (one for one model)
    gpu::OwnedBuffer models_buffer_;               // models_ on the GPU (THRONG_BINDING_RASTER_MODELS)
    bool skinned_ = false;                         // TechniqueInfo::skinned_in_compute: a vertex cache
    bool coarse_ = false;                          // `baked` (TechniqueInfo::coarse_skinning): coarse-skinned levels
    gpu::OwnedBuffer clusters_, cluster_vertices_, cluster_triangles_, resolve_triangles_, triangle_slots_,
        submesh_shading_, submesh_props_, raster_slots_, visibility_, plan_;
    gpu::OwnedBuffer splats_;        // SplatModel per model (THRONG_BINDING_SPLATS; splats.h)
    gpu::OwnedBuffer resolved_;      // uvec4 per pixel: the resolve's colour and depth (THRONG_BINDING_RESOLVED)
    gpu::OwnedBuffer velocity_;      // uint per pixel: its motion (THRONG_BINDING_VELOCITY), with motion vectors
    bool motion_vectors_ = false;    // RasterOptions::previous_records given
    gpu::OwnedBuffer resolve_tiles_; // the composite's draw and tiles (THRONG_BINDING_RESOLVE_TILES)
    gpu::OwnedBuffer lod_vertices_, vertex_slots_, vertex_cache_, cache_normals_, member_slots_;
    gpu::OwnedBuffer swim_;                // SwimParams (uniform), for the procedural variants
    std::vector<gpu::OwnedBuffer> params_; // per slot (host-visible)
    // The shadow pass (castsShadows()): the map's depth as float bits, its parameters per slot
    // (the light's view), its pipeline (the source's per-cluster raster, depth only) and sets.
    const ShadowMap* shadows_ = nullptr;
    gpu::OwnedBuffer shadow_depth_;
    std::vector<gpu::OwnedBuffer> shadow_params_;
    gpu::Unique<VkPipeline> shadow_pipeline_;
    std::vector<VkDescriptorSet> shadow_sets_; // per slot
    // The frame being collected: whether it has a cache pass, its coarse levels (addLatePasses).
    bool frame_cache_ = false;
    bool frame_coarse_ = false;
    gpu::Unique<VkDescriptorSetLayout> set_layout_;
    gpu::Unique<VkPipelineLayout> layout_;
    gpu::Unique<VkPipeline> plan_pipeline_, cache_pipeline_, raster_cached_pipeline_, raster_coarse_pipeline_,
        raster_pipeline_, splat_pipeline_, resolve_pipeline_, resolve_cached_pipeline_, resolve_coarse_pipeline_,
        composite_pipeline_;
    gpu::Unique<VkDescriptorPool> pool_;
    uint32_t textures_ = 1;                  // descriptor sets per slot: one per texture of the asset (white: 1)
    std::vector<VkDescriptorSet> sets_;      // [slot * textures_ + texture]
    std::vector<uint32_t> resolve_textures_; // the textures submeshes sample (at least one): a resolve dispatch each
};

} // namespace throng::render
