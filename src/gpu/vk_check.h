// VK_CHECK: every Vulkan call goes through it. A failure throws GpuError with the call, the
// result name and the place; the CLI turns it into one line and exit code 1 (out of memory
// included), tests into a failure.
#pragma once

#include <vulkan/vulkan.h>

#include <stdexcept>
#include <string>

namespace throng::gpu {

struct GpuError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char* resultName(VkResult result);

[[noreturn]] void throwVkError(VkResult result, const char* call, const char* file, int line);

} // namespace throng::gpu

#define VK_CHECK(call)                                                                        \
    do {                                                                                      \
        const VkResult vk_check_result_ = (call);                                             \
        if (vk_check_result_ < 0) ::throng::gpu::throwVkError(vk_check_result_, #call, __FILE__, __LINE__); \
    } while (0)
