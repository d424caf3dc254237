// Swapchain, per-image views, framebuffers and semaphores, depth, and the overlay render pass.
#include "swapchain.h"

#include <algorithm>

namespace throng::view {

namespace {

VkSurfaceFormatKHR chooseFormat(const gpu::Context& ctx) {
    uint32_t n = 0;
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical, ctx.surface, &n, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(n);
    VK_CHECK(vkGetPhysicalDeviceSurfaceFormatsKHR(ctx.physical, ctx.surface, &n, formats.data()));
    if (formats.empty()) throw gpu::GpuError("the window surface offers no image formats");
    // sRGB, as the headless renderer: the shaders write linear colour.
    for (VkFormat f : {VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_SRGB})
        for (const VkSurfaceFormatKHR& s : formats)
            if (s.format == f && s.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return s;
    return formats[0];
}

// The overlay draws over what the crowd pass left in the image and hands it to presentation.
VkRenderPass createOverlayPass(VkDevice device, VkFormat format) {
    VkAttachmentDescription color{};
    color.format = format;
    color.samples = VK_SAMPLE_COUNT_1_BIT;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    color.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.finalLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    VkAttachmentReference ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass{};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &ref;
    // In: after the crowd pass's colour writes. Out: before whatever follows (presentation,
    // or the screenshot copy's own barrier), so the final layout change is ordered too.
    VkSubpassDependency deps[2] = {};
    deps[0].srcSubpass = VK_SUBPASS_EXTERNAL;
    deps[0].dstSubpass = 0;
    deps[0].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    deps[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    deps[0].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    deps[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    deps[1].srcSubpass = 0;
    deps[1].dstSubpass = VK_SUBPASS_EXTERNAL;
    deps[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    deps[1].dstStageMask = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    deps[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    deps[1].dstAccessMask = VK_ACCESS_MEMORY_READ_BIT;
    VkRenderPassCreateInfo rci{VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    rci.attachmentCount = 1;
    rci.pAttachments = &color;
    rci.subpassCount = 1;
    rci.pSubpasses = &subpass;
    rci.dependencyCount = 2;
    rci.pDependencies = deps;
    VkRenderPass pass = VK_NULL_HANDLE;
    VK_CHECK(vkCreateRenderPass(device, &rci, nullptr, &pass));
    return pass;
}

void destroyPerImage(gpu::Allocator& a, Swapchain& s) {
    const VkDevice device = a.context->device;
    for (VkFramebuffer f : s.framebuffers) vkDestroyFramebuffer(device, f, nullptr);
    for (VkImageView v : s.views) vkDestroyImageView(device, v, nullptr);
    for (VkSemaphore m : s.rendered) vkDestroySemaphore(device, m, nullptr);
    s.framebuffers.clear();
    s.views.clear();
    s.rendered.clear();
    s.images.clear();
    gpu::destroyImage(a, s.depth);
}

} // namespace

VkPresentModeKHR presentMode(const std::string& name) {
    if (name == "mailbox") return VK_PRESENT_MODE_MAILBOX_KHR;
    if (name == "immediate") return VK_PRESENT_MODE_IMMEDIATE_KHR;
    return VK_PRESENT_MODE_FIFO_KHR;
}

const char* presentName(VkPresentModeKHR m) {
    switch (m) {
    case VK_PRESENT_MODE_MAILBOX_KHR: return "mailbox";
    case VK_PRESENT_MODE_IMMEDIATE_KHR: return "immediate";
    case VK_PRESENT_MODE_FIFO_RELAXED_KHR: return "fifo-relaxed";
    default: return "fifo";
    }
}

VkPresentModeKHR choosePresentMode(const gpu::Context& ctx, VkPresentModeKHR wanted) {
    uint32_t n = 0;
    VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physical, ctx.surface, &n, nullptr));
    std::vector<VkPresentModeKHR> modes(n);
    VK_CHECK(vkGetPhysicalDeviceSurfacePresentModesKHR(ctx.physical, ctx.surface, &n, modes.data()));
    auto has = [&](VkPresentModeKHR m) { return std::find(modes.begin(), modes.end(), m) != modes.end(); };
    if (has(wanted)) return wanted;
    if (wanted == VK_PRESENT_MODE_MAILBOX_KHR && has(VK_PRESENT_MODE_IMMEDIATE_KHR))
        return VK_PRESENT_MODE_IMMEDIATE_KHR;
    return VK_PRESENT_MODE_FIFO_KHR;
}

bool createSwapchain(gpu::Allocator& a, uint32_t width, uint32_t height, VkPresentModeKHR mode, Swapchain& s) {
    const gpu::Context& ctx = *a.context;
    VkSurfaceCapabilitiesKHR caps;
    VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(ctx.physical, ctx.surface, &caps));
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) { // the surface lets the swapchain decide
        extent.width = std::clamp(width, caps.minImageExtent.width, caps.maxImageExtent.width);
        extent.height = std::clamp(height, caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    const VkSwapchainKHR old = s.swapchain;
    destroyPerImage(a, s);
    if (extent.width == 0 || extent.height == 0) { // minimised
        if (old != VK_NULL_HANDLE) vkDestroySwapchainKHR(ctx.device, old, nullptr);
        s.swapchain = VK_NULL_HANDLE;
        return false;
    }
    const VkSurfaceFormatKHR format = chooseFormat(ctx);
    uint32_t images = std::max(caps.minImageCount + 1, 3u);
    if (caps.maxImageCount > 0) images = std::min(images, caps.maxImageCount);
    s.can_copy = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    s.can_blit = (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT) != 0;
    s.present_mode = choosePresentMode(ctx, mode);

    VkSwapchainCreateInfoKHR sci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    sci.surface = ctx.surface;
    sci.minImageCount = images;
    sci.imageFormat = format.format;
    sci.imageColorSpace = format.colorSpace;
    sci.imageExtent = extent;
    sci.imageArrayLayers = 1;
    sci.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | (s.can_copy ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0) |
                     (s.can_blit ? VK_IMAGE_USAGE_TRANSFER_DST_BIT : 0);
    sci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    sci.preTransform = caps.currentTransform;
    sci.compositeAlpha =
        (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
            ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
            : VkCompositeAlphaFlagBitsKHR(caps.supportedCompositeAlpha & -caps.supportedCompositeAlpha);
    sci.presentMode = s.present_mode;
    sci.clipped = VK_TRUE;
    sci.oldSwapchain = old;
    VkSwapchainKHR created = VK_NULL_HANDLE; // on failure `old` stays in `s`, for destroySwapchain
    VK_CHECK(vkCreateSwapchainKHR(ctx.device, &sci, nullptr, &created));
    s.swapchain = created;
    if (old != VK_NULL_HANDLE) vkDestroySwapchainKHR(ctx.device, old, nullptr);

    if (s.overlay_pass != VK_NULL_HANDLE && s.format != format.format) {
        vkDestroyRenderPass(ctx.device, s.overlay_pass, nullptr);
        s.overlay_pass = VK_NULL_HANDLE;
    }
    s.format = format.format;
    s.extent = extent;
    if (s.overlay_pass == VK_NULL_HANDLE) s.overlay_pass = createOverlayPass(ctx.device, s.format);

    uint32_t count = 0;
    VK_CHECK(vkGetSwapchainImagesKHR(ctx.device, s.swapchain, &count, nullptr));
    s.images.resize(count);
    VK_CHECK(vkGetSwapchainImagesKHR(ctx.device, s.swapchain, &count, s.images.data()));
    for (VkImage image : s.images) {
        VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vci.image = image;
        vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vci.format = s.format;
        vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageView view = VK_NULL_HANDLE;
        VK_CHECK(vkCreateImageView(ctx.device, &vci, nullptr, &view));
        s.views.push_back(view);
        VkFramebufferCreateInfo fci{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
        fci.renderPass = s.overlay_pass;
        fci.attachmentCount = 1;
        fci.pAttachments = &view;
        fci.width = extent.width;
        fci.height = extent.height;
        fci.layers = 1;
        VkFramebuffer framebuffer = VK_NULL_HANDLE;
        VK_CHECK(vkCreateFramebuffer(ctx.device, &fci, nullptr, &framebuffer));
        s.framebuffers.push_back(framebuffer);
        VkSemaphoreCreateInfo sem{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        VkSemaphore rendered = VK_NULL_HANDLE;
        VK_CHECK(vkCreateSemaphore(ctx.device, &sem, nullptr, &rendered));
        s.rendered.push_back(rendered);
    }
    // Sampled too where it can be: occlusion culling builds its depth pyramid from it, temporal
    // anti-aliasing reads it.
    s.depth = gpu::createImage(a, kDepthFormat, extent.width, extent.height, 1,
                               VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                   (ctx.depth_sampled ? VkImageUsageFlags(VK_IMAGE_USAGE_SAMPLED_BIT) : 0u),
                               VK_IMAGE_ASPECT_DEPTH_BIT);
    return true;
}

void destroySwapchain(gpu::Allocator& a, Swapchain& s) {
    destroyPerImage(a, s);
    if (s.swapchain != VK_NULL_HANDLE) vkDestroySwapchainKHR(a.context->device, s.swapchain, nullptr);
    if (s.overlay_pass != VK_NULL_HANDLE) vkDestroyRenderPass(a.context->device, s.overlay_pass, nullptr);
    s = Swapchain{};
}

} // namespace throng::view
