// The steps of one frame; see frame_loop.h.
#include "frame_loop.h"

#include <algorithm>

namespace throng::view {

void createFrameSlots(const gpu::Context& ctx, FrameSlots& slots) {
    for (FrameSlot& f : slots) {
        static_cast<gpu::FrameSlot&>(f) = gpu::createFrameSlot(ctx, kTimestamps);
        VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VK_CHECK(vkCreateSemaphore(ctx.device, &sci, nullptr, &f.acquired));
    }
}

void destroyFrameSlots(const gpu::Context& ctx, FrameSlots& slots) {
    for (FrameSlot& f : slots) {
        if (f.acquired != VK_NULL_HANDLE) vkDestroySemaphore(ctx.device, f.acquired, nullptr);
        gpu::destroyFrameSlot(ctx, f);
        f = FrameSlot{};
    }
}

void forgetTimestamps(FrameSlots& slots) {
    for (FrameSlot& f : slots) f.pending = false;
}

std::vector<GpuPassTime> waitForSlot(const gpu::Context& ctx, FrameSlot& f) {
    VK_CHECK(vkWaitForFences(ctx.device, 1, &f.fence, VK_TRUE, UINT64_MAX));
    if (!f.pending || f.queries == VK_NULL_HANDLE) return {}; // no queries: the device has no timestamps
    const uint32_t count = std::min(uint32_t(f.timed.size()) + 1, kTimestamps); // the timestamps written
    std::array<uint64_t, kTimestamps> t{};
    VK_CHECK(vkGetQueryPoolResults(ctx.device, f.queries, 0, count, count * sizeof(uint64_t), t.data(),
                                   sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    f.pending = false;
    return gpuPassTimes(std::span(t.data(), count), f.timed, double(ctx.properties.limits.timestampPeriod) * 1e-6);
}

bool acquireImage(const gpu::Context& ctx, const Swapchain& swapchain, FrameSlot& f, uint32_t& image, bool& resize) {
    VkResult acquired = gpu::lossPoint();
    if (acquired == VK_SUCCESS)
        acquired =
            vkAcquireNextImageKHR(ctx.device, swapchain.swapchain, UINT64_MAX, f.acquired, VK_NULL_HANDLE, &image);
    if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
        resize = true;
        return false;
    }
    if (acquired == VK_SUBOPTIMAL_KHR)
        resize = true;
    else if (acquired < 0)
        gpu::throwVkError(acquired, "vkAcquireNextImageKHR", __FILE__, __LINE__);
    return true;
}

void beginFrame(const gpu::Context& ctx, FrameSlot& f) {
    gpu::beginFrame(ctx, f, kTimestamps);
    f.timed.clear();
}

void endPass(VkCommandBuffer cmd, FrameSlot& f, const char* name) {
    f.timed.emplace_back(name);
    gpu::writeTimestamp(cmd, f, uint32_t(f.timed.size()));
}

std::vector<GpuPassTime> withCrowdPasses(std::vector<GpuPassTime> frame, const render::FrameSample& sample) {
    if (sample.gpu_pass_ms.empty()) return frame;
    std::vector<GpuPassTime> out;
    for (GpuPassTime& pass : frame) {
        if (pass.name != "crowd") {
            out.push_back(std::move(pass));
            continue;
        }
        double start = pass.start_ms;
        for (size_t i = 0; i < sample.pass_names.size() && i < sample.gpu_pass_ms.size(); ++i) {
            out.push_back({sample.pass_names[i], start, sample.gpu_pass_ms[i]});
            start += sample.gpu_pass_ms[i];
        }
    }
    return out;
}

void submitFrame(const gpu::Context& ctx, FrameSlot& f, VkSemaphore wait, VkSemaphore signal) {
    VkSemaphoreSubmitInfo waits{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    waits.semaphore = wait;
    waits.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkSemaphoreSubmitInfo signals{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signals.semaphore = signal;
    signals.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cbi.commandBuffer = f.cmd;
    VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    si.waitSemaphoreInfoCount = wait != VK_NULL_HANDLE ? 1 : 0;
    si.pWaitSemaphoreInfos = &waits;
    si.commandBufferInfoCount = 1;
    si.pCommandBufferInfos = &cbi;
    si.signalSemaphoreInfoCount = signal != VK_NULL_HANDLE ? 1 : 0;
    si.pSignalSemaphoreInfos = &signals;
    VK_CHECK(vkQueueSubmit2(ctx.queue, 1, &si, f.fence));
    f.pending = true;
}

void present(const gpu::Context& ctx, const Swapchain& swapchain, uint32_t image, bool& resize) {
    VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    pi.waitSemaphoreCount = 1;
    pi.pWaitSemaphores = &swapchain.rendered[image];
    pi.swapchainCount = 1;
    pi.pSwapchains = &swapchain.swapchain;
    pi.pImageIndices = &image;
    VkResult presented = gpu::lossPoint();
    if (presented == VK_SUCCESS) presented = vkQueuePresentKHR(ctx.queue, &pi);
    if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR)
        resize = true;
    else if (presented < 0)
        gpu::throwVkError(presented, "vkQueuePresentKHR", __FILE__, __LINE__);
}

} // namespace throng::view
