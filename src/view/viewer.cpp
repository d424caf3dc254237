// The interactive viewer; see viewer.h. One frame: wait for the frame slot, acquire a swapchain
// image, let the technique do its CPU work, build the overlay, record (technique transfers,
// crowd pass with dynamic rendering, overlay in a classic render pass), submit, present.
// Console commands (typed, from panels, or scripted) are applied between frames.
#include "viewer.h"

#include "camera.h"
#include "console.h"
#include "swapchain.h"
#include "time_ruler.h"

#include "../gpu/frame.h"
#include "../gpu/png.h"
#include "../render/renderer.h"

#include <throng/bake.h>

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <optional>
#include <unistd.h>

namespace throng::view {

namespace {

// The process's resident set (Linux: /proc/self/statm), for `stats` and the soak test.
uint64_t residentBytes() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr) return 0;
    unsigned long long size = 0, resident = 0;
    const bool ok = std::fscanf(f, "%llu %llu", &size, &resident) == 2;
    std::fclose(f);
    return ok ? resident * uint64_t(sysconf(_SC_PAGESIZE)) : 0;
}

using Clock = std::chrono::steady_clock;

constexpr uint32_t kSlots = render::kFramesInFlight;
constexpr uint32_t kTimestamps = 4;  // frame begin, crowd begin, overlay begin, end
constexpr double kTargetMs = 1000.0 / 60.0;

std::string g_glfw_error;  // the last GLFW error, for messages

void onGlfwError(int, const char* text) {
    g_glfw_error = text != nullptr ? text : "";
}

void printError(const std::string& where, const std::string& what) {
    std::fprintf(stderr, "throng: error: %s: %s\n", where.c_str(), what.c_str());
}

// The crowd's source: the baked asset, and for imported models the model itself so the viewer
// can bake again (another precision, or vertex animation for technique vat).
struct Scene {
    std::string source;
    std::optional<Model> model;
    BakedAsset baked;
    float fps = 30.0f;
};

Result<Scene> loadScene(const std::string& source, float fps, Precision precision, bool vat) {
    BakeOptions o;
    o.fps = fps;
    o.precision = precision;
    o.vat = vat;
    Result<LoadedAsset> loaded = loadAsset(source, o);
    if (!loaded) return loaded.error();
    Scene s;
    s.source = source;
    s.fps = fps;
    s.model = std::move(loaded.value().model);
    s.baked = std::move(loaded.value().baked);
    return s;
}

bool hasVat(const BakedAsset& a) {
    return !a.vat_f32.empty() || !a.vat_f16.empty();
}

VkPresentModeKHR presentMode(const std::string& name) {
    if (name == "mailbox") return VK_PRESENT_MODE_MAILBOX_KHR;
    if (name == "immediate") return VK_PRESENT_MODE_IMMEDIATE_KHR;
    return VK_PRESENT_MODE_FIFO_KHR;
}

const char* presentName(VkPresentModeKHR m) {
    switch (m) {
    case VK_PRESENT_MODE_MAILBOX_KHR: return "mailbox";
    case VK_PRESENT_MODE_IMMEDIATE_KHR: return "immediate";
    case VK_PRESENT_MODE_FIFO_RELAXED_KHR: return "fifo-relaxed";
    default: return "fifo";
    }
}

void checkImGuiVk(VkResult r) {
    VK_CHECK(r);
}

// A baked asset with its GPU copy and the mesh technique cpu skins. Held by pointer: techniques
// keep pointers into it, which must stay valid while a replacement is built beside it.
struct AssetOnGpu {
    BakedAsset baked;
    render::GpuAsset gpu;
    render::BakedAssetMesh mesh;
    gpu::Allocator* allocator = nullptr;  // set once `gpu` holds something to free
    AssetOnGpu() = default;
    AssetOnGpu(const AssetOnGpu&) = delete;
    AssetOnGpu& operator=(const AssetOnGpu&) = delete;
    ~AssetOnGpu() {
        if (allocator != nullptr) render::destroyAsset(*allocator, gpu);
    }
};

// What the console changes about the crowd. Applied as a whole (Viewer::applyState): either
// everything it implies is built, or nothing changes.
struct CrowdState {
    std::string technique;
    uint32_t instances = 0;
    int clip = -1;  // -1: the seeded mixed crowd
    Precision precision = Precision::Float32;
};

bool copyableFormat(VkFormat f) {  // screenshots read 4 bytes per pixel, RGBA or BGRA
    return f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_B8G8R8A8_UNORM || f == VK_FORMAT_R8G8B8A8_SRGB || f == VK_FORMAT_R8G8B8A8_UNORM;
}

struct FrameSlot : gpu::FrameSlot {
    VkSemaphore acquired = VK_NULL_HANDLE;  // the swapchain image is ready
    bool pending = false;                   // timestamps written and not yet read
};

class Viewer {
public:
    Viewer(const ViewerOptions& o, GLFWwindow* window, gpu::Context& ctx, Scene scene)
        : options_(o), window_(window), ctx_(ctx), scene_(std::move(scene)) {
        state_.technique = o.technique;
        state_.instances = o.instances;
        state_.precision = o.precision == "half" ? Precision::Float16 : Precision::Float32;
        encoding_ = o.encoding == "quat" ? render::PaletteEncoding::Quaternion : render::PaletteEncoding::Matrix;
        present_ = presentMode(o.present);
        console_open_ = o.console;
        for (const std::string& line : splitScript(o.exec)) script_.push_back(line);
    }

    ~Viewer() {
        try {
            shutdown();
        } catch (const std::exception&) {  // already failing: the caller reports the first error
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
        for (glfwGetFramebufferSize(window_, &width, &height); (width == 0 || height == 0) && !glfwWindowShouldClose(window_);
             glfwGetFramebufferSize(window_, &width, &height))
            glfwWaitEventsTimeout(0.1);
        if (glfwWindowShouldClose(window_)) return 0;
        while (!createSwapchain(allocator_, uint32_t(width), uint32_t(height), present_, swapchain_)) {
            glfwWaitEventsTimeout(0.1);
            if (glfwWindowShouldClose(window_)) return 0;
            glfwGetFramebufferSize(window_, &width, &height);
        }
        requested_ = {uint32_t(width), uint32_t(height)};
        createSlots();
        initOverlay();
        std::unique_ptr<AssetOnGpu> first = upload(std::move(scene_.baked));
        if (!first) {
            printError(scene_.source, last_error_);
            return 1;
        }
        asset_ = std::move(first);
        if (!applyState(state_, true)) {
            printError(scene_.source, last_error_);
            return 1;
        }
        log("viewer: " + ctx_.device_name + " | " + scene_.source + " | " + std::to_string(state_.instances) + " instances | " + technique_name_ +
            " | present " + presentName(swapchain_.present_mode) + " | backtick opens the console, F frames the crowd, C switches orbit/fly");
        last_frame_ = Clock::now();
        while (!glfwWindowShouldClose(window_) && !quit_) {
            glfwPollEvents();
            int w = 0, h = 0;
            glfwGetFramebufferSize(window_, &w, &h);
            if (w == 0 || h == 0) {  // minimised: no swapchain, nothing to draw
                glfwWaitEventsTimeout(0.1);
                continue;
            }
            // Compared with the size last asked for, not the swapchain's extent: the surface may
            // clamp it, and asking again would not change that.
            if (resize_ || swapchain_.swapchain == VK_NULL_HANDLE || uint32_t(w) != requested_.width || uint32_t(h) != requested_.height) {
                recreateSwapchain();
                if (swapchain_.swapchain == VK_NULL_HANDLE) {
                    glfwWaitEventsTimeout(0.1);
                    continue;
                }
            }
            runScript();
            if (quit_) break;
            if (!frame()) continue;
            ++frames_drawn_;
            if (options_.frames > 0 && frames_drawn_ >= options_.frames) break;
        }
        if (!script_.empty() && options_.frames > 0)
            log("viewer: --frames " + std::to_string(options_.frames) + " reached with " + std::to_string(script_.size()) +
                " scripted command(s) not run");
        shutdown();
        return script_failed_ ? 1 : 0;
    }

private:
    // ---- set-up and tear-down ------------------------------------------------------------
    void createSlots() {
        for (FrameSlot& f : slots_) {
            static_cast<gpu::FrameSlot&>(f) = gpu::createFrameSlot(ctx_, kTimestamps);
            VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
            VK_CHECK(vkCreateSemaphore(ctx_.device, &sci, nullptr, &f.acquired));
        }
    }

    void initOverlay() {
        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        imgui_context_ = true;
        ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini next to the user's files
        ImGui::StyleColorsDark();
        ImGui_ImplGlfw_InitForVulkan(window_, true);
        imgui_glfw_ = true;
        const std::array<VkDescriptorPoolSize, 1> sizes = {{{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16}}};
        VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        pci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
        pci.maxSets = 16;
        pci.poolSizeCount = uint32_t(sizes.size());
        pci.pPoolSizes = sizes.data();
        VK_CHECK(vkCreateDescriptorPool(ctx_.device, &pci, nullptr, &overlay_pool_));
        initOverlayBackend();
    }

    // Dear ImGui's Vulkan backend builds its pipeline for one render pass: (re)made with the
    // swapchain's overlay pass, with the font texture.
    void initOverlayBackend() {
        ImGui_ImplVulkan_InitInfo info{};
        info.Instance = ctx_.instance;
        info.PhysicalDevice = ctx_.physical;
        info.Device = ctx_.device;
        info.QueueFamily = ctx_.queue_family;
        info.Queue = ctx_.queue;
        info.DescriptorPool = overlay_pool_;
        info.MinImageCount = 2;
        // The backend cycles its vertex buffers over ImageCount frames; we have kSlots in flight.
        info.ImageCount = std::max<uint32_t>(uint32_t(swapchain_.images.size()), kSlots + 1);
        info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
        info.CheckVkResultFn = checkImGuiVk;
        imgui_vulkan_ = ImGui_ImplVulkan_Init(&info, swapchain_.overlay_pass);
        if (!imgui_vulkan_) throw gpu::GpuError("Dear ImGui's Vulkan backend did not start");
        gpu::submitAndWait(ctx_, [](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
        ImGui_ImplVulkan_DestroyFontUploadObjects();
    }

    void shutdown() {
        if (!started_) return;
        started_ = false;
        // Not VK_CHECK: after a failure (a lost device) everything must still be freed.
        if (ctx_.device != VK_NULL_HANDLE) vkDeviceWaitIdle(ctx_.device);
        if (imgui_vulkan_) ImGui_ImplVulkan_Shutdown();
        if (imgui_glfw_) ImGui_ImplGlfw_Shutdown();
        if (imgui_context_) ImGui::DestroyContext();
        imgui_vulkan_ = imgui_glfw_ = imgui_context_ = false;
        if (overlay_pool_ != VK_NULL_HANDLE) vkDestroyDescriptorPool(ctx_.device, overlay_pool_, nullptr);
        overlay_pool_ = VK_NULL_HANDLE;
        technique_.reset();  // before the asset it points into
        crowd_.reset();
        asset_.reset();
        for (FrameSlot& f : slots_) {
            if (f.acquired != VK_NULL_HANDLE) vkDestroySemaphore(ctx_.device, f.acquired, nullptr);
            gpu::destroyFrameSlot(ctx_, f);
            f = FrameSlot{};
        }
        gpu::destroyBuffer(allocator_, screenshot_buffer_);
        destroySwapchain(allocator_, swapchain_);
        gpu::destroyAllocator(allocator_);
    }

    // ---- the crowd: asset, instances, technique ------------------------------------------
    // Uploads `baked`; null when the device refuses it (last_error_ says why; the caller reports it once).
    std::unique_ptr<AssetOnGpu> upload(BakedAsset baked) {
        auto a = std::make_unique<AssetOnGpu>();
        a->baked = std::move(baked);
        Result<render::GpuAsset> g = render::uploadAsset(allocator_, a->baked);
        if (!g) {
            last_error_ = g.error().message;
            return nullptr;
        }
        a->gpu = std::move(g).value();
        a->allocator = &allocator_;
        for (const std::string& w : a->gpu.warnings) log("warning: " + w);
        a->mesh = render::cpuMesh(a->baked);
        return a;
    }

    float aspect() const {
        return swapchain_.extent.height > 0 ? float(swapchain_.extent.width) / float(swapchain_.extent.height) : 16.0f / 9.0f;
    }

    // Builds everything `want` implies beside what is shown now — the asset baked again (another
    // precision, or vertex animation for vat) when the model was imported, the crowd, the
    // technique — and only then replaces the current state. On any failure nothing changes;
    // last_error_ says why. `reframe`: point the camera at the new crowd.
    bool applyState(const CrowdState& want, bool reframe) {
        try {
            std::unique_ptr<AssetOnGpu> asset;  // a new asset, or none to keep asset_
            const BakedAsset& current = asset_->baked;
            const bool vat = want.technique == "vat" || hasVat(current);
            if (want.technique == "vat" && !hasVat(current) && !scene_.model) {
                last_error_ = scene_.source + " has no vertex animation (bake it with throng bake --vat)";
                return false;
            }
            if (scene_.model && (current.precision != want.precision || vat != hasVat(current))) {
                log(std::string("baking ") + toString(want.precision) + (vat ? " with vertex animation" : "") + "...");
                BakeOptions o;
                o.fps = scene_.fps;
                o.precision = want.precision;
                o.vat = vat;
                Result<BakedAsset> b = bake(*scene_.model, o);
                if (!b) {
                    last_error_ = "bake: " + b.error().message;
                    return false;
                }
                asset = upload(std::move(b).value());
                if (!asset) return false;
            }
            const AssetOnGpu& use = asset ? *asset : *asset_;
            if (want.clip >= int(use.baked.clips.size())) {
                last_error_ = "clip " + std::to_string(want.clip) + " does not exist";
                return false;
            }
            render::CrowdOptions co;
            co.count = want.instances;
            co.seed = options_.seed;
            auto crowd = std::make_unique<render::Crowd>(render::makeCrowd(use.baked, co));
            if (want.clip >= 0)
                for (auto& inst : crowd->instances) {
                    inst.clips = uint32_t(want.clip) | uint32_t(want.clip) << 16;
                    inst.blend = 0.0f;
                }
            render::TechniqueSetup setup;
            setup.allocator = &allocator_;
            setup.asset = &use.gpu;
            setup.instances = &crowd->instances;
            setup.color_format = swapchain_.format;
            setup.depth_format = kDepthFormat;
            setup.frames_in_flight = kSlots;
            setup.source = &use.baked.source;
            setup.mesh = &use.mesh;
            setup.encoding = encoding_;
            setup.bone_precision = want.precision;
            Result<std::unique_ptr<render::Technique>> created = render::createTechnique(want.technique, setup);
            if (!created) {
                last_error_ = created.error().message;
                return false;
            }
            // Everything exists: retire the old state once the GPU is done with it.
            VK_CHECK(vkDeviceWaitIdle(ctx_.device));
            for (FrameSlot& f : slots_) f.pending = false;
            technique_ = std::move(created).value();
            crowd_ = std::move(crowd);
            if (asset) asset_ = std::move(asset);
            state_ = want;
            technique_name_ = std::string(technique_->name());
            if (reframe) camera_ = frameCrowd(crowd_->bounds, aspect());
            return true;
        } catch (const gpu::DeviceLost&) {  // nothing more can be drawn: the viewer ends with it
            throw;
        } catch (const std::exception& e) {  // out of GPU or host memory while building
            last_error_ = e.what();
            return false;
        }
    }

    // Applies `want` and says what happened.
    bool change(const CrowdState& want, bool reframe, const std::string& done) {
        if (!applyState(want, reframe)) {
            log("error: " + last_error_ + " (nothing changed)");
            return false;
        }
        log(done);
        return true;
    }

    // ---- console -------------------------------------------------------------------------
    void log(const std::string& line) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
        console_log_.push_back(line);
        while (console_log_.size() > 500) console_log_.pop_front();
        scroll_console_ = true;
    }

    // Parses and applies one command line; false (and a message) when it changed nothing.
    bool execute(const std::string& line) {
        log("> " + line);
        Result<Command> parsed = parseCommand(line, render::techniqueNames());
        if (!parsed) {
            log("error: " + parsed.error().message);
            return false;
        }
        return apply(parsed.value());
    }

    bool apply(const Command& c) {
        switch (c.kind) {
        case CommandKind::Help:
            for (const std::string& h : commandHelp()) log("  " + h);
            return true;
        case CommandKind::Technique: {
            CrowdState want = state_;
            want.technique = c.text;
            if (!applyState(want, false)) {
                log("error: " + last_error_ + " (nothing changed)");
                return false;
            }
            log("technique: " + technique_name_);
            return true;
        }
        case CommandKind::Instances: {
            CrowdState want = state_;
            want.instances = uint32_t(c.number);
            return change(want, true, "instances: " + std::to_string(want.instances));
        }
        case CommandKind::Clip: {
            const std::vector<BakedClip>& clips = asset_->baked.clips;
            int clip = -2;
            if (c.text == "mixed") clip = -1;
            for (size_t i = 0; i < clips.size() && clip == -2; ++i)
                if (clips[i].name == c.text || std::to_string(i) == c.text) clip = int(i);
            if (clip == -2) {
                std::string names;
                for (size_t i = 0; i < clips.size(); ++i) names += (i ? ", " : "") + clips[i].name;
                log("error: no clip '" + c.text + "' (clips: " + names + "; or an index, or mixed)");
                return false;
            }
            CrowdState want = state_;
            want.clip = clip;
            return change(want, false, "clip: " + (clip < 0 ? std::string("mixed") : clips[size_t(clip)].name));
        }
        case CommandKind::Speed:
            speed_ = float(c.number);
            log("speed: " + std::to_string(speed_));
            return true;
        case CommandKind::Precision: {
            CrowdState want = state_;
            want.precision = c.text == "half" ? Precision::Float16 : Precision::Float32;
            const std::string note = scene_.model || asset_->baked.precision == want.precision
                                         ? std::string()
                                         : " (bonetex; the baked animation stays " + std::string(toString(asset_->baked.precision)) +
                                               " as stored in " + scene_.source + ")";
            return change(want, false, "precision: " + c.text + note);
        }
        case CommandKind::Vsync:
            present_ = c.on ? VK_PRESENT_MODE_FIFO_KHR : VK_PRESENT_MODE_MAILBOX_KHR;
            recreateSwapchain();
            log(std::string("vsync ") + (c.on ? "on" : "off") + ": present mode " + presentName(swapchain_.present_mode));
            return true;
        case CommandKind::Size:
            glfwSetWindowSize(window_, int(c.width), int(c.height));
            log("size: asked for " + std::to_string(c.width) + "x" + std::to_string(c.height));
            return true;
        case CommandKind::Screenshot:
            if (!swapchain_.can_copy || !copyableFormat(swapchain_.format)) {
                log("error: this window's swapchain images cannot be copied (no TRANSFER_SRC usage, or not 8-bit RGBA)");
                return false;
            }
            screenshot_path_ = c.text;
            return true;
        case CommandKind::Stats: log(statsLine()); return true;
        case CommandKind::Wait: wait_frames_ = uint32_t(c.number); return true;
        case CommandKind::Quit: quit_ = true; return true;
        }
        return false;
    }

    void runScript() {
        for (std::string& line : typed_) {
            if (!line.empty()) execute(line);
        }
        typed_.clear();
        if (wait_frames_ > 0) {
            --wait_frames_;
            return;
        }
        if (script_.empty() || !screenshot_path_.empty()) return;  // a screenshot is taken before the script goes on
        const std::string line = script_.front();
        script_.pop_front();
        if (!execute(line)) script_failed_ = true;
    }

    std::string statsLine() const {
        const render::TechniqueStats& s = cpu_;
        char text[640];
        std::snprintf(text, sizeof text,
                      "stats: %s | %u x %s | %.1f FPS, frame %.2f ms | GPU upload %.3f, crowd %.3f, overlay %.3f ms | CPU wait %.2f, "
                      "sample %.2f, skin %.2f, upload %.2f, ui %.2f, record %.2f ms | %.2f M triangles | %.2f MB uploaded per frame | "
                      "%.0f MiB GPU memory (%llu B in use) | %.1f MiB resident | %s %ux%u",
                      technique_name_.c_str(), state_.instances, scene_.source.c_str(), fps_, frame_ms_, costs_.gpu_upload_ms, costs_.gpu_crowd_ms,
                      costs_.gpu_overlay_ms, costs_.cpu_wait_ms, s.sample_ms, s.skin_ms, s.upload_ms, costs_.cpu_ui_ms, costs_.cpu_record_ms,
                      double(asset_->gpu.index_count / 3) * double(state_.instances) * 1e-6, double(s.upload_bytes) * 1e-6,
                      double(allocator_.reserved) / (1 << 20), static_cast<unsigned long long>(allocator_.in_use),
                      double(residentBytes()) / (1 << 20), presentName(swapchain_.present_mode), swapchain_.extent.width,
                      swapchain_.extent.height);
        return text;
    }

    // ---- swapchain -----------------------------------------------------------------------
    void recreateSwapchain() {
        VK_CHECK(vkDeviceWaitIdle(ctx_.device));
        for (FrameSlot& f : slots_) f.pending = false;
        const VkFormat before = swapchain_.format;
        const VkRenderPass pass_before = swapchain_.overlay_pass;
        int w = 0, h = 0;
        glfwGetFramebufferSize(window_, &w, &h);
        requested_ = {uint32_t(w), uint32_t(h)};
        resize_ = false;
        if (!createSwapchain(allocator_, requested_.width, requested_.height, present_, swapchain_)) return;  // minimised
        if (swapchain_.overlay_pass != pass_before && imgui_vulkan_) {  // a new image format: the overlay's pipeline follows its pass
            ImGui_ImplVulkan_Shutdown();
            imgui_vulkan_ = false;
            initOverlayBackend();
        }
        if (before != swapchain_.format && technique_ && !applyState(state_, false)) {
            technique_.reset();  // its pipeline was built for the old format: draw no crowd rather than a wrong one
            log("error: technique " + state_.technique + " for the new image format: " + last_error_);
        }
    }

    // ---- input and overlay ---------------------------------------------------------------
    void handleInput(float seconds) {
        ImGuiIO& io = ImGui::GetIO();
        if (ImGui::IsKeyPressed(GLFW_KEY_GRAVE_ACCENT, false)) {
            console_open_ = !console_open_;
            focus_console_ = console_open_;
        }
        if (!io.WantCaptureMouse) {
            const ImVec2 d = io.MouseDelta;
            if (ImGui::IsMouseDown(ImGuiMouseButton_Left) || ImGui::IsMouseDown(ImGuiMouseButton_Right)) orbit(camera_, -d.x * 0.005f, d.y * 0.005f);
            if (ImGui::IsMouseDown(ImGuiMouseButton_Middle)) pan(camera_, -d.x * 0.0015f, d.y * 0.0015f);
            if (io.MouseWheel != 0.0f) zoom(camera_, io.MouseWheel);
        }
        if (!io.WantCaptureKeyboard) {
            const float step = seconds * (glfwGetKey(window_, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ? 2.0f : 0.5f);
            glm::vec3 move(0.0f);
            if (glfwGetKey(window_, GLFW_KEY_W) == GLFW_PRESS) move.z += step;
            if (glfwGetKey(window_, GLFW_KEY_S) == GLFW_PRESS) move.z -= step;
            if (glfwGetKey(window_, GLFW_KEY_D) == GLFW_PRESS) move.x += step;
            if (glfwGetKey(window_, GLFW_KEY_A) == GLFW_PRESS) move.x -= step;
            if (glfwGetKey(window_, GLFW_KEY_E) == GLFW_PRESS) move.y += step;
            if (glfwGetKey(window_, GLFW_KEY_Q) == GLFW_PRESS) move.y -= step;
            if (move != glm::vec3(0.0f)) fly(camera_, move);
            if (ImGui::IsKeyPressed(GLFW_KEY_F, false)) camera_ = frameCrowd(crowd_->bounds, aspect());
            if (ImGui::IsKeyPressed(GLFW_KEY_C, false))
                setMode(camera_, camera_.mode == CameraMode::Orbit ? CameraMode::Fly : CameraMode::Orbit);
        }
    }

    void buildOverlay() {
        ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(380, 0), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowBgAlpha(0.85f);
        ImGui::Begin("throng", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
        ImGui::Text("%.1f FPS  %.2f ms / frame", fps_, frame_ms_);
        ImGui::TextDisabled("%s", ctx_.device_name.c_str());
        frame_history_[history_at_ % frame_history_.size()] = float(frame_ms_);
        ImGui::PlotLines("##frames", frame_history_.data(), int(frame_history_.size()), int(history_at_ % frame_history_.size()), nullptr,
                         0.0f, float(std::max(2.0 * kTargetMs, double(*std::max_element(frame_history_.begin(), frame_history_.end())))),
                         ImVec2(360, 40));
        ++history_at_;
        ImGui::Separator();
        ImGui::Text("time ruler (last measured frame)");
        drawTimeRuler(rulerBars(costs_), kTargetMs, 360.0f);
        ImGui::Separator();

        const std::vector<std::string_view> names = render::techniqueNames();
        if (ImGui::BeginCombo("technique", state_.technique.c_str())) {
            for (std::string_view n : names)
                if (ImGui::Selectable(std::string(n).c_str(), n == state_.technique)) typed_.push_back("technique " + std::string(n));
            ImGui::EndCombo();
        }
        int count = int(state_.instances);
        if (ImGui::InputInt("instances", &count, 100, 1000, ImGuiInputTextFlags_EnterReturnsTrue)) typed_.push_back("instances " + std::to_string(count));
        const std::vector<BakedClip>& clips = asset_->baked.clips;
        const std::string current = state_.clip < 0 ? "mixed" : clips[size_t(state_.clip)].name;
        if (ImGui::BeginCombo("clip", current.c_str())) {
            if (ImGui::Selectable("mixed", state_.clip < 0)) typed_.push_back("clip mixed");
            for (size_t i = 0; i < clips.size(); ++i)
                if (ImGui::Selectable((clips[i].name + "##" + std::to_string(i)).c_str(), int(i) == state_.clip))
                    typed_.push_back("clip " + std::to_string(i));
            ImGui::EndCombo();
        }
        ImGui::SliderFloat("speed", &speed_, 0.0f, 4.0f, "%.2f");
        int precision = state_.precision == Precision::Float16 ? 1 : 0;
        ImGui::Text("precision");
        ImGui::SameLine();
        if (ImGui::RadioButton("float", precision == 0) && precision != 0) typed_.push_back("precision float");
        ImGui::SameLine();
        if (ImGui::RadioButton("half", precision == 1) && precision != 1) typed_.push_back("precision half");
        bool vsync = swapchain_.present_mode == VK_PRESENT_MODE_FIFO_KHR;
        if (ImGui::Checkbox("vsync", &vsync)) typed_.push_back(vsync ? "vsync on" : "vsync off");
        ImGui::SameLine();
        bool fly_mode = camera_.mode == CameraMode::Fly;
        if (ImGui::Checkbox("fly camera (C)", &fly_mode)) setMode(camera_, fly_mode ? CameraMode::Fly : CameraMode::Orbit);
        ImGui::SameLine();
        if (ImGui::Button("frame (F)")) camera_ = frameCrowd(crowd_->bounds, aspect());
        ImGui::TextDisabled("%s | %.2f M triangles | %.2f MB/frame up", technique_name_.c_str(),
                            double(asset_->gpu.index_count / 3) * double(state_.instances) * 1e-6, double(cpu_.upload_bytes) * 1e-6);
        ImGui::End();

        if (console_open_) buildConsole();
    }

    static int dropBacktick(ImGuiInputTextCallbackData* data) {
        return data->EventChar == '`' ? 1 : 0;
    }

    void buildConsole() {
        const ImGuiIO& io = ImGui::GetIO();
        ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f - 10.0f, io.DisplaySize.y - 270.0f), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x * 0.5f, 260.0f), ImGuiCond_FirstUseEver);
        ImGui::SetNextWindowBgAlpha(0.9f);
        if (ImGui::Begin("console (` to close)", &console_open_)) {
            ImGui::BeginChild("log", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()), false, ImGuiWindowFlags_HorizontalScrollbar);
            for (const std::string& line : console_log_) {
                const bool error = line.rfind("error", 0) == 0;
                if (error) ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 120, 110, 255));
                ImGui::TextUnformatted(line.c_str());
                if (error) ImGui::PopStyleColor();
            }
            if (scroll_console_) ImGui::SetScrollHereY(1.0f);
            scroll_console_ = false;
            ImGui::EndChild();
            if (focus_console_) {
                ImGui::SetKeyboardFocusHere();
                focus_console_ = false;
            }
            if (ImGui::InputText("##command", input_.data(), input_.size(),
                                 ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CallbackCharFilter, dropBacktick)) {
                typed_.push_back(input_.data());
                input_.fill('\0');
                focus_console_ = true;
            }
        }
        ImGui::End();
    }

    // ---- one frame -----------------------------------------------------------------------
    void readTimestamps(FrameSlot& f) {
        uint64_t t[kTimestamps] = {};
        VK_CHECK(vkGetQueryPoolResults(ctx_.device, f.queries, 0, kTimestamps, sizeof t, t, sizeof(uint64_t),
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        const double ms = double(ctx_.properties.limits.timestampPeriod) * 1e-6;
        costs_.gpu_upload_start_ms = 0.0;
        costs_.gpu_upload_ms = double(t[1] - t[0]) * ms;
        costs_.gpu_crowd_start_ms = double(t[1] - t[0]) * ms;
        costs_.gpu_crowd_ms = double(t[2] - t[1]) * ms;
        costs_.gpu_overlay_start_ms = double(t[2] - t[0]) * ms;
        costs_.gpu_overlay_ms = double(t[3] - t[2]) * ms;
        f.pending = false;
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

        VK_CHECK(vkWaitForFences(ctx_.device, 1, &f.fence, VK_TRUE, UINT64_MAX));
        if (f.pending && f.queries != VK_NULL_HANDLE) readTimestamps(f);  // no queries: the device has no timestamps
        uint32_t image = 0;
        VkResult acquired = gpu::lossPoint();
        if (acquired == VK_SUCCESS) acquired = vkAcquireNextImageKHR(ctx_.device, swapchain_.swapchain, UINT64_MAX, f.acquired, VK_NULL_HANDLE, &image);
        if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
            resize_ = true;
            return false;
        }
        if (acquired == VK_SUBOPTIMAL_KHR) resize_ = true;
        else if (acquired < 0) gpu::throwVkError(acquired, "vkAcquireNextImageKHR", __FILE__, __LINE__);
        costs_.cpu_wait_ms = render::millisecondsSince(start);

        time_ += float(std::min(seconds, 0.25) * speed_);
        // Without a technique (a failed re-bake left none) the frame shows the overlay alone.
        if (technique_) technique_->update(slot, time_);
        cpu_ = technique_ ? technique_->stats() : render::TechniqueStats{};
        costs_.cpu_sample_ms = cpu_.sample_ms;
        costs_.cpu_skin_ms = cpu_.skin_ms;
        costs_.cpu_upload_ms = cpu_.upload_ms;

        const Clock::time_point ui_start = Clock::now();
        ImGui_ImplVulkan_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        handleInput(float(std::min(seconds, 0.25)));
        buildOverlay();
        ImGui::Render();
        costs_.cpu_ui_ms = render::millisecondsSince(ui_start);

        const Clock::time_point record_start = Clock::now();
        bool screenshot = !screenshot_path_.empty();
        if (screenshot && (!swapchain_.can_copy || !copyableFormat(swapchain_.format))) {  // the swapchain changed since the command
            log("error: screenshot " + screenshot_path_ + ": the new swapchain's images cannot be copied");
            screenshot_path_.clear();
            script_failed_ = true;
            screenshot = false;
        }
        gpu::beginFrame(ctx_, f, kTimestamps);
        if (technique_) technique_->recordTransfers(f.cmd, slot);
        const VkImage target = swapchain_.images[image];
        gpu::transitionImage(f.cmd, target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        gpu::transitionImage(f.cmd, swapchain_.depth.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                             VK_IMAGE_ASPECT_DEPTH_BIT);
        gpu::writeTimestamp(f.cmd, f, 1);
        recordCrowd(f.cmd, slot, swapchain_.views[image]);
        gpu::writeTimestamp(f.cmd, f, 2);
        VkRenderPassBeginInfo rbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
        rbi.renderPass = swapchain_.overlay_pass;
        rbi.framebuffer = swapchain_.framebuffers[image];
        rbi.renderArea = {{0, 0}, swapchain_.extent};
        vkCmdBeginRenderPass(f.cmd, &rbi, VK_SUBPASS_CONTENTS_INLINE);
        ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), f.cmd);
        vkCmdEndRenderPass(f.cmd);
        gpu::writeTimestamp(f.cmd, f, 3);
        if (screenshot) recordScreenshot(f.cmd, target);
        VK_CHECK(vkEndCommandBuffer(f.cmd));
        costs_.cpu_record_ms = render::millisecondsSince(record_start);

        VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        wait.semaphore = f.acquired;
        wait.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        signal.semaphore = swapchain_.rendered[image];
        signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
        cbi.commandBuffer = f.cmd;
        VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
        si.waitSemaphoreInfoCount = 1;
        si.pWaitSemaphoreInfos = &wait;
        si.commandBufferInfoCount = 1;
        si.pCommandBufferInfos = &cbi;
        si.signalSemaphoreInfoCount = 1;
        si.pSignalSemaphoreInfos = &signal;
        VK_CHECK(vkQueueSubmit2(ctx_.queue, 1, &si, f.fence));
        f.pending = true;

        VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
        pi.waitSemaphoreCount = 1;
        pi.pWaitSemaphores = &swapchain_.rendered[image];
        pi.swapchainCount = 1;
        pi.pSwapchains = &swapchain_.swapchain;
        pi.pImageIndices = &image;
        VkResult presented = gpu::lossPoint();
        if (presented == VK_SUCCESS) presented = vkQueuePresentKHR(ctx_.queue, &pi);
        if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR) resize_ = true;
        else if (presented < 0) gpu::throwVkError(presented, "vkQueuePresentKHR", __FILE__, __LINE__);
        ++frame_index_;
        if (screenshot) saveScreenshot(f);
        return true;
    }

    void recordCrowd(VkCommandBuffer cmd, uint32_t slot, VkImageView view) {
        VkRenderingAttachmentInfo ca{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
        ca.imageView = view;
        ca.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        ca.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        ca.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        ca.clearValue.color = render::kBackground;
        VkRenderingAttachmentInfo da{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
        da.imageView = swapchain_.depth.view;
        da.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
        da.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        da.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
        da.clearValue.depthStencil = {0.0f, 0};  // reversed Z
        VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
        ri.renderArea = {{0, 0}, swapchain_.extent};
        ri.layerCount = 1;
        ri.colorAttachmentCount = 1;
        ri.pColorAttachments = &ca;
        ri.pDepthAttachment = &da;
        vkCmdBeginRendering(cmd, &ri);
        const VkViewport viewport{0.0f, 0.0f, float(swapchain_.extent.width), float(swapchain_.extent.height), 0.0f, 1.0f};
        const VkRect2D scissor{{0, 0}, swapchain_.extent};
        vkCmdSetViewport(cmd, 0, 1, &viewport);
        vkCmdSetScissor(cmd, 0, 1, &scissor);
        if (technique_) technique_->record(cmd, slot, render::crowdConstants(viewProjection(camera_, aspect()), time_, asset_->gpu));
        vkCmdEndRendering(cmd);
    }

    void recordScreenshot(VkCommandBuffer cmd, VkImage image) {
        const VkDeviceSize bytes = VkDeviceSize(swapchain_.extent.width) * swapchain_.extent.height * 4;
        if (screenshot_buffer_.size < bytes) {
            gpu::destroyBuffer(allocator_, screenshot_buffer_);
            screenshot_buffer_ = gpu::createBuffer(allocator_, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Readback);
        }
        gpu::transitionImage(cmd, image, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {swapchain_.extent.width, swapchain_.extent.height, 1};
        vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, screenshot_buffer_.buffer, 1, &region);
        gpu::transitionImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        screenshot_extent_ = swapchain_.extent;
        screenshot_format_ = swapchain_.format;
    }

    void saveScreenshot(FrameSlot& f) {
        VK_CHECK(vkWaitForFences(ctx_.device, 1, &f.fence, VK_TRUE, UINT64_MAX));
        const size_t pixels = size_t(screenshot_extent_.width) * screenshot_extent_.height;
        std::vector<uint8_t> rgba(pixels * 4);
        const uint8_t* src = static_cast<const uint8_t*>(screenshot_buffer_.mapped());
        const bool bgra = screenshot_format_ == VK_FORMAT_B8G8R8A8_SRGB || screenshot_format_ == VK_FORMAT_B8G8R8A8_UNORM;
        for (size_t i = 0; i < pixels; ++i) {
            rgba[4 * i + 0] = src[4 * i + (bgra ? 2 : 0)];
            rgba[4 * i + 1] = src[4 * i + 1];
            rgba[4 * i + 2] = src[4 * i + (bgra ? 0 : 2)];
            rgba[4 * i + 3] = 255;
        }
        const std::string path = screenshot_path_;
        screenshot_path_.clear();
        if (Status s = gpu::writePng(path, rgba, screenshot_extent_.width, screenshot_extent_.height); !s) {
            log("error: screenshot " + path + ": " + s.message);
            script_failed_ = true;
            return;
        }
        log("screenshot: " + path + " (" + std::to_string(screenshot_extent_.width) + "x" + std::to_string(screenshot_extent_.height) + ")");
    }

    // ---- state ---------------------------------------------------------------------------
    const ViewerOptions& options_;
    GLFWwindow* window_;
    gpu::Context& ctx_;
    Scene scene_;
    gpu::Allocator allocator_;
    Swapchain swapchain_;
    std::array<FrameSlot, kSlots> slots_{};
    VkDescriptorPool overlay_pool_ = VK_NULL_HANDLE;
    bool imgui_context_ = false, imgui_glfw_ = false, imgui_vulkan_ = false;  // what shutdown() must undo
    bool started_ = false;  // run() began: shutdown() has something to free

    // Destroyed in this order by shutdown(): the technique points into the crowd and the asset.
    std::unique_ptr<AssetOnGpu> asset_;
    std::unique_ptr<render::Crowd> crowd_;
    std::unique_ptr<render::Technique> technique_;  // null only after a failed format change
    CrowdState state_;            // what technique_, crowd_ and asset_ were built from
    std::string technique_name_;  // as the technique names itself (`palette (quat)`)
    std::string last_error_;      // why the last applyState() changed nothing
    render::PaletteEncoding encoding_ = render::PaletteEncoding::Matrix;
    VkPresentModeKHR present_ = VK_PRESENT_MODE_FIFO_KHR;
    VkExtent2D requested_{0, 0};  // the framebuffer size the swapchain was last made for
    float speed_ = 1.0f;
    float time_ = 0.0f;
    Camera camera_;

    uint64_t frame_index_ = 0;
    uint32_t frames_drawn_ = 0;
    Clock::time_point last_frame_;
    double frame_ms_ = 0.0, fps_ = 0.0;
    FrameCosts costs_;
    render::TechniqueStats cpu_;
    std::array<float, 120> frame_history_{};
    size_t history_at_ = 0;
    bool resize_ = false;
    bool quit_ = false;

    std::deque<std::string> console_log_;
    std::array<char, 256> input_{};
    bool console_open_ = false, focus_console_ = false, scroll_console_ = false;
    std::vector<std::string> typed_;  // from the console and the panels, applied before the next frame
    std::deque<std::string> script_;  // --exec
    uint32_t wait_frames_ = 0;
    bool script_failed_ = false;

    std::string screenshot_path_;
    gpu::Buffer screenshot_buffer_;
    VkExtent2D screenshot_extent_{};
    VkFormat screenshot_format_ = VK_FORMAT_UNDEFINED;
};

} // namespace

int runViewer(const ViewerOptions& o) {
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((display == nullptr || *display == '\0') && (wayland == nullptr || *wayland == '\0')) {
        std::fprintf(stderr, "throng: error: view: no display (neither DISPLAY nor WAYLAND_DISPLAY is set); for a headless image use "
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
    Precision precision = o.precision == "half" ? Precision::Float16 : Precision::Float32;
    Result<Scene> scene = loadScene(o.model, o.fps, precision, o.technique == "vat");
    if (!scene) {
        printError(o.model, scene.error().message);
        return 1;
    }
    glfwSetErrorCallback(onGlfwError);
    if (glfwInit() != GLFW_TRUE) {
        std::fprintf(stderr, "throng: error: view: cannot open the display (%s); for a headless image use `throng render`\n",
                     g_glfw_error.c_str());
        return 1;
    }
    if (glfwVulkanSupported() != GLFW_TRUE) {
        std::fprintf(stderr, "throng: error: view: no Vulkan loader usable for windows (%s)\n", g_glfw_error.c_str());
        glfwTerminate();
        return 1;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    GLFWwindow* window = glfwCreateWindow(int(o.width), int(o.height), ("throng view - " + o.model).c_str(), nullptr, nullptr);
    if (window == nullptr) {
        std::fprintf(stderr, "throng: error: view: cannot create a window (%s)\n", g_glfw_error.c_str());
        glfwTerminate();
        return 1;
    }
    gpu::ContextOptions co;
    co.validation = o.validate;
    co.device_substring = o.device;
    uint32_t count = 0;
    const char** required = glfwGetRequiredInstanceExtensions(&count);
    for (uint32_t i = 0; i < count; ++i) co.instance_extensions.emplace_back(required[i]);
    co.create_surface = [window](VkInstance instance, VkSurfaceKHR* surface) { return glfwCreateWindowSurface(instance, window, nullptr, surface); };
    Result<std::unique_ptr<gpu::Context>> context = gpu::createContext(co);
    if (!context) {
        printError(o.model, context.error().message);
        glfwDestroyWindow(window);
        glfwTerminate();
        return 1;
    }
    gpu::Context& ctx = *context.value();
    int code = 0;
    try {
        Viewer viewer(o, window, ctx, std::move(scene).value());
        code = viewer.run();
    } catch (const std::exception& e) {  // GpuError, or out of host memory
        printError(o.model, e.what());
        code = 1;
    }
    gpu::destroyContext(ctx);  // first: the layers report objects left alive at vkDestroyDevice
    if (gpu::reportValidationErrors(ctx)) code = 1;
    glfwDestroyWindow(window);
    glfwTerminate();
    return code;
}

} // namespace throng::view
