// A small host engine with its own Vulkan device and frame loop (headless) that draws a throng
// crowd into its own image, between its own passes, and writes the last frame as a PNG.
//
//   embed_vulkan crowd.throng out.png      (make crowd.throng with `throng bake MODEL -o crowd.throng`)
//
// The host's frame: [its clear to a dark blue] -> [throng's passes: cull, draw...] -> [its post
// pass: a white frame drawn around the picture with vkCmdClearAttachments]. Two frames in flight.
#include <throng/format.h>
#include <throng/image.h>
#include <throng/render.h>

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

constexpr uint32_t kWidth = 640, kHeight = 360, kFrames = 8, kInFlight = 2;

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        if (VkResult r_ = (call); r_ != VK_SUCCESS) {                                                                  \
            std::fprintf(stderr, "embed_vulkan: %s failed (%d)\n", #call, int(r_));                                    \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while (0)

struct Host {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t family = 0;
    VkPhysicalDeviceMemoryProperties memory{};
};

uint32_t memoryType(const Host& h, uint32_t bits, VkMemoryPropertyFlags flags) {
    for (uint32_t i = 0; i < h.memory.memoryTypeCount; ++i)
        if ((bits & (1u << i)) && (h.memory.memoryTypes[i].propertyFlags & flags) == flags) return i;
    std::fprintf(stderr, "embed_vulkan: no suitable memory type\n");
    std::exit(1);
}

struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
};

Image makeImage(const Host& h, VkFormat format, VkImageUsageFlags usage, VkImageAspectFlags aspect) {
    Image img;
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format;
    ici.extent = {kWidth, kHeight, 1};
    ici.mipLevels = 1;
    ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = usage;
    CHECK(vkCreateImage(h.device, &ici, nullptr, &img.image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(h.device, img.image, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = memoryType(h, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    CHECK(vkAllocateMemory(h.device, &ai, nullptr, &img.memory));
    CHECK(vkBindImageMemory(h.device, img.image, img.memory, 0));
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = img.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = {aspect, 0, 1, 0, 1};
    CHECK(vkCreateImageView(h.device, &vci, nullptr, &img.view));
    return img;
}

void barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 src,
             VkAccessFlags2 src_access, VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access) {
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = src;
    b.srcAccessMask = src_access;
    b.dstStageMask = dst;
    b.dstAccessMask = dst_access;
    b.oldLayout = from;
    b.newLayout = to;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkDependencyInfo d{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    d.imageMemoryBarrierCount = 1;
    d.pImageMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cmd, &d);
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: embed_vulkan crowd.throng out.png\n");
        return 2;
    }
    throng::Result<throng::BakedAsset> asset = throng::readThrong(argv[1]);
    if (!asset) {
        std::fprintf(stderr, "embed_vulkan: %s: %s\n", argv[1], asset.error().message.c_str());
        return 1;
    }

    // --- the host's Vulkan: instance, the first device, a graphics+compute queue ---------------
    Host h;
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "embed_vulkan";
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    CHECK(vkCreateInstance(&ici, nullptr, &h.instance));
    uint32_t count = 1;
    VkResult listed = vkEnumeratePhysicalDevices(h.instance, &count, &h.physical);
    if ((listed != VK_SUCCESS && listed != VK_INCOMPLETE) || count == 0) {
        std::fprintf(stderr, "embed_vulkan: no Vulkan device\n");
        return 1;
    }
    vkGetPhysicalDeviceMemoryProperties(h.physical, &h.memory);
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(h.physical, &families, nullptr);
    std::vector<VkQueueFamilyProperties> props(families);
    vkGetPhysicalDeviceQueueFamilyProperties(h.physical, &families, props.data());
    while (h.family < families && (props[h.family].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) !=
                                      (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
        ++h.family;
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = h.family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    const throng::DeviceFeatures features(h.physical); // what throng can use, as a feature chain
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = features.chain();
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    CHECK(vkCreateDevice(h.physical, &dci, nullptr, &h.device));
    vkGetDeviceQueue(h.device, h.family, 0, &h.queue);

    Image color = makeImage(h, VK_FORMAT_R8G8B8A8_SRGB,
                            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            VK_IMAGE_ASPECT_COLOR_BIT);
    Image depth =
        makeImage(h, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                  VK_IMAGE_ASPECT_DEPTH_BIT);
    VkBuffer readback = VK_NULL_HANDLE;
    VkDeviceMemory readback_memory = VK_NULL_HANDLE;
    {
        VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bci.size = VkDeviceSize(kWidth) * kHeight * 4;
        bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        CHECK(vkCreateBuffer(h.device, &bci, nullptr, &readback));
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(h.device, readback, &req);
        VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        ai.allocationSize = req.size;
        ai.memoryTypeIndex = memoryType(h, req.memoryTypeBits,
                                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        CHECK(vkAllocateMemory(h.device, &ai, nullptr, &readback_memory));
        CHECK(vkBindBufferMemory(h.device, readback, readback_memory, 0));
    }
    VkCommandPool pool = VK_NULL_HANDLE;
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = h.family;
    CHECK(vkCreateCommandPool(h.device, &pci, nullptr, &pool));
    VkCommandBuffer cmds[kInFlight];
    VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = kInFlight;
    CHECK(vkAllocateCommandBuffers(h.device, &cai, cmds));
    VkFence fences[kInFlight];
    for (VkFence& f : fences) {
        VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        fci.flags = VK_FENCE_CREATE_SIGNALED_BIT;
        CHECK(vkCreateFence(h.device, &fci, nullptr, &f));
    }

    // --- throng on the host's device --------------------------------------------------------------
    throng::RenderDevice device;
    device.instance = h.instance;
    device.physical_device = h.physical;
    device.device = h.device;
    device.queue_family = h.family;
    device.enabled_features = features.chain();
    throng::CrowdRendererDesc desc;
    desc.asset = &asset.value();
    desc.technique = "baked";
    desc.max_members = 100;
    desc.frames_in_flight = kInFlight;
    desc.extent = {kWidth, kHeight};
    throng::Result<std::unique_ptr<throng::CrowdRenderer>> created = throng::CrowdRenderer::create(device, desc);
    if (!created) {
        std::fprintf(stderr, "embed_vulkan: %s\n", created.error().message.c_str());
        return 1;
    }
    throng::CrowdRenderer& crowd = *created.value();
    const throng::Bounds b = asset.value().bind_bounds;
    const float size = glm::length(b.max - b.min);
    for (int z = 0; z < 10; ++z)
        for (int x = 0; x < 10; ++x) {
            throng::Member m;
            m.position = glm::vec3(float(x) - 4.5f, 0.0f, float(z) - 4.5f) * size * 0.6f;
            m.heading = 0.4f * float(x + z);
            m.time_offset = 0.13f * float(x * 10 + z);
            m.clip = uint32_t(x + z) % uint32_t(std::max<size_t>(asset.value().clips.size(), 1));
            if (!crowd.addMember(m)) return 1;
        }
    // Reversed Z, as throng draws: near maps to 1, far to 0.
    const glm::vec3 center = 0.5f * (b.min + b.max);
    const glm::mat4 view = glm::lookAtRH(center + glm::vec3(0.0f, 4.0f, 9.0f) * size, center, glm::vec3(0, 1, 0));
    glm::mat4 projection =
        glm::perspectiveRH_ZO(glm::radians(40.0f), float(kWidth) / kHeight, 100.0f * size, 0.1f * size);
    projection[1][1] *= -1.0f;

    // --- the frame loop ---------------------------------------------------------------------------
    for (uint32_t frame = 0; frame < kFrames; ++frame) {
        const uint32_t slot = frame % kInFlight;
        CHECK(vkWaitForFences(h.device, 1, &fences[slot], VK_TRUE, UINT64_MAX));
        if (frame >= kInFlight) {
            const throng::FrameStats s = crowd.stats(slot);
            std::printf("frame %u: %u members, %u visible, %.2f M triangles, GPU %.2f ms%s\n", frame - kInFlight,
                        s.members, s.visible, double(s.triangles) * 1e-6, s.gpu_ms, s.error.c_str());
        }
        CHECK(vkResetFences(h.device, 1, &fences[slot]));
        crowd.update(slot, {projection * view, 0.1f * float(frame)});
        VkCommandBuffer cmd = cmds[slot];
        CHECK(vkResetCommandBuffer(cmd, 0));
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        CHECK(vkBeginCommandBuffer(cmd, &bi));
        // The host's pass before throng's: clear to a dark blue.
        barrier(cmd, color.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        const VkClearColorValue blue{{0.02f, 0.03f, 0.08f, 1.0f}};
        const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdClearColorImage(cmd, color.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &blue, 1, &range);
        // throng's passes, over the host's picture (depth is throng's to clear).
        throng::RenderTarget target;
        target.color = color.image;
        target.color_view = color.view;
        target.depth = depth.image;
        target.depth_view = depth.view;
        target.extent = {kWidth, kHeight};
        target.color_layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        target.depth_sampled = true;
        crowd.record(cmd, slot, target);
        // The host's pass after throng's: a white frame around the picture, in its own rendering.
        VkRenderingAttachmentInfo ca{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
        ca.imageView = color.view;
        ca.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        ca.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
        ca.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
        ri.renderArea = {{0, 0}, {kWidth, kHeight}};
        ri.layerCount = 1;
        ri.colorAttachmentCount = 1;
        ri.pColorAttachments = &ca;
        barrier(cmd, color.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
        vkCmdBeginRendering(cmd, &ri);
        VkClearAttachment white{VK_IMAGE_ASPECT_COLOR_BIT, 0, {}};
        white.clearValue.color = {{1.0f, 1.0f, 1.0f, 1.0f}};
        const VkClearRect edges[] = {{{{0, 0}, {kWidth, 4}}, 0, 1},
                                     {{{0, int32_t(kHeight) - 4}, {kWidth, 4}}, 0, 1},
                                     {{{0, 0}, {4, kHeight}}, 0, 1},
                                     {{{int32_t(kWidth) - 4, 0}, {4, kHeight}}, 0, 1}};
        vkCmdClearAttachments(cmd, 1, &white, 4, edges);
        vkCmdEndRendering(cmd);
        if (frame + 1 == kFrames) { // the last frame back to the host
            barrier(cmd, color.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                    VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
            VkBufferImageCopy region{};
            region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            region.imageExtent = {kWidth, kHeight, 1};
            vkCmdCopyImageToBuffer(cmd, color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
        }
        CHECK(vkEndCommandBuffer(cmd));
        VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        si.commandBufferCount = 1;
        si.pCommandBuffers = &cmd;
        CHECK(vkQueueSubmit(h.queue, 1, &si, fences[slot]));
    }
    CHECK(vkDeviceWaitIdle(h.device));

    std::vector<uint8_t> rgba(size_t(kWidth) * kHeight * 4);
    void* mapped = nullptr;
    CHECK(vkMapMemory(h.device, readback_memory, 0, VK_WHOLE_SIZE, 0, &mapped));
    std::memcpy(rgba.data(), mapped, rgba.size());
    vkUnmapMemory(h.device, readback_memory);
    const throng::Status written = throng::writePng(argv[2], rgba, kWidth, kHeight);
    // What the picture holds: the host's white frame at the corner, its blue where no member
    // stands, the crowd elsewhere.
    const uint8_t* corner = rgba.data();
    const uint8_t* background = rgba.data() + (size_t(8) * kWidth + 8) * 4;
    size_t crowd_pixels = 0;
    for (size_t i = 0; i < rgba.size(); i += 4)
        if (std::memcmp(rgba.data() + i, background, 4) != 0 && std::memcmp(rgba.data() + i, corner, 4) != 0)
            ++crowd_pixels;
    std::printf("corner %u %u %u, background %u %u %u, crowd pixels %zu\n", corner[0], corner[1], corner[2],
                background[0], background[1], background[2], crowd_pixels);

    // throng's objects first (the GPU is idle), then the host's.
    created.value().reset();
    for (VkFence f : fences) vkDestroyFence(h.device, f, nullptr);
    vkDestroyCommandPool(h.device, pool, nullptr);
    vkDestroyBuffer(h.device, readback, nullptr);
    vkFreeMemory(h.device, readback_memory, nullptr);
    for (Image* img : {&color, &depth}) {
        vkDestroyImageView(h.device, img->view, nullptr);
        vkDestroyImage(h.device, img->image, nullptr);
        vkFreeMemory(h.device, img->memory, nullptr);
    }
    vkDestroyDevice(h.device, nullptr);
    vkDestroyInstance(h.instance, nullptr);
    if (!written) {
        std::fprintf(stderr, "embed_vulkan: %s: %s\n", argv[2], written.message.c_str());
        return 1;
    }
    std::printf("wrote %s (%ux%u)\n", argv[2], kWidth, kHeight);
    return 0;
}
