// throng/view.h — `throng view`: the crowd in a window (GLFW + Vulkan swapchain) with a Dear ImGui overlay: a
// technique switcher and crowd controls, an FPS counter, a time ruler of CPU stages and GPU
// passes, and the debug console (console.h), scriptable with --exec and --frames.
#pragma once

#include <throng/options.h>

#include <cstdint>
#include <string>
#include <vector>

namespace throng::view {

// The crowd's options (throng/options.h) it starts with (the console changes them: technique,
// skinning, raster, impostors, culling, shadows), and the viewer's own. bone_precision is also the
// precision an imported model is baked at. A shadow map size the device refuses starts the viewer
// without shadows.
struct ViewerOptions : CrowdOptions {
    std::string model = "builtin:walker"; // a .throng file, a model file, or builtin:NAME (the first of `models`)
    // A crowd of several models (issue #25): every model, and each one's share of the members
    // (empty: equal shares). Empty: `model` alone.
    std::vector<std::string> models;
    std::vector<float> shares;
    float model_size = 0.0f; // each model scaled so its bind pose's largest extent is this (0: as made)
    uint32_t instances = 1000;
    uint64_t seed = 1;
    float fps = 30.0f;            // baking rate for imported models
    std::string present = "fifo"; // fifo | mailbox | immediate (mailbox falls back to immediate, then fifo)
    std::string exec;             // console commands separated by ';', one per frame from the first
    uint32_t frames = 0;          // quit after this many frames (0: when the window closes)
    bool console = false;         // start with the console open
    uint32_t width = 1280, height = 720;
    bool validate = false; // validation layers; any error makes the exit code 1
    std::string device;    // device name substring
    ViewKind view = ViewKind::Overview;
    bool simulate = false;           // members move on the GPU (src/sim/)
    std::string light;               // --light AZIMUTH,ELEVATION in degrees (empty: the default sun; console: light)
    bool taa = false;                // temporal anti-aliasing (--aa taa; console: aa)
    std::vector<std::string> attach; // props on joints (--attach JOINT=MODEL[,offset][@share%]; throng/attach.h)
    std::string root_motion; // models baked at start: JOINT or auto takes root motion out (throng/root_motion.h)
    std::vector<std::string> events; // models baked at start: auto | FILE.json events (console: events)
};

// Runs until the window closes, `quit`, or `frames`. Returns the process exit code: 1 on a
// load, device or window failure (one line on stderr; with no display it suggests `throng
// render`), on validation errors, or when a scripted (--exec) command failed; else 0.
int runViewer(const ViewerOptions& options);

} // namespace throng::view
