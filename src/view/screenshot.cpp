// Screenshots; see screenshot.h.
#include "screenshot.h"

#include "../gpu/png.h"

namespace throng::view {

namespace {

bool isBgra(VkFormat f) { return f == VK_FORMAT_B8G8R8A8_SRGB || f == VK_FORMAT_B8G8R8A8_UNORM; }

} // namespace

bool copyableFormat(VkFormat f) { return isBgra(f) || f == VK_FORMAT_R8G8B8A8_SRGB || f == VK_FORMAT_R8G8B8A8_UNORM; }

void recordCopy(gpu::Allocator& allocator, Screenshot& shot, VkCommandBuffer cmd, VkImage image, VkImageLayout layout,
                VkExtent2D extent, VkFormat format) {
    const VkDeviceSize bytes = VkDeviceSize(extent.width) * extent.height * 4;
    if (shot.buffer.size < bytes) {
        gpu::destroyBuffer(allocator, shot.buffer);
        shot.buffer = gpu::createBuffer(allocator, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Readback);
    }
    gpu::transitionImage(cmd, image, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {extent.width, extent.height, 1};
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, shot.buffer.buffer, 1, &region);
    gpu::transitionImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, layout);
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                       VK_ACCESS_2_HOST_READ_BIT);
    shot.extent = extent;
    shot.format = format;
}

std::vector<uint8_t> readPixels(const Screenshot& shot) {
    const size_t pixels = size_t(shot.extent.width) * shot.extent.height;
    std::vector<uint8_t> rgba(pixels * 4);
    const uint8_t* src = static_cast<const uint8_t*>(shot.buffer.mapped());
    const bool bgra = isBgra(shot.format);
    for (size_t i = 0; i < pixels; ++i) {
        rgba[4 * i + 0] = src[4 * i + (bgra ? 2 : 0)];
        rgba[4 * i + 1] = src[4 * i + 1];
        rgba[4 * i + 2] = src[4 * i + (bgra ? 0 : 2)];
        rgba[4 * i + 3] = 255;
    }
    return rgba;
}

Saved saveScreenshot(Screenshot& shot) {
    const std::vector<uint8_t> rgba = readPixels(shot);
    const std::string path = shot.path;
    shot.path.clear();
    if (Status s = gpu::writePng(path, rgba, shot.extent.width, shot.extent.height); !s)
        return {false, "error: screenshot " + path + ": " + s.message};
    return {true, "screenshot: " + path + " (" + std::to_string(shot.extent.width) + "x" +
                      std::to_string(shot.extent.height) + ")"};
}

void destroyScreenshot(gpu::Allocator& allocator, Screenshot& shot) { gpu::destroyBuffer(allocator, shot.buffer); }

} // namespace throng::view
