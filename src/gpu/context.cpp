// Instance, debug messenger, device selection, device and queue.
#include "context.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>

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
    default: return "VkResult error";
    }
}

void throwVkError(VkResult result, const char* call, const char* file, int line) {
    const char* base = std::strrchr(file, '/');
    char text[512];
    std::snprintf(text, sizeof text, "Vulkan: %s failed with %s (%d) at %s:%d", call, resultName(result), int(result),
                  base != nullptr ? base + 1 : file, line);
    throw GpuError(text);
}

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL onDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
                                              const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* counts = static_cast<ValidationCounts*>(user);
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        if (counts->errors++ == 0) {
            std::lock_guard<std::mutex> lock(counts->mutex);
            counts->first_error = data->pMessage != nullptr ? data->pMessage : "";
        }
        std::fprintf(stderr, "throng: validation error: %s\n", data->pMessage);
    } else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        ++counts->warnings;
        std::fprintf(stderr, "throng: validation warning: %s\n", data->pMessage);
    }
    return VK_FALSE;
}

bool hasLayer(const char* name) {
    uint32_t n = 0;
    VK_CHECK(vkEnumerateInstanceLayerProperties(&n, nullptr));
    std::vector<VkLayerProperties> layers(n);
    VK_CHECK(vkEnumerateInstanceLayerProperties(&n, layers.data()));
    return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

int typeRank(VkPhysicalDeviceType t) {
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
    }
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// Why a device cannot be used, or empty.
std::string unsuitable(VkPhysicalDevice pd, VkSurfaceKHR surface, uint32_t& family) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    if (props.apiVersion < VK_API_VERSION_1_3) return "no Vulkan 1.3";
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f13};
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    if (!f13.dynamicRendering) return "no dynamic rendering";
    if (!f13.synchronization2) return "no synchronization2";
    if (surface != VK_NULL_HANDLE) {
        uint32_t e = 0;
        VK_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &e, nullptr));
        std::vector<VkExtensionProperties> extensions(e);
        VK_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &e, extensions.data()));
        if (std::none_of(extensions.begin(), extensions.end(),
                         [](const VkExtensionProperties& x) { return std::strcmp(x.extensionName, VK_KHR_SWAPCHAIN_EXTENSION_NAME) == 0; }))
            return "no VK_KHR_swapchain";
    }
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());
    for (uint32_t i = 0; i < n; ++i) {
        const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        VkBool32 present = VK_TRUE;
        if (surface != VK_NULL_HANDLE) VK_CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(pd, i, surface, &present));
        if ((families[i].queueFlags & need) == need && families[i].timestampValidBits > 0 && present) {
            family = i;
            return {};
        }
    }
    return surface != VK_NULL_HANDLE ? "no graphics+compute queue with timestamps that presents to the window"
                                     : "no graphics+compute queue with timestamps";
}

} // namespace

namespace {

// Fills `out` step by step; on an error the caller frees whatever exists (destroyContext).
Status initContext(Context& out, const ContextOptions& options) {
    Context* ctx = &out;
    uint32_t loader_version = 0;
    if (vkEnumerateInstanceVersion(&loader_version) != VK_SUCCESS || loader_version < VK_API_VERSION_1_3)
        return Status::failure("Vulkan 1.3 loader not found (install libvulkan1 and a driver, e.g. mesa-vulkan-drivers)");

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "throng";
    app.apiVersion = VK_API_VERSION_1_3;
    std::vector<const char*> layers, extensions;
    if (options.validation) {
        if (!hasLayer("VK_LAYER_KHRONOS_validation"))
            return Status::failure("validation requested but VK_LAYER_KHRONOS_validation is not installed (Debian: vulkan-validationlayers)");
        layers.push_back("VK_LAYER_KHRONOS_validation");
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        ctx->validation = std::make_unique<ValidationCounts>();
    }
    for (const std::string& e : options.instance_extensions) extensions.push_back(e.c_str());
    VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_info.pfnUserCallback = onDebugMessage;
    messenger_info.pUserData = ctx->validation.get();

    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pNext = options.validation ? &messenger_info : nullptr;  // also covers instance creation
    ici.pApplicationInfo = &app;
    ici.enabledLayerCount = uint32_t(layers.size());
    ici.ppEnabledLayerNames = layers.data();
    ici.enabledExtensionCount = uint32_t(extensions.size());
    ici.ppEnabledExtensionNames = extensions.data();
    if (VkResult r = vkCreateInstance(&ici, nullptr, &ctx->instance); r != VK_SUCCESS)
        return Status::failure(std::string("cannot create a Vulkan instance: ") + resultName(r));
    if (options.validation) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(ctx->instance, "vkCreateDebugUtilsMessengerEXT"));
        if (create != nullptr) VK_CHECK(create(ctx->instance, &messenger_info, nullptr, &ctx->messenger));
    }

    if (options.create_surface) {
        if (VkResult r = options.create_surface(ctx->instance, &ctx->surface); r != VK_SUCCESS) {
            return Status::failure(std::string("cannot create a window surface: ") + resultName(r));
        }
    }

    uint32_t count = 0;
    VK_CHECK(vkEnumeratePhysicalDevices(ctx->instance, &count, nullptr));
    std::vector<VkPhysicalDevice> devices(count);
    VK_CHECK(vkEnumeratePhysicalDevices(ctx->instance, &count, devices.data()));
    int best_rank = -1;
    std::string seen, refused;  // every device; the matching ones that cannot be used, with why
    for (VkPhysicalDevice pd : devices) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(pd, &props);
        seen += std::string(seen.empty() ? "" : ", ") + props.deviceName;
        if (!options.device_substring.empty() && lower(props.deviceName).find(lower(options.device_substring)) == std::string::npos) continue;
        uint32_t family = 0;
        std::string why;
        try {
            why = unsuitable(pd, ctx->surface, family);
        } catch (const GpuError& e) {  // a query failed: this device is out, the next may do
            why = e.what();
        }
        if (!why.empty()) {
            refused += std::string(refused.empty() ? "" : "; ") + "'" + props.deviceName + "': " + why;
            continue;
        }
        if (typeRank(props.deviceType) > best_rank) {
            best_rank = typeRank(props.deviceType);
            ctx->physical = pd;
            ctx->queue_family = family;
        }
    }
    if (ctx->physical == VK_NULL_HANDLE) {
        if (!options.device_substring.empty() && !refused.empty()) return Status::failure("no matching device can be used: " + refused);
        if (!options.device_substring.empty())
            return Status::failure("no Vulkan device matches '" + options.device_substring + "' (found: " + (seen.empty() ? "none" : seen) + ")");
        return Status::failure("no Vulkan 1.3 device with dynamic rendering and synchronization2 (found: " + (seen.empty() ? "none" : seen) + ")");
    }
    vkGetPhysicalDeviceProperties(ctx->physical, &ctx->properties);
    vkGetPhysicalDeviceMemoryProperties(ctx->physical, &ctx->memory);
    ctx->device_name = ctx->properties.deviceName;
    VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p12};
    vkGetPhysicalDeviceProperties2(ctx->physical, &p2);
    ctx->driver_name = std::string(p12.driverName) + " " + p12.driverInfo;

    VkPhysicalDeviceVulkan12Features have12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &have12};
    vkGetPhysicalDeviceFeatures2(ctx->physical, &have);
    ctx->float16 = have12.shaderFloat16;

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = ctx->queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    f13.dynamicRendering = VK_TRUE;
    f13.synchronization2 = VK_TRUE;
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f13};
    f12.hostQueryReset = have12.hostQueryReset;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
    features.features.shaderInt16 = have.features.shaderInt16;
    features.features.vertexPipelineStoresAndAtomics = have.features.vertexPipelineStoresAndAtomics;
    ctx->vertex_stores = have.features.vertexPipelineStoresAndAtomics;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    const char* swapchain_extension = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    if (ctx->surface != VK_NULL_HANDLE) {
        dci.enabledExtensionCount = 1;
        dci.ppEnabledExtensionNames = &swapchain_extension;
    }
    if (VkResult r = vkCreateDevice(ctx->physical, &dci, nullptr, &ctx->device); r != VK_SUCCESS) {
        return Status::failure(std::string("cannot create the Vulkan device: ") + resultName(r));
    }
    vkGetDeviceQueue(ctx->device, ctx->queue_family, 0, &ctx->queue);
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = ctx->queue_family;
    VK_CHECK(vkCreateCommandPool(ctx->device, &pci, nullptr, &ctx->command_pool));
    return {};
}

} // namespace

Result<std::unique_ptr<Context>> createContext(const ContextOptions& options) {
    // initContext returns its own errors, and a VK_CHECK failing inside it throws; either way
    // nothing it created survives.
    auto ctx = std::make_unique<Context>();
    try {
        if (Status s = initContext(*ctx, options); !s) {
            destroyContext(*ctx);
            return Error{s.message};
        }
    } catch (const GpuError& e) {
        destroyContext(*ctx);
        return Error{e.what()};
    }
    return ctx;
}

bool reportValidationErrors(const Context& ctx) {
    if (!ctx.validation || ctx.validation->errors == 0) return false;
    std::fprintf(stderr, "throng: error: %u Vulkan validation error(s)\n", ctx.validation->errors.load());
    return true;
}

void destroyContext(Context& ctx) {
    if (ctx.device != VK_NULL_HANDLE) {
        vkDeviceWaitIdle(ctx.device);
        if (ctx.command_pool != VK_NULL_HANDLE) vkDestroyCommandPool(ctx.device, ctx.command_pool, nullptr);
        vkDestroyDevice(ctx.device, nullptr);
    }
    if (ctx.surface != VK_NULL_HANDLE) vkDestroySurfaceKHR(ctx.instance, ctx.surface, nullptr);
    ctx.surface = VK_NULL_HANDLE;
    if (ctx.messenger != VK_NULL_HANDLE) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(vkGetInstanceProcAddr(ctx.instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy != nullptr) destroy(ctx.instance, ctx.messenger, nullptr);
    }
    if (ctx.instance != VK_NULL_HANDLE) vkDestroyInstance(ctx.instance, nullptr);
    ctx.command_pool = VK_NULL_HANDLE;
    ctx.device = VK_NULL_HANDLE;
    ctx.messenger = VK_NULL_HANDLE;
    ctx.instance = VK_NULL_HANDLE;
}

VkCommandBuffer beginOneTime(const Context& ctx) {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = ctx.command_pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateCommandBuffers(ctx.device, &ai, &cmd));
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmd, &bi));
    return cmd;
}

void endOneTimeAndWait(const Context& ctx, VkCommandBuffer cmd) {
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFence(ctx.device, &fci, nullptr, &fence));
    VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cbi.commandBuffer = cmd;
    VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    si.commandBufferInfoCount = 1;
    si.pCommandBufferInfos = &cbi;
    VK_CHECK(vkQueueSubmit2(ctx.queue, 1, &si, fence));
    VK_CHECK(vkWaitForFences(ctx.device, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(ctx.device, fence, nullptr);
    vkFreeCommandBuffers(ctx.device, ctx.command_pool, 1, &cmd);
}

} // namespace throng::gpu
