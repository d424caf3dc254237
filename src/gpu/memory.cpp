// First-fit sub-allocation from per-type blocks; see memory.h for the policy.
#include "memory.h"

#include <cstdio>

#include <algorithm>

namespace throng::gpu {

void createAllocator(Allocator& a, const Context& context) {
    destroyAllocator(a); // whatever it held before
    a.block_size = kDefaultBlockSize;
    a.peak_reserved = 0;
    a.context = &context;
}

void destroyAllocator(Allocator& a) {
    for (MemoryBlock& b : a.blocks) {
        if (b.memory == VK_NULL_HANDLE) continue;
        if (b.mapped != nullptr) vkUnmapMemory(a.context->device, b.memory);
        vkFreeMemory(a.context->device, b.memory, gpu::hostCallbacks(a.context->device));
    }
    a.blocks.clear();
    a.heap_reserved.clear();
    a.in_use = a.reserved = 0;
}

uint32_t findMemoryType(const Context& ctx, uint32_t type_bits, VkMemoryPropertyFlags required,
                        VkMemoryPropertyFlags preferred) {
    for (int pass = 0; pass < 2; ++pass) {
        const VkMemoryPropertyFlags want = pass == 0 ? (required | preferred) : required;
        for (uint32_t i = 0; i < ctx.memory.memoryTypeCount; ++i)
            if ((type_bits & (1u << i)) && (ctx.memory.memoryTypes[i].propertyFlags & want) == want) return i;
    }
    throw GpuError("Vulkan: no memory type with the required properties", ErrorKind::Unsupported);
}

namespace {

VkDeviceSize alignUp(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }

// Carves `size` at `alignment` out of block b; returns false when no range fits.
bool carve(MemoryBlock& b, VkDeviceSize size, VkDeviceSize alignment, VkDeviceSize& offset) {
    for (size_t i = 0; i < b.free.size(); ++i) {
        MemoryBlock::Range r = b.free[i];
        const VkDeviceSize start = alignUp(r.offset, alignment);
        if (start + size > r.offset + r.size) continue;
        offset = start;
        const MemoryBlock::Range before{r.offset, start - r.offset};
        const MemoryBlock::Range after{start + size, r.offset + r.size - (start + size)};
        b.free.erase(b.free.begin() + std::ptrdiff_t(i));
        if (after.size > 0) b.free.insert(b.free.begin() + std::ptrdiff_t(i), after);
        if (before.size > 0) b.free.insert(b.free.begin() + std::ptrdiff_t(i), before);
        return true;
    }
    return false;
}

} // namespace

namespace {

// Sub-allocates from an existing block of `type`, or from a new one when its heap has room;
// false when the heap is full or the driver is out of memory (nothing allocated; `refused`
// holds the driver's answer then). Throws GpuError on other driver errors.
// `dedicated`: a block of the image's own (allocate()).
bool allocateFrom(Allocator& a, uint32_t type, const VkMemoryRequirements& req, Allocation& out, VkResult& refused,
                  VkImage dedicated) {
    const Context& ctx = *a.context;
    // bufferImageGranularity: keep buffers and images apart by aligning everything to it.
    const VkDeviceSize alignment = std::max(req.alignment, ctx.properties.limits.bufferImageGranularity);
    out = Allocation{};
    out.type = type;
    out.size = req.size;
    for (uint32_t i = 0; i < a.blocks.size() && dedicated == VK_NULL_HANDLE; ++i) {
        MemoryBlock& b = a.blocks[i];
        if (b.type != type || b.memory == VK_NULL_HANDLE || b.dedicated) continue;
        if (carve(b, req.size, alignment, out.offset)) {
            out.memory = b.memory;
            out.block = i;
            out.mapped = b.mapped != nullptr ? static_cast<char*>(b.mapped) + out.offset : nullptr;
            a.in_use += req.size;
            return true;
        }
    }
    MemoryBlock b;
    b.type = type;
    b.dedicated = dedicated != VK_NULL_HANDLE;
    b.size = b.dedicated ? req.size : std::max(a.block_size, alignUp(req.size, 1ull << 20));
    // Refuse what the heap cannot hold before asking the driver: some drivers accept huge
    // host-visible allocations and let the system run out of memory later.
    const uint32_t heap = ctx.memory.memoryTypes[type].heapIndex;
    a.heap_reserved.resize(ctx.memory.memoryHeapCount, 0);
    if (a.heap_reserved[heap] + b.size > ctx.memory.memoryHeaps[heap].size) return false;
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = b.size;
    ai.memoryTypeIndex = type;
    VkMemoryDedicatedAllocateInfo own{VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO};
    own.image = dedicated;
    if (b.dedicated) ai.pNext = &own;
    // Out of memory in this heap (other users, driver reserves): let the caller try another type.
    VkResult result = faultPoint();
    if (result == VK_SUCCESS) result = vkAllocateMemory(ctx.device, &ai, gpu::hostCallbacks(ctx.device), &b.memory);
    if (result == VK_ERROR_OUT_OF_DEVICE_MEMORY || result == VK_ERROR_OUT_OF_HOST_MEMORY) {
        refused = result;
        return false;
    }
    VK_CHECK(result);
    if (ctx.memory.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        if (VkResult r = vkMapMemory(ctx.device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped); r != VK_SUCCESS) {
            vkFreeMemory(ctx.device, b.memory, gpu::hostCallbacks(ctx.device));
            throwVkError(r, "vkMapMemory", __FILE__, __LINE__);
        }
    }
    b.free.push_back({0, b.size});
    carve(b, req.size, alignment, out.offset);
    a.reserved += b.size;
    a.peak_reserved = std::max(a.peak_reserved, a.reserved);
    a.heap_reserved[heap] += b.size;
    a.in_use += req.size;
    out.memory = b.memory;
    out.mapped = b.mapped != nullptr ? static_cast<char*>(b.mapped) + out.offset : nullptr;
    // Reuse a slot a freed block left, so Allocation::block stays valid for everyone else.
    for (uint32_t i = 0; i < a.blocks.size(); ++i)
        if (a.blocks[i].memory == VK_NULL_HANDLE) {
            out.block = i;
            a.blocks[i] = std::move(b);
            return true;
        }
    out.block = uint32_t(a.blocks.size());
    a.blocks.push_back(std::move(b));
    return true;
}

} // namespace

VkDeviceSize largestHeap(const Context& ctx, VkMemoryPropertyFlags required) {
    VkDeviceSize largest = 0;
    for (uint32_t i = 0; i < ctx.memory.memoryTypeCount; ++i)
        if ((ctx.memory.memoryTypes[i].propertyFlags & required) == required)
            largest = std::max(largest, ctx.memory.memoryHeaps[ctx.memory.memoryTypes[i].heapIndex].size);
    return largest;
}

Allocation allocate(Allocator& a, const VkMemoryRequirements& req, VkMemoryPropertyFlags required,
                    VkMemoryPropertyFlags preferred, VkImage dedicated) {
    const Context& ctx = *a.context;
    // The preferred type first (e.g. device-local host-visible memory, often a 256 MiB BAR
    // heap); when its heap is full, any type with the required properties.
    const uint32_t first = findMemoryType(ctx, req.memoryTypeBits, required, preferred);
    const uint32_t second = findMemoryType(ctx, req.memoryTypeBits, required);
    Allocation out;
    VkResult refused = VK_SUCCESS; // the driver's answer when it, not our heap check, said no
    if (allocateFrom(a, first, req, out, refused, dedicated) ||
        (second != first && allocateFrom(a, second, req, out, refused, dedicated)))
        return out;
    const uint32_t heap = ctx.memory.memoryTypes[second].heapIndex;
    const double heap_gb = double(ctx.memory.memoryHeaps[heap].size) * 1e-9;
    const double used_gb = double(a.heap_reserved.empty() ? 0 : a.heap_reserved[heap]) * 1e-9;
    char text[256];
    if (refused != VK_SUCCESS)
        std::snprintf(
            text, sizeof text,
            "out of %s memory: vkAllocateMemory of %.2f GB failed with %s (memory heap %u: %.2f GB, %.2f GB already in "
            "use)",
            refused == VK_ERROR_OUT_OF_HOST_MEMORY ? "host" : "GPU", double(std::max(a.block_size, req.size)) * 1e-9,
            refused == VK_ERROR_OUT_OF_HOST_MEMORY ? "VK_ERROR_OUT_OF_HOST_MEMORY" : "VK_ERROR_OUT_OF_DEVICE_MEMORY",
            heap, heap_gb, used_gb);
    else
        std::snprintf(text, sizeof text,
                      "out of GPU memory: %.2f GB more does not fit memory heap %u (%.2f GB, %.2f GB already in use)",
                      double(req.size) * 1e-9, heap, heap_gb, used_gb);
    throw GpuError(text,
                   refused == VK_ERROR_OUT_OF_HOST_MEMORY ? ErrorKind::OutOfHostMemory : ErrorKind::OutOfDeviceMemory);
}

void release(Allocator& a, Allocation& alloc) {
    if (alloc.memory == VK_NULL_HANDLE) return;
    MemoryBlock& b = a.blocks[alloc.block];
    MemoryBlock::Range r{alloc.offset, alloc.size};
    auto it = std::lower_bound(b.free.begin(), b.free.end(), r.offset,
                               [](const MemoryBlock::Range& x, VkDeviceSize o) { return x.offset < o; });
    it = b.free.insert(it, r);
    // Merge with the next, then the previous range.
    if (it + 1 != b.free.end() && it->offset + it->size == (it + 1)->offset) {
        it->size += (it + 1)->size;
        b.free.erase(it + 1);
    }
    if (it != b.free.begin() && (it - 1)->offset + (it - 1)->size == it->offset) {
        (it - 1)->size += it->size;
        b.free.erase(it);
    }
    a.in_use -= alloc.size;
    alloc = Allocation{};
    // A block made for one large allocation (or one image's own) goes back to the driver once it
    // is wholly free, so large buffers of changing sizes (a viewer changing the crowd) do not pile up.
    if ((b.size > a.block_size || b.dedicated) && b.free.size() == 1 && b.free[0].size == b.size) {
        if (b.mapped != nullptr) vkUnmapMemory(a.context->device, b.memory);
        vkFreeMemory(a.context->device, b.memory, gpu::hostCallbacks(a.context->device));
        a.reserved -= b.size;
        a.heap_reserved[a.context->memory.memoryTypes[b.type].heapIndex] -= b.size;
        b = MemoryBlock{};
    }
}

} // namespace throng::gpu
