// The interactive viewer; see throng/view.h. It owns the window's swapchain, the frame slots, the
// overlay, the crowd (crowd_state.h: a render::CrowdRenderer, as every other caller draws a
// crowd) and the console commands (commands.h), and runs the loop. One frame: wait for the frame
// slot, acquire a swapchain image, let the crowd do its CPU work, build the overlay, record (the
// crowd, with TAA its pass into the swapchain image (antialias.h), then the overlay in its render
// pass), submit, present.
// Console commands (typed, from panels, or scripted) are applied between frames.
#include <throng/view.h>

#include "antialias.h"
#include "commands.h"
#include "frame_loop.h"
#include "input.h"
#include "overlay.h"
#include "screenshot.h"
#include "window.h"

#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace throng::view {

namespace {

using Clock = std::chrono::steady_clock;

void printError(const std::string& where, const std::string& what) {
    std::fprintf(stderr, "throng: error: %s: %s\n", where.c_str(), what.c_str());
}

CrowdState initialState(const ViewerOptions& o) {
    CrowdState s;
    s.technique = o.technique;
    s.instances = o.instances;
    s.precision = o.bone_precision;
    s.simulate = o.simulate;
    s.shadows = o.shadows.size;
    s.skinning = o.skinning;
    s.raster = o.raster;
    s.impostor_px = o.cull.impostor_px;
    s.taa = o.taa;
    return s;
}

class Viewer final : public CommandHost {
  public:
    Viewer(const ViewerOptions& o, GLFWwindow* window, gpu::Context& ctx, std::vector<Scene> scenes)
        : options_(o), window_(window), ctx_(ctx), present_(presentMode(o.present)), overlay_(o.console),
          crowd_(std::move(scenes), o.shares, crowdSetup(o)), commands_(crowd_, *this, o.exec) {}

    ~Viewer() override {
        try {
            shutdown();
        } catch (const std::exception&) { // already failing: the caller reports the first error
        }
    }
    Viewer(const Viewer&) = delete;
    Viewer& operator=(const Viewer&) = delete;

    // Returns the exit code.
    int run() {
        started_ = true;
        gpu::createAllocator(allocator_, ctx_);
        // A window that opens minimised has no area: wait until it has one (or closes).
        int width = 0, height = 0;
        for (glfwGetFramebufferSize(window_, &width, &height);
             (width == 0 || height == 0) && !glfwWindowShouldClose(window_);
             glfwGetFramebufferSize(window_, &width, &height))
            glfwWaitEventsTimeout(0.1);
        if (glfwWindowShouldClose(window_)) return 0;
        while (!createSwapchain(allocator_, uint32_t(width), uint32_t(height), present_, swapchain_)) {
            glfwWaitEventsTimeout(0.1);
            if (glfwWindowShouldClose(window_)) return 0;
            glfwGetFramebufferSize(window_, &width, &height);
        }
        requested_ = {uint32_t(width), uint32_t(height)};
        createFrameSlots(ctx_, slots_);
        overlay_.init(window_, ctx_, swapchain_);
        crowd_.setColorFormat(swapchain_.format);
        crowd_.setTargets(depthTargets(), ctx_.depth_pyramid);
        CrowdState first = initialState(options_);
        if (first.shadows > 0) // a size this device refuses: the crowd without shadows, and a line saying so
            if (Status st = render::checkShadowSettings(ctx_, ShadowSettings{first.shadows}); !st) {
                log("error: --shadows: " + st.message + "; shadows off");
                first.shadows = 0;
            }
        if (first.taa && !taaProblem().empty()) {
            printError(crowd_.sources(), "--aa taa: " + taaProblem());
            shutdown();
            return 1;
        }
        if (!crowd_.start(first)) {
            printError(crowd_.sources(), crowd_.lastError());
            return 1;
        }
        float azimuth = 0.0f, elevation = 0.0f;
        if (!options_.light.empty() && render::parseSunAngles(options_.light, azimuth, elevation))
            light_ = render::lightFromAngles(azimuth, elevation);
        // What the command line asked for and the crowd cannot do at start is an error, as in render.
        if (first.raster == Raster::Compute && crowd_.renderer()->rasterMode() != first.raster) {
            printError(crowd_.sources(),
                       std::string("--raster ") + toString(first.raster) + ": " + crowd_.rasterProblem(first.raster));
            shutdown();
            return 1;
        }
        if (first.impostor_px > 0.0f && crowd_.renderer()->impostorPixels() == 0.0f) {
            printError(crowd_.sources(), "--impostors: " + crowd_.impostorProblem());
            shutdown();
            return 1;
        }
        camera_ = viewCamera(options_.view, crowd_.crowd(), aspect());
        log("viewer: " + ctx_.device_name + " | " + crowd_.sources() + " | " +
            std::to_string(crowd_.state().instances) + " instances | " + crowd_.techniqueName() + " | present " +
            presentName(swapchain_.present_mode) +
            " | backtick opens the console, F frames the crowd, C switches orbit/fly");
        last_frame_ = Clock::now();
        while (!glfwWindowShouldClose(window_) && !quit_) {
            glfwPollEvents();
            int w = 0, h = 0;
            glfwGetFramebufferSize(window_, &w, &h);
            if (w == 0 || h == 0) { // minimised: no swapchain, nothing to draw
                glfwWaitEventsTimeout(0.1);
                continue;
            }
            // Compared with the size last asked for, not the swapchain's extent: the surface may
            // clamp it, and asking again would not change that.
            if (resize_ || swapchain_.swapchain == VK_NULL_HANDLE || uint32_t(w) != requested_.width ||
                uint32_t(h) != requested_.height) {
                recreateSwapchain();
                if (swapchain_.swapchain == VK_NULL_HANDLE) {
                    glfwWaitEventsTimeout(0.1);
                    continue;
                }
            }
            commands_.runPending(!shot_.path.empty());
            if (quit_) break;
            if (!frame()) continue;
            ++frames_drawn_;
            if (options_.frames > 0 && frames_drawn_ >= options_.frames) break;
        }
        if (commands_.scriptLeft() > 0 && options_.frames > 0)
            log("viewer: --frames " + std::to_string(options_.frames) + " reached with " +
                std::to_string(commands_.scriptLeft()) + " scripted command(s) not run");
        shutdown();
        return commands_.failed() ? 1 : 0;
    }

    // ---- what the commands change (CommandHost) --------------------------------------------
    void log(const std::string& line) override {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
        overlay_.addLine(line);
    }

    bool applyState(const CrowdState& want, bool reframe) override {
        if (want.taa && !crowd_.state().taa && !taaProblem().empty()) {
            log("error: aa taa: " + taaProblem());
            return false;
        }
        const bool applied = crowd_.apply(want);
        if (applied) forgetTimestamps(slots_);  // apply() waited for the device: the old frames are done
        if (applied && !want.taa) taa_.reset(); // the device is idle
        if (applied && reframe) camera_ = frameCrowd(crowd_.crowd().bounds, aspect());
        return applied;
    }

    void setOverlay(bool shown) override { overlay_.showPanel(shown); }

    void setLight(float azimuth_degrees, float elevation_degrees) override {
        light_ = render::lightFromAngles(azimuth_degrees, elevation_degrees);
    }

    void setSpeed(float speed) override { speed_ = speed; }
    void setView(render::ViewKind view) override { camera_ = viewCamera(view, crowd_.crowd(), aspect()); }
    void setCamera(const throng::Camera& camera) override {
        camera_ = lookingAt(camera, crowd_.crowd().bounds, aspect());
    }
    std::string cameraText() override { return toString(lens(camera_)); }

    const char* setVsync(bool on) override {
        present_ = on ? VK_PRESENT_MODE_FIFO_KHR : VK_PRESENT_MODE_MAILBOX_KHR;
        recreateSwapchain();
        return presentName(swapchain_.present_mode);
    }

    void resizeWindow(uint32_t width, uint32_t height) override { glfwSetWindowSize(window_, int(width), int(height)); }

    bool screenshot(const std::string& path) override {
        if (!canScreenshot()) return false;
        shot_.path = path;
        return true;
    }

    std::string statsLine() override { return view::statsLine(report(), allocator_, swapchain_); }

    void quit() override { quit_ = true; }

  private:
    CrowdSetup crowdSetup(const ViewerOptions& o) {
        CrowdSetup s;
        s.allocator = &allocator_;
        s.depth_format = kDepthFormat;
        s.options = o;
        s.frames_in_flight = kSlots;
        s.seed = o.seed;
        s.model_size = o.model_size;
        s.log = [this](const std::string& line) { log(line); };
        return s;
    }

    void shutdown() {
        if (!started_) return;
        started_ = false;
        // Not VK_CHECK: after a failure (a lost device) everything must still be freed.
        if (ctx_.device != VK_NULL_HANDLE) vkDeviceWaitIdle(ctx_.device);
        taa_.reset();
        overlay_.shutdown();
        crowd_.release();
        destroyFrameSlots(ctx_, slots_);
        destroyScreenshot(allocator_, shot_);
        destroySwapchain(allocator_, swapchain_);
        gpu::destroyAllocator(allocator_);
    }

    // The swapchain's depth image and extent (the colour image is the frame's).
    gpu::FrameTargets depthTargets() const {
        gpu::FrameTargets t;
        t.depth = swapchain_.depth.image;
        t.depth_view = swapchain_.depth.view;
        t.extent = swapchain_.extent;
        return t;
    }

    float aspect() const {
        return swapchain_.extent.height > 0 ? float(swapchain_.extent.width) / float(swapchain_.extent.height)
                                            : 16.0f / 9.0f;
    }
    FrameReport report() const { return {fps_, frame_ms_, costs_, crowd_, cpu_.upload_bytes, triangles_}; }
    bool canScreenshot() const { return swapchain_.can_copy && copyableFormat(swapchain_.format); }
    // Why temporal anti-aliasing cannot run here ("" when it can).
    std::string taaProblem() const {
        if (!ctx_.depth_sampled) return "this device cannot sample the depth format (D32_SFLOAT) it reads";
        if (swapchain_.swapchain != VK_NULL_HANDLE && !swapchain_.can_blit)
            return "the window's images cannot be written by a transfer (TRANSFER_DST usage)";
        return "";
    }

    void recreateSwapchain() {
        VK_CHECK(vkDeviceWaitIdle(ctx_.device));
        forgetTimestamps(slots_);
        taa_.reset(); // made again for the new extent by the next frame
        const VkFormat before = swapchain_.format;
        const VkRenderPass pass_before = swapchain_.overlay_pass;
        int w = 0, h = 0;
        glfwGetFramebufferSize(window_, &w, &h);
        requested_ = {uint32_t(w), uint32_t(h)};
        resize_ = false;
        if (!createSwapchain(allocator_, requested_.width, requested_.height, present_, swapchain_))
            return;                                                                   // minimised
        if (swapchain_.overlay_pass != pass_before) overlay_.passChanged(swapchain_); // a new image format
        crowd_.setTargets(depthTargets(), ctx_.depth_pyramid);                        // the device is idle
        crowd_.setColorFormat(swapchain_.format);
        if (before != swapchain_.format && crowd_.renderer() && !applyState(crowd_.state(), false)) {
            crowd_.dropRenderer(); // its pipelines were built for the old format: draw no crowd rather than a wrong one
            log("error: technique " + crowd_.state().technique + " for the new image format: " + crowd_.lastError());
        }
    }

    // False when no frame was drawn (the swapchain had to be recreated).
    bool frame() {
        if (swapchain_.swapchain == VK_NULL_HANDLE) return false;
        const uint32_t slot = uint32_t(frame_index_ % kSlots);
        FrameSlot& f = slots_[slot];
        const Clock::time_point start = Clock::now();
        const double seconds = std::chrono::duration<double>(start - last_frame_).count();
        last_frame_ = start;
        frame_ms_ = frame_ms_ == 0.0 ? seconds * 1e3 : 0.9 * frame_ms_ + 0.1 * seconds * 1e3;
        fps_ = frame_ms_ > 0.0 ? 1000.0 / frame_ms_ : 0.0;
        if (std::vector<GpuPassTime> passes = waitForSlot(ctx_, f); !passes.empty()) // `crowd` and `overlay`
            costs_.gpu_passes = withCrowdPasses(std::move(passes), crowd_.collect(slot));
        triangles_ = crowd_.triangles(slot);
        uint32_t image = 0;
        if (!acquireImage(ctx_, swapchain_, f, image, resize_)) return false;
        costs_.cpu_wait_ms = render::millisecondsSince(start);

        // The camera first: the crowd's frame is seen through where the input moved it.
        const Clock::time_point ui_start = Clock::now();
        overlay_.newFrame();
        const InputActions keys =
            handleInput(window_, float(std::min(seconds, 0.25)), camera_, crowd_.crowd().bounds, aspect());
        if (keys.console) overlay_.toggleConsole();
        if (keys.overlay) overlay_.showPanel(!overlay_.panelShown());
        const bool vsync = swapchain_.present_mode == VK_PRESENT_MODE_FIFO_KHR;
        for (std::string& line : overlay_.build(report(), vsync, aspect(), speed_, camera_))
            commands_.type(std::move(line));
        costs_.cpu_ui_ms = render::millisecondsSince(ui_start);

        time_ += float(std::min(seconds, 0.25) * speed_);
        // Temporal anti-aliasing: the crowd through a jittered camera into the TAA's images.
        const bool taa = crowd_.state().taa && taaProblem().empty();
        if (taa && !taa_) taa_ = std::make_unique<ViewerTaa>(allocator_, swapchain_.extent);
        glm::mat4 view_projection = viewProjection(camera_, aspect());
        if (taa) view_projection = taa_->jitter(view_projection);
        // This slot's last frame has finished (waitForSlot): its per-frame buffers are free to write.
        // Without a renderer (a failed rebuild left none): the overlay alone.
        cpu_ = crowd_.update(slot, view_projection, time_, light_);
        costs_.cpu_sample_ms = cpu_.sample_ms;
        costs_.cpu_skin_ms = cpu_.skin_ms;
        costs_.cpu_upload_ms = cpu_.upload_ms;

        const Clock::time_point record_start = Clock::now();
        bool screenshot = !shot_.path.empty();
        if (screenshot && !canScreenshot()) { // the swapchain changed since the command
            log("error: screenshot " + shot_.path + ": the new swapchain's images cannot be copied");
            shot_.path.clear();
            commands_.fail();
            screenshot = false;
        }
        beginFrame(ctx_, f);
        gpu::FrameTargets target{swapchain_.images[image], swapchain_.views[image], swapchain_.depth.image,
                                 swapchain_.depth.view,    swapchain_.extent,       render::kBackground};
        std::vector<gpu::Pass> after; // the TAA pass
        if (taa) {
            target = taa_->targets(swapchain_.depth);
            after.push_back(taa_->pass(target, swapchain_.images[image]));
        }
        crowd_.record(f.cmd, slot, target, ctx_.depth_pyramid, after);
        endPass(f.cmd, f, "crowd");
        overlay_.record(f.cmd, swapchain_, image);
        endPass(f.cmd, f, "overlay");
        if (screenshot)
            recordCopy(allocator_, shot_, f.cmd, swapchain_.images[image], VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                       swapchain_.extent, swapchain_.format);
        VK_CHECK(vkEndCommandBuffer(f.cmd));
        costs_.cpu_record_ms = render::millisecondsSince(record_start);

        submitFrame(ctx_, f, f.acquired, swapchain_.rendered[image]);
        present(ctx_, swapchain_, image, resize_);
        ++frame_index_;
        if (screenshot) saveShot(f);
        return true;
    }

    void saveShot(const FrameSlot& f) {
        VK_CHECK(vkWaitForFences(ctx_.device, 1, &f.fence, VK_TRUE, UINT64_MAX));
        const Saved saved = saveScreenshot(shot_);
        log(saved.line);
        if (!saved.ok) commands_.fail();
    }

    const ViewerOptions& options_;
    GLFWwindow* window_;
    gpu::Context& ctx_;
    gpu::Allocator allocator_;
    Swapchain swapchain_;
    VkPresentModeKHR present_ = VK_PRESENT_MODE_FIFO_KHR;
    VkExtent2D requested_{0, 0}; // the framebuffer size the swapchain was last made for
    bool resize_ = false;
    FrameSlots slots_{};
    uint64_t frame_index_ = 0;
    Overlay overlay_;
    LiveCrowd crowd_;
    Commands commands_;
    Screenshot shot_;
    std::unique_ptr<ViewerTaa> taa_; // with TAA on, for the swapchain's extent (made by the first frame that needs it)
    bool started_ = false;           // run() began: shutdown() has something to free
    bool quit_ = false;
    float speed_ = 1.0f;
    float time_ = 0.0f;
    Camera camera_;

    uint32_t frames_drawn_ = 0;
    Clock::time_point last_frame_;
    double frame_ms_ = 0.0, fps_ = 0.0;
    FrameCosts costs_;
    render::TechniqueStats cpu_;
    uint64_t triangles_ = 0;                  // drawn in the last measured frame
    glm::vec3 light_ = render::kDefaultLight; // the way the sunlight travels (--light; console: light)
};

} // namespace

int runViewer(const ViewerOptions& o) {
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((display == nullptr || *display == '\0') && (wayland == nullptr || *wayland == '\0')) {
        std::fprintf(
            stderr,
            "throng: error: view: no display (neither DISPLAY nor WAYLAND_DISPLAY is set); for a headless image use "
            "`throng render --model %s --out crowd.png`\n",
            o.model.c_str());
        return 1;
    }
    bool known = false;
    for (std::string_view t : render::techniqueNames()) known = known || t == o.technique;
    if (!known) {
        printError(o.model, "unknown technique '" + o.technique + "' (see throng render --help)");
        return 1;
    }
    BakeOptions bake;
    bake.fps = o.fps;
    bake.precision = initialState(o).precision;
    bake.vat = findTechnique(o.technique)->needs_vat; // runViewer checked the name
    bake.impostors.enabled = o.cull.impostor_px > 0.0f;
    bake.impostors.skinning = o.skinning; // as the crowd skins
    bake.root_motion = o.root_motion;
    if (Status s = eventsFromText(o.events, bake); !s) {
        printError(o.model, s.message);
        return 1;
    }
    std::vector<Scene> scenes; // one per model of the crowd
    for (const std::string& model : o.models.empty() ? std::vector<std::string>{o.model} : o.models) {
        Result<Scene> scene = loadScene(model, bake, o.attach);
        if (!scene) {
            printError(model, scene.error().message);
            return 1;
        }
        if (scene.value().model) // the model's image files that could not be read, as info, bake and render word it
            for (const std::string& w : missingTextures(*scene.value().model))
                std::fprintf(stderr, "throng: warning: %s: %s\n", model.c_str(), w.c_str());
        scenes.push_back(std::move(scene).value());
    }
    Window window;
    if (!openWindow(o, window)) return 1;
    int code = 0;
    try {
        Viewer viewer(o, window.window, *window.context, std::move(scenes));
        code = viewer.run();
    } catch (const std::exception& e) { // GpuError, or out of host memory
        printError(o.model, e.what());
        code = 1;
    }
    if (closeWindow(window)) code = 1; // validation errors
    return code;
}

} // namespace throng::view
