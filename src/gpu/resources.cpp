// Buffers, images, staging uploads and readback.
#include "resources.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstring>
#include <vector>

namespace throng::gpu {

namespace {

// Records and submits a copy from or into `staging`, waits, and frees `staging` — also when
// the submission fails.
template <class Record> void withStaging(Allocator& a, Buffer& staging, Record&& record) {
    try {
        submitAndWait(*a.context, record);
    } catch (...) {
        destroyBuffer(a, staging);
        throw;
    }
    destroyBuffer(a, staging);
}

} // namespace

Buffer createBuffer(Allocator& a, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use) {
    const Context& ctx = *a.context;
    Buffer b;
    b.size = size;
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = usage;
    bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VK_CHECK(vkCreateBuffer(ctx.device, &bci, gpu::hostCallbacks(ctx.device), &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ctx.device, b.buffer, &req);
    VkMemoryPropertyFlags required = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, preferred = 0;
    if (use == MemoryUse::Upload) {
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT; // BAR / unified memory when there is some
    } else if (use == MemoryUse::Readback) {
        required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    }
    try {
        b.memory = allocate(a, req, required, preferred);
        VK_CHECK(vkBindBufferMemory(ctx.device, b.buffer, b.memory.memory, b.memory.offset));
    } catch (...) {
        destroyBuffer(a, b); // nothing half-made survives a failure
        throw;
    }
    return b;
}

void destroyBuffer(Allocator& a, Buffer& b) {
    if (b.buffer != VK_NULL_HANDLE) vkDestroyBuffer(a.context->device, b.buffer, gpu::hostCallbacks(a.context->device));
    release(a, b.memory);
    b = Buffer{};
}

void uploadBuffer(Allocator& a, const Buffer& target, const void* data, VkDeviceSize size, VkDeviceSize offset) {
    if (size == 0) return;
    if (target.mapped() != nullptr) {
        std::memcpy(static_cast<char*>(target.mapped()) + offset, data, size);
        return;
    }
    Buffer staging = createBuffer(a, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload);
    std::memcpy(staging.mapped(), data, size);
    withStaging(a, staging, [&](VkCommandBuffer cmd) {
        const VkBufferCopy region{0, offset, size};
        vkCmdCopyBuffer(cmd, staging.buffer, target.buffer, 1, &region);
    });
}

void downloadBuffer(Allocator& a, const Buffer& source, void* data, VkDeviceSize size, VkDeviceSize offset) {
    if (size == 0) return;
    Buffer staging = createBuffer(a, size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback);
    try {
        submitAndWait(*a.context, [&](VkCommandBuffer cmd) {
            const VkBufferCopy region{offset, 0, size};
            vkCmdCopyBuffer(cmd, source.buffer, staging.buffer, 1, &region);
            memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        });
        std::memcpy(data, staging.mapped(), size);
    } catch (...) {
        destroyBuffer(a, staging);
        throw;
    }
    destroyBuffer(a, staging);
}

namespace {

// createImage and createImageWithStorageView: `storage_format` set makes the image mutable with
// extended usage, restricts `view` to the usages its format allows and adds the storage view.
Image makeImage(Allocator& a, VkFormat format, uint32_t width, uint32_t height, uint32_t layers,
                VkImageUsageFlags usage, VkImageAspectFlags aspect, VkImageViewType view_type, uint32_t mips,
                VkFormat storage_format) {
    const Context& ctx = *a.context;
    const bool storable = storage_format != VK_FORMAT_UNDEFINED;
    Image img;
    img.format = format;
    img.extent = {width, height, 1};
    img.layers = layers;
    img.mips = mips;
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.flags = storable ? VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT : 0u;
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format;
    ici.extent = img.extent;
    ici.mipLevels = mips;
    ici.arrayLayers = layers;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = storable ? usage | VK_IMAGE_USAGE_STORAGE_BIT : usage;
    ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VK_CHECK(vkCreateImage(ctx.device, &ici, gpu::hostCallbacks(ctx.device), &img.image));
    // Memory of its own where the driver prefers it (NVIDIA's, for render targets).
    VkMemoryDedicatedRequirements own{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS};
    VkMemoryRequirements2 req2{VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, &own};
    VkImageMemoryRequirementsInfo2 info{VK_STRUCTURE_TYPE_IMAGE_MEMORY_REQUIREMENTS_INFO_2};
    info.image = img.image;
    vkGetImageMemoryRequirements2(ctx.device, &info, &req2);
    const VkMemoryRequirements& req = req2.memoryRequirements;
    const bool dedicated = own.prefersDedicatedAllocation || own.requiresDedicatedAllocation;
    try {
        img.memory = allocate(a, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, dedicated ? img.image : VK_NULL_HANDLE);
        VK_CHECK(vkBindImageMemory(ctx.device, img.image, img.memory.memory, img.memory.offset));
        VkImageViewUsageCreateInfo own_usage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
        own_usage.usage = usage & ~VkImageUsageFlags(VK_IMAGE_USAGE_STORAGE_BIT);
        VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vci.pNext = storable ? &own_usage : nullptr;
        vci.image = img.image;
        vci.viewType = view_type;
        vci.format = format;
        vci.subresourceRange = {aspect, 0, mips, 0, layers};
        VK_CHECK(vkCreateImageView(ctx.device, &vci, gpu::hostCallbacks(ctx.device), &img.view));
        if (storable) {
            VkImageViewUsageCreateInfo storage_usage{VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO};
            storage_usage.usage = VK_IMAGE_USAGE_STORAGE_BIT;
            vci.pNext = &storage_usage;
            vci.format = storage_format;
            VK_CHECK(vkCreateImageView(ctx.device, &vci, gpu::hostCallbacks(ctx.device), &img.storage_view));
        }
    } catch (...) {
        destroyImage(a, img); // nothing half-made survives a failure
        throw;
    }
    return img;
}

} // namespace

Image createImage(Allocator& a, VkFormat format, uint32_t width, uint32_t height, uint32_t layers,
                  VkImageUsageFlags usage, VkImageAspectFlags aspect, VkImageViewType view_type, uint32_t mips) {
    return makeImage(a, format, width, height, layers, usage, aspect, view_type, mips, VK_FORMAT_UNDEFINED);
}

Image createImageWithStorageView(Allocator& a, VkFormat format, VkFormat storage_format, uint32_t width,
                                 uint32_t height, VkImageUsageFlags usage) {
    return makeImage(a, format, width, height, 1, usage, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_VIEW_TYPE_2D, 1,
                     storage_format);
}

void destroyImage(Allocator& a, Image& img) {
    if (img.storage_view != VK_NULL_HANDLE)
        vkDestroyImageView(a.context->device, img.storage_view, gpu::hostCallbacks(a.context->device));
    if (img.view != VK_NULL_HANDLE)
        vkDestroyImageView(a.context->device, img.view, gpu::hostCallbacks(a.context->device));
    if (img.image != VK_NULL_HANDLE)
        vkDestroyImage(a.context->device, img.image, gpu::hostCallbacks(a.context->device));
    release(a, img.memory);
    img = Image{};
}

void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                   VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access) {
    VkMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    barrier.srcStageMask = src_stage;
    barrier.srcAccessMask = src_access;
    barrier.dstStageMask = dst_stage;
    barrier.dstAccessMask = dst_access;
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.memoryBarrierCount = 1;
    dep.pMemoryBarriers = &barrier;
    vkCmdPipelineBarrier2(cmd, &dep);
}

void transitionImage(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
                     VkImageAspectFlags aspect, uint32_t layers) {
    const ImageTransition t{image, from, to, aspect, layers};
    transitionImages(cmd, std::span(&t, 1));
}

void transitionImages(VkCommandBuffer cmd, std::span<const ImageTransition> transitions) {
    if (transitions.empty()) return;
    std::array<VkImageMemoryBarrier2, kMaxImageTransitions> barriers{};
    assert(transitions.size() <= barriers.size());
    uint32_t count = 0;
    for (const ImageTransition& t : transitions) {
        VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
        b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        b.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
        b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
        b.oldLayout = t.from;
        b.newLayout = t.to;
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.image = t.image;
        b.subresourceRange = {t.aspect, 0, VK_REMAINING_MIP_LEVELS, 0, t.layers};
        barriers[count++] = b;
    }
    VkDependencyInfo dep{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dep.imageMemoryBarrierCount = count;
    dep.pImageMemoryBarriers = barriers.data();
    vkCmdPipelineBarrier2(cmd, &dep);
}

void uploadImage(Allocator& a, const Image& img, const void* data, VkDeviceSize bytes) {
    Buffer staging = createBuffer(a, bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload);
    std::memcpy(staging.mapped(), data, bytes);
    withStaging(a, staging, [&](VkCommandBuffer cmd) {
        transitionImage(cmd, img.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                        VK_IMAGE_ASPECT_COLOR_BIT, img.layers);
        // Level l is max(1, extent >> l) texels a side, tightly after level l - 1.
        uint64_t texels = 0;
        for (uint32_t l = 0; l < img.mips; ++l)
            texels += uint64_t(std::max(img.extent.width >> l, 1u)) * std::max(img.extent.height >> l, 1u) * img.layers;
        const VkDeviceSize texel_bytes = bytes / texels;
        assert(texel_bytes * texels == bytes);
        std::vector<VkBufferImageCopy> regions(img.mips);
        VkDeviceSize offset = 0;
        for (uint32_t l = 0; l < img.mips; ++l) {
            VkBufferImageCopy& region = regions[l];
            region.bufferOffset = offset;
            region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, img.layers};
            region.imageExtent = {std::max(img.extent.width >> l, 1u), std::max(img.extent.height >> l, 1u), 1};
            offset += texel_bytes * region.imageExtent.width * region.imageExtent.height * img.layers;
        }
        vkCmdCopyBufferToImage(cmd, staging.buffer, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                               uint32_t(regions.size()), regions.data());
        transitionImage(cmd, img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                        VK_IMAGE_ASPECT_COLOR_BIT, img.layers);
    });
}

} // namespace throng::gpu
