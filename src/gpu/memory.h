// A small GPU memory sub-allocator (Debian has no VMA).
//
// Memory is taken from the driver in blocks (64 MiB, or the allocation's size rounded up when
// larger) per memory type; allocations are carved out first-fit with their alignment and given
// back to a per-block free list that merges neighbours. Host-visible blocks stay mapped for
// their whole life, so Allocation::mapped is always valid for them. 64 MiB blocks are kept until
// destroyAllocator; a block made for one larger allocation is freed as soon as it is empty.
// Before asking the driver for a block, the heap's size is checked (some drivers accept more
// host-visible memory than exists): a full heap falls back to another type with the required
// properties, and past that allocate() throws a one-line "out of GPU memory". Not thread-safe.
#pragma once

#include "context.h"

#include <vector>

namespace throng::gpu {

struct Allocation {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
    void* mapped = nullptr; // host-visible memory only
    uint32_t type = 0;
    uint32_t block = 0;
};

struct MemoryBlock {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize size = 0;
    uint32_t type = 0;
    void* mapped = nullptr;
    bool dedicated = false; // made for one image (allocate's `dedicated`): shared with nothing
    struct Range {
        VkDeviceSize offset, size;
    };
    std::vector<Range> free; // sorted by offset, never adjacent
};

struct Allocator;
void destroyAllocator(Allocator& allocator);

constexpr VkDeviceSize kDefaultBlockSize = 64ull << 20; // the least a block takes from the driver

// Owns the memory blocks it took; destroyAllocator() (or its destructor) gives them back. Every
// buffer and image from it must be gone first, and its context must outlive it.
struct Allocator {
    const Context* context = nullptr;
    std::vector<MemoryBlock> blocks;
    VkDeviceSize block_size = kDefaultBlockSize;
    VkDeviceSize in_use = 0;                 // bytes handed out
    VkDeviceSize reserved = 0;               // bytes taken from the driver
    VkDeviceSize peak_reserved = 0;          // the most `reserved` has been (large blocks go back when empty)
    std::vector<VkDeviceSize> heap_reserved; // the same per memory heap

    Allocator() = default;
    Allocator(const Allocator&) = delete;
    Allocator& operator=(const Allocator&) = delete;
    ~Allocator() { destroyAllocator(*this); } // when it was not called before
};

void createAllocator(Allocator& allocator, const Context& context);
void destroyAllocator(Allocator& allocator);

// Memory type with all `required` flags among `type_bits`, preferring `preferred` too; throws
// GpuError when none exists.
uint32_t findMemoryType(const Context& context, uint32_t type_bits, VkMemoryPropertyFlags required,
                        VkMemoryPropertyFlags preferred = 0);

// The size of the largest heap with a memory type that has all `required` flags (0 when none):
// what allocate() can reach for such memory, after falling back from a preferred type.
VkDeviceSize largestHeap(const Context& context, VkMemoryPropertyFlags required);

// Throws GpuError when every suitable heap is full or the driver refuses a new block.
// `dedicated`: an image whose driver prefers or requires memory of its own
// (VkMemoryDedicatedRequirements, which createImage asks): it gets a block of exactly its size,
// allocated for it (VkMemoryDedicatedAllocateInfo) and freed when it is released. NVIDIA's
// drivers prefer it for render targets (measured on an H100, it did not change what clearing
// them costs: docs/BENCHMARKS.md, "In motion on an H100, fifth session").
Allocation allocate(Allocator& allocator, const VkMemoryRequirements& requirements, VkMemoryPropertyFlags required,
                    VkMemoryPropertyFlags preferred = 0, VkImage dedicated = VK_NULL_HANDLE);
void release(Allocator& allocator, Allocation& allocation);

} // namespace throng::gpu
