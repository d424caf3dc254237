// The window and its device; see window.h.
#include "window.h"

#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>

#include <cstdio>

namespace throng::view {

namespace {

std::string g_glfw_error; // the last GLFW error, for messages

void onGlfwError(int, const char* text) { g_glfw_error = text != nullptr ? text : ""; }

} // namespace

bool openWindow(const ViewerOptions& o, Window& w) {
    glfwSetErrorCallback(onGlfwError);
    if (glfwInit() != GLFW_TRUE) {
        std::fprintf(stderr,
                     "throng: error: view: cannot open the display (%s); for a headless image use `throng render`\n",
                     g_glfw_error.c_str());
        return false;
    }
    if (glfwVulkanSupported() != GLFW_TRUE) {
        std::fprintf(stderr, "throng: error: view: no Vulkan loader usable for windows (%s)\n", g_glfw_error.c_str());
        glfwTerminate();
        return false;
    }
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    GLFWwindow* window =
        glfwCreateWindow(int(o.width), int(o.height), ("throng view - " + o.model).c_str(), nullptr, nullptr);
    if (window == nullptr) {
        std::fprintf(stderr, "throng: error: view: cannot create a window (%s)\n", g_glfw_error.c_str());
        glfwTerminate();
        return false;
    }
    gpu::ContextOptions co;
    co.validation = o.validate;
    co.device_substring = o.device;
    uint32_t count = 0;
    const char** required = glfwGetRequiredInstanceExtensions(&count);
    for (uint32_t i = 0; i < count; ++i) co.instance_extensions.emplace_back(required[i]);
    co.create_surface = [window](VkInstance instance, VkSurfaceKHR* surface) {
        return glfwCreateWindowSurface(instance, window, nullptr, surface);
    };
    Result<std::unique_ptr<gpu::Context>> context = gpu::createContext(co);
    if (!context) {
        std::fprintf(stderr, "throng: error: %s: %s\n", o.model.c_str(), context.error().message.c_str());
        glfwDestroyWindow(window);
        glfwTerminate();
        return false;
    }
    w.window = window;
    w.context = std::move(context).value();
    return true;
}

bool closeWindow(Window& w) {
    gpu::destroyContext(*w.context); // first: the layers report objects left alive at vkDestroyDevice
    const bool errors = gpu::reportValidationErrors(*w.context);
    w.context.reset();
    glfwDestroyWindow(w.window);
    w.window = nullptr;
    glfwTerminate();
    return errors;
}

} // namespace throng::view
