// The crowd on screen as one value, CrowdState, and LiveCrowd, which holds what a state is built
// into (the asset on the GPU, the members' layout, and one render::CrowdRenderer: the same object
// that draws the crowds of `throng render`, `bench` and the render API) and changes it as a
// transaction: everything a new state implies is built beside the current one, and only once all
// of it exists does it replace the current one; on any failure nothing changes and the current
// state stays usable. Needs no window: a gpu::Allocator, the colour and depth formats and the
// size of the targets the crowd is drawn into (the viewer's swapchain, or a test's images).
#pragma once

#include "scene.h"

#include "../render/crowd_renderer.h"
#include "../render/renderer.h"
#include "../sim/motion.h"

#include <functional>
#include <memory>
#include <string>

namespace throng::view {

// What the console changes about the crowd.
struct CrowdState {
    std::string technique;
    uint32_t instances = 0;
    int clip = -1;                            // -1: the seeded mixed crowd; else every member plays this clip
    Precision precision = Precision::Float32; // bonetex texels; an imported model is baked again at it
    bool simulate = false; // members move on the GPU (src/sim/; techniques baked, vat, procedural, static)
    // Shadows of the crowd on itself and on a ground under it (render/shadows.h): the shadow map's
    // texels a side, 0: none.
    uint32_t shadows = 0;
    // How palette, palette-ubo, baked and pose blend a vertex's joints; the others refuse DualQuaternion.
    Skinning skinning = Skinning::Linear;
    // Who rasterizes. Where the compute rasterizer cannot draw the crowd (its technique, the
    // device) the hardware does, with a line saying why; the state keeps what was asked, so the
    // next crowd it can draw is rasterized in compute again. The viewer starts from its options'
    // (CrowdOptions::raster: auto by default); a state made here without them draws by hardware.
    Raster raster = Raster::Hardware;
    // Members fewer pixels tall drawn as impostors (0: none); likewise drawn as meshes, with a
    // line saying why, where they cannot be.
    float impostor_px = 0.0f;
    // Temporal anti-aliasing (render/taa.h): the renderer draws motion vectors, into the colour
    // format render::kColorFormat (the viewer's own image, which the TAA pass reads) instead of
    // the setup's.
    bool taa = false;
    bool operator==(const CrowdState&) const = default;
};

// What every state is built with, fixed for a LiveCrowd's life but for the colour format.
struct CrowdSetup {
    gpu::Allocator* allocator = nullptr;
    VkFormat color_format = VK_FORMAT_UNDEFINED;
    VkFormat depth_format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{}; // of the targets record() draws into (setTargets() changes it)
    uint32_t frames_in_flight = render::kFramesInFlight;
    uint64_t seed = 1;       // the crowd's layout, clips, phases and tints
    float model_size = 0.0f; // render::CrowdLayout::model_size: each model scaled to it (0: as made)
    // The crowd's options every state is drawn with (the viewer's command line), but for what the
    // state says (technique, skinning, precision, raster, impostors, shadows). Layers apply while
    // the technique takes them (TechniqueInfo::takes_layers); culling changes with setCull().
    CrowdOptions options;
    // Progress ("baking half...") and the upload's warnings ("warning: ..."), as they happen. May be empty.
    std::function<void(const std::string&)> log;
};

class LiveCrowd {
  public:
    LiveCrowd(Scene scene, CrowdSetup setup);
    // A crowd of several models (docs/MIXED_CROWDS.md): each scene one model, `shares` each one's
    // share of the members (empty: equal); one scene: the constructor above.
    LiveCrowd(std::vector<Scene> scenes, std::vector<float> shares, CrowdSetup setup);
    ~LiveCrowd() { release(); }
    LiveCrowd(const LiveCrowd&) = delete;
    LiveCrowd& operator=(const LiveCrowd&) = delete;

    // Uploads the scenes' baked assets (several: as one library), then builds `first` as apply() does. False:
    // lastError() says why. Contract: called once, first; the allocator exists.
    bool start(const CrowdState& first);

    // The transaction. Builds everything `want` implies beside the current state: the asset baked
    // again when the scene's model was imported and `want` needs another precision or vertex
    // animation (vat), the members' layout, the simulation, and the crowd's renderer
    // (render::CrowdRenderer::create: the technique, culling, the shadow map over the crowd's
    // bounds, the compute rasterizer, impostors); then waits for the device to be done with the
    // current state (vkDeviceWaitIdle) and replaces it. A change of `raster` or `impostor_px` alone
    // rebuilds only that pass (a simulated crowd keeps walking). What the renderer left out (the
    // compute rasterizer or impostors where they cannot draw this crowd) is logged, one line each.
    // False when anything fails (an unknown technique, vat on a .throng file without vertex
    // animation, a clip the asset lacks, a shadow map size the device refuses, a bake, out of GPU
    // or host memory): lastError() says why, everything built for `want` is freed and the current
    // state is as it was. Throws gpu::DeviceLost: nothing more can be drawn. Contract: start()
    // succeeded.
    bool apply(const CrowdState& want);

    // Why the compute rasterizer cannot draw the current crowd in `mode` ("" when it can).
    std::string rasterProblem(Raster mode) const;
    // Why the current crowd's members cannot be drawn as impostors ("" when they can).
    std::string impostorProblem() const;

    // The colour format later builds draw into (a new swapchain's); builds nothing, but the next
    // apply() rebuilds the renderer when it differs from the one it was built for.
    void setColorFormat(VkFormat format) { setup_.color_format = format; }
    // The targets record() draws into from now on (a new swapchain's: its depth image and
    // extent; the colour image may change every frame): every build prepares for them
    // (render::CrowdRenderer::prepareTargets), so that frames allocate nothing. Contract: the
    // device is idle. A compute rasterizer that cannot be rebuilt leaves the hardware drawing,
    // with a logged line. Throws gpu::GpuError when what the targets need cannot be made.
    void setTargets(const gpu::FrameTargets& targets, bool depth_sampled);
    // Culling, LOD and occlusion of the next frames (kept across changes). Their impostor_px is
    // not read: the state's is (state().impostor_px).
    void setCull(const CullSettings& cull);
    const CullSettings& cull() const { return setup_.options.cull; }
    // Drops the renderer: nothing is drawn (record() clears) until the next apply(). For a
    // technique that could not be rebuilt for a new colour format.
    void dropRenderer() { renderer_.reset(); }

    // The frame's CPU work for frame slot `slot` at `time` seconds, seen through
    // `view_projection`, lit by `light` (the way it travels); what it cost. Nothing without a renderer.
    render::TechniqueStats update(uint32_t slot, const glm::mat4& view_projection, float time, const glm::vec3& light);
    // Records the slot's frame of the crowd into `cmd` (render::CrowdRenderer::record: the colour
    // and depth cleared first, left in their attachment layouts); without a renderer only the
    // clear. `depth_sampled`: the depth image can be sampled (occlusion culling).
    // `after`: the caller's passes after the crowd's (render::CrowdRenderer::record; the TAA pass).
    void record(VkCommandBuffer cmd, uint32_t slot, const gpu::FrameTargets& targets, bool depth_sampled,
                std::span<const gpu::Pass> after = {});
    // The slot's last frame once the GPU finished it: GPU times per pass, what culling drew, CPU costs.
    render::FrameSample collect(uint32_t slot) const;

    // Frees everything, the renderer first (it points into the asset). The GPU must be done with
    // them. Idempotent.
    void release();

    const CrowdState& state() const { return state_; } // what renderer(), crowd() and asset() were built from
    // Null before start() and after dropRenderer().
    const render::CrowdRenderer* renderer() const { return renderer_.get(); }
    const render::Crowd& crowd() const { return *crowd_; } // the layout; contract: started
    const AssetOnGpu& asset() const { return *asset_; }    // contract: started (or start() got past the upload)
    const std::string& techniqueName() const { return technique_name_; } // as it names itself: `palette (quat)`
    const std::string& lastError() const { return last_error_; }         // why the last start()/apply() failed
    const Scene& scene() const { return scenes_[0]; }                    // the first model's
    const std::vector<Scene>& scenes() const { return scenes_; }
    // The scenes' sources for messages: "builtin:walker", or "walker.glb + fish.glb".
    std::string sources() const {
        std::string out;
        for (const Scene& s : scenes_) out += (out.empty() ? "" : " + ") + s.source;
        return out;
    }
    // The animation events (throng/events.h) members reached while the crowd's clock() went from
    // t0 to t1, counted by name. A simulated crowd's come from a CPU copy of its steps, made when
    // the asset has events and the crowd has at most kMaxMirroredMembers members (else none).
    std::vector<std::pair<std::string, size_t>> eventCounts(double t0, double t1) const;
    // The members' clock: the last update()'s time, or a simulated crowd's own (whole steps).
    double clock() const;
    static constexpr uint32_t kMaxMirroredMembers = 200'000;

    // Drawn in the frame slot `slot` last held (after culling and LOD); contract: started.
    uint64_t triangles(uint32_t slot) const { return renderer_ ? renderer_->crowd().counts(slot).triangles : 0; }

  private:
    bool fail(std::string why); // false, with last_error_ = why
    void log(const std::string& line) const;
    // Null when it fails: last_error_ says why.
    std::unique_ptr<AssetOnGpu> upload(std::vector<BakedAsset> models);
    std::unique_ptr<AssetOnGpu> rebake(Precision precision, bool vat);
    // apply() when only `raster` or `impostor_px` change.
    bool applyPasses(const CrowdState& want);
    // The colour format a renderer for `state` draws into.
    VkFormat colorFormatFor(const CrowdState& state) const {
        return state.taa ? render::kColorFormat : setup_.color_format;
    }

    std::vector<Scene> scenes_; // at least one
    std::vector<float> shares_; // per scene, or empty: equal
    CrowdSetup setup_;
    // Destroyed in reverse by release(): the renderer points into the asset.
    std::unique_ptr<AssetOnGpu> asset_;
    std::unique_ptr<render::Crowd> crowd_;
    std::shared_ptr<const sim::SimPipelines> sim_pipelines_; // built once, shared by every simulation
    std::shared_ptr<sim::EventMirror> events_;               // a simulated crowd's events (eventCounts), or null
    float clock_ = 0.0f; // the time of the last update(): a new simulation starts there
    std::unique_ptr<render::CrowdRenderer> renderer_;
    VkFormat built_format_ = VK_FORMAT_UNDEFINED; // the colour format renderer_ draws into
    gpu::FrameTargets targets_;                   // setTargets()'s (its depth image)
    bool depth_sampled_ = false;
    CrowdState state_;
    std::string technique_name_;
    std::string last_error_;
};

} // namespace throng::view
