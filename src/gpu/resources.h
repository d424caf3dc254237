// Buffers and images: plain structs with create/destroy pairs, plus staging uploads and
// readback. Everything here waits for the GPU (one-time submissions): use it at load time and
// for readback, not in the frame loop.
#pragma once

#include "memory.h"

#include <span>

namespace throng::gpu {

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    Allocation memory;
    VkDeviceSize size = 0;
    void* mapped() const { return memory.mapped; }
};

enum class MemoryUse { Device, Upload, Readback }; // device-local / host-visible write / host-visible read

Buffer createBuffer(Allocator& allocator, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use);
void destroyBuffer(Allocator& allocator, Buffer& buffer);

// Copies bytes into a device-local buffer through a temporary staging buffer.
void uploadBuffer(Allocator& allocator, const Buffer& target, const void* data, VkDeviceSize size,
                  VkDeviceSize offset = 0);
// Copies a device buffer back to the host.
void downloadBuffer(Allocator& allocator, const Buffer& source, void* data, VkDeviceSize size, VkDeviceSize offset = 0);

struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkImageView storage_view = VK_NULL_HANDLE; // createImageWithStorageView only
    Allocation memory;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent3D extent{};
    uint32_t layers = 1;
    uint32_t mips = 1;
};

// A 2D image with `layers` layers and `mips` mip levels, and a view of all of them of `view_type`
// (2D, or 2D_ARRAY for shaders that read a sampler2DArray, whatever the layer count).
Image createImage(Allocator& allocator, VkFormat format, uint32_t width, uint32_t height, uint32_t layers,
                  VkImageUsageFlags usage, VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT,
                  VkImageViewType view_type = VK_IMAGE_VIEW_TYPE_2D, uint32_t mips = 1);
// The same (one layer, one mip, 2D) with a second view, `storage_view`, of `storage_format` (one
// of the same size whose format features include STORAGE_IMAGE: R8G8B8A8_UNORM for an
// R8G8B8A8_SRGB image, which shaders may not write) that a compute shader writes; `view` has
// every usage of `usage` but STORAGE.
Image createImageWithStorageView(Allocator& allocator, VkFormat format, VkFormat storage_format, uint32_t width,
                                 uint32_t height, VkImageUsageFlags usage);
void destroyImage(Allocator& allocator, Image& image);

// Uploads tightly packed texels for every layer of every mip level (level 0's layers first, then
// level 1's: max(1, side >> l) texels a side) and leaves the image in SHADER_READ_ONLY_OPTIMAL.
void uploadImage(Allocator& allocator, const Image& image, const void* data, VkDeviceSize bytes);

// A global memory barrier (synchronization2): `src` writes made visible to `dst` reads.
void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                   VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);

// Layout transition with synchronization2 (all commands, conservative: load time only).
void transitionImage(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                     VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT, uint32_t layers = 1);

// Several images' transitions (every mip) in one barrier, ordered as transitionImage orders one
// (it is this with one): one wait where a frame's pass moves several images.
struct ImageTransition {
    VkImage image = VK_NULL_HANDLE;
    VkImageLayout from = VK_IMAGE_LAYOUT_UNDEFINED, to = VK_IMAGE_LAYOUT_UNDEFINED;
    VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    uint32_t layers = 1;
};
constexpr size_t kMaxImageTransitions = 8; // in one transitionImages call
void transitionImages(VkCommandBuffer cmd, std::span<const ImageTransition> transitions);

} // namespace throng::gpu
