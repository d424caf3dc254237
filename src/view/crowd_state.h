// The crowd on screen as one value, CrowdState, and LiveCrowd, which holds what a state is built
// into (the asset on the GPU, the instances, the technique) and changes it as a transaction:
// everything a new state implies is built beside the current one, and only once all of it exists
// does it replace the current one; on any failure nothing changes and the current state stays
// usable. Needs no window: a gpu::Allocator and the colour and depth formats the technique draws
// into (the viewer's swapchain, or a test's images).
#pragma once

#include "scene.h"

#include "../render/renderer.h"
#include "../render/shadows.h"
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
    // How palette and baked blend a vertex's joints; the other techniques refuse DualQuaternion.
    render::Skinning skinning = render::Skinning::Linear;
    bool operator==(const CrowdState&) const = default;
};

// What every state is built with, fixed for a LiveCrowd's life but for the colour format.
struct CrowdSetup {
    gpu::Allocator* allocator = nullptr;
    VkFormat color_format = VK_FORMAT_UNDEFINED;
    VkFormat depth_format = VK_FORMAT_UNDEFINED;
    uint32_t frames_in_flight = render::kFramesInFlight;
    uint64_t seed = 1; // the crowd's layout, clips, phases and tints
    render::PaletteEncoding encoding = render::PaletteEncoding::Matrix;
    // `--layer` texts: applied while the technique blends layers (render::techniqueTakesLayers;
    // the others draw without them).
    std::vector<std::string> layers;
    // Progress ("baking half...") and the upload's warnings ("warning: ..."), as they happen. May be empty.
    std::function<void(const std::string&)> log;
};

class LiveCrowd {
  public:
    LiveCrowd(Scene scene, CrowdSetup setup);
    ~LiveCrowd() { release(); }
    LiveCrowd(const LiveCrowd&) = delete;
    LiveCrowd& operator=(const LiveCrowd&) = delete;

    // Uploads the scene's baked asset, then builds `first` as apply() does. False: lastError() says
    // why. Contract: called once, first; the allocator exists.
    bool start(const CrowdState& first);

    // The transaction. Builds everything `want` implies beside the current state: the asset baked
    // again when the scene's model was imported and `want` needs another precision or vertex
    // animation (vat), the instances, the shadow map (want.shadows, over the crowd's bounds), the
    // technique; then waits for the device to be done with the current state (vkDeviceWaitIdle)
    // and replaces it. False when anything fails (an unknown technique, vat on a .throng file
    // without vertex animation, a clip the asset lacks, a shadow map size the device refuses
    // (render::checkShadowSettings), a bake, out of GPU or host memory): lastError() says why,
    // everything built for `want` is freed and the current state is as it was. Throws
    // gpu::DeviceLost: nothing more can be drawn. Contract: start() succeeded.
    bool apply(const CrowdState& want);

    // The colour format later builds draw into (a new swapchain's); builds nothing.
    void setColorFormat(VkFormat format) { setup_.color_format = format; }
    // Drops the technique: technique() is null and no crowd is drawn until the next apply(). For a
    // technique that could not be rebuilt for a new colour format.
    void dropTechnique() { technique_.reset(); }

    // The frame's CPU work for frame slot `slot` at `time` seconds, and what it cost; nothing (zero
    // costs) without a technique.
    render::TechniqueStats update(uint32_t slot, float time);

    // Frees everything, the technique first (it points into the members and the asset). The GPU
    // must be done with them. Idempotent.
    void release();

    const CrowdState& state() const { return state_; } // what technique(), crowd() and asset() were built from
    render::Technique* technique() const { return technique_.get(); } // null before start() and after dropTechnique()
    const render::Crowd& crowd() const { return *crowd_; }            // contract: started
    render::CrowdGpu* crowdGpu() const { return crowd_gpu_.get(); }   // the members on the GPU; null before start()
    render::CrowdMotion* motion() const { return motion_.get(); }     // the simulation; null when not simulated
    // The shadow map the technique and crowdGpu() were made with; null without shadows. The owner
    // updates it (ShadowMap::update, over crowd().bounds) each frame slot before recording.
    render::ShadowMap* shadows() const { return shadows_.get(); }
    const AssetOnGpu& asset() const { return *asset_; } // contract: started (or start() got past the upload)
    const std::string& techniqueName() const { return technique_name_; } // as it names itself: `palette (quat)`
    const std::string& lastError() const { return last_error_; }         // why the last start()/apply() failed
    const Scene& scene() const { return scene_; }
    // The animation events (throng/events.h) members reached while the crowd's clock() went from
    // t0 to t1, counted by name. A simulated crowd's come from a CPU copy of its steps, made when
    // the asset has events and the crowd has at most kMaxMirroredMembers members (else none).
    std::vector<std::pair<std::string, size_t>> eventCounts(double t0, double t1) const;
    // The members' clock: the last update()'s time, or a simulated crowd's own (whole steps).
    double clock() const;
    static constexpr uint32_t kMaxMirroredMembers = 200'000;

    // Drawn in the frame slot `slot` last held (after culling and LOD); contract: started.
    uint64_t triangles(uint32_t slot) const { return crowd_gpu_ ? crowd_gpu_->counts(slot).triangles : 0; }

  private:
    bool fail(std::string why); // false, with last_error_ = why
    // Null when it fails: last_error_ says why.
    std::unique_ptr<AssetOnGpu> upload(BakedAsset baked);
    std::unique_ptr<AssetOnGpu> rebake(Precision precision, bool vat);

    Scene scene_;
    CrowdSetup setup_;
    // Destroyed in reverse by release(): the technique points into the crowd, the shadow map and
    // the asset; crowd_gpu_ was made for the shadow map (a light's view).
    std::unique_ptr<AssetOnGpu> asset_;
    std::unique_ptr<render::Crowd> crowd_;
    std::unique_ptr<render::ShadowMap> shadows_;                  // state_.shadows > 0 only
    std::shared_ptr<const render::CullPipelines> cull_pipelines_; // built once, shared by every crowd_gpu_
    std::unique_ptr<render::CrowdGpu> crowd_gpu_;                 // the technique draws its members
    std::shared_ptr<const sim::SimPipelines> sim_pipelines_;      // built once, shared by every motion_
    std::unique_ptr<render::CrowdMotion> motion_;                 // moves crowd_gpu_'s members (state_.simulate)
    std::shared_ptr<sim::EventMirror> events_;                    // its events (eventCounts), or null
    float clock_ = 0.0f; // the time of the last update(): a new simulation starts there
    std::unique_ptr<render::Technique> technique_;
    CrowdState state_;
    std::string technique_name_;
    std::string last_error_;
};

} // namespace throng::view
