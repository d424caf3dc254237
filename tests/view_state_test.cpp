// The viewer's crowd-state transactions without a window (src/view/crowd_state.h), on a headless
// context with the validation layers on: a LiveCrowd switched between techniques and crowd sizes,
// and changes that fail (an unknown technique, vat on an asset without vertex animation, a clip
// the asset lacks, out of GPU memory at every fault point of a change, a lost device) each leaving
// the previous state intact: the same technique, the same GPU memory in use, the same picture.
// Every crowd is drawn as the viewer draws it (LiveCrowd::record: its render::CrowdRenderer) and read back. Also the
// console commands carried out on the same LiveCrowd (commands.h) and the GPU pass times of the ruler.
#include "../src/view/commands.h"
#include "../src/view/frame_loop.h"
#include "../src/view/screenshot.h"

#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>

using namespace throng;
using namespace throng::view;

namespace {

constexpr uint32_t kWidth = 96, kHeight = 64;
constexpr VkFormat kColor = VK_FORMAT_R8G8B8A8_SRGB;
// Every fault point is failed in turn; every 4th under AddressSanitizer (each change is slower).
constexpr uint64_t kFaultStep = test::kAddressSanitizer ? 4 : 1;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// builtin:walker (clips walk and idle), imported: changes may bake it again. Without the model it
// stands for a .throng file baked without vertex animation.
Scene walker(bool with_model = true) {
    Result<Scene> r = loadScene("builtin:walker", BakeOptions{});
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    if (!r) return {};
    Scene s = std::move(r).value();
    if (!with_model) {
        s.model.reset();
        s.source = "walker.throng";
    }
    return s;
}

// A context with validation per test, so that objects left alive at vkDestroyDevice (leaks) fail
// the test that made them; a colour and depth target and the frame slots the crowd is drawn with.
class ViewState : public ::testing::Test {
  protected:
    void SetUp() override {
        gpu::ContextOptions options;
        options.validation = true;
        Result<std::unique_ptr<gpu::Context>> r = gpu::createContext(options);
        ASSERT_TRUE(r.ok()) << "no Vulkan device with validation: " << r.error().message;
        ctx_ = std::move(r).value();
        gpu::createAllocator(allocator_, *ctx_);
        color_ = gpu::createImage(allocator_, kColor, kWidth, kHeight, 1,
                                  VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        depth_ = gpu::createImage(allocator_, kDepthFormat, kWidth, kHeight, 1,
                                  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT);
        createFrameSlots(*ctx_, slots_);
    }

    void TearDown() override {
        gpu::setFailAllocation(0);
        gpu::setLoseDeviceAt(0);
        if (!ctx_) return;
        vkDeviceWaitIdle(ctx_->device);
        crowd_.reset();
        destroyFrameSlots(*ctx_, slots_);
        destroyScreenshot(allocator_, shot_);
        gpu::destroyImage(allocator_, depth_);
        gpu::destroyImage(allocator_, color_);
        gpu::destroyAllocator(allocator_);
        gpu::destroyContext(*ctx_); // the layers report objects left alive here
        EXPECT_EQ(ctx_->validation->errors, 0u) << "Vulkan validation error: " << ctx_->validation->first_error;
    }

    LiveCrowd& start(Scene scene, const CrowdState& first) {
        std::vector<Scene> scenes;
        scenes.push_back(std::move(scene));
        return start(std::move(scenes), first);
    }
    LiveCrowd& start(std::vector<Scene> scenes, const CrowdState& first, std::vector<float> shares = {}) {
        CrowdSetup setup;
        setup.allocator = &allocator_;
        setup.color_format = kColor;
        setup.depth_format = kDepthFormat;
        setup.extent = {kWidth, kHeight};
        setup.log = [this](const std::string& line) { log_ += line + "\n"; };
        crowd_ = std::make_unique<LiveCrowd>(std::move(scenes), std::move(shares), setup);
        crowd_->setTargets(
            gpu::FrameTargets{VK_NULL_HANDLE, VK_NULL_HANDLE, depth_.image, depth_.view, {kWidth, kHeight}}, false);
        EXPECT_TRUE(crowd_->start(first)) << crowd_->lastError();
        return *crowd_;
    }

    // One frame of the crowd at t = 0.5 s, the camera framing it: the picture (RGBA). The GPU
    // times of the frame land in passes_.
    std::vector<uint8_t> draw() {
        const uint32_t index = uint32_t(frames_++ % kSlots);
        FrameSlot& f = slots_[index];
        waitForSlot(*ctx_, f);
        const glm::mat4 vp = render::frameBounds(crowd_->crowd().bounds, float(kWidth) / float(kHeight));
        crowd_->update(index, vp, 0.5f, render::kDefaultLight);
        beginFrame(*ctx_, f);
        const gpu::FrameTargets target{color_.image, color_.view,       depth_.image,
                                       depth_.view,  {kWidth, kHeight}, render::kBackground};
        crowd_->record(f.cmd, index, target, false);
        endPass(f.cmd, f, "crowd");
        recordCopy(allocator_, shot_, f.cmd, color_.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, {kWidth, kHeight},
                   kColor);
        VK_CHECK(vkEndCommandBuffer(f.cmd));
        submitFrame(*ctx_, f, VK_NULL_HANDLE, VK_NULL_HANDLE);
        passes_ = withCrowdPasses(waitForSlot(*ctx_, f), crowd_->collect(index));
        return readPixels(shot_);
    }

    // Share of pixels unlike the top-left one (the background: the crowd is framed in the middle).
    static double foreground(const std::vector<uint8_t>& rgba) {
        size_t differ = 0;
        for (size_t i = 0; i < rgba.size(); i += 4)
            differ += std::abs(rgba[i] - rgba[0]) > 24 || std::abs(rgba[i + 1] - rgba[1]) > 24 ||
                      std::abs(rgba[i + 2] - rgba[2]) > 24;
        return double(differ) / double(rgba.size() / 4);
    }

    // The crowd as it was: same state, same technique object, same GPU memory, the same picture.
    void expectUnchanged(const CrowdState& s, const render::CrowdRenderer* renderer, uint64_t in_use,
                         const std::vector<uint8_t>& picture, const std::string& where) {
        EXPECT_TRUE(crowd_->state() == s)
            << where << ": now " << crowd_->state().technique << " x " << crowd_->state().instances;
        EXPECT_EQ(crowd_->renderer(), renderer) << where;
        EXPECT_EQ(crowd_->crowd().instances.size(), s.instances) << where;
        EXPECT_EQ(allocator_.in_use, in_use) << where;
        EXPECT_TRUE(draw() == picture) << where << ": the picture changed";
    }

    std::unique_ptr<gpu::Context> ctx_;
    gpu::Allocator allocator_;
    gpu::Image color_, depth_;
    FrameSlots slots_{};
    Screenshot shot_;
    uint64_t frames_ = 0;
    std::vector<GpuPassTime> passes_;
    std::unique_ptr<LiveCrowd> crowd_;
    std::string log_;
};

} // namespace

TEST_F(ViewState, SwitchesTechniqueAndInstanceCount) {
    LiveCrowd& crowd = start(walker(), CrowdState{"baked", 20});
    EXPECT_EQ(crowd.techniqueName(), "baked");
    EXPECT_GT(foreground(draw()), 0.05);
    if (ctx_->timestamps) { // the time ruler's GPU lane: the crowd's passes by name, in order
        ASSERT_EQ(passes_.size(), ctx_->indirect_count ? 2u : 1u);
        if (ctx_->indirect_count) {
            EXPECT_EQ(passes_[0].name, "cull");
        }
        EXPECT_EQ(passes_.back().name, "draw");
        EXPECT_DOUBLE_EQ(passes_.back().start_ms, passes_.size() > 1 ? passes_[0].length_ms : 0.0);
    }
    for (const char* technique : {"cpu", "palette", "bonetex", "static"}) {
        EXPECT_TRUE(crowd.apply(CrowdState{technique, 20})) << technique << ": " << crowd.lastError();
        EXPECT_EQ(crowd.state().technique, technique);
        EXPECT_GT(foreground(draw()), 0.05) << technique;
    }
    const std::vector<uint8_t> few = draw();
    EXPECT_TRUE(crowd.apply(CrowdState{"static", 60})) << crowd.lastError();
    EXPECT_EQ(crowd.crowd().instances.size(), 60u);
    EXPECT_FALSE(draw() == few); // a larger crowd, framed again by the test's camera
    // What the last frame drew: every member, each at the LOD its size in 96x64 pixels needs.
    const uint64_t drawn = crowd.triangles(uint32_t((frames_ - 1) % kSlots));
    EXPECT_GT(drawn, 0u);
    EXPECT_LE(drawn, render::lodTriangles(render::assetLods(crowd.asset().gpu)[0]) * 60);
    // vat needs vertex animation: the imported walker is baked again with it, and back without.
    EXPECT_TRUE(crowd.apply(CrowdState{"vat", 60})) << crowd.lastError();
    EXPECT_TRUE(hasVat(crowd.asset().baked()));
    EXPECT_TRUE(contains(log_, "baking float with vertex animation...")) << log_;
    EXPECT_GT(foreground(draw()), 0.05);
    CrowdState half = CrowdState{"bonetex", 60};
    half.precision = Precision::Float16;
    EXPECT_TRUE(crowd.apply(half)) << crowd.lastError();
    EXPECT_EQ(crowd.asset().baked().precision, Precision::Float16);
    EXPECT_TRUE(contains(log_, "baking half with vertex animation...")) << log_;
}

TEST_F(ViewState, FailedChangesLeaveThePreviousStateIntact) {
    LiveCrowd& crowd = start(walker(false), CrowdState{"palette", 25});
    const std::vector<uint8_t> picture = draw();
    ASSERT_GT(foreground(picture), 0.05);
    const CrowdState before = crowd.state();
    const render::CrowdRenderer* renderer = crowd.renderer();
    const uint64_t in_use = allocator_.in_use;

    EXPECT_FALSE(crowd.apply(CrowdState{"gpu-magic", 25}));
    EXPECT_TRUE(contains(crowd.lastError(), "unknown technique 'gpu-magic'")) << crowd.lastError();
    expectUnchanged(before, renderer, in_use, picture, "unknown technique");

    EXPECT_FALSE(crowd.apply(CrowdState{"vat", 20})); // a .throng file baked without --vat: nothing to bake from
    EXPECT_EQ(crowd.lastError(), "walker.throng has no vertex animation (bake it with throng bake --vat)");
    expectUnchanged(before, renderer, in_use, picture, "vat");

    CrowdState clip = CrowdState{"static", 40};
    clip.clip = 2; // the walker has two
    EXPECT_FALSE(crowd.apply(clip));
    EXPECT_EQ(crowd.lastError(), "clip 2 does not exist");
    expectUnchanged(before, renderer, in_use, picture, "clip");
    EXPECT_TRUE(log_.empty()) << log_; // nothing was baked or uploaded
}

// Out of GPU memory at each allocation point of a change that bakes, uploads and builds (bonetex
// at half precision from baked float): refused, and nothing changed. Where the allocator falls
// back to another memory type the change may go through whole instead.
TEST_F(ViewState, OutOfMemoryAtEveryPointOfAChangeChangesNothing) {
    LiveCrowd& crowd = start(walker(), CrowdState{"baked", 16});
    CrowdState want = CrowdState{"bonetex", 24};
    want.precision = Precision::Float16;
    gpu::setFailAllocation(0); // restarts the count
    ASSERT_TRUE(crowd.apply(want)) << crowd.lastError();
    const uint64_t points = gpu::faultPoints();
    ASSERT_TRUE(crowd.apply(CrowdState{"baked", 16})) << crowd.lastError();
    ASSERT_GT(points, 10u);
    const std::vector<uint8_t> picture = draw();
    const CrowdState before = crowd.state();
    uint64_t refused = 0, runs = 0;
    for (uint64_t n = 1; n <= points; n += kFaultStep, ++runs) {
        const render::CrowdRenderer* renderer = crowd.renderer();
        const uint64_t in_use = allocator_.in_use;
        gpu::setFailAllocation(n);
        const bool applied = crowd.apply(want);
        gpu::setFailAllocation(0);
        const std::string where = "fault point " + std::to_string(n) + " of " + std::to_string(points);
        if (applied) { // the allocator found other memory: the whole change, then back
            EXPECT_EQ(crowd.state().technique, "bonetex") << where;
            ASSERT_TRUE(crowd.apply(before)) << crowd.lastError();
            continue;
        }
        ++refused;
        EXPECT_TRUE(contains(crowd.lastError(), "out of GPU memory")) << where << ": " << crowd.lastError();
        expectUnchanged(before, renderer, in_use, picture, where);
    }
    std::printf("%llu fault points in the change; of %llu failed in turn, %llu refused it\n",
                static_cast<unsigned long long>(points), static_cast<unsigned long long>(runs),
                static_cast<unsigned long long>(refused));
    EXPECT_GT(refused, runs / 2);
}

// A lost device at the change's last loss point (the wait before the swap) ends the viewer: the
// change throws gpu::DeviceLost, and what was built for it is freed, the old state kept.
TEST_F(ViewState, ALostDeviceThrowsAndKeepsTheOldState) {
    LiveCrowd& crowd = start(walker(), CrowdState{"baked", 16});
    const std::vector<uint8_t> picture = draw();
    const CrowdState before = crowd.state();
    gpu::setLoseDeviceAt(0); // restarts the count
    ASSERT_TRUE(crowd.apply(CrowdState{"static", 16})) << crowd.lastError();
    const uint64_t last = gpu::lossPoints();
    ASSERT_TRUE(crowd.apply(before)) << crowd.lastError();
    const render::CrowdRenderer* renderer = crowd.renderer();
    const uint64_t in_use = allocator_.in_use;
    gpu::setLoseDeviceAt(last);
    EXPECT_THROW(crowd.apply(CrowdState{"static", 16}), gpu::DeviceLost);
    gpu::setLoseDeviceAt(0);
    expectUnchanged(before, renderer, in_use, picture, "device lost");
}

// The compute rasterizer changes in place (the same renderer: a simulated crowd keeps its
// members where they walked), a technique it cannot draw falls back to the hardware with a line
// while the state keeps what was asked, and culling changes rebuild nothing.
TEST_F(ViewState, RasterChangesInPlaceAndFallsBackWithALine) {
    if (!ctx_->int64_atomics) GTEST_SKIP() << "no 64-bit buffer atomics: no compute rasterizer here";
    CrowdState first{"baked", 30};
    first.simulate = true;
    LiveCrowd& crowd = start(walker(), first);
    ASSERT_GT(foreground(draw()), 0.05);
    const render::CrowdRenderer* renderer = crowd.renderer();
    CrowdState compute = first;
    compute.raster = Raster::Compute;
    ASSERT_TRUE(crowd.apply(compute)) << crowd.lastError();
    EXPECT_EQ(crowd.renderer(), renderer) << "a raster change rebuilt the crowd";
    EXPECT_EQ(crowd.renderer()->rasterMode(), Raster::Compute);
    EXPECT_GT(foreground(draw()), 0.05);
    if (ctx_->timestamps) {
        std::vector<std::string> names;
        for (const GpuPassTime& p : passes_) names.push_back(p.name);
        for (const char* pass : {"simulate", "raster", "resolve", "composite"})
            EXPECT_NE(std::find(names.begin(), names.end(), pass), names.end()) << pass;
    }
    CullSettings cull = crowd.cull();
    cull.lod = false;
    crowd.setCull(cull);
    EXPECT_FALSE(crowd.renderer()->cull().lod);
    EXPECT_EQ(crowd.renderer(), renderer);
    EXPECT_GT(foreground(draw()), 0.05);

    // A crowd the compute rasterizer cannot read: technique cpu with more members than one storage
    // buffer holds the vertices of (lavapipe's 128 MiB: 1,051 walkers). The hardware draws it,
    // with a line; the state keeps compute.
    const uint64_t block = uint64_t(crowd.asset().baked().vertices.size()) * 24;
    const uint64_t members = ctx_->properties.limits.maxStorageBufferRange / block + 1;
    if (members > 2000) {
        std::printf("skipped the fallback: %llu cpu members would exceed one storage buffer here\n",
                    static_cast<unsigned long long>(members));
        return;
    }
    CrowdState big = compute;
    big.technique = "cpu";
    big.instances = uint32_t(members);
    big.simulate = false;
    ASSERT_TRUE(crowd.apply(big)) << crowd.lastError();
    EXPECT_EQ(crowd.renderer()->rasterMode(), Raster::Hardware);
    EXPECT_EQ(crowd.state().raster, Raster::Compute);
    EXPECT_FALSE(crowd.renderer()->cull().lod) << "culling settings were not kept across the rebuild";
    EXPECT_TRUE(contains(log_, "raster compute: technique cpu's skinned vertices span several buffers")) << log_;
    EXPECT_TRUE(contains(log_, "; the hardware draws this crowd")) << log_;
    EXPECT_FALSE(crowd.rasterProblem(Raster::Compute).empty());
    EXPECT_GT(foreground(draw()), 0.05);
    ASSERT_TRUE(crowd.apply(compute)) << crowd.lastError(); // a crowd it draws: compute again
    EXPECT_EQ(crowd.renderer()->rasterMode(), Raster::Compute);
    EXPECT_GT(foreground(draw()), 0.05);
}

// A pass the last build left out (impostors while culling was off) is built when asked for
// again: the transaction compares with what the renderer draws, not with the state it was asked.
TEST_F(ViewState, APassLeftOutIsBuiltWhenAskedForAgain) {
    if (!ctx_->indirect_count) GTEST_SKIP() << "no drawIndirectCount: no culling to choose impostors";
    BakeOptions bake;
    bake.impostors.enabled = true;
    Result<Scene> scene = loadScene("builtin:walker", bake);
    ASSERT_TRUE(scene.ok()) << scene.error().message;
    LiveCrowd& crowd = start(std::move(scene).value(), CrowdState{"baked", 20});
    const CullSettings on = crowd.cull();
    CullSettings off = on;
    off.cull = false;
    off.lod = false;
    crowd.setCull(off);
    CrowdState want = crowd.state();
    want.impostor_px = 10.0f;
    ASSERT_TRUE(crowd.apply(want)) << crowd.lastError();
    EXPECT_EQ(crowd.renderer()->impostorPixels(), 0.0f);
    EXPECT_TRUE(contains(log_, "impostors: culling and LOD are off")) << log_;
    const render::CrowdRenderer* renderer = crowd.renderer();
    crowd.setCull(on);
    ASSERT_TRUE(crowd.apply(want)) << crowd.lastError(); // the same state, asked again
    EXPECT_EQ(crowd.renderer(), renderer) << "asking for impostors again rebuilt the crowd";
    EXPECT_EQ(crowd.renderer()->impostorPixels(), 10.0f);
    EXPECT_GT(foreground(draw()), 0.05);
    crowd.dropRenderer(); // as after a swapchain format the technique could not be rebuilt for
    EXPECT_EQ(crowd.rasterProblem(Raster::Hardware), "");
    EXPECT_FALSE(crowd.rasterProblem(Raster::Compute).empty());
}

namespace {

// The viewer's side of the commands, for a LiveCrowd alone.
struct Host final : CommandHost {
    LiveCrowd* crowd = nullptr;
    std::string lines;
    bool quit_asked = false;
    void log(const std::string& line) override { lines += line + "\n"; }
    bool applyState(const CrowdState& want, bool) override { return crowd->apply(want); }
    void setSpeed(float) override {}
    const char* setVsync(bool) override { return "fifo"; }
    void setView(render::ViewKind v) override { view = v; }
    void setCamera(const throng::Camera& c) override { camera = c; }
    std::string cameraText() override { return toString(camera); }
    throng::Camera camera;
    void setOverlay(bool shown) override { overlay = shown; }
    void setLight(float, float) override {}
    bool overlay = true;
    render::ViewKind view = render::ViewKind::Overview;
    void resizeWindow(uint32_t, uint32_t) override {}
    bool screenshot(const std::string&) override { return false; }
    std::string statsLine() override { return "stats: " + crowd->techniqueName(); }
    void quit() override { quit_asked = true; }
};

} // namespace

TEST_F(ViewState, CommandsChangeTheCrowdByText) {
    Host host;
    host.crowd = &start(walker(), CrowdState{"baked", 10});
    Commands commands(*host.crowd, host, "technique static; wait 1; technique warp-drive; stats; quit");
    EXPECT_TRUE(commands.execute("technique cpu"));
    EXPECT_TRUE(commands.execute("instances 30"));
    EXPECT_TRUE(commands.execute("clip idle"));
    EXPECT_FALSE(commands.execute("clip swim"));
    EXPECT_FALSE(commands.execute("technique gpu-magic"));
    EXPECT_TRUE(commands.execute("precision half"));
    // Dual quaternions: cpu cannot (refused, nothing changes), palette can.
    EXPECT_FALSE(commands.execute("skinning dual-quaternion"));
    EXPECT_EQ(host.crowd->state().skinning, Skinning::Linear);
    EXPECT_TRUE(commands.execute("technique palette"));
    EXPECT_TRUE(commands.execute("skinning dual-quaternion"));
    EXPECT_EQ(host.crowd->techniqueName(), "palette (dual-quaternion)");
    EXPECT_TRUE(commands.execute("skinning linear"));
    EXPECT_TRUE(commands.execute("technique cpu"));
    EXPECT_TRUE(commands.execute("overlay off"));
    EXPECT_FALSE(host.overlay);
    EXPECT_FALSE(commands.execute("overlay maybe"));
    EXPECT_FALSE(host.overlay);
    EXPECT_EQ(host.crowd->state().technique, "cpu");
    EXPECT_EQ(host.crowd->crowd().instances.size(), 30u);
    EXPECT_EQ(host.crowd->state().clip, 1);
    for (const char* line :
         {"> technique cpu\ntechnique: cpu\n", "instances: 30\n", "clip: idle\n",
          "error: no clip 'swim' (clips: walk, idle", "error: unknown technique 'gpu-magic'",
          "> precision half\nprecision: half\n",
          "error: dual-quaternion skinning is drawn by techniques palette, palette-ubo, baked and pose, not "
          "cpu (nothing changed)",
          "skinning: dual-quaternion (technique palette (dual-quaternion))"})
        EXPECT_TRUE(contains(host.lines, line)) << line << "\n" << host.lines;
    EXPECT_EQ(log_, "baking half...\n"); // the crowd's own progress line (the viewer logs both the same way)
    EXPECT_GT(foreground(draw()), 0.05);
    for (int frame = 0; frame < 6 && commands.scriptLeft() > 0; ++frame) commands.runPending(false);
    EXPECT_EQ(commands.scriptLeft(), 0u);
    EXPECT_TRUE(commands.failed()); // technique warp-drive
    EXPECT_TRUE(host.quit_asked);
    EXPECT_TRUE(contains(host.lines, "technique: static\n")) << host.lines;
    EXPECT_TRUE(contains(host.lines, "stats: static\n")) << host.lines;
}

// The console's `camera`: placed from the form `render --camera` takes, printed in it, refused
// with the usage when malformed (the camera stays where it was).
TEST_F(ViewState, CameraIsPlacedAndPrintedAsTheCommandLineTakesIt) {
    Host host;
    host.crowd = &start(walker(), CrowdState{"baked", 10});
    Commands commands(*host.crowd, host, "");
    EXPECT_TRUE(commands.execute("camera 0,1.7,30:0,1,0:50"));
    EXPECT_EQ(host.camera.eye, glm::vec3(0.0f, 1.7f, 30.0f));
    EXPECT_EQ(host.camera.fov_y_degrees, 50.0f);
    EXPECT_TRUE(commands.execute("camera"));
    EXPECT_FALSE(commands.execute("camera 0,1.7,30"));
    EXPECT_FALSE(commands.execute("camera 1,1,1:1,1,1"));
    EXPECT_EQ(host.camera.eye, glm::vec3(0.0f, 1.7f, 30.0f));
    for (const char* line :
         {"> camera 0,1.7,30:0,1,0:50\ncamera: 0,1.7,30:0,1,0:50\n", "> camera\ncamera: 0,1.7,30:0,1,0:50\n",
          "error: usage: camera [EYE:TARGET[:FOV]]: camera \"0,1.7,30\": expected EYE:TARGET[:FOV]",
          "the camera's eye is at its target"})
        EXPECT_TRUE(contains(host.lines, line)) << line << "\n" << host.lines;
}

// The crowd's own passes (CrowdRenderer::collect) take the place of the viewer's `crowd` bar.
TEST(ViewTimeRuler, CrowdPassesReplaceTheCrowdBar) {
    const std::vector<GpuPassTime> frame = {{"crowd", 0.0, 3.0}, {"overlay", 3.0, 0.5}};
    render::FrameSample sample;
    sample.pass_names = {"cull", "draw"};
    sample.gpu_pass_ms = {1.0, 1.75};
    const std::vector<GpuPassTime> passes = withCrowdPasses(frame, sample);
    ASSERT_EQ(passes.size(), 3u);
    EXPECT_EQ(passes[0].name, "cull");
    EXPECT_EQ(passes[1].name, "draw");
    EXPECT_DOUBLE_EQ(passes[1].start_ms, 1.0);
    EXPECT_DOUBLE_EQ(passes[1].length_ms, 1.75);
    EXPECT_EQ(passes[2].name, "overlay");
    EXPECT_EQ(withCrowdPasses(frame, render::FrameSample{}).size(), 2u); // no times: the bar stays
}

TEST(ViewTimeRuler, GpuPassesFromTimestamps) {
    const std::vector<uint64_t> ticks = {1000, 1050, 1850, 1870};
    const std::vector<std::string> names = {"upload", "crowd", "overlay"};
    const std::vector<GpuPassTime> passes = gpuPassTimes(ticks, names, 0.01);
    ASSERT_EQ(passes.size(), 3u);
    EXPECT_EQ(passes[1].name, "crowd");
    EXPECT_DOUBLE_EQ(passes[1].start_ms, 0.5);
    EXPECT_DOUBLE_EQ(passes[1].length_ms, 8.0);
    FrameCosts costs;
    costs.gpu_passes = passes;
    EXPECT_DOUBLE_EQ(costs.gpuMs("upload"), 0.5);
    EXPECT_DOUBLE_EQ(costs.gpuMs("crowd"), 8.0);
    EXPECT_NEAR(costs.gpuMs("overlay"), 0.2, 1e-12);
    EXPECT_DOUBLE_EQ(costs.gpuMs("simulate"), 0.0);
    EXPECT_EQ(gpuPassTimes(std::vector<uint64_t>{5}, names, 1.0).size(), 0u); // no pass ended
}

// A crowd of several models in the viewer (docs/MIXED_CROWDS.md): the imported walker and
// waver; `clip walk` has each member play its own model's walk; vat bakes both again with vertex
// animation; a simulated crowd walks each model with its own clips; palette draws it; what
// cannot draw it refuses.
TEST_F(ViewState, SeveralModelsAreOneCrowd) {
    Result<Scene> waver = loadScene("builtin:waver", BakeOptions{});
    ASSERT_TRUE(waver.ok());
    std::vector<Scene> scenes;
    scenes.push_back(walker());
    scenes.push_back(std::move(waver).value());
    LiveCrowd& crowd = start(std::move(scenes), CrowdState{"baked", 20}, {3.0f, 1.0f});
    ASSERT_TRUE(crowd.asset().mixed());
    EXPECT_GT(foreground(draw()), 0.05);
    auto modelsOf = [&] {
        std::array<uint32_t, 2> n{};
        for (const auto& r : crowd.crowd().instances) ++n[gpu::shader::throngAssetOf(r.clips)];
        return n;
    };
    EXPECT_GT(modelsOf()[0], modelsOf()[1]) << "shares 3:1";
    // The console lists them with their members.
    Host host;
    host.crowd = &crowd;
    Commands commands(crowd, host, "");
    EXPECT_TRUE(commands.execute("models"));
    char share[16];
    std::snprintf(share, sizeof share, "%.1f%%", 100.0 * modelsOf()[0] / 20.0);
    EXPECT_TRUE(contains(host.lines, "models: builtin:walker " + std::to_string(modelsOf()[0]) + " members (" + share +
                                         "), builtin:waver " + std::to_string(modelsOf()[1])))
        << host.lines;
    // Each member its own model's 'walk'.
    CrowdState walk{"baked", 20};
    walk.clip = 0;
    ASSERT_EQ(crowd.asset().baked().clips[0].name, "walk");
    ASSERT_TRUE(crowd.apply(walk)) << crowd.lastError();
    const render::AssetLibrary& lib = crowd.asset().library;
    for (const auto& r : crowd.crowd().instances) {
        const render::AssetRange& range = lib.ranges[gpu::shader::throngAssetOf(r.clips)];
        const uint32_t clip = gpu::shader::throngClipA(r.clips);
        ASSERT_TRUE(clip >= range.first_clip && clip < range.first_clip + range.clip_count);
        EXPECT_EQ(crowd.asset().baked().clips[clip].name, "walk");
    }
    EXPECT_GT(foreground(draw()), 0.05);
    // Both imported: vat bakes both again with vertex animation.
    ASSERT_TRUE(crowd.apply(CrowdState{"vat", 20})) << crowd.lastError();
    EXPECT_TRUE(crowd.asset().hasVat());
    EXPECT_GT(foreground(draw()), 0.05);
    CrowdState simulated{"baked", 20};
    simulated.simulate = true;
    ASSERT_TRUE(crowd.apply(simulated)) << crowd.lastError();
    EXPECT_GT(foreground(draw()), 0.05);
    // palette poses each member from its own model's source animation (AssetLibrary::sources).
    ASSERT_TRUE(crowd.apply(CrowdState{"palette", 20})) << crowd.lastError();
    EXPECT_GT(foreground(draw()), 0.05);
    ASSERT_TRUE(crowd.apply(CrowdState{"baked", 20})) << crowd.lastError();
    // What cannot draw it says why and changes nothing.
    EXPECT_FALSE(crowd.apply(CrowdState{"pose", 20}));
    EXPECT_TRUE(contains(crowd.lastError(), "a crowd of several models")) << crowd.lastError();
    EXPECT_EQ(crowd.state().technique, "baked");
}

// A .throng model without vertex animation in a crowd of several: vat is refused naming it.
TEST_F(ViewState, SeveralModelsRefuseVatWhereAModelCannotBakeIt) {
    std::vector<Scene> scenes;
    scenes.push_back(walker());
    scenes.push_back(walker(false)); // stands for a .throng file without vertex animation
    LiveCrowd& crowd = start(std::move(scenes), CrowdState{"baked", 20});
    EXPECT_FALSE(crowd.apply(CrowdState{"vat", 20}));
    EXPECT_EQ(crowd.lastError(), "walker.throng has no vertex animation (bake it with throng bake --vat)");
    EXPECT_EQ(crowd.state().technique, "baked");
}
