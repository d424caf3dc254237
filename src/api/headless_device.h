// HeadlessDevice's insides (include/throng/headless.h), shared by the API's files.
#pragma once

#include <throng/headless.h>

#include "../gpu/context.h"

namespace throng {

struct HeadlessDevice::State {
    std::unique_ptr<gpu::Context> context;
    // What createContext enabled, as the chain a host passes in RenderDevice::enabled_features.
    VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
    VkPhysicalDeviceFeatures2 enabled{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
};

// The device's own Context (the headless renderer runs on it directly).
gpu::Context& headlessContext(HeadlessDevice& device);

} // namespace throng
