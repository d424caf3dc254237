// throng's own Vulkan instance, debug messenger, device choice, device and queue; a Context's
// end. A host's device: host_device.cpp; one-off submits: one_time.cpp; errors and fault
// injection: vk_check.cpp.
#include "context.h"

#include "context_detail.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace throng::gpu {

namespace detail {

Status maskedFeatures(const ContextOptions& options, Masked& masked) {
    masked.names = options.mask_features;
    if (const char* env = std::getenv("THRONG_MASK_FEATURES"); env != nullptr) {
        std::string list = env;
        for (size_t start = 0; start <= list.size();) {
            const size_t end = std::min(list.find(',', start), list.size());
            if (end > start) masked.names.push_back(list.substr(start, end - start));
            start = end + 1;
        }
    }
    for (const std::string& n : masked.names)
        if (std::none_of(std::begin(kMaskableFeatures), std::end(kMaskableFeatures),
                         [&](const char* k) { return n == k; })) {
            std::string known;
            for (const char* k : kMaskableFeatures) known += std::string(known.empty() ? "" : ", ") + k;
            return Status::failure("THRONG_MASK_FEATURES: unknown feature '" + n + "' (known: " + known + ")");
        }
    return {};
}

void readCapabilities(Context& ctx, VkPhysicalDeviceFeatures& features, VkPhysicalDeviceVulkan12Features& f12,
                      const Masked& masked) {
    vkGetPhysicalDeviceProperties(ctx.physical, &ctx.properties);
    vkGetPhysicalDeviceMemoryProperties(ctx.physical, &ctx.memory);
    ctx.device_name = ctx.properties.deviceName;
    VkPhysicalDeviceVulkan12Properties p12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties subgroups{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES, &p12};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroups};
    vkGetPhysicalDeviceProperties2(ctx.physical, &p2);
    ctx.driver_name = std::string(p12.driverName) + " " + p12.driverInfo;
    if (masked.has("shaderInt16")) features.shaderInt16 = VK_FALSE;
    if (masked.has("vertexPipelineStoresAndAtomics")) features.vertexPipelineStoresAndAtomics = VK_FALSE;
    if (masked.has("hostQueryReset")) f12.hostQueryReset = VK_FALSE;
    if (masked.has("shaderFloat16")) f12.shaderFloat16 = VK_FALSE;
    ctx.float16 = f12.shaderFloat16;
    ctx.vertex_stores = features.vertexPipelineStoresAndAtomics;
    ctx.indirect_count = f12.drawIndirectCount && features.multiDrawIndirect && features.drawIndirectFirstInstance &&
                         !masked.has("drawIndirectCount");
    {
        // Occlusion culling samples the depth image (D32_SFLOAT) and writes its pyramid (R32_SFLOAT).
        VkFormatProperties depth{}, pyramid{};
        vkGetPhysicalDeviceFormatProperties(ctx.physical, VK_FORMAT_D32_SFLOAT, &depth);
        vkGetPhysicalDeviceFormatProperties(ctx.physical, VK_FORMAT_R32_SFLOAT, &pyramid);
        ctx.depth_sampled = (depth.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) != 0;
        ctx.depth_pyramid = ctx.indirect_count && ctx.depth_sampled &&
                            (pyramid.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) &&
                            (pyramid.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT) &&
                            !masked.has("depthPyramid");
    }
    constexpr VkSubgroupFeatureFlags kCounts =
        VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT;
    ctx.subgroup_counts = (subgroups.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                          (subgroups.supportedOperations & kCounts) == kCounts && !masked.has("subgroupCounts");
    // The compute rasterizer's visibility buffer: 64-bit atomic min in storage buffers.
    ctx.int64_atomics = features.shaderInt64 && f12.shaderBufferInt64Atomics && ctx.indirect_count &&
                        !masked.has("shaderBufferInt64Atomics");
}

Result<std::unique_ptr<Context>> finishContext(std::unique_ptr<Context> ctx,
                                               const std::function<Status(Context&)>& init) {
    try {
        if (Status s = init(*ctx); !s) {
            destroyContext(*ctx);
            return s.error();
        }
    } catch (const GpuError& e) {
        destroyContext(*ctx);
        return e.error();
    }
    return ctx;
}

} // namespace detail

using detail::Masked;
using detail::maskedFeatures;
using detail::readCapabilities;

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL onDebugMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                              VkDebugUtilsMessageTypeFlagsEXT,
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
    return std::any_of(layers.begin(), layers.end(),
                       [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
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

// What the device lacks ("lacks synchronization2"), or empty; `family` gets the queue family to
// use (one with timestamps when there is one) and `timestamps` whether it writes them.
std::string unsuitable(VkPhysicalDevice pd, VkSurfaceKHR surface, const Masked& masked, uint32_t& family,
                       bool& timestamps) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    const uint32_t api = masked.has("vulkan13") ? VK_API_VERSION_1_2 : props.apiVersion;
    if (api < VK_API_VERSION_1_3)
        return "lacks Vulkan 1.3 (has " + std::to_string(VK_API_VERSION_MAJOR(api)) + "." +
               std::to_string(VK_API_VERSION_MINOR(api)) + ")";
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f13};
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    if (!f13.dynamicRendering || masked.has("dynamicRendering")) return "lacks dynamicRendering";
    if (!f13.synchronization2 || masked.has("synchronization2")) return "lacks synchronization2";
    if (surface != VK_NULL_HANDLE) {
        uint32_t e = 0;
        VK_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &e, nullptr));
        std::vector<VkExtensionProperties> extensions(e);
        VK_CHECK(vkEnumerateDeviceExtensionProperties(pd, nullptr, &e, extensions.data()));
        if (masked.has("swapchain") ||
            std::none_of(extensions.begin(), extensions.end(), [](const VkExtensionProperties& x) {
                return std::strcmp(x.extensionName, VK_KHR_SWAPCHAIN_EXTENSION_NAME) == 0;
            }))
            return "lacks VK_KHR_swapchain";
    }
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families.data());
    bool found = false;
    for (uint32_t i = 0; i < n; ++i) {
        const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        VkBool32 present = VK_TRUE;
        if (surface != VK_NULL_HANDLE) VK_CHECK(vkGetPhysicalDeviceSurfaceSupportKHR(pd, i, surface, &present));
        if ((families[i].queueFlags & need) != need || !present) continue;
        const bool stamps = families[i].timestampValidBits > 0 && !masked.has("timestamps");
        if (!found || (stamps && !timestamps)) {
            family = i;
            timestamps = stamps;
        }
        found = true;
    }
    if (found) return {};
    return surface != VK_NULL_HANDLE ? "lacks a graphics+compute queue that presents to the window"
                                     : "lacks a graphics+compute queue";
}

} // namespace

namespace {

// Fills `out` step by step; on an error the caller frees whatever exists (destroyContext).
Status initContext(Context& out, const ContextOptions& options) {
    Context* ctx = &out;
    Masked masked;
    if (Status s = maskedFeatures(options, masked); !s) return s;
    uint32_t loader_version = 0;
    if (vkEnumerateInstanceVersion(&loader_version) != VK_SUCCESS || loader_version < VK_API_VERSION_1_3)
        return Status::failure(
            "Vulkan 1.3 loader not found (install libvulkan1 and a driver, e.g. mesa-vulkan-drivers)",
            ErrorKind::Unsupported);

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "throng";
    app.apiVersion = VK_API_VERSION_1_3;
    std::vector<const char*> layers, extensions;
    if (options.validation) {
        if (!hasLayer("VK_LAYER_KHRONOS_validation"))
            return Status::failure("validation requested but VK_LAYER_KHRONOS_validation is not installed (Debian: "
                                   "vulkan-validationlayers)",
                                   ErrorKind::Unsupported);
        layers.push_back("VK_LAYER_KHRONOS_validation");
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        if (options.synchronization_validation) extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
        ctx->validation = std::make_unique<ValidationCounts>();
    }
    for (const std::string& e : options.instance_extensions) extensions.push_back(e.c_str());
    VkDebugUtilsMessengerCreateInfoEXT messenger_info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger_info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_info.pfnUserCallback = onDebugMessage;
    messenger_info.pUserData = ctx->validation.get();

    const VkValidationFeatureEnableEXT sync = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT;
    VkValidationFeaturesEXT validation_features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    validation_features.enabledValidationFeatureCount = 1;
    validation_features.pEnabledValidationFeatures = &sync;
    validation_features.pNext = &messenger_info;

    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    if (options.validation) // the messenger also covers instance creation
        ici.pNext =
            options.synchronization_validation ? static_cast<const void*>(&validation_features) : &messenger_info;
    ici.pApplicationInfo = &app;
    ici.enabledLayerCount = uint32_t(layers.size());
    ici.ppEnabledLayerNames = layers.data();
    ici.enabledExtensionCount = uint32_t(extensions.size());
    ici.ppEnabledExtensionNames = extensions.data();
    if (VkResult r = vkCreateInstance(&ici, nullptr, &ctx->instance); r != VK_SUCCESS)
        return Status::failure(std::string("cannot create a Vulkan instance: ") + resultName(r), errorKindOf(r));
    if (options.validation) {
        auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(ctx->instance, "vkCreateDebugUtilsMessengerEXT"));
        if (create != nullptr) VK_CHECK(create(ctx->instance, &messenger_info, nullptr, &ctx->messenger));
    }

    if (options.create_surface) {
        if (VkResult r = options.create_surface(ctx->instance, &ctx->surface); r != VK_SUCCESS) {
            return Status::failure(std::string("cannot create a window surface: ") + resultName(r), errorKindOf(r));
        }
    }

    uint32_t count = 0;
    VK_CHECK(vkEnumeratePhysicalDevices(ctx->instance, &count, nullptr));
    std::vector<VkPhysicalDevice> devices(count);
    VK_CHECK(vkEnumeratePhysicalDevices(ctx->instance, &count, devices.data()));
    int best_rank = -1;
    std::string seen, refused; // every device; the matching ones that cannot be used, with why
    for (VkPhysicalDevice pd : devices) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(pd, &props);
        seen += std::string(seen.empty() ? "" : ", ") + props.deviceName;
        if (!options.device_substring.empty() &&
            lower(props.deviceName).find(lower(options.device_substring)) == std::string::npos)
            continue;
        uint32_t family = 0;
        bool timestamps = false;
        std::string why;
        try {
            why = unsuitable(pd, ctx->surface, masked, family, timestamps);
        } catch (const GpuError& e) { // a query failed: this device is out, the next may do
            why = e.what();
        }
        if (!why.empty()) {
            refused += std::string(refused.empty() ? "" : "; ") + "'" + props.deviceName + "' " + why;
            continue;
        }
        if (typeRank(props.deviceType) > best_rank) {
            best_rank = typeRank(props.deviceType);
            ctx->physical = pd;
            ctx->queue_family = family;
            ctx->timestamps = timestamps;
        }
    }
    if (ctx->physical == VK_NULL_HANDLE) {
        if (!options.device_substring.empty() && !refused.empty())
            return Status::failure("no matching device can be used: " + refused, ErrorKind::Unsupported);
        if (!options.device_substring.empty())
            return Status::failure("no Vulkan device matches '" + options.device_substring +
                                   "' (found: " + (seen.empty() ? "none" : seen) + ")");
        if (!refused.empty()) return Status::failure("no usable Vulkan device: " + refused, ErrorKind::Unsupported);
        return Status::failure("no Vulkan device found (install a driver, e.g. mesa-vulkan-drivers)",
                               ErrorKind::Unsupported);
    }
    VkPhysicalDeviceVulkan12Features have12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &have12};
    vkGetPhysicalDeviceFeatures2(ctx->physical, &have);
    readCapabilities(*ctx, have.features, have12, masked);

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
    f12.drawIndirectCount = ctx->indirect_count;
    f12.shaderBufferInt64Atomics = ctx->int64_atomics;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
    features.features.shaderInt16 = have.features.shaderInt16;
    features.features.vertexPipelineStoresAndAtomics = have.features.vertexPipelineStoresAndAtomics;
    features.features.multiDrawIndirect = ctx->indirect_count;
    features.features.drawIndirectFirstInstance = ctx->indirect_count;
    features.features.shaderInt64 = ctx->int64_atomics;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    const char* swapchain_extension = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    if (ctx->surface != VK_NULL_HANDLE) {
        dci.enabledExtensionCount = 1;
        dci.ppEnabledExtensionNames = &swapchain_extension;
    }
    VkResult created = faultPoint();
    if (created == VK_SUCCESS) created = vkCreateDevice(ctx->physical, &dci, nullptr, &ctx->device);
    if (VkResult r = created; r != VK_SUCCESS) {
        return Status::failure(std::string("cannot create the Vulkan device: ") + resultName(r), errorKindOf(r));
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
    return detail::finishContext(std::make_unique<Context>(), [&](Context& c) { return initContext(c, options); });
}

bool reportValidationErrors(const Context& ctx) {
    if (!ctx.validation || ctx.validation->errors == 0) return false;
    std::fprintf(stderr, "throng: error: %u Vulkan validation error(s)\n", ctx.validation->errors.load());
    return true;
}

Context::~Context() { destroyContext(*this); }

void destroyContext(Context& ctx) {
    if (!ctx.owns_device) { // the host's: throng's command pool only (the host keeps the device busy or not)
        if (ctx.device != VK_NULL_HANDLE && ctx.command_pool != VK_NULL_HANDLE)
            vkDestroyCommandPool(ctx.device, ctx.command_pool, hostCallbacks(ctx.device));
        detail::forgetCallbacks(ctx.device);
        ctx.command_pool = VK_NULL_HANDLE;
        ctx.device = VK_NULL_HANDLE;
        ctx.instance = VK_NULL_HANDLE;
        return;
    }
    if (ctx.device != VK_NULL_HANDLE) {
        vkDeviceWaitIdle(ctx.device);
        if (ctx.command_pool != VK_NULL_HANDLE) vkDestroyCommandPool(ctx.device, ctx.command_pool, nullptr);
        vkDestroyDevice(ctx.device, nullptr);
    }
    if (ctx.surface != VK_NULL_HANDLE) vkDestroySurfaceKHR(ctx.instance, ctx.surface, nullptr);
    ctx.surface = VK_NULL_HANDLE;
    if (ctx.messenger != VK_NULL_HANDLE) {
        auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
            vkGetInstanceProcAddr(ctx.instance, "vkDestroyDebugUtilsMessengerEXT"));
        if (destroy != nullptr) destroy(ctx.instance, ctx.messenger, nullptr);
    }
    if (ctx.instance != VK_NULL_HANDLE) vkDestroyInstance(ctx.instance, nullptr);
    ctx.command_pool = VK_NULL_HANDLE;
    ctx.device = VK_NULL_HANDLE;
    ctx.messenger = VK_NULL_HANDLE;
    ctx.instance = VK_NULL_HANDLE;
}

} // namespace throng::gpu
