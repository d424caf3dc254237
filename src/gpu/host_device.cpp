// A Context over a host's device (adoptDevice): the host's enabled features and allocation
// callbacks, throng's own command pool on its queue family.
#include "context.h"

#include "context_detail.h"

#include <mutex>
#include <string>
#include <vector>

namespace throng::gpu {

using detail::Masked;
using detail::maskedFeatures;
using detail::readCapabilities;

namespace {

// Host devices and their allocation callbacks (hostCallbacks()). Few entries, read when objects
// are created or destroyed.
struct CallbackEntry {
    VkDevice device;
    const VkAllocationCallbacks* callbacks;
    uint32_t users; // contexts adopting the device
};
std::mutex g_callbacks_mutex;
std::vector<CallbackEntry> g_callbacks;

// False (nothing remembered) when another context holds `device` with other callbacks: objects
// are destroyed with the callbacks of their device, so every adopter of one device must pass the
// same (a second set would free the first's objects through the wrong allocator).
bool rememberCallbacks(VkDevice device, const VkAllocationCallbacks* callbacks) {
    std::lock_guard lock(g_callbacks_mutex);
    for (CallbackEntry& e : g_callbacks)
        if (e.device == device) {
            if (e.callbacks != callbacks) return false;
            ++e.users;
            return true;
        }
    g_callbacks.push_back({device, callbacks, 1});
    return true;
}

// The features of `chain` (the host's vkCreateDevice chain) as Vulkan 1.0/1.2/1.3 structs.
void enabledFeatures(const VkPhysicalDeviceFeatures2* chain, VkPhysicalDeviceFeatures& f10,
                     VkPhysicalDeviceVulkan12Features& f12, VkPhysicalDeviceVulkan13Features& f13) {
    if (chain == nullptr) return;
    f10 = chain->features;
    for (auto* s = static_cast<const VkBaseInStructure*>(chain->pNext); s != nullptr; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES) {
            f12 = *reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(s);
            f12.pNext = nullptr;
        }
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES) {
            f13 = *reinterpret_cast<const VkPhysicalDeviceVulkan13Features*>(s);
            f13.pNext = nullptr;
        }
    }
}

Status initHostContext(Context& ctx, const HostDevice& host) {
    if (host.instance == VK_NULL_HANDLE || host.physical == VK_NULL_HANDLE || host.device == VK_NULL_HANDLE)
        return Status::failure("the host's instance, physical device and device must all be given");
    Masked masked;
    if (Status s = maskedFeatures(ContextOptions{}, masked); !s) return s;
    ctx.instance = host.instance;
    ctx.physical = host.physical;
    ctx.queue_family = host.queue_family;
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(host.physical, &props);
    if (props.apiVersion < VK_API_VERSION_1_3 || masked.has("vulkan13"))
        return Status::failure(std::string("'") + props.deviceName + "' lacks Vulkan 1.3");
    VkPhysicalDeviceFeatures f10{};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    enabledFeatures(host.enabled, f10, f12, f13);
    if (!f13.dynamicRendering || masked.has("dynamicRendering"))
        return Status::failure("the host's device must enable dynamicRendering (VkPhysicalDeviceVulkan13Features in "
                               "RenderDevice::enabled_features)");
    if (!f13.synchronization2 || masked.has("synchronization2"))
        return Status::failure("the host's device must enable synchronization2 (VkPhysicalDeviceVulkan13Features in "
                               "RenderDevice::enabled_features)");
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(host.physical, &n, nullptr);
    std::vector<VkQueueFamilyProperties> families(n);
    vkGetPhysicalDeviceQueueFamilyProperties(host.physical, &n, families.data());
    const VkQueueFlags need = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    if (host.queue_family >= n || (families[host.queue_family].queueFlags & need) != need)
        return Status::failure("queue family " + std::to_string(host.queue_family) +
                               " is not a graphics + compute family of this device");
    if (host.queue_index >= families[host.queue_family].queueCount)
        return Status::failure("queue " + std::to_string(host.queue_index) + " of family " +
                               std::to_string(host.queue_family) + " does not exist");
    ctx.timestamps = families[host.queue_family].timestampValidBits > 0 && !masked.has("timestamps");
    readCapabilities(ctx, f10, f12, masked);
    if (!rememberCallbacks(host.device, host.callbacks))
        return Status::failure("RenderDevice::allocation_callbacks differ from those of another renderer still on this "
                               "VkDevice: every renderer of a device must be given the same");
    ctx.device = host.device;
    vkGetDeviceQueue(ctx.device, ctx.queue_family, host.queue_index, &ctx.queue);
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT | VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = ctx.queue_family;
    VK_CHECK(vkCreateCommandPool(ctx.device, &pci, host.callbacks, &ctx.command_pool));
    return {};
}

} // namespace

void detail::forgetCallbacks(VkDevice device) {
    std::lock_guard lock(g_callbacks_mutex);
    for (size_t i = 0; i < g_callbacks.size(); ++i)
        if (g_callbacks[i].device == device && --g_callbacks[i].users == 0) {
            g_callbacks.erase(g_callbacks.begin() + ptrdiff_t(i));
            return;
        }
}

const VkAllocationCallbacks* hostCallbacks(VkDevice device) {
    std::lock_guard lock(g_callbacks_mutex);
    for (const CallbackEntry& e : g_callbacks)
        if (e.device == device) return e.callbacks;
    return nullptr;
}

Result<std::unique_ptr<Context>> adoptDevice(const HostDevice& host) {
    auto ctx = std::make_unique<Context>();
    ctx->owns_device = false;
    return detail::finishContext(std::move(ctx), [&](Context& c) { return initHostContext(c, host); });
}

} // namespace throng::gpu
