// What context.cpp (throng's own instance and device) and host_device.cpp (a host's device)
// share: the features masked for tests, the capabilities read from a device's features, and
// the way both finish building a Context.
#pragma once

#include "context.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace throng::gpu::detail {

// Features createContext() treats as missing (ContextOptions::mask_features, THRONG_MASK_FEATURES).
struct Masked {
    std::vector<std::string> names;
    bool has(const char* name) const { return std::find(names.begin(), names.end(), name) != names.end(); }
};

// The masked names (ContextOptions::mask_features and THRONG_MASK_FEATURES), or an error naming
// an unknown one.
Status maskedFeatures(const ContextOptions& options, Masked& masked);

// Device properties and names, and the optional paths `features` (what the device supports,
// or what a host enabled) allow, with the masked ones off. Masked features are also cleared in
// `features` and `f12`, so that they are neither enabled nor reported.
void readCapabilities(Context& ctx, VkPhysicalDeviceFeatures& features, VkPhysicalDeviceVulkan12Features& f12,
                      const Masked& masked);

// Runs `init` on `ctx`: it returns its own errors, and a VK_CHECK failing inside it throws;
// either way nothing it created survives.
Result<std::unique_ptr<Context>> finishContext(std::unique_ptr<Context> ctx,
                                               const std::function<Status(Context&)>& init);

// An adopted device's context is gone: its callbacks are forgotten with the last one (host_device.cpp).
void forgetCallbacks(VkDevice device);

} // namespace throng::gpu::detail
