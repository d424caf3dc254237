// One crowd and everything that draws it, recorded into someone else's frames: the one place a
// crowd's frame is put together. The headless renderer (renderer.h) drives it with its own
// command buffers and images; the public render API (include/throng/render.h) lets a host
// engine drive it with its own.
//
// Lifetime and threading: made once per (asset, technique, targets' formats); per frame in flight
// `slot` the owner calls, in order, update() (CPU work; the slot's previous frame must have
// finished on the GPU: the owner waited for its fence), record() (into a command buffer the owner
// submits) and, after that submission finished, collect(). Not thread-safe; one queue.
#pragma once

#include "crowd_frame.h"
#include "ground.h"
#include "shadows.h"
#include "target_clear.h"
#include "technique.h"

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace throng::render {

// Makes the motion of one crowd: given the allocator and the members' record buffer it writes.
// Throws gpu::GpuError.
using MotionFactory = std::function<std::unique_ptr<CrowdMotion>(gpu::Allocator& allocator, VkBuffer instances)>;

// Tests only: hooks into what a CrowdRenderer builds (TechniqueSetup's fields of the same names).
struct TestHooks {
    VkBuffer capture = VK_NULL_HANDLE; // world positions per (member, vertex) from the capture shader variants
    uint64_t storage_buffer_limit = 0; // a smaller maxStorageBufferRange than the device's (0: the device's)
};

// A crowd renderer's setup: the crowd's options (throng/options.h: technique, skinning, layers,
// raster, culling, shadows, ...), as render, bench, view and the render API all give them, and
// what the owner of the frames adds: the asset, the members, the targets, the motion.
struct CrowdRendererSetup : throng::CrowdOptions {
    const BakedAsset* baked = nullptr; // CPU-side data: cpu, palette and bonetex, the compute rasterizer, impostors
    // A crowd of several models: each model's source animation (AssetLibrary::sources, in the
    // library's order), which palette, palette-ubo and bonetex pose members from. Outlives the renderer.
    std::span<const AnimationSource> model_sources;
    std::vector<gpu::shader::InstanceRecord> members; // the members as they start
    uint32_t capacity = 0; // records on the GPU (at least members.size()); room for members added later
    // A crowd of several models whose members come and go (the render API): each model's most
    // members at once (its sub-region of the visible list; CrowdGpu). Empty: counted from `members`.
    std::vector<uint32_t> model_capacity;
    std::vector<Bounds> clip_bounds; // per clip, what culling tests (Crowd::clip_bounds)
    VkFormat color_format = VK_FORMAT_R8G8B8A8_SRGB;
    VkFormat depth_format = VK_FORMAT_D32_SFLOAT;
    // Motion vectors (history.h): the format of the targets' velocity image (kVelocityFormat);
    // UNDEFINED: none (FrameTargets::velocity must then be null).
    VkFormat velocity_format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{}; // of every target record() is given (the compute rasterizer's buffers)
    uint32_t frames_in_flight = 2;
    MotionFactory motion; // empty: the members stand (or move by the owner's edits)
    // Where the compute rasterizer (`raster`) or impostors (`cull.impostor_px`) cannot draw this
    // crowd (its technique, the asset, the device): false, create() refuses with the reason (the
    // command line's choice: what was asked or nothing); true, the crowd is drawn without them
    // and notes() says why (the viewer's: a technique switch keeps working under `raster compute`).
    bool fallback = false;
    TestHooks hooks;
};

struct PassTiming {
    std::string name;
    double gpu_ms = 0.0; // median over the timed frames
};

// What one frame cost. GPU times from timestamps: one per pass of the frame, and the whole frame. CPU stages from the
// technique's stats and our clocks.
struct FrameSample {
    std::vector<std::string> pass_names;          // this frame's passes in order (they may differ between frames)
    std::vector<double> gpu_pass_ms;              // per pass of pass_names; empty without GPU times
    double passMs(const std::string& name) const; // 0 when the frame had no such pass
    double gpu_frame_ms = 0.0;
    TechniqueStats cpu;         // sample, skin, upload (ms) and bytes uploaded
    double cpu_record_ms = 0.0; // recording the command buffer
    CullCounts drawn;           // members in the frustum, drawn per LOD, triangles drawn
    // The simulation's steps this frame (its `simulate` pass takes them all; 0: none, or no
    // simulation). A simulation steps at its own rate (1/30 s by default), so at 60 frames a
    // second every other frame takes none: its cost per step is the passes' sum over the steps'.
    uint32_t sim_steps = 0;
};

// The way the sunlight travels unless told otherwise (normalized when used): from above, in
// front and to the right of a member facing +z (elevation 57.4 degrees, azimuth 38.7).
constexpr glm::vec3 kDefaultLight{-0.4f, -1.0f, -0.5f};

// The way light travels from a sun at `azimuth_degrees` about +y (0: from +z, 90: from +x) and
// `elevation_degrees` above the horizon (throng::lightFromAngles).
glm::vec3 lightFromAngles(float azimuth_degrees, float elevation_degrees);
// "AZIMUTH,ELEVATION" in degrees (`--light`, the console's `light`): false unless both are numbers,
// the azimuth within +-3600 and the elevation in 5..90 (throng::parseSunAngles).
bool parseSunAngles(const std::string& text, float& azimuth_degrees, float& elevation_degrees);

// The draw constants a frame starts from: camera, light (the way it travels; any length but 0),
// time and the asset's counts.
gpu::shader::DrawConstants crowdConstants(const glm::mat4& view_projection, float time, const GpuAsset& asset,
                                          const glm::vec3& light_direction = kDefaultLight);

class CrowdRenderer {
  public:
    // Errors: an unknown technique; simulation with a technique that samples poses on the CPU;
    // --raster or --impostors where they cannot run (the reason, unless setup.fallback); out of
    // GPU memory (one line), after freeing what it made. Throws gpu::DeviceLost (here and in the
    // changes below): nothing more can be drawn, and the caller ends with it.
    static Result<std::unique_ptr<CrowdRenderer>> create(gpu::Allocator& allocator, const GpuAsset& asset,
                                                         const CrowdRendererSetup& setup);
    ~CrowdRenderer();
    CrowdRenderer(const CrowdRenderer&) = delete;
    CrowdRenderer& operator=(const CrowdRenderer&) = delete;

    // The members' records as the CPU keeps them (capacity() of them; the first liveMembers()
    // are drawn). Edit them, then say which changed: the next update() uploads those.
    std::span<gpu::shader::InstanceRecord> records() { return records_; }
    void markChanged(uint32_t first, uint32_t count);
    // Motion vectors: record `member` moved without passing through the space between (a spawn, a
    // respawn, a jump): the next frame draws it without motion. Nothing without velocity.
    void teleported(uint32_t member);
    // Motion vectors: record `from` now lies at `to` (a removed member's hole filled): its history follows.
    void moved(uint32_t from, uint32_t to);
    void setLiveMembers(uint32_t live); // <= capacity(); records past it must be zeroed (scale 0)
    uint32_t liveMembers() const { return crowd_->liveMembers(); }
    uint32_t capacity() const { return uint32_t(records_.size()); }
    bool simulated() const { return motion_ != nullptr; }

    // CPU part of frame slot `slot` at `time` seconds seen through `view_projection` (reversed Z),
    // lit by `light_direction` (the way the light travels; not zero). Returns the technique's CPU
    // costs of it.
    TechniqueStats update(uint32_t slot, const glm::mat4& view_projection, float time,
                          const glm::vec3& light_direction = kDefaultLight);
    // Records the slot's passes into `cmd` (outside any rendering): the members' upload when they
    // changed, then the passes of crowd_frame.h, their barriers (gpu::planBarriers: what each
    // reads and writes; a full one before the first, against the earlier frames on the queue)
    // and timestamps.
    // `depth_sampled`: the depth image has SAMPLED usage (occlusion culling needs it).
    // `after`: the caller's passes on the drawn frame (TemporalAA's), recorded after the crowd's
    // with their barriers and timestamps (collect() reports them too).
    // Contract: targets.extent equals the setup's extent; the frame's passes and `after` together
    // at most gpu::kMaxPasses.
    void record(VkCommandBuffer cmd, uint32_t slot, const gpu::FrameTargets& targets, bool depth_sampled,
                std::span<const gpu::Pass> after = {});
    // The slot's last frame, once the GPU finished it: GPU times (when the device has
    // timestamps), what culling drew, CPU costs.
    FrameSample collect(uint32_t slot) const;

    // Changes between frames, each built beside what it replaces: on an error nothing changed.
    // Contract for all four: the GPU finished every frame recorded before (vkDeviceWaitIdle).
    // Who rasterizes from the next record(). Errors: rasterProblem(mode), a GPU failure.
    Status setRaster(Raster mode);
    // Members fewer than `pixels` tall drawn as impostors (0: none), the pass built when first
    // needed. Errors: impostorProblem(), a GPU failure.
    Status setImpostors(float pixels);
    // Culling, LOD and occlusion of the next frames (`impostor_px` is setImpostors()'s).
    void setCull(const CullSettings& cull);
    // The images record() draws into were replaced, by ones of `extent` (a new swapchain): what
    // was built over the old ones goes (the occlusion pyramids), the compute rasterizer is rebuilt
    // for another size. Errors: a GPU failure; the hardware then draws (rasterMode() says so).
    Status setTargets(VkExtent2D extent);

    // Builds now what record() builds the first time it sees `targets` (the occlusion pyramids
    // over its depth image, when `depth_sampled`; the clear by compute, when they have storage
    // views: target_clear.h), so that frames allocate nothing. Throws
    // gpu::GpuError (the caller keeps or drops the renderer).
    void prepareTargets(const gpu::FrameTargets& targets, bool depth_sampled);

    // Why the compute rasterizer cannot draw this crowd in `mode` ("" when it can, and for Hardware).
    std::string rasterProblem(Raster mode) const;
    // Why members cannot be drawn as impostors ("" when they can).
    std::string impostorProblem() const;
    Raster rasterMode() const { return raster_ ? raster_mode_ : Raster::Hardware; }      // in effect
    float impostorPixels() const { return impostors_ ? setup_.cull.impostor_px : 0.0f; } // in effect
    const CullSettings& cull() const { return setup_.cull; }
    // With CrowdRendererSetup::fallback: what create() left out and why, one line each
    // ("raster compute: ...; the hardware draws this crowd", "impostors: ...; members are drawn as meshes").
    const std::vector<std::string>& notes() const { return notes_; }

    std::string_view techniqueName() const { return technique_->name(); }
    const CrowdGpu& crowd() const { return *crowd_; }
    // Whether the crowd holds several models (GpuAsset::ranges; asset_library.h).
    bool mixed() const { return asset_->ranges.size() > 1; }
    VertexCacheStats vertexCacheStats() const;                  // the compute rasterizer's (zero without one)
    const ShadowMap* shadows() const { return shadows_.get(); } // null without shadows

  private:
    CrowdRenderer(gpu::Allocator& allocator, const GpuAsset& asset, const CrowdRendererSetup& setup);
    void build();                                      // throws gpu::GpuError, or Refused for a refused setup
    std::unique_ptr<ComputeRaster> makeRaster() const; // throws gpu::GpuError
    gpu::TargetFormats targetFormats() const;
    std::unique_ptr<ImpostorPass> makeImpostors() const; // throws gpu::GpuError
    struct Slot;
    void ensurePyramid(Slot& slot, const gpu::FrameTargets& targets); // throws gpu::GpuError
    void readyPyramidLevelZero() const;                               // throws gpu::GpuError

    struct Slot {
        gpu::Unique<VkQueryPool> queries; // kPassTimestamps, or none without timestamps
        gpu::OwnedBuffer staging;         // the members' upload (host-visible), made on the first edit
        uint32_t upload_first = 0, upload_count = 0;
        std::unique_ptr<DepthPyramid> pyramid; // over the depth image it last saw
        VkImage pyramid_depth = VK_NULL_HANDLE;
        std::vector<std::string> passes;
        TechniqueStats cpu;
        double record_ms = 0.0;
        uint32_t sim_steps = 0;
        glm::mat4 view_projection{1.0f};
        float time = 0.0f;
        glm::vec3 light = kDefaultLight;
    };

    gpu::Allocator* allocator_;
    const GpuAsset* asset_;
    CrowdRendererSetup setup_;
    std::vector<gpu::shader::InstanceRecord> records_;
    std::vector<glm::uvec2> model_clips_;          // a crowd of several models: each one's clips (first, count)
    uint32_t changed_first_ = 0, changed_end_ = 0; // records changed since the last update()
    BakedAssetMesh mesh_;
    std::unique_ptr<ShadowMap> shadows_;
    std::unique_ptr<Ground> ground_; // CrowdOptions::ground, or ShadowSettings::ground with shadows; else null
    Bounds member_area_; // the members' box (shadows or the ground without a given area), kept with the records
    // The box shadows and the ground cover: ShadowSettings::area when given, else the members'.
    bool givenArea() const { return setup_.shadows.area.min != setup_.shadows.area.max; }
    const Bounds& area() const { return givenArea() ? setup_.shadows.area : member_area_; }
    bool member_area_stale_ = true;
    std::unique_ptr<CrowdGpu> crowd_;
    std::unique_ptr<CrowdMotion> motion_;
    std::unique_ptr<MemberHistory> history_; // with motion vectors (setup.velocity_format)
    std::unique_ptr<Technique> technique_;
    std::unique_ptr<ComputeRaster> raster_;
    std::unique_ptr<ImpostorPass> impostors_;
    Raster raster_mode_ = Raster::Hardware; // raster_'s mode (Compute or Auto)
    std::vector<std::string> notes_;
    std::shared_ptr<const PyramidPipelines> pyramid_pipelines_;
    std::unique_ptr<TargetClear> clear_; // made when targets with storage views first come (target_clear.h)
    std::vector<Slot> slots_;
};

} // namespace throng::render
