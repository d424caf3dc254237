// Headless rendering of a crowd: an offscreen colour + depth target, frames in flight, GPU
// timestamps per pass (when the device has them), readback of the last frame.
#pragma once

#include "crowd_renderer.h"

#include <throng/camera.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace throng::render {

constexpr uint32_t kFramesInFlight = 2;

// A headless render: the crowd's options (CrowdRendererSetup: technique, skinning, layers,
// raster, culling, shadows, motion, ...; renderCrowd() fills in the members, clip bounds,
// formats, extent and frames in flight from its arguments) and what the headless frames add.
struct RenderSettings : CrowdRendererSetup {
    uint32_t width = 1280;
    uint32_t height = 720;
    float time = 0.0f; // seconds; the last frame is rendered at this time
    uint32_t frames =
        3; // frames rendered (the first compiles pipelines on some drivers); timings: median of frames 2..N
    bool readback = true;            // copy the last frame back (off for benchmarks)
    float frame_step = 1.0f / 60.0f; // time between frames; frame i is at time - (frames - 1 - i) * frame_step
    float settle_seconds = 0.0f;     // frame 0 again until this much time has passed (CrowdJob::settle_seconds)
    // Tests: render with the capture shader variants and return every vertex's world position
    // (RenderOutput::positions), nothing culled. Needs exactly one frame and Context::vertex_stores.
    bool capture = false;
    glm::vec3 light_direction = kDefaultLight; // the way the sunlight travels (normalized when used)
    bool read_shadow_map = false;              // tests: RenderOutput::shadow_map and shadow_light
    bool read_depth = false;                   // tests: RenderOutput::depth (with readback)
    // Motion vectors (history.h): the frames get a velocity target (kVelocityFormat) and, with
    // readback, RenderOutput::velocity is the last frame's.
    bool velocity = false;
    // Temporal anti-aliasing (taa.h): frames drawn through jittered projections, with motion
    // vectors, blended into an accumulated picture that replaces each frame's colour. Converges
    // over throng::kTaaFrames frames (the caller asks for them).
    bool taa = false;
    // The colour and velocity targets made with storage views and cleared by a compute pass
    // (target_clear.h: the graphics units of an H100 or H200 clear slowly). Tests: false clears
    // them by the first graphics pass's load op; the pictures are the same.
    bool clear_by_compute = true;
    // Tests: the pictures of the last `keep_frames` frames too (RenderOutput::kept), with readback.
    uint32_t keep_frames = 0;
    // Called before each frame is recorded with (frame, frames): progress for long runs. May be empty.
    std::function<void(uint32_t, uint32_t)> progress;
    // Tests: before frame i's update(), edit the members (CrowdRenderer::records, markChanged,
    // teleported) and return its view-projection (empty: the one renderCrowd was given).
    std::function<glm::mat4(uint32_t frame, CrowdRenderer& renderer)> before_frame;
};

struct RenderOutput {
    std::vector<uint8_t> rgba; // width * height * 4, top row first, sRGB
    uint32_t width = 0;
    uint32_t height = 0;
    std::vector<PassTiming> passes;  // every pass any frame had, in order, medians of `frames` after the first (0 where
                                     // a frame lacked it); empty without GPU times
    std::vector<FrameSample> frames; // every frame, in order
    bool gpu_times = true;           // false when the device writes no timestamps: no pass times, gpu_frame_ms 0
    uint64_t triangles = 0;          // drawn in the last frame (after culling and LOD)
    uint64_t submitted_triangles = 0; // every member at full detail: what a frame without culling draws
    CullCounts drawn;                 // the last frame's
    std::vector<float> shadow_map;    // RenderSettings::read_shadow_map: the last frame's, row-major (reversed Z)
    std::vector<float> depth;         // RenderSettings::read_depth: the last frame's, as rgba (reversed Z: 0 empty)
    // RenderSettings::velocity: the last frame's motion vectors, as rgba: each pixel's position
    // minus where its surface was in the frame before, in pixels (y down); 0 where nothing moved
    // or nothing of the crowd is.
    std::vector<glm::vec2> velocity;
    std::vector<std::vector<uint8_t>> kept; // RenderSettings::keep_frames: those frames' rgba, in order
    glm::mat4 shadow_light{1.0f};           // ...and the light's view-projection it was drawn with
    VertexCacheStats vertex_cache;          // the compute rasterizer's, the last frame's (zero without one)

    std::string technique;            // the technique's own name (with its variant)
    Raster raster = Raster::Hardware; // who rasterized it (CrowdRenderer::rasterMode: Auto may fall back)
    std::vector<std::string> notes;   // what the crowd draws otherwise than asked (CrowdRenderer::notes)
    // With RenderSettings::capture: instance-major, asset.vertex_count per instance; w = 1 where
    // the vertex shader ran, NaN where no draw referenced the vertex.
    std::vector<glm::vec4> positions;
};

// The colour format of the headless frames (and the viewer's with TAA): shaders write linear, the
// PNG's bytes come out sRGB.
constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_SRGB;

// The clear colour of every crowd image.
constexpr VkClearColorValue kBackground = {{0.42f, 0.55f, 0.70f, 1.0f}};

// The camera looking at the crowd's bounds from the front, above, framing all of it (the
// overview), and its view-projection.
Camera overviewCamera(const Bounds& bounds, float aspect);
glm::mat4 frameBounds(const Bounds& bounds, float aspect);

// Renders `crowd` with `settings.technique` and reads the last frame back. Errors: an unknown
// technique; capture asked for with several frames or without vertex stores; a GPU failure (out
// of memory, a lost device: gpu::GpuError's one line), after freeing everything it made.
Result<RenderOutput> renderCrowd(gpu::Allocator& allocator, const GpuAsset& asset, const Crowd& crowd,
                                 const glm::mat4& view_projection, const RenderSettings& settings);

} // namespace throng::render
