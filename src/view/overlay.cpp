// The overlay; see overlay.h.
#include "overlay.h"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_vulkan.h>
#include <imgui.h>

#include <algorithm>

namespace throng::view {

namespace {

constexpr double kTargetMs = 1000.0 / 60.0;

void checkImGuiVk(VkResult r) { VK_CHECK(r); }

int dropBacktick(ImGuiInputTextCallbackData* data) { return data->EventChar == '`' ? 1 : 0; }

} // namespace

void Overlay::init(GLFWwindow* window, const gpu::Context& ctx, const Swapchain& swapchain) {
    ctx_ = &ctx;
    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    imgui_context_ = true;
    ImGui::GetIO().IniFilename = nullptr; // no imgui.ini next to the user's files
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForVulkan(window, true);
    imgui_glfw_ = true;
    const std::array<VkDescriptorPoolSize, 1> sizes = {{{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16}}};
    VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    pci.maxSets = 16;
    pci.poolSizeCount = uint32_t(sizes.size());
    pci.pPoolSizes = sizes.data();
    VK_CHECK(vkCreateDescriptorPool(ctx.device, &pci, nullptr, &pool_));
    initBackend(swapchain);
}

// Dear ImGui's Vulkan backend builds its pipeline for one render pass: (re)made with the
// swapchain's overlay pass, with the font texture.
void Overlay::initBackend(const Swapchain& swapchain) {
    ImGui_ImplVulkan_InitInfo info{};
    info.Instance = ctx_->instance;
    info.PhysicalDevice = ctx_->physical;
    info.Device = ctx_->device;
    info.QueueFamily = ctx_->queue_family;
    info.Queue = ctx_->queue;
    info.DescriptorPool = pool_;
    info.MinImageCount = 2;
    // The backend cycles its vertex buffers over ImageCount frames; we have kFramesInFlight in flight.
    info.ImageCount = std::max<uint32_t>(uint32_t(swapchain.images.size()), render::kFramesInFlight + 1);
    info.MSAASamples = VK_SAMPLE_COUNT_1_BIT;
    info.CheckVkResultFn = checkImGuiVk;
    imgui_vulkan_ = ImGui_ImplVulkan_Init(&info, swapchain.overlay_pass);
    if (!imgui_vulkan_) throw gpu::GpuError("Dear ImGui's Vulkan backend did not start");
    gpu::submitAndWait(*ctx_, [](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
    ImGui_ImplVulkan_DestroyFontUploadObjects();
}

void Overlay::passChanged(const Swapchain& swapchain) {
    if (!imgui_vulkan_) return;
    ImGui_ImplVulkan_Shutdown();
    imgui_vulkan_ = false;
    initBackend(swapchain);
}

void Overlay::shutdown() {
    if (imgui_vulkan_) ImGui_ImplVulkan_Shutdown();
    if (imgui_glfw_) ImGui_ImplGlfw_Shutdown();
    if (imgui_context_) ImGui::DestroyContext();
    imgui_vulkan_ = imgui_glfw_ = imgui_context_ = false;
    if (pool_ != VK_NULL_HANDLE) vkDestroyDescriptorPool(ctx_->device, pool_, nullptr);
    pool_ = VK_NULL_HANDLE;
}

void Overlay::newFrame() {
    ImGui_ImplVulkan_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
}

std::vector<std::string> Overlay::build(const FrameReport& f, bool vsync_on, float aspect, float& speed,
                                        Camera& camera) {
    std::vector<std::string> typed;
    if (panel_shown_) buildPanel(f, vsync_on, aspect, speed, camera, typed);
    if (console_open_) buildConsole(typed);
    ImGui::Render();
    return typed;
}

void Overlay::buildPanel(const FrameReport& f, bool vsync_on, float aspect, float& speed, Camera& camera,
                         std::vector<std::string>& typed) {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(380, 0), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowBgAlpha(0.85f);
    ImGui::Begin("throng", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::Text("%.1f FPS  %.2f ms / frame", f.fps, f.frame_ms);
    ImGui::TextDisabled("%s", ctx_->device_name.c_str());
    frame_history_[history_at_ % frame_history_.size()] = float(f.frame_ms);
    ImGui::PlotLines(
        "##frames", frame_history_.data(), int(frame_history_.size()), int(history_at_ % frame_history_.size()),
        nullptr, 0.0f,
        float(std::max(2.0 * kTargetMs, double(*std::max_element(frame_history_.begin(), frame_history_.end())))),
        ImVec2(360, 40));
    ++history_at_;
    ImGui::Separator();
    ImGui::Text("time ruler (last measured frame)");
    drawTimeRuler(rulerBars(f.costs), kTargetMs, 360.0f);
    ImGui::Separator();

    const CrowdState& state = f.crowd.state();
    if (ImGui::BeginCombo("technique", state.technique.c_str())) {
        for (std::string_view n : render::techniqueNames())
            if (ImGui::Selectable(std::string(n).c_str(), n == state.technique))
                typed.push_back("technique " + std::string(n));
        ImGui::EndCombo();
    }
    int count = int(state.instances);
    if (ImGui::InputInt("instances", &count, 100, 1000, ImGuiInputTextFlags_EnterReturnsTrue))
        typed.push_back("instances " + std::to_string(count));
    const std::vector<BakedClip>& clips = f.crowd.asset().baked().clips;
    const std::string current = state.clip < 0 ? "mixed" : clips[size_t(state.clip)].name;
    if (ImGui::BeginCombo("clip", current.c_str())) {
        if (ImGui::Selectable("mixed", state.clip < 0)) typed.push_back("clip mixed");
        for (size_t i = 0; i < clips.size(); ++i)
            if (ImGui::Selectable((clips[i].name + "##" + std::to_string(i)).c_str(), int(i) == state.clip))
                typed.push_back("clip " + std::to_string(i));
        ImGui::EndCombo();
    }
    ImGui::SliderFloat("speed", &speed, 0.0f, 4.0f, "%.2f");
    int precision = state.precision == Precision::Float16 ? 1 : 0;
    ImGui::Text("precision");
    ImGui::SameLine();
    if (ImGui::RadioButton("float", precision == 0) && precision != 0) typed.push_back("precision float");
    ImGui::SameLine();
    if (ImGui::RadioButton("half", precision == 1) && precision != 1) typed.push_back("precision half");
    ImGui::SameLine();
    bool shadows = state.shadows > 0;
    if (ImGui::Checkbox("shadows", &shadows)) typed.push_back(shadows ? "shadows on" : "shadows off");
    bool vsync = vsync_on;
    if (ImGui::Checkbox("vsync", &vsync)) typed.push_back(vsync ? "vsync on" : "vsync off");
    ImGui::SameLine();
    bool fly_mode = camera.mode == CameraMode::Fly;
    if (ImGui::Checkbox("fly camera (C)", &fly_mode)) setMode(camera, fly_mode ? CameraMode::Fly : CameraMode::Orbit);
    ImGui::SameLine();
    if (ImGui::Button("frame (F)")) camera = frameCrowd(f.crowd.crowd().bounds, aspect);
    ImGui::TextDisabled("%s | %.2f M triangles | %.2f MB/frame up", f.crowd.techniqueName().c_str(),
                        double(f.triangles) * 1e-6, double(f.upload_bytes) * 1e-6);
    ImGui::TextDisabled("H hides this panel, backtick opens the console");
    ImGui::End();
}

void Overlay::buildConsole(std::vector<std::string>& typed) {
    const ImGuiIO& io = ImGui::GetIO();
    ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f - 10.0f, io.DisplaySize.y - 270.0f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(io.DisplaySize.x * 0.5f, 260.0f), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowBgAlpha(0.9f);
    if (ImGui::Begin("console (` to close)", &console_open_)) {
        ImGui::BeginChild("log", ImVec2(0, -ImGui::GetFrameHeightWithSpacing()), false,
                          ImGuiWindowFlags_HorizontalScrollbar);
        for (const std::string& line : log_) {
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
                             ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CallbackCharFilter,
                             dropBacktick)) {
            typed.push_back(input_.data());
            input_.fill('\0');
            focus_console_ = true;
        }
    }
    ImGui::End();
}

void Overlay::record(VkCommandBuffer cmd, const Swapchain& swapchain, uint32_t image) const {
    VkRenderPassBeginInfo rbi{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
    rbi.renderPass = swapchain.overlay_pass;
    rbi.framebuffer = swapchain.framebuffers[image];
    rbi.renderArea = {{0, 0}, swapchain.extent};
    vkCmdBeginRenderPass(cmd, &rbi, VK_SUBPASS_CONTENTS_INLINE);
    ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
    vkCmdEndRenderPass(cmd);
}

void Overlay::toggleConsole() {
    console_open_ = !console_open_;
    focus_console_ = console_open_;
}

void Overlay::addLine(const std::string& line) {
    log_.push_back(line);
    while (log_.size() > 500) log_.pop_front();
    scroll_console_ = true;
}

} // namespace throng::view
