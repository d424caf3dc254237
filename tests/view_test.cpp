// The viewer: its console language, camera and time ruler as plain data, and `throng view` itself
// in a virtual X display (xvfb-run) on lavapipe with the validation layers on.
#include "../src/render/renderer.h"
#include "../src/render/technique.h"
#include "../src/view/camera.h"
#include "../src/view/console.h"
#include "../src/view/time_ruler.h"

#include "png_file.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace throng;
using namespace throng::view;

namespace {

Result<Command> parse(const char* line) { return parseCommand(line, render::techniqueNames()); }

std::string errorOf(const char* line) {
    Result<Command> r = parse(line);
    EXPECT_FALSE(r.ok()) << line;
    return r.ok() ? std::string() : r.error().message;
}

} // namespace

TEST(Console, ParsesEveryCommand) {
    EXPECT_EQ(parse("help").value().kind, CommandKind::Help);
    EXPECT_EQ(parse("  technique   palette-ubo ").value().text, "palette-ubo");
    EXPECT_EQ(parse("instances 25000").value().number, 25000.0);
    EXPECT_EQ(parse("clip Walk").value().text, "Walk");
    EXPECT_EQ(parse("speed 0").value().number, 0.0);
    EXPECT_EQ(parse("speed 2.5").value().number, 2.5);
    EXPECT_EQ(parse("precision half").value().text, "half");
    EXPECT_TRUE(parse("vsync on").value().on);
    EXPECT_FALSE(parse("vsync off").value().on);
    EXPECT_FALSE(parse("overlay off").value().on);
    EXPECT_EQ(parse("overlay on").value().kind, CommandKind::Overlay);
    const Command size = parse("size 640x360").value();
    EXPECT_EQ(size.kind, CommandKind::Size);
    EXPECT_EQ(size.width, 640u);
    EXPECT_EQ(size.height, 360u);
    EXPECT_EQ(parse("screenshot out/a b.png").ok(), false); // one argument: no spaces
    EXPECT_EQ(parse("screenshot out/view.png").value().text, "out/view.png");
    EXPECT_EQ(parse("stats").value().kind, CommandKind::Stats);
    EXPECT_EQ(parse("models").value().kind, CommandKind::Models);
    EXPECT_EQ(parse("events").value().kind, CommandKind::Events);
    EXPECT_EQ(parse("skinning dual-quaternion").value().text, "dual-quaternion");
    EXPECT_EQ(parse("skinning linear").value().kind, CommandKind::Skinning);
    EXPECT_NE(errorOf("skinning spherical").find("neither linear nor dual-quaternion"), std::string::npos);
    EXPECT_EQ(parse("wait 10").value().number, 10.0);
    EXPECT_EQ(parse("quit").value().kind, CommandKind::Quit);
    for (std::string_view t : render::techniqueNames())
        EXPECT_TRUE(parse(("technique " + std::string(t)).c_str()).ok()) << t;
    EXPECT_TRUE(parse("cull off").ok() && !parse("cull off").value().on);
    EXPECT_EQ(parse("lod on").value().kind, CommandKind::Lod);
    EXPECT_EQ(parse("lod-error 2.5").value().number, 2.5);
    EXPECT_EQ(parse("occlusion off").value().kind, CommandKind::Occlusion);
    EXPECT_FALSE(parse("occlusion off").value().on);
    EXPECT_FALSE(parse("occlusion maybe").ok());
    EXPECT_EQ(parse("raster compute").value().kind, CommandKind::Raster);
    EXPECT_EQ(parse("raster auto").value().text, "auto");
    EXPECT_FALSE(parse("raster software").ok());
    EXPECT_EQ(parse("impostors 12").value().number, 12.0);
    EXPECT_FALSE(parse("impostors -1").ok());
    EXPECT_FALSE(parse("lod-error -1").ok());
    EXPECT_EQ(parse("view street").value().text, "street");
    EXPECT_FALSE(parse("view sideways").ok());
    EXPECT_TRUE(parse("simulate on").value().on);
    EXPECT_EQ(parse("shadows on").value().kind, CommandKind::Shadows);
    EXPECT_EQ(parse("shadows on").value().number, double(kDefaultShadowMapSize));
    EXPECT_EQ(parse("shadows off").value().number, 0.0);
    EXPECT_EQ(parse("shadows 512").value().number, 512.0);
    for (const char* bad : {"shadows 15", "shadows 16385", "shadows 1e3", "shadows -512", "shadows maybe"})
        EXPECT_FALSE(parse(bad).ok()) << bad;
    const Command light = parse("light -60,35").value();
    EXPECT_EQ(light.kind, CommandKind::Light);
    EXPECT_EQ(light.azimuth, -60.0f);
    EXPECT_EQ(light.elevation, 35.0f);
    for (const char* bad : {"light 10", "light 10,4", "light 10,91", "light x,40", "light 10,40,2", "light nan,40"})
        EXPECT_FALSE(parse(bad).ok()) << bad;
    EXPECT_EQ(parse("splats 1.5").value().kind, CommandKind::Splats);
    EXPECT_EQ(parse("splats 1.5").value().number, 1.5);
    for (const char* bad : {"splats -1", "splats 9", "splats many"}) EXPECT_FALSE(parse(bad).ok()) << bad;
    EXPECT_EQ(parse("aa taa").value().kind, CommandKind::Aa);
    EXPECT_TRUE(parse("aa taa").value().on);
    EXPECT_FALSE(parse("aa off").value().on);
    EXPECT_NE(errorOf("aa fxaa").find("neither taa nor off"), std::string::npos);
    EXPECT_EQ(parse("camera").value().kind, CommandKind::Camera);
    EXPECT_FALSE(parse("camera").value().camera); // prints
    ASSERT_TRUE(parse("camera 0,1.7,30:0,1,0").value().camera);
    EXPECT_EQ(parse("camera 0,1.7,30:0,1,0").value().camera->eye, glm::vec3(0.0f, 1.7f, 30.0f));
    for (const char* bad : {"camera 0,1.7,30", "camera 1,1,1:1,1,1", "camera a:b c:d"})
        EXPECT_FALSE(parse(bad).ok()) << bad;
    EXPECT_EQ(commandHelp().size(), 29u);
}

TEST(Console, RejectsBadInputWithAClearMessage) {
    EXPECT_NE(errorOf("").find("empty"), std::string::npos);
    EXPECT_NE(errorOf("dance").find("unknown command 'dance'"), std::string::npos);
    EXPECT_NE(errorOf("dance").find("technique"), std::string::npos); // lists the commands
    EXPECT_NE(errorOf("technique").find("missing argument"), std::string::npos);
    EXPECT_NE(errorOf("stats now").find("unexpected 'now'"), std::string::npos);
    const std::string unknown = errorOf("technique gpu-magic");
    EXPECT_NE(unknown.find("unknown technique 'gpu-magic'"), std::string::npos);
    EXPECT_NE(unknown.find("bonetex"), std::string::npos); // lists the techniques
    for (const char* bad :
         {"instances 0", "instances -5", "instances 1.5", "instances 20000000", "instances many", "instances 1e400"})
        EXPECT_NE(errorOf(bad).find("not a whole number"), std::string::npos) << bad;
    for (const char* bad : {"speed -1", "speed 101", "speed fast", "speed nan", "speed inf"})
        EXPECT_NE(errorOf(bad).find("not a number from 0 to 100"), std::string::npos) << bad;
    EXPECT_NE(errorOf("precision double").find("neither float nor half"), std::string::npos);
    EXPECT_NE(errorOf("vsync maybe").find("neither on nor off"), std::string::npos);
    EXPECT_NE(errorOf("screenshot out.jpg").find(".png"), std::string::npos);
    for (const char* bad : {"size 10x10", "size 640", "size 640x360x2", "size 99999x100", "size axb"})
        EXPECT_NE(errorOf(bad).find("WxH"), std::string::npos) << bad;
    EXPECT_NE(errorOf("wait -1").find("not a whole number"), std::string::npos);
}

TEST(Console, SplitsScripts) {
    const std::vector<std::string> lines = splitScript(" technique cpu ;; wait 2;screenshot a.png;  ");
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], "technique cpu");
    EXPECT_EQ(lines[1], "wait 2");
    EXPECT_EQ(lines[2], "screenshot a.png");
    EXPECT_TRUE(splitScript("").empty());
    EXPECT_TRUE(splitScript(" ; ; ").empty());
}

TEST(Camera, FramesTheWholeCrowd) {
    const Bounds b{glm::vec3(-30.0f, 0.0f, -20.0f), glm::vec3(40.0f, 2.0f, 25.0f)};
    for (float aspect : {0.5f, 1.0f, 16.0f / 9.0f, 3.0f}) {
        const view::Camera c = frameCrowd(b, aspect);
        const glm::mat4 vp = viewProjection(c, aspect);
        for (int i = 0; i < 8; ++i) {
            const glm::vec3 corner((i & 1) ? b.max.x : b.min.x, (i & 2) ? b.max.y : b.min.y,
                                   (i & 4) ? b.max.z : b.min.z);
            const glm::vec4 p = vp * glm::vec4(corner, 1.0f);
            ASSERT_GT(p.w, 0.0f);
            EXPECT_LE(std::fabs(p.x), p.w) << "aspect " << aspect << " corner " << i;
            EXPECT_LE(std::fabs(p.y), p.w) << "aspect " << aspect << " corner " << i;
            EXPECT_GE(p.z, 0.0f); // reversed Z: between the far (0) and near (1) planes
            EXPECT_LE(p.z, p.w);
        }
        // The centre of the crowd is in the middle of the picture, and above it is up (Vulkan: -y).
        const glm::vec4 centre = vp * glm::vec4(0.5f * (b.min + b.max), 1.0f);
        EXPECT_NEAR(centre.x / centre.w, 0.0f, 1e-4f);
        EXPECT_NEAR(centre.y / centre.w, 0.0f, 1e-4f);
        const glm::vec4 above = vp * glm::vec4(0.5f * (b.min + b.max) + glm::vec3(0, 1, 0), 1.0f);
        EXPECT_LT(above.y / above.w, 0.0f);
    }
}

TEST(Camera, OrbitZoomAndModesKeepTheView) {
    const Bounds b{glm::vec3(-1.0f), glm::vec3(1.0f)};
    view::Camera c = frameCrowd(b, 1.5f);
    const float distance = c.distance;
    orbit(c, 0.3f, 10.0f); // pitch clamps short of straight down
    EXPECT_LT(c.pitch, 1.5708f);
    EXPECT_NEAR(glm::length(eyePosition(c) - c.target), distance, 1e-4f);
    zoom(c, 2.0f);
    EXPECT_NEAR(c.distance, distance * 0.88f * 0.88f, 1e-4f);
    const glm::vec3 eye = eyePosition(c), dir = viewDirection(c);
    setMode(c, CameraMode::Fly);
    EXPECT_LT(glm::length(eyePosition(c) - eye), 1e-5f);
    EXPECT_LT(glm::length(viewDirection(c) - dir), 1e-6f);
    fly(c, glm::vec3(0.0f, 0.0f, 1.0f)); // one scene radius forward
    EXPECT_NEAR(glm::length(eyePosition(c) - eye), c.scene_radius, 1e-4f);
    setMode(c, CameraMode::Orbit);
    EXPECT_LT(glm::length(eyePosition(c) - (eye + dir * c.scene_radius)), 1e-4f);
    EXPECT_LT(glm::length(viewDirection(c) - dir), 1e-6f);
}

TEST(TimeRuler, LaysCpuStagesEndToEndAndGpuPassesAtTheirTimestamps) {
    FrameCosts c;
    c.cpu_wait_ms = 1.0;
    c.cpu_sample_ms = 2.0;
    c.cpu_skin_ms = 3.0;
    c.cpu_upload_ms = 0.5;
    c.cpu_ui_ms = 0.25;
    c.cpu_record_ms = 0.25;
    c.gpu_passes = {{"cull", 0.0, 0.5}, {"draw", 0.5, 8.0}, {"overlay", 8.5, 0.2}};
    const std::vector<RulerBar> bars = rulerBars(c);
    ASSERT_EQ(bars.size(), 9u); // six CPU stages, then every GPU pass by name
    double t = 0.0;
    for (size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(bars[i].lane, 0);
        EXPECT_DOUBLE_EQ(bars[i].start_ms, t) << bars[i].name;
        t += bars[i].length_ms;
    }
    EXPECT_DOUBLE_EQ(t, 7.0);
    EXPECT_EQ(bars[6].name, "cull");
    EXPECT_EQ(bars[7].name, "draw");
    EXPECT_EQ(bars[7].lane, 1);
    EXPECT_DOUBLE_EQ(bars[7].start_ms, 0.5);
    EXPECT_DOUBLE_EQ(bars[7].length_ms, 8.0);
}

// ---- throng view in a virtual display ----------------------------------------------------------

namespace {

// "xvfb-run -a ..." when it is installed; empty (and the test skips or fails) when not.
std::string virtualDisplay() {
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) return {};
    return "xvfb-run -a -s '-screen 0 1280x800x24'";
}

#define REQUIRE_VIRTUAL_DISPLAY(var)                                                                                   \
    const std::string var = virtualDisplay();                                                                          \
    if (var.empty()) {                                                                                                 \
        if (::throng::test::kRequireAssets) FAIL() << "xvfb-run is missing (Debian: xvfb)";                            \
        GTEST_SKIP() << "xvfb-run not installed (Debian: xvfb): the viewer cannot open a window";                      \
    }

using throng::test::Image;
using throng::test::loadPng;

// Share of pixels in [x0, x1) x [y0, y1) (fractions of the image) that differ from the clear
// colour (render::kBackground in sRGB) by more than 24/255 in some channel.
double foregroundShare(const Image& img, double x0, double y0, double x1, double y1) {
    auto srgb = [](float linear) {
        const float s = linear <= 0.0031308f ? 12.92f * linear : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
        return int(std::lround(s * 255.0f));
    };
    const int bg[3] = {srgb(render::kBackground.float32[0]), srgb(render::kBackground.float32[1]),
                       srgb(render::kBackground.float32[2])};
    size_t differ = 0, total = 0;
    for (int y = int(y0 * img.height); y < int(y1 * img.height); ++y)
        for (int x = int(x0 * img.width); x < int(x1 * img.width); ++x) {
            const uint8_t* p = &img.rgba[(size_t(y) * img.width + x) * 4];
            ++total;
            if (std::abs(p[0] - bg[0]) > 24 || std::abs(p[1] - bg[1]) > 24 || std::abs(p[2] - bg[2]) > 24) ++differ;
        }
    return total ? double(differ) / double(total) : 0.0;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST(View, SwitchesThroughEveryTechniqueAndScreenshotsCrowdAndOverlay) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const std::string shot = (test::scratchDir("view_every") / "view.png").string();
    std::string script;
    // One command per frame: every technique draws at least one frame; 16 commands in 30 frames.
    for (std::string_view t : render::techniqueNames()) script += "technique " + std::string(t) + "; ";
    script += "technique bonetex; precision half; technique baked; clip 0; speed 2; wait 2; stats; screenshot " + shot;
    const test::CliRun r = test::runThrongInDisplay(
        "view builtin:walker --instances 60 --size 960x540 --validate --frames 30 --ground off --exec \"" + script +
            "\"",
        display);
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_FALSE(contains(r.err, "validation")) << r.err;
    for (std::string_view t : render::techniqueNames())
        EXPECT_TRUE(contains(r.out, "technique: " + std::string(t))) << t << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, "precision: half"));
    EXPECT_TRUE(contains(r.out, "stats: baked | 60 x builtin:walker"));
    EXPECT_TRUE(contains(r.out, "screenshot: " + shot + " (960x540)")) << r.out;
    const Image img = loadPng(shot);
    ASSERT_EQ(img.width, 960);
    ASSERT_EQ(img.height, 540);
    // The crowd is framed in the middle; the overlay panel sits at the top left.
    const double crowd = foregroundShare(img, 0.45, 0.2, 0.9, 0.8);
    const double overlay = foregroundShare(img, 0.02, 0.03, 0.3, 0.3);
    const double corner = foregroundShare(img, 0.9, 0.0, 1.0, 0.08);
    std::printf(
        "crowd region %.1f%%, overlay region %.1f%%, empty corner %.1f%% of pixels differ from the background\n",
        100 * crowd, 100 * overlay, 100 * corner);
    EXPECT_GT(crowd, 0.08);
    EXPECT_GT(overlay, 0.5);
    EXPECT_LT(corner, 0.01);
}

// The overlay's panel hides (console `overlay off`, key H) and leaves the picture to the crowd:
// the panel's corner goes back to the background, the crowd stays.
TEST(View, OverlayHides) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const std::string shot = (test::scratchDir("view_overlay") / "hidden.png").string();
    const test::CliRun r = test::runThrongInDisplay(
        "view builtin:walker --instances 60 --size 960x540 --validate --frames 8 --ground off --exec \"overlay off; "
        "wait 1; "
        "screenshot " +
            shot + "\"",
        display);
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_TRUE(contains(r.out, "overlay: off")) << r.out;
    const Image img = loadPng(shot);
    ASSERT_EQ(img.width, 960);
    const double panel = foregroundShare(img, 0.02, 0.03, 0.3, 0.1), crowd = foregroundShare(img, 0.45, 0.2, 0.9, 0.8);
    std::printf("overlay hidden: panel region %.1f%%, crowd region %.1f%% of pixels differ from the background\n",
                100 * panel, 100 * crowd);
    EXPECT_LT(panel, 0.05);
    EXPECT_GT(crowd, 0.08);
}

TEST(View, BadCommandsSayWhyAndChangeNothing) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const test::CliRun r =
        test::runThrongInDisplay("view builtin:walker --instances 12 --size 320x200 --validate --frames 10 --exec "
                                 "\"dance; technique gpu-magic; instances 0; speed "
                                 "fast; clip Swim; screenshot a.jpg; instances 10000000; stats\"",
                                 display);
    EXPECT_EQ(r.exit_code, 1) << r.err << r.out; // scripted commands failed
    EXPECT_FALSE(contains(r.err, "validation")) << r.err;
    for (const char* message :
         {"error: unknown command 'dance'", "error: unknown technique 'gpu-magic'", "error: usage: instances N",
          "error: usage: speed X", "error: no clip 'Swim' (clips: walk, idle", "error: usage: screenshot FILE.png"})
        EXPECT_TRUE(contains(r.out, message)) << message << "\n" << r.out;
    // Valid but too large for lavapipe's 128 MiB storage buffers: refused whole.
    if (contains(r.out, "maxStorageBufferRange")) {
        EXPECT_TRUE(contains(r.out, "(nothing changed)")) << r.out;
    }
    EXPECT_TRUE(contains(r.out, "stats: baked | 12 x builtin:walker")) << r.out; // nothing changed
}

// --raster and the console's raster: the compute rasterizer draws the viewer's crowd (a picture
// with the crowd in it), survives a resize and technique switches (bonetex, static: every
// technique has a compute path); on a device without 64-bit buffer atomics `--raster compute`
// is refused at start and the console's `raster compute` with an error line.
TEST(View, ComputeRasterDrawsAndRefusesWhatItCannot) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const std::string shot = (test::scratchDir("view_raster") / "compute.png").string();
    const test::CliRun r =
        test::runThrongInDisplay("view builtin:walker --instances 60 --size 960x540 --validate "
                                 "--frames 16 --raster compute --ground off --exec \"wait 1; screenshot " +
                                     shot +
                                     "; raster auto; size 400x240; wait 2; raster compute; "
                                     "technique bonetex; wait 1; technique static; stats\"",
                                 display);
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_FALSE(contains(r.err, "validation")) << r.err;
    for (const std::string& line : {std::string("raster: auto"), std::string("stats: static | 60 x builtin:walker")})
        EXPECT_TRUE(contains(r.out, line)) << line << "\n" << r.out;
    EXPECT_FALSE(contains(r.out, "the hardware draws this crowd")) << r.out;
    EXPECT_TRUE(contains(r.out, " raster ")) << "no raster pass in the stats line\n" << r.out;
    const Image img = loadPng(shot);
    ASSERT_EQ(img.width, 960);
    EXPECT_GT(foregroundShare(img, 0.5, 0.3, 0.95, 0.8), 0.03)
        << "no crowd in the compute rasterizer's picture (beside the overlay)";

    // Without 64-bit buffer atomics: --raster compute is refused at start with one line (as render
    // refuses it), the console's `raster compute` with an error line, the crowd drawn on.
    const std::string mask = "THRONG_MASK_FEATURES=shaderBufferInt64Atomics ";
    const test::CliRun refused = test::runThrongInDisplay(
        "view builtin:walker --instances 12 --size 400x240 --validate --frames 4 --raster compute", mask + display);
    EXPECT_EQ(refused.exit_code, 1) << refused.err << refused.out;
    EXPECT_TRUE(contains(refused.err, "--raster compute: ")) << refused.err;
    EXPECT_TRUE(contains(refused.err, "lacks 64-bit buffer atomics")) << refused.err;
    const test::CliRun console = test::runThrongInDisplay(
        "view builtin:walker --instances 12 --size 400x240 --validate --frames 4 --exec \"raster compute; stats\"",
        mask + display);
    EXPECT_EQ(console.exit_code, 1) << console.err << console.out; // the scripted `raster compute` fails
    EXPECT_FALSE(contains(console.err, "validation")) << console.err;
    EXPECT_TRUE(contains(console.out, "error: raster compute: ")) << console.out;
    EXPECT_TRUE(contains(console.out, "lacks 64-bit buffer atomics")) << console.out;
    EXPECT_TRUE(contains(console.out, "stats: baked | 12 x builtin:walker")) << console.out;
}

// --impostors and the console's impostors: the far crowd drawn as impostors (an `impostors` pass,
// a picture with the crowd), turned off, and a technique that draws every member says it cannot.
TEST(View, ImpostorsDrawTheFarCrowd) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const std::string shot = (test::scratchDir("view_impostors") / "impostors.png").string();
    const test::CliRun r = test::runThrongInDisplay(
        "view builtin:walker --instances 300 --size 960x540 --validate --frames 14 --impostors 40 --ground off "
        "--exec \"wait 2; "
        "stats; screenshot " +
            shot + "; impostors 0; wait 1; impostors 25; technique palette-ubo; wait 1; technique baked; stats\"",
        display);
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_FALSE(contains(r.err, "validation")) << r.err;
    for (const char* line :
         {"impostors: under 0.000000 px", "impostors: under 25.000000 px",
          "impostors: technique palette-ubo draws every member, not through culling; members are drawn as meshes"})
        EXPECT_TRUE(contains(r.out, line)) << line << "\n" << r.out;
    const size_t stats = r.out.find("stats: baked");
    ASSERT_NE(stats, std::string::npos) << r.out;
    EXPECT_NE(r.out.find(", impostors ", stats), std::string::npos) << "no impostors pass in the stats line\n" << r.out;
    const Image img = loadPng(shot);
    ASSERT_EQ(img.width, 960);
    EXPECT_GT(foregroundShare(img, 0.5, 0.3, 0.95, 0.8), 0.03) << "no crowd in the picture (beside the overlay)";
}

// --shadows and the console's shadows: the shadow passes in the frame (stats), a picture with the
// crowd, shadows off and on again at another size, and through a technique switch.
TEST(View, ShadowsTurnOnAndOff) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const std::string shot = (test::scratchDir("view_shadows") / "shadows.png").string();
    const test::CliRun r = test::runThrongInDisplay(
        "view builtin:walker --instances 60 --size 640x360 --validate --frames 20 --shadows 512 --exec \"wait 3; "
        "stats; screenshot " +
            shot + "; shadows off; wait 1; shadows on; light 200,20; technique palette; wait 3; stats\" --light 10,60",
        display);
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_FALSE(contains(r.err, "validation")) << r.err;
    for (const char* line : {"shadows: off", "shadows: on, a 2048 x 2048 shadow map", "technique: palette",
                             "light: azimuth 200.0, elevation 20.0 degrees"})
        EXPECT_TRUE(contains(r.out, line)) << line << "\n" << r.out;
    for (const char* technique : {"stats: baked", "stats: palette"}) {
        const size_t stats = r.out.find(technique);
        ASSERT_NE(stats, std::string::npos) << r.out;
        const std::string line = r.out.substr(stats, r.out.find('\n', stats) - stats);
        EXPECT_TRUE(contains(line, "shadow-cull ") && contains(line, ", shadow ") && contains(line, ", ground "))
            << "no shadow passes in the stats line\n"
            << line;
    }
    const Image img = loadPng(shot);
    ASSERT_EQ(img.width, 640);
    EXPECT_GT(foregroundShare(img, 0.5, 0.3, 0.95, 0.8), 0.03) << "no crowd in the picture (beside the overlay)";
}

// Temporal anti-aliasing in the viewer (--aa taa, console aa): the crowd drawn into the TAA's
// images, its `taa` pass in the stats beside the ground (on by default), turned off and on again
// from the console; the screenshot (the swapchain image, where the pass wrote) shows the crowd
// on its ground, the sky above.
TEST(View, TemporalAntiAliasingTurnsOnAndOff) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const std::string shot = (test::scratchDir("view_taa") / "taa.png").string();
    const test::CliRun r = test::runThrongInDisplay(
        "view builtin:walker --instances 60 --size 640x360 --validate --frames 24 --aa taa --exec \"overlay off; wait "
        "8; stats; screenshot " +
            shot + "; aa off; wait 1; stats; aa taa; size 480x270; wait 3; stats\"",
        display);
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_FALSE(contains(r.err, "validation")) << r.err;
    for (const char* line : {"aa: off", "aa: taa", "screenshot: "})
        EXPECT_TRUE(contains(r.out, line)) << line << "\n" << r.out;
    std::vector<std::string> stats;
    for (size_t at = r.out.find("stats: "); at != std::string::npos; at = r.out.find("stats: ", at + 1))
        stats.push_back(r.out.substr(at, r.out.find('\n', at) - at));
    ASSERT_EQ(stats.size(), 3u) << r.out;
    EXPECT_TRUE(contains(stats[0], ", taa ") && contains(stats[0], "ground ")) << stats[0];
    EXPECT_FALSE(contains(stats[1], ", taa ")) << stats[1];
    EXPECT_TRUE(contains(stats[2], ", taa ")) << stats[2];
    const Image img = loadPng(shot);
    ASSERT_EQ(img.width, 640);
    const double sky = foregroundShare(img, 0.0, 0.0, 1.0, 0.05), below = foregroundShare(img, 0.3, 0.4, 0.7, 0.8);
    std::printf("with TAA: top rows %.1f%%, middle %.1f%% of pixels differ from the sky\n", 100 * sky, 100 * below);
    EXPECT_LT(sky, 0.01);
    EXPECT_GT(below, 0.9) << "no crowd or ground in the middle of the picture";
}

// Technique pose with a layer (--layer): drawn with its pose pass, kept across a switch away and
// back and with the simulation on; a layer naming no joint is one line at start.
TEST(View, PoseDrawsLayers) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const test::CliRun r = test::runThrongInDisplay(
        "view builtin:waver --technique pose --layer wave@shoulder_r@50% --instances 40 --size 320x200 --validate "
        "--frames 40 --exec \"wait 2; stats; technique baked; wait 1; technique pose; simulate on; wait 2; stats\"",
        display);
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_FALSE(contains(r.err, "validation")) << r.err;
    EXPECT_TRUE(contains(r.out, "technique: baked")) << r.out;
    EXPECT_TRUE(contains(r.out, "simulate: on")) << r.out;
    size_t stats = 0, with_pose = 0;
    for (size_t at = r.out.find("stats: pose"); at != std::string::npos; at = r.out.find("stats: pose", at + 1)) {
        ++stats;
        const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
        if (contains(line, " pose ") || contains(line, ", pose")) ++with_pose;
    }
    EXPECT_EQ(stats, 2u) << r.out;
    EXPECT_EQ(with_pose, 2u) << "no pose pass in the stats lines\n" << r.out;
    const test::CliRun bad = test::runThrongInDisplay(
        "view builtin:waver --technique pose --layer wave@elbow --instances 4 --size 320x200 --frames 2", display);
    EXPECT_EQ(bad.exit_code, 1) << bad.err << bad.out;
    EXPECT_TRUE(contains(bad.err, "no joint 'elbow'")) << bad.err;
}

// Animation events (throng/events.h): the console counts the footsteps members reached in the last
// second, standing and simulated (from the CPU copy of the GPU's steps).
TEST(View, EventsCountWhatMembersReach) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const test::CliRun r = test::runThrongInDisplay(
        "view builtin:walker --events auto --instances 200 --size 320x200 --validate --frames 160 --exec \"wait 70; "
        "events; simulate on; wait 70; events\"",
        display);
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_FALSE(contains(r.err, "validation")) << r.err;
    size_t at = 0, found = 0;
    while ((at = r.out.find("events in the last second: footstep_left ", at)) != std::string::npos) {
        const int left = std::atoi(r.out.c_str() + at + 41);
        EXPECT_GT(left, 10) << r.out.substr(at, 80);
        ++found;
        ++at;
    }
    EXPECT_EQ(found, 2u) << r.out;
}

TEST(View, ResizingRecreatesTheSwapchain) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const std::string shot = (test::scratchDir("view_resize") / "small.png").string();
    const test::CliRun r = test::runThrongInDisplay(
        "view builtin:fish --technique procedural --instances 30 --size 640x400 --validate --frames 12 "
        "--exec \"size 400x300; wait 3; screenshot " +
            shot + "; size 700x500; wait 3; stats\"",
        display);
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_TRUE(contains(r.out, "(400x300)")) << r.out;
    EXPECT_TRUE(contains(r.out, "700x500")) << r.out;
    const Image img = loadPng(shot);
    EXPECT_EQ(img.width, 400);
    EXPECT_EQ(img.height, 300);
}

TEST(View, WithoutADisplaySuggestsRender) {
    const test::CliRun r = test::runThrong("view builtin:walker --frames 1", "env -u DISPLAY -u WAYLAND_DISPLAY");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(contains(r.err, "throng: error: view: no display")) << r.err;
    EXPECT_TRUE(contains(r.err, "throng render")) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

// The soak: the viewer scripted over many frames, switching technique, crowd size and clip every
// few frames, back to the same state at the end of every cycle. After the first (warm-up) cycle,
// GPU memory in use must be the same at every cycle's end, and the resident set must not grow by
// more than 1% (under AddressSanitizer, whose quarantine holds freed memory, by more than 10%)
// after four warm-up cycles: each technique switch builds the compute rasterizer's pipelines too
// (--raster auto, the default), and lavapipe's resident set takes about six cycles to settle
// (+7 MiB, then flat within 1 MiB over 12 cycles). THRONG_SOAK_CYCLES sets the number of cycles
// (default 8, about 1,050 frames; docs/HARDENING.md has a longer run).
TEST(View, SoakKeepsMemoryFlat) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const char* env = std::getenv("THRONG_SOAK_CYCLES");
    const int cycles = env != nullptr ? std::max(6, std::atoi(env)) : 8;
    const std::string cycle =
        "technique cpu; wait 8; instances 9; wait 8; clip walk; wait 8; technique palette; wait 8; "
        "instances 3; wait 8; clip idle; wait 8; technique bonetex; wait 8; technique vat; wait 8; "
        "technique static; wait 8; technique palette-ubo; wait 8; technique baked; instances 4; clip mixed; "
        "wait 8; stats; ";
    std::string script;
    for (int c = 0; c < cycles; ++c) script += cycle;
    const int frames = cycles * 130 + 10;
    const test::CliRun r = test::runThrongInDisplay(
        "view builtin:walker --instances 4 --size 200x150 --present immediate --validate --frames " +
            std::to_string(frames) + " --exec \"" + script + "\"",
        display);
    EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
    EXPECT_FALSE(contains(r.err, "validation")) << r.err;
    std::vector<unsigned long long> in_use;
    std::vector<double> resident;
    for (size_t at = r.out.find("stats: "); at != std::string::npos; at = r.out.find("stats: ", at + 1)) {
        const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
        unsigned long long bytes = 0;
        double mib = 0.0;
        const size_t gpu = line.find("GPU memory ("), rss = line.find(" MiB resident");
        ASSERT_NE(gpu, std::string::npos) << line;
        ASSERT_NE(rss, std::string::npos) << line;
        ASSERT_EQ(std::sscanf(line.c_str() + gpu, "GPU memory (%llu B in use)", &bytes), 1) << line;
        ASSERT_EQ(std::sscanf(line.c_str() + line.rfind("| ", rss) + 2, "%lf", &mib), 1) << line;
        in_use.push_back(bytes);
        resident.push_back(mib);
    }
    ASSERT_EQ(in_use.size(), size_t(cycles)) << r.out;
    std::printf("soak: %d cycles, %d frames; GPU memory in use and resident MiB at each cycle's end:\n", cycles,
                frames);
    for (size_t c = 0; c < in_use.size(); ++c)
        std::printf("  cycle %zu: %llu B, %.1f MiB\n", c + 1, in_use[c], resident[c]);
    const double allowed = test::kAddressSanitizer ? 1.10 : 1.01;
    // GPU memory is exact. The resident set is noisy from cycle to cycle (the allocator's free
    // lists, the driver's caches: +-1 MiB, once a 15 MiB spike in 25 cycles), so after four
    // warm-up cycles the median of the later half of the cycles is held against the earlier half.
    for (size_t c = 2; c < in_use.size(); ++c)
        EXPECT_EQ(in_use[c], in_use[1]) << "GPU memory in use changed at cycle " << c + 1;
    constexpr size_t kWarmUp = 4;
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
    };
    const size_t half = kWarmUp + (resident.size() - kWarmUp) / 2;
    const double early = median({resident.begin() + ptrdiff_t(kWarmUp), resident.begin() + ptrdiff_t(half)});
    const double late = median({resident.begin() + ptrdiff_t(half), resident.end()});
    std::printf("soak: resident median %.1f MiB (cycles %zu..%zu), %.1f MiB (cycles %zu..%zu)\n", early, kWarmUp + 1,
                half, late, half + 1, resident.size());
    EXPECT_LE(late, early * allowed) << "resident memory grew";
}
