// The viewer's debug console: the command language, parsed without a window so it can be tested
// alone. The viewer applies a parsed Command; typing it (backtick opens the console) and
// `throng view --exec "cmd; cmd"` go through the same parser.
//
// Commands (one per line, or ';'-separated in --exec; the help names the techniques each one
// concerns from their descriptors, throng/technique.h):
//   help                     list the commands
//   technique NAME           switch technique (names from render::techniqueNames())
//   instances N              crowd size, 1 .. kMaxInstances
//   clip NAME|INDEX|mixed    every member plays one clip, or back to the seeded mixed crowd
//   speed X                  playback rate, 0 (paused) .. 100
//   precision float|half     texel precision of bonetex (TechniqueInfo::texel_precision) and of the baked animation
//   vsync on|off             FIFO, or mailbox (immediate where mailbox is missing)
//   cull on|off              frustum culling on the GPU
//   lod on|off               level of detail chosen on the GPU by size on screen
//   occlusion on|off         with cull: members hidden behind others are not drawn
//   raster hardware|compute|auto  who rasterizes the crowd (compute_raster.h; TechniqueInfo::compute_raster)
//   impostors PX             members fewer pixels tall drawn as animated impostors (0: none)
//   shadows on|off|SIZE      shadows of the crowd on itself and a ground (on: a 2048-texel map; 16 .. 16384)
//   skinning linear|dual-quaternion  how joints are blended (Skinning; TechniqueInfo::dual_quaternion)
//   light AZ,EL              where the sun stands, degrees: azimuth about +y from +z, elevation 5 .. 90
//   lod-error PX             the largest error a coarser LOD may make on screen, 0 .. 10000 pixels
//   view overview|street     the camera: the whole crowd, or standing at its edge looking across it
//   simulate on|off          members move on the GPU (TechniqueInfo::members_on_gpu)
//   size WxH                 resize the window (16 .. 16384 each; scripts and tests of resizing)
//   screenshot FILE.png      the next frame, overlay included, written atomically
//   stats                    one line: technique, crowd, frame times, GPU passes, CPU stages
//   models                   the crowd's models, each with its members and their share
//   wait N                   scripts: let N frames pass before the next scripted command
//   quit                     close the viewer
#pragma once

#include <throng/camera.h>
#include <throng/result.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace throng::view {

constexpr uint32_t kMaxInstances = 10'000'000;
constexpr uint32_t kDefaultShadowMapSize = 2048; // `shadows on`, as --shadows on

enum class CommandKind {
    Help,
    Technique,
    Instances,
    Clip,
    Speed,
    Precision,
    Vsync,
    Cull,
    Lod,
    Occlusion,
    LodError,
    Splats,
    View,
    Simulate,
    Raster,
    Impostors,
    Shadows,
    Aa,
    Skinning,
    Light,
    Events,
    Overlay,
    Size,
    Screenshot,
    Stats,
    Models,
    Camera,
    Wait,
    Quit
};

struct Command {
    CommandKind kind = CommandKind::Help;
    std::string
        text; // technique name, clip name, screenshot path, precision ("float"/"half"), view, raster mode, skinning
    double number = 0.0; // instances, speed, wait frames, LOD error, impostor pixels, shadow map texels (0: off)
    bool on = false;     // vsync, cull, lod, occlusion, simulate, overlay; aa: taa
    uint32_t width = 0, height = 0;         // size
    float azimuth = 0.0f, elevation = 0.0f; // light, degrees
    std::optional<throng::Camera> camera;   // camera with an argument (none: print where it stands)
};

// Parses one command line. Errors: empty line, unknown command (with the list), a missing,
// extra or malformed argument, a number out of range, an unknown technique (with the list).
// `techniques` are the names `technique` accepts.
Result<Command> parseCommand(std::string_view line, const std::vector<std::string_view>& techniques);

// Splits an --exec script at ';' into trimmed, non-empty command lines.
std::vector<std::string> splitScript(std::string_view script);

// The help text, one line per command.
std::vector<std::string> commandHelp();

} // namespace throng::view
