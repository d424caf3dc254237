// throng/view.h — `throng view`: the crowd in a window (GLFW + Vulkan swapchain) with a Dear ImGui overlay: a
// technique switcher and crowd controls, an FPS counter, a time ruler of CPU stages and GPU
// passes, and the debug console (console.h), scriptable with --exec and --frames.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace throng::view {

struct ViewerOptions {
    std::string model = "builtin:walker"; // a .throng file, a model file, or builtin:NAME
    uint32_t instances = 1000;
    uint64_t seed = 1;
    std::string technique = "baked";
    // Which techniques read these: their TechniqueInfo (throng/technique.h).
    // Joint texels (texel_precision: bonetex) and the baked animation (imported models).
    std::string precision = "float";
    std::string encoding = "mat"; // mat | quat (encodes_joints: palette, palette-ubo)
    // linear | dual-quaternion (dual_quaternion: palette, palette-ubo, baked, pose; console: skinning)
    std::string skinning = "linear";
    // CLIP@JOINT[,WEIGHT][@SHARE%] each (takes_layers: cpu, palette, palette-ubo, bonetex, pose)
    std::vector<std::string> layers;
    float fps = 30.0f;            // baking rate for imported models
    std::string present = "fifo"; // fifo | mailbox | immediate (mailbox falls back to immediate, then fifo)
    std::string exec;             // console commands separated by ';', one per frame from the first
    uint32_t frames = 0;          // quit after this many frames (0: when the window closes)
    bool console = false;         // start with the console open
    uint32_t width = 1280, height = 720;
    bool validate = false;         // validation layers; any error makes the exit code 1
    std::string device;            // device name substring
    std::string view = "overview"; // overview | street (render::ViewKind)
    bool cull = true;              // frustum culling on the GPU
    bool lod = true;               // LOD chosen on the GPU
    float lod_error = 1.0f;        // pixels
    bool occlusion = true;         // occlusion culling on the GPU (with cull)
    bool coarse_skinning = true;   // baked: coarsest LODs skinned coarsely (with lod)
    bool simulate = false;         // members move on the GPU (src/sim/)
    std::string raster =
        "hardware"; // who rasterizes the crowd: hardware | compute | auto (render::RasterMode; console: raster)
    uint64_t vertex_cache_bytes = ~uint64_t(0); // the compute rasterizer's vertex cache (~0: render::kVertexCacheAuto)
    float impostor_px = 0.0f; // members fewer pixels tall drawn as animated impostors (0: none; console: impostors)
    // Shadows of the crowd on itself and on a ground under it: the shadow map's texels a side (0: none;
    // --shadows on: 2048; console: shadows). A size the device refuses starts the viewer without them.
    uint32_t shadows = 0;
    std::string light;               // --light AZIMUTH,ELEVATION in degrees (empty: the default sun; console: light)
    std::vector<std::string> attach; // props on joints (--attach JOINT=MODEL[,offset][@share%]; throng/attach.h)
    std::string root_motion; // models baked at start: JOINT or auto takes root motion out (throng/root_motion.h)
    std::vector<std::string> events; // models baked at start: auto | FILE.json events (console: events)
};

// Runs until the window closes, `quit`, or `frames`. Returns the process exit code: 1 on a
// load, device or window failure (one line on stderr; with no display it suggests `throng
// render`), on validation errors, or when a scripted (--exec) command failed; else 0.
int runViewer(const ViewerOptions& options);

} // namespace throng::view
