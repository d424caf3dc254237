// The Vulkan instance and device, headless by default, with validation on request; with a
// window surface for the viewer (ContextOptions::create_surface).
//
// Device choice: discrete > integrated > virtual > CPU, unless ContextOptions::device_substring
// names one (case-insensitive match on the device name). Required: Vulkan 1.3 with dynamic
// rendering and synchronization2, a graphics+compute queue (and, with a window, VK_KHR_swapchain
// and presentation from that queue); a device without them is refused with one line naming what
// it lacks. Optional, used when present: timestamps on that queue (GPU times; without them they
// are reported unavailable), vertexPipelineStoresAndAtomics (capture shaders, tests only),
// shaderInt16, hostQueryReset, shaderFloat16.
//
// Testing hook: ContextOptions::mask_features, and the environment variable
// THRONG_MASK_FEATURES=name,name,... (added to it), make createContext behave as if the device
// lacked those features (kMaskableFeatures lists the names), to test each path without them.
#pragma once

#include "vk_check.h"

#include <throng/result.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace throng::gpu {

struct ContextOptions {
    bool validation = false; // VK_LAYER_KHRONOS_validation + a debug messenger
    // With validation: also the layer's synchronization validation (hazards between commands
    // that no barrier orders are errors; slow, for tests of the barriers).
    bool synchronization_validation = false;
    std::string device_substring; // empty: the best device
    // Windowed use: extra instance extensions (the window system's), and a function creating the
    // surface once the instance exists. With it, the device must present to that surface from
    // its graphics queue and VK_KHR_swapchain is enabled; Context::surface owns the result.
    std::vector<std::string> instance_extensions;
    std::function<VkResult(VkInstance, VkSurfaceKHR*)> create_surface;
    // Tests: features to treat as missing (see the top of this file); an unknown name is an error.
    std::vector<std::string> mask_features;
};

// The names mask_features and THRONG_MASK_FEATURES accept.
inline constexpr const char* kMaskableFeatures[] = {
    "vulkan13",          "dynamicRendering", "synchronization2",
    "swapchain",         "timestamps",       "vertexPipelineStoresAndAtomics",
    "shaderInt16",       "hostQueryReset",   "shaderFloat16",
    "drawIndirectCount", "depthPyramid",     "shaderBufferInt64Atomics",
    "subgroupCounts"};

// Counts what the debug messenger saw; tests fail on any error.
struct ValidationCounts {
    std::atomic<uint32_t> errors{0};
    std::atomic<uint32_t> warnings{0};
    std::mutex mutex;
    std::string first_error; // the first error message, under `mutex`
};

struct Context {
    VkInstance instance = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkSurfaceKHR surface = VK_NULL_HANDLE; // only with ContextOptions::create_surface
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t queue_family = 0;
    VkCommandPool command_pool = VK_NULL_HANDLE; // for one-off submissions (uploads, readback)
    VkPhysicalDeviceProperties properties{};
    VkPhysicalDeviceMemoryProperties memory{};
    std::string device_name;
    std::string driver_name;
    bool timestamps = false;    // the queue writes timestamps (else GPU times are unavailable)
    bool vertex_stores = false; // vertexPipelineStoresAndAtomics, enabled when present (capture shaders, tests only)
    bool float16 = false;       // shaderFloat16 (not needed: half data is read through textures)
    // drawIndirectCount, multiDrawIndirect and drawIndirectFirstInstance, enabled when all are
    // present (masked together as "drawIndirectCount"): GPU culling and LOD draw with them.
    bool indirect_count = false;
    // Occlusion culling can run: indirect_count, and the depth format sampled and R32_SFLOAT as a
    // storage image (masked as "depthPyramid").
    bool depth_pyramid = false;
    // The depth format (D32_SFLOAT) can be sampled: temporal anti-aliasing reads the depth.
    bool depth_sampled = false;
    // The compute rasterizer can run: shaderInt64 and shaderBufferInt64Atomics (enabled), and
    // indirect_count (masked as "shaderBufferInt64Atomics").
    bool int64_atomics = false;
    // Subgroup basic, ballot and arithmetic operations in compute shaders (Vulkan 1.1's subgroup
    // properties; masked as "subgroupCounts"): culling takes its counts one atomic per subgroup.
    bool subgroup_counts = false;
    std::unique_ptr<ValidationCounts> validation; // null when validation is off
    // False for a host's device (adoptDevice): destroyContext then frees only what throng made
    // (its command pool) and leaves the device and the instance to the host.
    bool owns_device = true;

    Context() = default;
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;
    ~Context(); // destroyContext(), when it was not called before
};

// A device the host created and keeps (throng::RenderDevice, include/throng/render.h).
struct HostDevice {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queue_family = 0; // graphics + compute
    uint32_t queue_index = 0;
    const VkAllocationCallbacks* callbacks = nullptr; // for every object throng creates on the device
    // The feature chain the host gave vkCreateDevice (VkPhysicalDeviceFeatures2 with
    // VkPhysicalDeviceVulkan12Features and ...13Features chained, in any order); null: only
    // what Vulkan 1.3 requires is assumed, so every optional path is off.
    const VkPhysicalDeviceFeatures2* enabled = nullptr;
};

// A Context over the host's device: throng's own command pool on its queue family, the optional
// paths the enabled features allow (THRONG_MASK_FEATURES applies too). Errors: a null handle, a
// device below Vulkan 1.3, dynamicRendering or synchronization2 not enabled, a queue family
// without graphics and compute.
Result<std::unique_ptr<Context>> adoptDevice(const HostDevice& host);

// The allocation callbacks of `device`: the host's for an adopted device, else null. Every
// vkCreate*/vkDestroy* call on throng's objects passes them.
const VkAllocationCallbacks* hostCallbacks(VkDevice device);

// Errors: no Vulkan loader/driver, no device matching the substring (lists those found),
// no device with what is required ("'llvmpipe (...)' lacks synchronization2"), an unknown name
// in mask_features or THRONG_MASK_FEATURES, out of memory creating the device.
Result<std::unique_ptr<Context>> createContext(const ContextOptions& options);
void destroyContext(Context& context);

// With validation on and errors seen: prints "throng: error: N Vulkan validation error(s)" on
// stderr and returns true (callers then exit 1). The counts outlive destroyContext: called after
// it, they include the objects the layers found still alive at vkDestroyDevice (leaks).
bool reportValidationErrors(const Context& context);

// Records into a fresh command buffer, submits, waits. For uploads and readback.
template <class Record> void submitAndWait(const Context& context, Record&& record);

// beginOneTime allocates and begins a command buffer; endOneTimeAndWait submits it, waits and
// frees it — also when it throws (after waiting for the device, ignoring a lost one);
// abandonOneTime frees one that will not be submitted.
VkCommandBuffer beginOneTime(const Context& context);
void endOneTimeAndWait(const Context& context, VkCommandBuffer cmd);
void abandonOneTime(const Context& context, VkCommandBuffer cmd);

template <class Record> void submitAndWait(const Context& context, Record&& record) {
    VkCommandBuffer cmd = beginOneTime(context);
    try {
        record(cmd);
    } catch (...) {
        abandonOneTime(context, cmd);
        throw;
    }
    endOneTimeAndWait(context, cmd);
}

} // namespace throng::gpu
