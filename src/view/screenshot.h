// Screenshots: a copy of a frame's final image (crowd and overlay) recorded at the end of the frame,
// read back once the frame's fence has signalled, and written as a PNG atomically. Plain data and
// free functions; the viewer asks for one with the `screenshot FILE.png` command.
#pragma once

#include "../gpu/resources.h"

#include <cstdint>
#include <string>
#include <vector>

namespace throng::view {

struct Screenshot {
    std::string path;   // asked for and not yet written; empty: none
    gpu::Buffer buffer; // readback, grown to the largest image copied so far
    VkExtent2D extent{};
    VkFormat format = VK_FORMAT_UNDEFINED;
};

// Formats a screenshot can read: 4 bytes per pixel, RGBA or BGRA, 8 bits each.
bool copyableFormat(VkFormat format);

// Records the copy of `image` (in `layout`, and left in it; created with TRANSFER_SRC usage, of
// `extent` and a copyableFormat() `format`) into the shot's buffer, made visible to the host.
void recordCopy(gpu::Allocator& allocator, Screenshot& shot, VkCommandBuffer cmd, VkImage image, VkImageLayout layout,
                VkExtent2D extent, VkFormat format);

// The copied image as RGBA, top row first, alpha 255. Contract: the copy's submission has finished.
std::vector<uint8_t> readPixels(const Screenshot& shot);

// Writes the copied image to shot.path (gpu::writePng: atomically) and forgets the path.
// Contract: as readPixels().
struct Saved {
    bool ok = false;
    std::string line; // to log: "screenshot: PATH (WxH)", or "error: screenshot PATH: why"
};
Saved saveScreenshot(Screenshot& shot);

void destroyScreenshot(gpu::Allocator& allocator, Screenshot& shot);

} // namespace throng::view
