// The window's swapchain with what drawing into it needs: an image view and a framebuffer per
// image, a depth image, the classic render pass the overlay (Dear ImGui 1.86) draws in, and a
// "rendering done" semaphore per image. Recreated whole on resize or present-mode change.
//
// Images are created with TRANSFER_SRC where the surface allows it, for screenshots
// (Swapchain::can_copy).
#pragma once

#include "../gpu/memory.h"
#include "../gpu/resources.h"

#include <string>
#include <vector>

namespace throng::view {

struct Swapchain {
    VkSwapchainKHR swapchain = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{0, 0};
    VkPresentModeKHR present_mode = VK_PRESENT_MODE_FIFO_KHR;
    bool can_copy = false;
    bool can_blit = false; // TRANSFER_DST usage: temporal anti-aliasing blits its picture into the images
    std::vector<VkImage> images;
    std::vector<VkImageView> views;
    std::vector<VkFramebuffer> framebuffers;    // overlay pass, one per image
    std::vector<VkSemaphore> rendered;          // signalled by the frame's submit, waited by present
    VkRenderPass overlay_pass = VK_NULL_HANDLE; // loads the crowd's colour, ends in PRESENT_SRC
    gpu::Image depth;
};

constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

// The present mode to use: `wanted` when the surface offers it; mailbox falls back to
// immediate, then FIFO (always available).
VkPresentModeKHR choosePresentMode(const gpu::Context& context, VkPresentModeKHR wanted);

// The present mode a name asks for (`fifo`, `mailbox`, `immediate`; anything else: FIFO), and the
// name of one.
VkPresentModeKHR presentMode(const std::string& name);
const char* presentName(VkPresentModeKHR mode);

// Creates (or, given `old`, recreates and destroys `old`) the swapchain at `width` x `height`
// (clamped to what the surface allows). Returns false when the window has no area (minimised):
// draw nothing, try again later.
bool createSwapchain(gpu::Allocator& allocator, uint32_t width, uint32_t height, VkPresentModeKHR mode,
                     Swapchain& swapchain);
void destroySwapchain(gpu::Allocator& allocator, Swapchain& swapchain);

} // namespace throng::view
