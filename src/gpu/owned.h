// Owners for Vulkan objects: move-only values that free what they hold when they go out of
// scope, so that a failure anywhere (a GpuError thrown halfway through building something)
// frees everything built so far without hand-written cleanup. New code holds its objects in
// these; older code still pairs create/destroy functions and moves over as it is touched.
#pragma once

#include "resources.h"

#include <utility>

namespace throng::gpu {

template <class Handle> struct HandleTraits;

#define THRONG_HANDLE_TRAITS(Type, destroyFunction)                                                                    \
    template <> struct HandleTraits<Type> {                                                                            \
        static void destroy(VkDevice d, Type h) { destroyFunction(d, h, hostCallbacks(d)); }                           \
    };
THRONG_HANDLE_TRAITS(VkPipeline, vkDestroyPipeline)
THRONG_HANDLE_TRAITS(VkPipelineLayout, vkDestroyPipelineLayout)
THRONG_HANDLE_TRAITS(VkDescriptorSetLayout, vkDestroyDescriptorSetLayout)
THRONG_HANDLE_TRAITS(VkDescriptorPool, vkDestroyDescriptorPool)
THRONG_HANDLE_TRAITS(VkSampler, vkDestroySampler)
THRONG_HANDLE_TRAITS(VkImageView, vkDestroyImageView)
THRONG_HANDLE_TRAITS(VkBufferView, vkDestroyBufferView)
THRONG_HANDLE_TRAITS(VkQueryPool, vkDestroyQueryPool)
THRONG_HANDLE_TRAITS(VkFence, vkDestroyFence)
THRONG_HANDLE_TRAITS(VkSemaphore, vkDestroySemaphore)
#undef THRONG_HANDLE_TRAITS

// One device-level handle and the device that made it.
template <class Handle> class Unique {
  public:
    Unique() = default;
    Unique(VkDevice device, Handle handle) : device_(device), handle_(handle) {}
    Unique(Unique&& other) noexcept
        : device_(other.device_), handle_(std::exchange(other.handle_, Handle(VK_NULL_HANDLE))) {}
    Unique& operator=(Unique&& other) noexcept {
        if (this != &other) {
            reset();
            device_ = other.device_;
            handle_ = std::exchange(other.handle_, Handle(VK_NULL_HANDLE));
        }
        return *this;
    }
    Unique(const Unique&) = delete;
    Unique& operator=(const Unique&) = delete;
    ~Unique() { reset(); }

    Handle get() const { return handle_; }
    operator Handle() const { return handle_; } // NOLINT: passes straight to vkCmd* calls
    void reset() {
        if (handle_ != VK_NULL_HANDLE) HandleTraits<Handle>::destroy(device_, handle_);
        handle_ = VK_NULL_HANDLE;
    }

  private:
    VkDevice device_ = VK_NULL_HANDLE;
    Handle handle_ = VK_NULL_HANDLE;
};

// A Buffer or Image and the allocator its memory came from.
template <class Resource, void (*Destroy)(Allocator&, Resource&)> class Owned {
  public:
    Owned() = default;
    Owned(Allocator& allocator, Resource resource) : allocator_(&allocator), resource_(resource) {}
    Owned(Owned&& other) noexcept
        : allocator_(other.allocator_), resource_(std::exchange(other.resource_, Resource{})) {}
    Owned& operator=(Owned&& other) noexcept {
        if (this != &other) {
            reset();
            allocator_ = other.allocator_;
            resource_ = std::exchange(other.resource_, Resource{});
        }
        return *this;
    }
    Owned(const Owned&) = delete;
    Owned& operator=(const Owned&) = delete;
    ~Owned() { reset(); }

    const Resource& operator*() const { return resource_; }
    const Resource* operator->() const { return &resource_; }
    void reset() {
        if (allocator_ != nullptr) Destroy(*allocator_, resource_);
        resource_ = Resource{};
    }

  private:
    Allocator* allocator_ = nullptr;
    Resource resource_{};
};

using OwnedBuffer = Owned<Buffer, destroyBuffer>;
using OwnedImage = Owned<Image, destroyImage>;

inline OwnedBuffer ownBuffer(Allocator& a, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use) {
    return OwnedBuffer(a, createBuffer(a, size, usage, use));
}

} // namespace throng::gpu
