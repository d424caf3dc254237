// VK_CHECK: every Vulkan call goes through it. A failure throws GpuError with a one-line
// message; the CLI prints it as `throng: error: SOURCE: message` and exits 1, tests fail on it.
// The message starts with what happened, then the call and the place:
//   out of GPU memory: vkCreateBuffer failed with VK_ERROR_OUT_OF_DEVICE_MEMORY (resources.cpp:33)
//   out of host memory: vkCreateFence failed with VK_ERROR_OUT_OF_HOST_MEMORY (context.cpp:290)
//   the GPU was lost (VK_ERROR_DEVICE_LOST): vkQueueSubmit2 failed (renderer.cpp:208)
//   Vulkan: vkCreateSwapchainKHR failed with VK_ERROR_SURFACE_LOST_KHR (-1000000000) (swapchain.cpp:130)
// After a lost device, everything that was made can (and must) still be destroyed; nothing
// waits for it again (destroy paths ignore the results of vkDeviceWaitIdle and fence waits).
#pragma once

#include <throng/result.h>

#include <vulkan/vulkan.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace throng::gpu {

// `kind` is what the public API hands on with the message (throng/result.h ErrorKind): a VkResult's
// (out of device or host memory, device lost, other) where VK_CHECK threw, or the thrower's.
struct GpuError : std::runtime_error {
    explicit GpuError(const std::string& message, ErrorKind kind_ = ErrorKind::Gpu)
        : std::runtime_error(message), kind(kind_) {}
    Error error() const { return Error{what(), kind}; }
    ErrorKind kind;
};

// VK_ERROR_DEVICE_LOST: nothing more can be drawn; what can still be freed must be. Callers that
// refuse a failed change and go on (the viewer) let this one end the program instead.
struct DeviceLost : GpuError {
    explicit DeviceLost(const std::string& message) : GpuError(message, ErrorKind::DeviceLost) {}
};

// The kind of a failed VkResult: out of device or host memory, device lost, or another failure.
ErrorKind errorKindOf(VkResult result);

const char* resultName(VkResult result);

[[noreturn]] void throwVkError(VkResult result, const char* call, const char* file, int line);

// ---- fault injection: a testing hook -----------------------------------------------------
// VK_CHECK sorts the call by its name, at compile time: one that creates, allocates or binds
// (vkCreate*, vkAllocate*, vkBind*: objects, pipelines, descriptor pools and sets, command
// buffers, memory binds) first passes faultPoint(); one that can report a lost device
// (vkQueueSubmit*, vkWaitForFences, vkDeviceWaitIdle, vkQueueWaitIdle, vkGetQueryPoolResults)
// first passes lossPoint(). Calls whose results are examined by hand do the same explicitly:
// the sub-allocator's vkAllocateMemory and vkCreateDevice (faultPoint), the viewer's
// vkAcquireNextImageKHR and vkQueuePresentKHR (lossPoint).
// Normally a point only counts. For tests they fail as the driver would:
//   THRONG_FAIL_ALLOCATION=N  (environment, read at the first point) or setFailAllocation(N):
//       the Nth fault point returns VK_ERROR_OUT_OF_DEVICE_MEMORY, once (the ones after succeed)
//   THRONG_LOSE_DEVICE_AT=N   (environment) or setLoseDeviceAt(N):
//       the Nth loss point and every one after it return VK_ERROR_DEVICE_LOST (a lost device stays lost)
// N = 0 (or unset) injects nothing; the value "count" injects nothing and prints
// "throng: fault points: F allocation, L device loss" on stderr at exit (tests count first,
// then fail each point in turn). The set functions also restart both counts; faultPoints() and
// lossPoints() say how many points have been passed since. Thread-safe; process-wide.
enum class FaultKind { None, Allocation, DeviceLoss };

constexpr FaultKind faultKindOf(std::string_view call) {
    for (std::string_view p : {"vkCreate", "vkAllocate", "vkBind"})
        if (call.starts_with(p)) return FaultKind::Allocation;
    for (std::string_view p :
         {"vkQueueSubmit", "vkWaitForFences", "vkDeviceWaitIdle", "vkQueueWaitIdle", "vkGetQueryPoolResults"})
        if (call.starts_with(p)) return FaultKind::DeviceLoss;
    return FaultKind::None;
}

VkResult faultPoint();
VkResult lossPoint();
void setFailAllocation(uint64_t n);
void setLoseDeviceAt(uint64_t n);
uint64_t faultPoints();
uint64_t lossPoints();

inline VkResult injectedFault(FaultKind kind) {
    return kind == FaultKind::Allocation ? faultPoint() : kind == FaultKind::DeviceLoss ? lossPoint() : VK_SUCCESS;
}

} // namespace throng::gpu

#define VK_CHECK(call)                                                                                                 \
    do {                                                                                                               \
        constexpr ::throng::gpu::FaultKind vk_check_kind_ = ::throng::gpu::faultKindOf(#call);                         \
        VkResult vk_check_result_ = ::throng::gpu::injectedFault(vk_check_kind_);                                      \
        if (vk_check_result_ == VK_SUCCESS) vk_check_result_ = (call);                                                 \
        if (vk_check_result_ < 0) ::throng::gpu::throwVkError(vk_check_result_, #call, __FILE__, __LINE__);            \
    } while (0)
