// The viewer's window and device: GLFW, one window, and a Vulkan context presenting to it (its
// surface made by GLFW), opened and closed together.
#pragma once

#include <throng/view.h>

#include "../gpu/context.h"

#include <memory>

struct GLFWwindow;

namespace throng::view {

struct Window {
    GLFWwindow* window = nullptr;
    std::unique_ptr<gpu::Context> context;
};

// Opens GLFW and an options.width x options.height window named after options.model, then a
// context on the best device (or options.device) that presents to it, with validation when
// options.validate. On failure prints one line on stderr ("throng: error: view: ..." for the
// display and the window, "throng: error: MODEL: ..." for the device), closes what it opened and
// returns false.
bool openWindow(const ViewerOptions& options, Window& window);

// Destroys the context first (the validation layers report objects left alive at vkDestroyDevice),
// then the window, then GLFW. True when there were validation errors (said on stderr).
bool closeWindow(Window& window);

} // namespace throng::view
