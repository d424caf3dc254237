// The crowd on the GPU (docs/GPU_DRIVEN.md, sections 2-4): the members' records, the visible
// list every vertex shader reads its member through (member.glsl), and the `cull` pass that
// fills that list each frame with the members in the frustum, each at the LOD its size on
// screen needs, plus the indirect draws of every (submesh, LOD) that has members.
//
// With occlusion culling (a DepthPyramid given to addPasses) culling runs in two phases around
// the draw: `cull` takes the members the last frame drew (frustum only), the technique draws
// them, the `pyramid` pass reduces their depth, `cull-late` tests every member against it and
// the technique draws, in `draw-late`, those now visible that the first phase did not draw
// (render/crowd_frame.h puts the passes in that order). Nothing visible is missing in any frame;
// a member hidden for a frame costs its test only. The crowd's first culled frame, which has no
// last frame, is culled by the frustum only and marks what the next one starts from.
//
// The visible list holds THRONG_MAX_LODS regions of `members` slots (LOD l from l * members)
// and after them the identity region (member i at identity_base + i), written once: a frame
// without culling draws every member at LOD 0 from there; then the impostor region (members
// drawn as impostors, from impostorBase()); with a light's view, then one more region per LOD
// (from lightBase()), filled by addLightPasses() for the shadow map (shadows.h). A crowd of
// several models (GpuAsset::ranges, asset_library.h) splits each LOD region into one sub-region
// per model, as long as its members (CullAsset: first_slot, capacity), counted per (model, LOD)
// (throngRegionCount); the identity region then holds each model's members together.
#pragma once

#include "crowd.h"
#include "depth_pyramid.h"
#include "gpu_asset.h"

#include "../gpu/owned.h"
#include "../gpu/passes.h"

#include <throng/options.h>

#include <algorithm>
#include <array>
#include <memory>
#include <span>

namespace throng::render {

// CullSettings: throng/options.h.

// What one culled frame drew: members in the frustum, and members drawn per LOD.
struct CullCounts {
    uint32_t in_frustum = 0;
    uint32_t occluded = 0;  // in the frustum, hidden by occlusion culling (not drawn)
    uint32_t impostors = 0; // drawn as impostors (not in per_lod)
    uint32_t splats = 0;    // drawn as splats (not in per_lod; CullSettings::splat_px)
    uint32_t hardware = 0;  // of per_lod[0], drawn by the hardware with auto (HardwareShare)
    std::array<uint32_t, THRONG_MAX_LODS> per_lod{};
    // Drawn: per LOD its members times its triangles, a part's or prop's (kits, --attach) counted
    // at its share of the members (the members who wear it draw it; an expectation where the
    // counts are per level, not per member).
    uint64_t triangles = 0;
};

// Which culled members the technique's indirect draws cover; the compute rasterizer
// (render/compute_raster.h) draws the others.
struct HardwareShare {
    uint32_t lods = THRONG_MAX_LODS; // the members at LODs below this (0: none, compute draws all)
    // With lods == 1 (`--raster auto`): of LOD 0 only the members whose sphere is at least this many
    // pixels across, 0: all of LOD 0. See autoShare().
    float lod0_px = 0.0f;
};

// `--raster auto`'s share for a model whose LOD 0 has `lod0_triangles`: the hardware draws a
// member where its triangles are large, `triangle_px` pixels each or more
// (CullSettings::hardware_triangle_px). A member whose sphere is P pixels across covers about
// P^2 / 4 pixels (a standing figure fills a quarter of the square around it), with half of its
// triangles facing the eye: P^2 / (2 * triangles) pixels a triangle. Smaller ones the compute
// rasterizer draws faster (on the H200 the hardware draws 1.2 G triangles/s, the compute
// rasterizer 20-110 G/s where triangles are a few pixels). At the default 16 pixels the walker
// (9,600 triangles) goes to the hardware from 554 pixels across, CesiumMan (4,672) from 387.
HardwareShare autoShare(uint64_t lod0_triangles, float triangle_px);

// One LOD as the GPU draws it: an index range per submesh (same order as GpuAsset::submeshes).
struct LodRanges {
    float error = 0.0f;             // model units
    std::vector<glm::uvec2> ranges; // (first index, index count)
};

// An error naming `what` when one storage buffer of `bytes` exceeds `limit` (the device's
// maxStorageBufferRange, or a test's smaller one), so an absurd crowd fails with a clear message
// instead of a validation error or a lost device.
Status checkStorageRange(uint64_t limit, uint64_t bytes, const std::string& what);

// The LODs of `asset` (at most THRONG_MAX_LODS; one, the mesh itself, when it has none).
std::vector<LodRanges> assetLods(const GpuAsset& asset);
uint64_t lodTriangles(const LodRanges& lod);

// The culling pass's pipelines and layouts. Built once and shared by the CrowdGpus of one owner:
// a viewer rebuilds its crowd on every change, and compiling pipelines each time costs time and,
// on lavapipe, memory that is never given back.
struct CullPipelines {
    gpu::Unique<VkDescriptorSetLayout> set_layout;
    gpu::Unique<VkPipelineLayout> layout;
    gpu::Unique<VkPipeline> cull, draws;
    // Occlusion culling (where the device can build a depth pyramid): set 1 holds the pyramid.
    gpu::Unique<VkDescriptorSetLayout> pyramid_set_layout;
    gpu::Unique<VkPipelineLayout> late_layout;
    gpu::Unique<VkPipeline> cull_late;
};
// Throws gpu::GpuError. Contract: context.indirect_count. Counts taken per subgroup where the
// context has subgroup_counts; the second form chooses (tests: both variants; contract then:
// !subgroup_counts || context.subgroup_counts).
std::shared_ptr<const CullPipelines> createCullPipelines(const gpu::Context& context);
std::shared_ptr<const CullPipelines> createCullPipelines(const gpu::Context& context, bool subgroup_counts);

class CrowdGpu {
  public:
    // `cull_bounds`: per clip, the model-space box culling tests (Crowd::clip_bounds, or a
    // technique's own, e.g. padded by the swim of `procedural`). `slots`: frames in flight.
    // `pipelines`: shared ones, or null to build its own (when the device can cull).
    // Throws gpu::GpuError (out of memory, storage buffers past the device's limits).
    // `light_view`: room for culling against a light's view too (addLightPasses).
    // `model_capacity`: for a crowd of several models, each one's most members at once (empty:
    // the members of each in `members`); their sum at most members.size().
    // `part_boxes`: where models have kit parts or props, the boxes culling unites per member by
    // what it wears (part_culling.h; GpuAsset::part_boxes grown as the technique grows
    // `cull_bounds`); empty: `cull_bounds` alone.
    CrowdGpu(gpu::Allocator& allocator, const GpuAsset& asset, std::span<const gpu::shader::InstanceRecord> members,
             std::span<const Bounds> cull_bounds, uint32_t slots,
             std::shared_ptr<const CullPipelines> pipelines = nullptr, bool light_view = false,
             std::span<const uint32_t> model_capacity = {}, const PartBoxes& part_boxes = {});

    VkBuffer instances() const { return instances_->buffer; }
    VkBuffer visible() const { return visible_->buffer; }
    VkBuffer countsBuffer() const {
        return counts_->buffer;
    } // THRONG_COUNTS uints, + 16 a model for several (shared.h)
    // The member records (the buffer's capacity: every stride and region is this long).
    uint32_t members() const { return members_; }
    // Members culling looks at: records 0 .. live - 1 (default: all). A host that removes members
    // keeps the live ones first and zeroes the rest (scale 0: a frame that draws every record
    // draws those as points, invisible). Contract: live <= members().
    void setLiveMembers(uint32_t live) { live_ = std::min(live, members_); }
    uint32_t liveMembers() const { return live_; }
    uint32_t identityBase() const { return identity_base_; }
    uint32_t impostorBase() const { return impostor_base_; }
    // The impostors' indexed indirect draw (DrawCommand), written by the culling pass: the 6
    // indices of a quad per member of the impostor region.
    VkBuffer impostorDraw() const { return impostor_draw_->buffer; }
    // The device can cull (Context::indirect_count); without it every frame draws every member.
    bool canCull() const { return can_cull_; }

    // Adds the `cull` pass of frame slot `slot` when `settings` asks for culling or LOD and the
    // device can, and remembers for drawSubmesh() whether this frame is culled. With `pyramid`
    // (the frame's, over a viewport of its extent), settings.cull and settings.occlusion, the
    // frame is occlusion-culled: this pass is its early phase and addLatePasses() adds the late.
    // `hardware`: what the indirect draws cover (the compute rasterizer draws the rest).
    void addPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const glm::mat4& view_projection, VkExtent2D viewport,
                   const CullSettings& settings, const DepthPyramid* pyramid = nullptr, HardwareShare hardware = {});
    bool culled() const { return culled_; }
    // The `shadow-cull` pass of frame slot `slot`: the members inside the light's view
    // `light_view_projection` (orthographic), each at the LOD its size in the map of
    // `map_size` texels needs, into the light's regions; drawSubmesh() then draws those until the
    // next culling pass is recorded. Adds nothing (the shadow draws every member) when `settings`
    // do not cull. Goes before the frame's addPasses() with the same settings (which then counts
    // afresh). Contract: made with `light_view`.
    // `hardware`: what the light's indirect draws cover (the compute rasterizer's shadow pass draws
    // the rest).
    void addLightPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const glm::mat4& light_view_projection,
                        uint32_t map_size, const CullSettings& settings, HardwareShare hardware = {});
    uint32_t lightBase() const { return light_base_; }
    // Whether the last addLightPasses() added the culling pass (else the shadow draws every member).
    bool lightCulled() const { return light_culled_; }
    bool occluding() const { return occluding_; }
    // The `cull-late` pass of an occlusion-culled frame (after the `pyramid` pass). Contract:
    // occluding().
    void addLatePasses(std::vector<gpu::Pass>& passes, uint32_t slot);

    // Draws submesh `submesh` of the asset: with this frame culled, every LOD that has members
    // in the phase whose `cull` or `cull-late` pass was recorded last (vkCmdDrawIndexedIndirectCount),
    // else members first .. first + count - 1 at LOD 0 through the identity region. Pipeline,
    // index buffer, sets and constants are bound by the caller.
    void drawSubmesh(VkCommandBuffer cmd, uint32_t submesh, uint32_t first, uint32_t count) const;

    // The counts of the slot's last culled frame, once its fence has signalled; without culling
    // every member at LOD 0.
    CullCounts counts(uint32_t slot) const;

    // Tests: what the last culling pass left on the GPU (the device must be idle).
    struct Snapshot {
        uint32_t in_frustum = 0;
        uint32_t occluded = 0;
        std::vector<std::vector<uint32_t>> members;  // per LOD, in slot order (both phases)
        std::vector<gpu::shader::DrawCommand> draws; // per submesh, its draw_counts[s] draws (first phase)
        std::vector<uint32_t> draw_counts;
        std::vector<uint32_t> drawn;     // per member: 1 when the last frame drew it (or had it in its frustum)
        std::vector<uint32_t> impostors; // the impostor region, in slot order
        gpu::shader::DrawCommand impostor_draw{}; // its indexed indirect draw
    };
    Snapshot snapshot() const;
    const std::vector<LodRanges>& lods() const { return lods_; }
    const GpuAsset& asset() const { return *asset_; }
    // Whether the crowd holds several models (then it is culled every frame: addPasses).
    bool mixed() const { return cull_assets_.size() > 1; }
    // The crowd's models as culling reads them (one: the whole list).
    const std::vector<gpu::shader::CullAsset>& models() const { return cull_assets_; }
    // The model whose submeshes hold `submesh` (0 for one model).
    uint32_t modelOfSubmesh(uint32_t submesh) const;
    // Model `model`'s triangles at level `lod` (every part's), and every live member's at LOD 0
    // together.
    uint64_t modelTriangles(uint32_t model, uint32_t lod) const;
    // What a member of model `model` draws at level `lod` on average: its parts' and props'
    // triangles weighed by their shares.
    double wornTriangles(uint32_t model, uint32_t lod) const;
    uint64_t fullDetailTriangles() const;

  private:
    void recordCull(VkCommandBuffer cmd, uint32_t slot, uint32_t phase) const;
    gpu::shader::CullParams viewParams(const glm::mat4& view_projection, VkExtent2D viewport,
                                       const CullSettings& settings, HardwareShare hardware) const;
    void writeSet(VkDescriptorSet set, VkBuffer params) const;
    // Words of the counts buffer: THRONG_COUNTS, and for several models a count and an early
    // count per (model, LOD) and per model of auto's hardware share (throngRegionCount,
    // throngRegionEarly, throngRegionHardware, throngRegionHardwareEarly).
    size_t countWords() const {
        return THRONG_COUNTS + (cull_assets_.size() > 1 ? (2 * THRONG_MAX_LODS + 2) * cull_assets_.size() : 0);
    }

    gpu::Allocator* allocator_;
    const GpuAsset* asset_;
    uint32_t members_ = 0;
    uint32_t live_ = 0;
    uint32_t identity_base_ = 0;
    uint32_t impostor_base_ = 0;
    uint32_t light_base_ = 0; // 0: no light's view
    bool can_cull_ = false;
    bool culled_ = false;
    bool light_culled_ = false;
    uint64_t culled_frames_ = 0; // culled frames collected so far (the first is not occlusion-culled)
    bool occluding_ = false;
    mutable uint32_t recorded_phase_ = THRONG_CULL_PHASE_ALL; // of the culling pass recorded last
    std::vector<LodRanges> lods_;
    std::vector<gpu::shader::CullAsset> cull_assets_; // per model (cullAssets)
    std::vector<bool> slot_culled_;
    gpu::OwnedBuffer assets_; // cull_assets_ on the GPU
    gpu::OwnedBuffer instances_, bounds_, visible_, counts_, ranges_, draws_, draw_counts_, drawn_, impostor_draw_;
    std::vector<gpu::OwnedBuffer> params_;       // per slot: CullParams (host-visible)
    std::vector<gpu::OwnedBuffer> light_params_; // per slot: the light's view's CullParams
    std::vector<VkDescriptorSet> light_sets_;    // per slot: sets_ with light_params_
    std::vector<gpu::OwnedBuffer> readback_;     // per slot: the counts, copied for the host
    std::shared_ptr<const CullPipelines> pipelines_;
    gpu::Unique<VkDescriptorPool> pool_;
    std::vector<VkDescriptorSet> sets_;         // per slot
    std::vector<VkDescriptorSet> pyramid_sets_; // per slot, set 1 of cull-late (written by addPasses)
};

// Per model of `asset` (one for a plain asset), what culling reads: its levels' errors (at most
// `lods`' count), its sub-region of each LOD region (`model_capacity` slots, or as many as the
// members of `members` that name it; in model order; one model: all of the region) and its
// submeshes. Throws gpu::GpuError naming a member whose model is past the asset's, or
// capacities that do not fit the members.
std::vector<gpu::shader::CullAsset> cullAssets(const GpuAsset& asset, const std::vector<LodRanges>& lods,
                                               std::span<const gpu::shader::InstanceRecord> members,
                                               std::span<const uint32_t> model_capacity = {});

// The six frustum planes of `view_projection` (inward normals, normalized; Vulkan's 0..w depth).
std::array<glm::vec4, 6> frustumPlanes(const glm::mat4& view_projection);

} // namespace throng::render
