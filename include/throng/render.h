// throng/render.h — a throng crowd drawn inside a host engine's Vulkan frame.
//
// The host owns Vulkan: its instance, physical device, device and queue (RenderDevice). throng
// creates only its own objects on that device (buffers, images, pipelines, descriptor pools, a
// command pool for uploads, query pools), with the host's allocation callbacks when given, and
// frees them when the CrowdRenderer is destroyed. throng calls Vulkan through the loader it is
// linked with (libvulkan), so the host's device must come from the same loader.
//
// Frame model (frames in flight, like the host's own):
//   renderer->update(slot, input);        CPU part: member edits, camera, time, CPU techniques.
//                                         The slot's previous frame must have finished on the
//                                         GPU (the host waited for its fence).
//   renderer->record(cmd, slot, target);  throng's passes (compute and draw) recorded into the
//                                         host's command buffer, outside any rendering.
//   ... host submits cmd on the RenderDevice's queue; after its fence:
//   renderer->stats(slot);                GPU ms per pass, members visible, triangles.
//
// Synchronization: record() begins with a full memory barrier (every earlier write on the queue
// before any of throng's reads or writes) and puts before each of its passes the barrier what
// that pass reads and writes needs (docs/GPU_DRIVEN.md); it ends after
// its last pass with the colour image in COLOR_ATTACHMENT_OPTIMAL and the depth image in
// DEPTH_ATTACHMENT_OPTIMAL, written by colour-attachment and depth-attachment writes (and, with
// occlusion culling, read by compute): the host's next pass needs only its usual barrier from
// those stages. Depth is reversed Z (cleared to 0, compare GREATER); a host drawing into the same
// depth image uses the same convention. CrowdRenderer::create submits uploads on the queue and
// waits for them (the queue must not be used by another thread meanwhile); after that throng's
// GPU work is only what record() puts into the host's command buffers.
//
// Errors are values (Result); nothing here throws. Each has a message and a kind (ErrorKind,
// throng/result.h: bad input, out of device or host memory, device lost, unsupported, another
// GPU failure). A lost device or out-of-memory during update()/record() is reported by the next
// stats() (FrameStats::error and error_kind) and the renderer draws nothing after it.
#pragma once

#include <throng/api.h>
#include <throng/baked.h>
#include <throng/options.h>
#include <throng/result.h>
#include <throng/technique.h>

#include <vulkan/vulkan.h>

#include <glm/glm.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

THRONG_API_BEGIN
namespace throng {

namespace gpu {
struct Context;
}

// The host's device.
struct RenderDevice {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical_device = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queue_family = 0; // must support graphics and compute; the queue record()'s buffers go to
    uint32_t queue_index = 0;
    const VkAllocationCallbacks* allocation_callbacks = nullptr; // optional
    // The feature chain the host passed to vkCreateDevice (VkPhysicalDeviceFeatures2 with
    // VkPhysicalDeviceVulkan12Features and VkPhysicalDeviceVulkan13Features chained). Required:
    // dynamicRendering and synchronization2. Used when enabled: drawIndirectCount +
    // multiDrawIndirect + drawIndirectFirstInstance (GPU culling and LOD), shaderInt64 +
    // shaderBufferInt64Atomics (the compute rasterizer), hostQueryReset, shaderInt16.
    // DeviceFeatures below fills such a chain.
    const VkPhysicalDeviceFeatures2* enabled_features = nullptr;
};

// The features throng can use that `physical` has, as a chain ready for VkDeviceCreateInfo::pNext
// (chain()). A host merges these into its own chain, or passes chain() as it is.
class DeviceFeatures {
  public:
    explicit DeviceFeatures(VkPhysicalDevice physical);
    DeviceFeatures(const DeviceFeatures&) = delete; // the chain points into this object
    DeviceFeatures& operator=(const DeviceFeatures&) = delete;
    const VkPhysicalDeviceFeatures2* chain() const { return &features_; }

  private:
    VkPhysicalDeviceFeatures2 features_{};
    VkPhysicalDeviceVulkan12Features v12_{};
    VkPhysicalDeviceVulkan13Features v13_{};
};

// A crowd drawn in the host's frames: the crowd's options (throng/options.h: technique,
// skinning, layers, raster, culling, shadows, ...; every technique of throng/technique.h, each
// with what its TechniqueInfo says it can do) and what the renderer needs of the host.
// Layers follow the members' MemberId; shadows' area, when empty, is the members' box, refitted
// when they change (simulated: the layout's); members drawn as impostors cast shadows but are not
// darkened by them.
// One model of a crowd of several (CrowdRendererDesc::models; issue #25, docs/MIXED_CROWDS.md).
struct CrowdModel {
    const BakedAsset* asset = nullptr; // required; must outlive the renderer
    uint32_t max_members = 1024;       // members of this model at once; addMember() fails past it
};

struct CrowdRendererDesc : CrowdOptions {
    // Required (or `models`); must outlive the renderer. Props (swords, hats: throng/attach.h) are
    // attached to it before: attachProps(asset, ...); which members carry them follows their MemberId.
    const BakedAsset* asset = nullptr;
    // A crowd of several models instead of `asset` (leave it null): one culling pass and one set of
    // draws for all; a Member names its model. max_members is then their sum (the field is not
    // read). Such a crowd is drawn by the techniques with TechniqueInfo::mixed_crowds (those that
    // skin from baked animation or draw the rest mesh, and palette and bonetex, which pose each
    // member from its own model's source animation, without layers; mixedCrowdProblem), without
    // impostors; at most kMaxCrowdModels models and 4,096 clips together. Simulated, throng deals
    // the members to the models in the proportions of their max_members, each walking with its
    // own clips and speeds.
    std::vector<CrowdModel> models;
    uint32_t max_members = 1024;   // GPU buffers are this large; addMember() fails past it
    uint32_t frames_in_flight = 2; // slots update()/record() take: 0 .. frames_in_flight - 1
    VkFormat color_format = VK_FORMAT_R8G8B8A8_SRGB;
    VkFormat depth_format = VK_FORMAT_D32_SFLOAT;
    // Motion vectors (RenderTarget::velocity): VK_FORMAT_R16G16_SFLOAT or VK_FORMAT_R32G32_SFLOAT;
    // UNDEFINED: none. Each pixel the crowd covers gets its motion since the last frame recorded:
    // its position minus where the same point of the member was then, in pixels (x right, y down,
    // as framebuffer coordinates: a pixel at p came from p - v). Measured against the last
    // frame's view_projection and time and each member as that frame drew it (throng keeps a
    // copy of the members' records: 48 bytes a member, and copies them each frame). A member
    // added, or one the host says teleported(), has none that frame. Written by every pass that
    // draws into the target: the compute rasterizer's (a second skinning of each pixel's
    // triangle in the resolve; a splat moves as its centre), every technique's draws (each
    // vertex placed twice), impostors (their quads) and the ground (CrowdOptions::ground; the camera's
    // motion). Every technique's vectors carry its limbs' motion too: pose poses each member a
    // second time as the last frame drew it (a second palette buffer); palette, palette-ubo and
    // bonetex keep the last frame's poses on the CPU and upload them beside this frame's; cpu
    // skins the last frame's positions again.
    // Pixels throng does not draw keep what the target held (cleared: 0).
    VkFormat velocity_format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{}; // of every RenderTarget (required)
    // The crowd simulation on the GPU moves the members (walkers, or a school for the techniques
    // that swim; TechniqueInfo::members_on_gpu): the renderer lays out max_members members itself
    // (seeded) and the host cannot edit them.
    bool simulate = false;
    uint64_t seed = 1;
    // Animation events of a simulated crowd (eventsBetween): a CPU copy of the simulation takes
    // the GPU's steps (bit for bit the same) and logs the events its members reach, at the cost
    // of a CPU step per step (tens of ms a step for 100,000 members). Host-driven crowds need it not.
    bool simulation_events = false;
};

// A stable name for a member; stays valid until removeMember().
struct MemberId {
    uint32_t value = ~0u;
    bool operator==(const MemberId&) const = default;
};

struct Member {
    glm::vec3 position{0.0f};
    float heading = 0.0f; // radians about +y
    float scale = 1.0f;
    uint32_t model = 0;       // index into CrowdRendererDesc::models (0 with one asset)
    uint32_t clip = 0;        // index into its model's clips
    float time_offset = 0.0f; // seconds added to the clip's time (phase)
    float speed = 1.0f;       // playback rate
    uint32_t blend_clip = 0;  // cross-fade target
    float blend = 0.0f;       // weight of blend_clip, 0..1
    glm::vec4 tint{1.0f};     // RGBA, multiplies the colour (not of materials a look colours)
    // Its seed for what it wears (a kit's parts, throng/attach.h) and its colours (looks,
    // throng/looks.h): keyFor() finds one that dresses it as wished. 0: its id's (id + 1).
    uint32_t key = 0;
};

// An animation event (throng/events.h) a member reached.
struct MemberEvent {
    MemberId member;    // a simulated crowd's members: MemberId{index}
    uint32_t model = 0; // its model (CrowdRendererDesc::models; 0 with one asset)
    uint32_t clip = 0;  // the model's clip
    uint32_t event = 0; // index into its BakedClip::events
    double time = 0.0;  // the frame time (FrameInput::time) at which the member reached it
};

// The host's images for one frame.
struct RenderTarget {
    VkImage color = VK_NULL_HANDLE; // CrowdRendererDesc::color_format, COLOR_ATTACHMENT usage
    VkImageView color_view = VK_NULL_HANDLE;
    VkImage depth = VK_NULL_HANDLE; // depth_format, DEPTH_STENCIL_ATTACHMENT usage (+ SAMPLED: depth_sampled)
    VkImageView depth_view = VK_NULL_HANDLE;
    VkExtent2D extent{}; // CrowdRendererDesc::extent
    // The layouts the images are in when record()'s commands run. UNDEFINED: throng clears the
    // image (colour to `clear`, depth to 0); any other layout: throng draws over what is there.
    VkImageLayout color_layout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageLayout depth_layout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkClearColorValue clear{{0.42f, 0.55f, 0.70f, 1.0f}};
    bool depth_sampled = false; // the depth image has SAMPLED usage: occlusion culling can run
    // With CrowdRendererDesc::velocity_format (required then, null otherwise): the motion vectors,
    // COLOR_ATTACHMENT usage, a second colour attachment of throng's passes; its layout as the
    // colour's (UNDEFINED: cleared to 0), left in COLOR_ATTACHMENT_OPTIMAL.
    VkImage velocity = VK_NULL_HANDLE;
    VkImageView velocity_view = VK_NULL_HANDLE;
    VkImageLayout velocity_layout = VK_IMAGE_LAYOUT_UNDEFINED;
};

// The way the sunlight travels by default (throng normalizes it): from above, in front and to
// the right of a member facing +z; lightFromAngles(38.66f, 57.39f).
constexpr glm::vec3 kDefaultLightDirection{-0.4f, -1.0f, -0.5f};
// How members are lit (src/shaders/lit_body.glsl, two-sided): colour times kAmbientLight + (1 -
// kAmbientLight) * max(dot(n, -light), 0), n the normal facing the viewer.
constexpr float kAmbientLight = 0.35f;
// The way light travels from a sun at `azimuth_degrees` about +y (0: from +z, 90: from +x) and
// `elevation_degrees` above the horizon.
glm::vec3 lightFromAngles(float azimuth_degrees, float elevation_degrees);
// "AZIMUTH,ELEVATION" in degrees (`--light`): false unless both are numbers, the azimuth within
// +-3600 and the elevation in 5..90.
bool parseSunAngles(const std::string& text, float& azimuth_degrees, float& elevation_degrees);

struct FrameInput {
    glm::mat4 view_projection{1.0f}; // world to clip space, Vulkan conventions, reversed Z (near -> 1)
    float time = 0.0f;               // seconds
    // The way the light travels (any length but 0; finite): shading and shadows follow it. A
    // bad one stops the frame with a reason in stats().error, as a bad slot does.
    glm::vec3 light_direction = kDefaultLightDirection;
};

struct PassStats {
    // In the order a frame has them (each only when the frame needs it): members (edits
    // uploaded), simulate, upload or pose (the technique's own), shadow-cull, shadow, ground,
    // cull, draw, cache, raster, resolve, pyramid, cull-late, draw-late, impostors.
    std::string name;
    double gpu_ms = 0.0;
};

struct FrameStats {
    bool gpu_times = false;            // the queue writes timestamps
    std::vector<PassStats> passes;     // in order; empty without GPU times
    double gpu_ms = 0.0;               // the whole of record()'s commands
    uint32_t members = 0;              // live members
    uint32_t visible = 0;              // in the frustum
    uint32_t occluded = 0;             // in the frustum but hidden (not drawn)
    uint32_t impostors = 0;            // drawn as impostors
    uint32_t splats = 0;               // drawn as splats (CullSettings::splat_px)
    std::array<uint32_t, 8> per_lod{}; // drawn at each level of detail
    uint64_t triangles = 0;            // drawn
    double cpu_update_ms = 0.0;        // update()'s CPU techniques (sampling, skinning, uploads)
    double cpu_record_ms = 0.0;
    std::string error; // a GPU failure met by update() or record() (then the renderer is stopped)
    ErrorKind error_kind = ErrorKind::BadInput; // its kind, when there is one (throng/result.h)
};

class CrowdRenderer {
  public:
    // Errors: a missing asset or extent, frames_in_flight 0, an unknown technique or raster
    // mode, a technique the asset or device cannot draw (the reason), the device lacking what
    // is required, out of GPU memory; after freeing everything it made.
    static Result<std::unique_ptr<CrowdRenderer>> create(const RenderDevice& device, const CrowdRendererDesc& desc);
    // Frees throng's objects. Contract: the GPU has finished every frame record() went into.
    ~CrowdRenderer();
    CrowdRenderer(const CrowdRenderer&) = delete;
    CrowdRenderer& operator=(const CrowdRenderer&) = delete;

    // The crowd (not while simulating). Edits take effect at the next update().
    // Errors: the renderer (or the member's model) is full (max_members), a model past the crowd's, a
    // clip past its model's, a simulated crowd.
    Result<MemberId> addMember(const Member& member);
    Status setMember(MemberId id, const Member& member); // error: an unknown id, a bad model or clip, a full model
    Status removeMember(MemberId id);                    // error: an unknown id
    std::optional<Member> member(MemberId id) const;
    // Motion vectors: the member's last setMember() moved it without passing through the space
    // between (a respawn, a cut): the next frame draws it without motion. Error: an unknown id.
    Status teleported(MemberId id);
    uint32_t memberCount() const;

    // The animation events members reached while the frame time went from t0 (excluded) to t1
    // (included), in time order, computed on the CPU from the clip time the shaders use (no GPU
    // readback): pass the last frame's time and this one's and every event comes once, across
    // loops and speed changes. A member reports the events of the clip it mostly shows (`clip`
    // while blend < 0.5, else blend_clip) as it is now. Simulated crowds: the events of the steps
    // taken so far (kept 60 s), with CrowdRendererDesc::simulation_events, at the simulation's
    // times: ask between successive clock() readings. Errors: a simulated crowd without
    // simulation_events.
    Result<std::vector<MemberEvent>> eventsBetween(double t0, double t1) const;
    // The members' clock after the last record(): FrameInput::time for a host-driven crowd; for
    // a simulated one with simulation_events the simulation's (the whole steps taken, which the
    // frame was drawn at; without: FrameInput::time).
    double clock() const;

    void update(uint32_t slot, const FrameInput& input);
    void record(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& target);
    // The host's targets changed (its swapchain recreated, the window resized): call once the GPU
    // has finished every frame record() drew into the old images, before recording into the new
    // ones. Drops what throng keeps over the old depth images (the occlusion pyramids: a new image
    // may reuse an old one's handle) and, for another extent, rebuilds what has the targets' size
    // (the compute rasterizer's buffers); RenderTarget::extent must be `extent` from then on.
    // Errors: a zero extent (nothing changes); out of GPU memory (the renderer is stopped, as
    // after any GPU failure: stats().error).
    Status setTargets(VkExtent2D extent);
    // The slot's last frame; call after the GPU finished it.
    FrameStats stats(uint32_t slot) const;

    std::string technique() const; // with its variant, e.g. "baked (image)"

    struct State;

  private:
    CrowdRenderer() = default;
    std::unique_ptr<State> state_;
};

} // namespace throng
THRONG_API_END
