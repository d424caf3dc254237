// The Dear ImGui overlay: the panel (FPS, the frame-time plot, the time ruler, the technique
// switcher and the crowd controls) and the console window (the log and a command line). What the
// user picks in a panel or types becomes a console command line (`technique bonetex`) that the
// viewer applies between frames, so panels, typing and --exec go one way (commands.h); only the
// playback speed and the camera are changed directly.
#pragma once

#include "camera.h"
#include "stats.h"

#include <array>
#include <deque>
#include <string>
#include <vector>

struct GLFWwindow;

namespace throng::view {

class Overlay {
  public:
    explicit Overlay(bool console_open) : console_open_(console_open) {}

    // Starts Dear ImGui for `window` (its GLFW backend installs input callbacks) and its Vulkan
    // backend for the swapchain's overlay pass, with a descriptor pool and the font texture
    // (uploaded and waited for). Throws gpu::GpuError; shutdown() then undoes what was done.
    void init(GLFWwindow* window, const gpu::Context& context, const Swapchain& swapchain);
    // The swapchain's overlay pass was made anew (another image format): the backend's pipeline follows it.
    void passChanged(const Swapchain& swapchain);
    // Undoes what init() did, also after it failed halfway. The GPU must be idle.
    void shutdown();

    // Begins the overlay's frame: before handleInput() (input.h) and build().
    void newFrame();
    // Builds the panel (showing `frame`; the vsync box ticked when `vsync`) and, when open, the
    // console, and ends the overlay's frame (ImGui::Render). Returns the command lines the user
    // picked or typed, in order; `speed` and `camera` it changes itself (`aspect`: for framing).
    std::vector<std::string> build(const FrameReport& frame, bool vsync, float aspect, float& speed, Camera& camera);
    // Records the overlay over the swapchain's `image` (its overlay pass: loads what the crowd drew,
    // ends in PRESENT_SRC). Contract: build() ran this frame.
    void record(VkCommandBuffer cmd, const Swapchain& swapchain, uint32_t image) const;

    void toggleConsole();                                // the console key
    void showPanel(bool shown) { panel_shown_ = shown; } // the panel: FPS, time ruler, switches
    bool panelShown() const { return panel_shown_; }
    void addLine(const std::string& line); // to the console's log (the last 500 lines are kept)

  private:
    void initBackend(const Swapchain& swapchain);
    void buildPanel(const FrameReport& frame, bool vsync, float aspect, float& speed, Camera& camera,
                    std::vector<std::string>& typed);
    void buildConsole(std::vector<std::string>& typed);

    const gpu::Context* ctx_ = nullptr;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    bool imgui_context_ = false, imgui_glfw_ = false, imgui_vulkan_ = false; // what shutdown() must undo
    std::array<float, 120> frame_history_{};
    size_t history_at_ = 0;
    std::deque<std::string> log_;
    std::array<char, 256> input_{};
    bool console_open_ = false, focus_console_ = false, scroll_console_ = false, panel_shown_ = true;
};

} // namespace throng::view
