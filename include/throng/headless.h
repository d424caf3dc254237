// throng/headless.h — throng's own headless renders of a crowd it lays out itself: what
// `throng render` and `throng bench` run, for tools, tests and benchmarks. A host engine that
// draws a crowd inside its own frames uses throng/render.h (CrowdRenderer) instead; both record
// the same passes.
#pragma once

#include <throng/api.h>
#include <throng/camera.h>
#include <throng/options.h>
#include <throng/render.h>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

THRONG_API_BEGIN
namespace throng {

// A standalone device for tools, tests and headless hosts: throng creates (and destroys) the
// instance and the device, picking the best GPU (or the one whose name contains `device_name`).
struct HeadlessDeviceOptions {
    bool validation = false; // VK_LAYER_KHRONOS_validation; validationErrors() counts what it reports
    std::string device_name; // substring, case-insensitive; empty: the best device
};
class HeadlessDevice {
  public:
    // Errors: no Vulkan loader or driver, no device with Vulkan 1.3, dynamic rendering and
    // synchronization2, no device matching the name (those found are listed).
    static Result<std::unique_ptr<HeadlessDevice>> create(const HeadlessDeviceOptions& options = {});
    ~HeadlessDevice(); // waits for the device; every CrowdRenderer on it must be gone
    HeadlessDevice(const HeadlessDevice&) = delete;
    HeadlessDevice& operator=(const HeadlessDevice&) = delete;

    const RenderDevice& device() const { return device_; }
    VkQueue queue() const;
    std::string name() const;   // the GPU's name
    std::string driver() const; // the driver's name and version
    struct Capabilities {
        bool timestamps = false;        // GPU times per pass
        bool gpu_culling = false;       // culling and LOD on the GPU (drawIndirectCount)
        bool occlusion_culling = false; // and its depth pyramid
        bool compute_raster = false;    // 64-bit buffer atomics: the compute rasterizer
        bool cpu = false;               // a CPU device (lavapipe): no clocks to settle (CrowdJob::settle_seconds)
    };
    Capabilities capabilities() const;
    uint32_t validationErrors() const; // 0 without validation
    // Destroys the device and returns every validation error seen, including the objects the
    // layers found still alive when the device went (leaks).
    static uint32_t release(std::unique_ptr<HeadlessDevice> device);

    struct State;
    friend gpu::Context& headlessContext(HeadlessDevice& device); // the headless renderer's (src/api/headless_device.h)

  private:
    HeadlessDevice() = default;
    RenderDevice device_;
    std::unique_ptr<State> state_;
};

// The technique names, in the order tools list them (techniques(), throng/technique.h).
std::vector<std::string> techniqueNames();
// Whether the technique reads the members on the GPU only (so they may be simulated there):
// TechniqueInfo::members_on_gpu.
bool techniqueReadsMembersOnGpu(const std::string& technique);
// Whether `technique` blends layers (CrowdJob::layers): TechniqueInfo::takes_layers.
bool techniqueTakesLayers(const std::string& technique);

// A member as a headless job laid it out (CrowdJobResult::members): what another engine needs to
// draw the same crowd (`throng render --members FILE`, examples/godot-crowd). At the render's
// `time` it plays `clip` at time * speed + time_offset (each clip looping or clamped as baked),
// cross-faded into `blend_clip` at the same time by `blend`; its model-space pose is rotated by
// `rotation`, scaled by `scale` and moved to `position`; `tint` multiplies its colours.
struct LaidOutMember {
    glm::vec3 position{0.0f};
    glm::vec4 rotation{0.0f, 0.0f, 0.0f, 1.0f}; // unit quaternion (x, y, z, w), as the GPU reads it (halves)
    float scale = 1.0f;
    uint32_t model = 0;                // index into the job's models (0 with one)
    uint32_t clip = 0, blend_clip = 0; // its model's clips
    float blend = 0.0f, time_offset = 0.0f, speed = 1.0f;
    glm::vec4 tint{1.0f}; // RGBA, as the GPU reads it (8 bits a channel)
};

// A headless render of a crowd throng lays out itself: the crowd's options (throng/options.h:
// technique, skinning, layers, raster, culling, shadows, ...) and the job's own.
struct CrowdJob : CrowdOptions {
    // Where the baked animation lives (TechniqueInfo::animation_storage)
    AnimationStorage animation = AnimationStorage::Auto;
    uint32_t members = 1000; // laid out on a grid (a volume for those that swim), seeded
    uint64_t seed = 1;
    // A crowd of several models (renderCrowd with a list of them): each model's share of the
    // members, one positive amount per model taken relative to their sum; empty: equal shares.
    std::vector<float> model_shares;
    // Each model scaled so that its bind pose's largest extent is this many units (models made in
    // other units side by side: a Fox in centimetres beside a walker in metres); 0: as made.
    float model_size = 0.0f;
    ViewKind view = ViewKind::Overview;
    // A camera of the caller's choosing (throng/camera.h) instead of `view`; a depth range of
    // 0 and 0 is fitted to the crowd's box (cameraFitting).
    std::optional<Camera> camera;
    uint32_t width = 1280, height = 720;
    float time = 0.0f;   // seconds; the last frame is drawn at this time
    uint32_t frames = 3; // frame i at time - (frames - 1 - i) * frame_step
    float frame_step = 1.0f / 60.0f;
    // Frame 0 is drawn again until this much wall-clock time has passed (its last drawing is the
    // one reported): a GPU that sat idle while the crowd was built lowers its clocks and raises
    // them only under load, slower than a few frames (on an H100, the SM clock fell from 1980 MHz
    // to 345-765 MHz between `bench` series and stayed there through 13 frames: every pass 2-4 x
    // slower). `throng bench --settle` sets it on GPUs (not on a CPU device: Capabilities::cpu).
    float settle_seconds = 0.0f;
    bool readback = true;        // the last frame's pixels in CrowdJobResult::rgba
    bool report_members = false; // the crowd as laid out in CrowdJobResult::members
    bool simulate = false;       // the crowd simulation moves the members (TechniqueInfo::members_on_gpu)
    // Motion vectors (CrowdRendererDesc::velocity_format): every frame writes a velocity target
    // (RG16F); with readback the last frame's is CrowdJobResult::velocity.
    bool velocity = false;
    // Temporal anti-aliasing (docs/IN_MOTION.md section 2): every frame drawn through a projection
    // jittered by a sub-pixel Halton offset, with motion vectors, and blended into the picture
    // accumulated over the frames before (reprojected by the vectors, clamped to the frame's own
    // neighbourhood, dropped where the depth shows the surface was hidden); the last frame's
    // picture is the accumulated one, and its motion vectors (with velocity) include the
    // jitter's change from the frame before (under a pixel). It converges over about kTaaFrames
    // frames: ask for that many (`render --aa taa` does).
    bool taa = false;
    glm::vec3 light_direction = kDefaultLightDirection; // the way the sunlight travels (lightFromAngles)
    // Called before each frame is recorded with (frame, frames). May be empty.
    std::function<void(uint32_t, uint32_t)> progress;
};

constexpr uint32_t kTaaFrames = 48; // CrowdJob::taa: the frames to converge (about twice 1 / its blend weight)

struct CrowdCounts {
    uint32_t in_frustum = 0, occluded = 0, impostors = 0, splats = 0; // splats: CullSettings::splat_px
    std::array<uint32_t, 8> per_lod{};
    uint64_t triangles = 0;
};

// The compute rasterizer's vertex cache in the last frame (zero without one).
struct VertexCacheReport {
    uint64_t capacity_bytes = 0, cached_members = 0, cached_vertices = 0, uncached_members = 0;
    uint64_t cache_pass_bytes = 0;  // the least its pass must write
    uint64_t raster_read_bytes = 0; // the rasterizer's reads of it
};

struct JobFrame {
    std::vector<std::string> pass_names;
    std::vector<double> gpu_pass_ms; // per pass_names; empty without GPU times
    double gpu_frame_ms = 0.0;
    double sample_ms = 0.0, skin_ms = 0.0, upload_ms = 0.0; // the technique's CPU stages
    uint64_t upload_bytes = 0;
    double record_ms = 0.0;
    CrowdCounts drawn;
    // The simulation's steps this frame (its `simulate` pass; 0 on some frames: it steps at 30 Hz).
    uint32_t sim_steps = 0;
    double passMs(const std::string& name) const; // 0 when the frame had no such pass
};

struct CrowdJobResult {
    std::vector<uint8_t> rgba; // width * height * 4, top row first, sRGB (with readback)
    // CrowdJob::velocity with readback: per pixel as rgba, its motion since the frame before in
    // pixels (x right, y down): this frame's position minus the last's; 0 where nothing moved.
    std::vector<glm::vec2> velocity;
    uint32_t width = 0, height = 0;
    std::vector<PassStats> passes; // every pass any frame had; medians of the frames after the first
    std::vector<JobFrame> frames;
    bool gpu_times = false;
    uint64_t triangles = 0;           // drawn in the last frame
    uint64_t submitted_triangles = 0; // every member at full detail
    CrowdCounts drawn;                // the last frame's
    VertexCacheReport vertex_cache;
    std::string technique; // with its variant
    // The asset on the GPU (e.g. a texture that would not decode), and what the crowd draws
    // otherwise than asked (e.g. "--raster auto: ...; the hardware draws this crowd").
    std::vector<std::string> warnings;
    Raster raster = Raster::Hardware; // who rasterized the crowd (CrowdJob::raster auto may fall back)
    uint64_t gpu_memory_bytes = 0;    // the most throng's allocator held
    // The camera the frames were drawn from (CrowdJob::camera with its range fitted, or the
    // view's) and its view-projection (throng/camera.h; without TAA's jitter).
    Camera camera;
    glm::mat4 view_projection{1.0f};
    // CrowdJob::report_members: every member as laid out (before a simulation moves them).
    std::vector<LaidOutMember> members;
};

// A picture of motion vectors (CrowdJobResult::velocity, RGBA8 as CrowdJobResult::rgba): each
// pixel's direction of motion as its hue (right red, down yellow-green, left cyan, up violet:
// the angle of (x, y) with y down, around the colour wheel) and its length as its brightness,
// full at `scale` pixels and beyond (0: the 99th percentile of the lengths over 0, at least one
// pixel; the scale used is returned in `scale`); no motion black.
std::vector<uint8_t> velocityPicture(std::span<const glm::vec2> velocity, float& scale);

// Errors: a bad name (technique), an enum out of its range, what the technique, the
// asset or the device cannot do (the reason), out of GPU memory or a lost device; one line each.
Result<CrowdJobResult> renderCrowd(HeadlessDevice& device, const BakedAsset& asset, const CrowdJob& job);

// One crowd of several models (issue #25, docs/MIXED_CROWDS.md), each member dealt one by
// job.model_shares: one culling pass, one set of draws or one visibility buffer (either
// rasterizer), with the techniques that have TechniqueInfo::mixed_crowds (mixedCrowdProblem),
// simulated or not (as the technique allows), without impostors. One model: the function above. Errors: those above; no
// models, more than 256, shares that are not one positive finite amount per model, models the crowd cannot hold
// together (AssetLibrary).
Result<CrowdJobResult> renderCrowd(HeadlessDevice& device, std::span<const BakedAsset* const> models,
                                   const CrowdJob& job);

// The device's memory bandwidth in GB/s, read plus written, by a compute copy of a buffer sized
// from its largest device-local heap (0 without timestamps). Errors: GPU failures.
Result<double> measureCopyBandwidth(HeadlessDevice& device);

} // namespace throng
THRONG_API_END
