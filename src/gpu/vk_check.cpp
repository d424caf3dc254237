// Vulkan results as errors (VK_CHECK's throw) and the fault injection every checked call passes
// through; see vk_check.h.
#include "vk_check.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace throng::gpu {

const char* resultName(VkResult r) {
    switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY (out of host memory)";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY (out of GPU memory)";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_FRAGMENTED_POOL: return "VK_ERROR_FRAGMENTED_POOL";
    case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_SURFACE_LOST_KHR: return "VK_ERROR_SURFACE_LOST_KHR";
    case VK_ERROR_NATIVE_WINDOW_IN_USE_KHR: return "VK_ERROR_NATIVE_WINDOW_IN_USE_KHR";
    case VK_ERROR_OUT_OF_DATE_KHR: return "VK_ERROR_OUT_OF_DATE_KHR";
    default: return "VkResult error";
    }
}

ErrorKind errorKindOf(VkResult result) {
    switch (result) {
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return ErrorKind::OutOfDeviceMemory;
    case VK_ERROR_OUT_OF_HOST_MEMORY: return ErrorKind::OutOfHostMemory;
    case VK_ERROR_DEVICE_LOST: return ErrorKind::DeviceLost;
    case VK_ERROR_FEATURE_NOT_PRESENT:
    case VK_ERROR_EXTENSION_NOT_PRESENT:
    case VK_ERROR_LAYER_NOT_PRESENT:
    case VK_ERROR_INCOMPATIBLE_DRIVER:
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return ErrorKind::Unsupported;
    default: return ErrorKind::Gpu;
    }
}

void throwVkError(VkResult result, const char* call, const char* file, int line) {
    const char* base = std::strrchr(file, '/');
    const std::string where = std::string(base != nullptr ? base + 1 : file) + ":" + std::to_string(line);
    const std::string function(call, std::strcspn(call, "(")); // the function, without its arguments
    char text[512];
    if (result == VK_ERROR_DEVICE_LOST) {
        std::snprintf(text, sizeof text, "the GPU was lost (VK_ERROR_DEVICE_LOST): %s failed (%s)", function.c_str(),
                      where.c_str());
        throw DeviceLost(text);
    }
    if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        std::snprintf(text, sizeof text, "out of GPU memory: %s failed with VK_ERROR_OUT_OF_DEVICE_MEMORY (%s)",
                      function.c_str(), where.c_str());
    else if (result == VK_ERROR_OUT_OF_HOST_MEMORY)
        std::snprintf(text, sizeof text, "out of host memory: %s failed with VK_ERROR_OUT_OF_HOST_MEMORY (%s)",
                      function.c_str(), where.c_str());
    else
        std::snprintf(text, sizeof text, "Vulkan: %s failed with %s (%d) (%s)", function.c_str(), resultName(result),
                      int(result), where.c_str());
    throw GpuError(text, errorKindOf(result));
}

namespace {

std::atomic<uint64_t> g_fault_points{0}, g_loss_points{0};       // passed since the last set*()
std::atomic<uint64_t> g_fail_allocation{0}, g_lose_device_at{0}; // 0: inject nothing
std::once_flag g_fault_environment;

void printFaultCounts() {
    std::fprintf(stderr, "throng: fault points: %llu allocation, %llu device loss\n",
                 static_cast<unsigned long long>(g_fault_points.load()),
                 static_cast<unsigned long long>(g_loss_points.load()));
}

// A number N, or "count" (0, and the counts printed at exit).
uint64_t environmentNumber(const char* name) {
    const char* text = std::getenv(name);
    if (text == nullptr) return 0;
    if (std::strcmp(text, "count") == 0) {
        static const int registered = std::atexit(printFaultCounts); // once, for either variable
        (void)registered;
        return 0;
    }
    return std::strtoull(text, nullptr, 10);
}

void readFaultEnvironment() {
    std::call_once(g_fault_environment, [] {
        g_fail_allocation = environmentNumber("THRONG_FAIL_ALLOCATION");
        g_lose_device_at = environmentNumber("THRONG_LOSE_DEVICE_AT");
    });
}

} // namespace

VkResult faultPoint() {
    readFaultEnvironment();
    const uint64_t n = ++g_fault_points;
    return n == g_fail_allocation.load() ? VK_ERROR_OUT_OF_DEVICE_MEMORY : VK_SUCCESS;
}

VkResult lossPoint() {
    readFaultEnvironment();
    const uint64_t n = ++g_loss_points;
    const uint64_t at = g_lose_device_at.load();
    return at != 0 && n >= at ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

void setFailAllocation(uint64_t n) {
    readFaultEnvironment(); // so that the environment does not override it later
    g_fail_allocation = n;
    g_fault_points = 0;
    g_loss_points = 0;
}

void setLoseDeviceAt(uint64_t n) {
    readFaultEnvironment();
    g_lose_device_at = n;
    g_fault_points = 0;
    g_loss_points = 0;
}

uint64_t faultPoints() { return g_fault_points.load(); }
uint64_t lossPoints() { return g_loss_points.load(); }

} // namespace throng::gpu
