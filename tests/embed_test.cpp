// The public render API (include/throng/render.h) driven as a host engine drives it: its own
// device (a HeadlessDevice, validation on), its own images and command buffers, its own passes
// before and after throng's. Host-side images come from throng's internal helpers on a second
// Context over the same device (what a host would make with its own allocator).
#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/headless.h>
#include <throng/render.h>

#include "../src/gpu/context.h"
#include "../src/gpu/resources.h"
#include "../src/render/crowd.h"
#include "../src/render/renderer.h"

#include <gtest/gtest.h>

#include <glm/gtc/packing.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <map>
#include <random>
#include <span>
#include <tuple>

using namespace throng;

namespace {

constexpr uint32_t kWidth = 160, kHeight = 120;

BakedAsset walker() {
    Result<BakedAsset> baked = bake(makeWalker(), BakeOptions{});
    EXPECT_TRUE(baked.ok());
    return std::move(baked).value();
}

// A second Context over the same device (throng's internal helpers standing in for the host's).
Result<std::unique_ptr<gpu::Context>> adopt(const RenderDevice& d) {
    gpu::HostDevice h;
    h.instance = d.instance;
    h.physical = d.physical_device;
    h.device = d.device;
    h.queue_family = d.queue_family;
    h.enabled = d.enabled_features;
    h.callbacks = d.allocation_callbacks;
    return gpu::adoptDevice(h);
}

// The host: its device, and its colour + depth images and a readback buffer through a second
// Context (its own objects, not the renderer's).
struct Host {
    std::unique_ptr<HeadlessDevice> device;
    std::unique_ptr<gpu::Context> ctx;
    gpu::Allocator allocator;
    VkExtent2D extent{kWidth, kHeight};
    gpu::Image color, depth;
    gpu::Buffer readback;

    // `callbacks`: the host's allocation callbacks, for its objects and (as throng requires of
    // every adopter of a device) the renderers'.
    explicit Host(const VkAllocationCallbacks* callbacks = nullptr) {
        HeadlessDeviceOptions o;
        o.validation = true;
        Result<std::unique_ptr<HeadlessDevice>> d = HeadlessDevice::create(o);
        if (!d) throw std::runtime_error(d.error().message);
        device = std::move(d).value();
        RenderDevice mine = device->device();
        mine.allocation_callbacks = callbacks;
        ctx = adopt(mine).value();
        gpu::createAllocator(allocator, *ctx);
        createTargets();
    }
    ~Host() {
        destroyTargets();
        gpu::destroyAllocator(allocator);
        gpu::destroyContext(*ctx);
    }
    void createTargets() {
        color = gpu::createImage(allocator, VK_FORMAT_R8G8B8A8_SRGB, extent.width, extent.height, 1,
                                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT);
        depth = gpu::createImage(allocator, VK_FORMAT_D32_SFLOAT, extent.width, extent.height, 1,
                                 VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                                 VK_IMAGE_ASPECT_DEPTH_BIT);
        readback = gpu::createBuffer(allocator, VkDeviceSize(extent.width) * extent.height * 4,
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Readback);
    }
    void destroyTargets() {
        gpu::destroyBuffer(allocator, readback);
        gpu::destroyImage(allocator, depth);
        gpu::destroyImage(allocator, color);
    }
    // A recreated swapchain: the old images gone (their handles free for the new ones), new ones
    // of `size`.
    void recreateTargets(VkExtent2D size) {
        destroyTargets();
        extent = size;
        createTargets();
    }

    RenderTarget target(VkImageLayout color_layout) const {
        RenderTarget t;
        t.color = color.image;
        t.color_view = color.view;
        t.depth = depth.image;
        t.depth_view = depth.view;
        t.extent = extent;
        t.color_layout = color_layout;
        t.depth_sampled = ctx->depth_pyramid;
        return t;
    }

    // One frame: the host's clear to `clear` (when given), throng's passes, the host's copy of
    // the picture into `readback`. Returns the pixels.
    std::vector<uint8_t> frame(CrowdRenderer& r, uint32_t slot, const FrameInput& in, const float* clear) {
        r.update(slot, in);
        VkCommandBuffer cmd = gpu::beginOneTime(*ctx);
        VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
        if (clear != nullptr) { // the host's own pass before throng's
            gpu::transitionImage(cmd, color.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
            VkClearColorValue value{{clear[0], clear[1], clear[2], clear[3]}};
            const VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            vkCmdClearColorImage(cmd, color.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &range);
            layout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        }
        r.record(cmd, slot, target(layout));
        // The host's pass after throng's: a copy out of COLOR_ATTACHMENT_OPTIMAL, as documented.
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        gpu::transitionImage(cmd, color.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {extent.width, extent.height, 1};
        vkCmdCopyImageToBuffer(cmd, color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        gpu::endOneTimeAndWait(*ctx, cmd);
        std::vector<uint8_t> pixels(size_t(extent.width) * extent.height * 4);
        std::memcpy(pixels.data(), readback.mapped(), pixels.size());
        return pixels;
    }
};

Member at(glm::vec3 p, float heading, uint32_t clip = 0) {
    Member m;
    m.position = p;
    m.heading = heading;
    m.clip = clip;
    return m;
}

size_t pixelsNot(const std::vector<uint8_t>& rgba, glm::u8vec4 colour) {
    size_t n = 0;
    for (size_t i = 0; i < rgba.size(); i += 4)
        if (glm::u8vec4(rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]) != colour) ++n;
    return n;
}

glm::mat4 camera(const BakedAsset& asset) {
    Bounds b = asset.bind_bounds;
    b.min -= glm::vec3(2.0f, 0.0f, 2.0f);
    b.max += glm::vec3(2.0f, 0.0f, 2.0f);
    return render::frameBounds(b, float(kWidth) / float(kHeight));
}

// Adds `members` to `r` and returns the same crowd as the headless renderer takes it.
render::Crowd addMembers(CrowdRenderer& r, std::span<const Member> members, const BakedAsset& asset) {
    render::Crowd crowd;
    for (const Member& m : members) {
        EXPECT_TRUE(r.addMember(m).ok());
        gpu::shader::InstanceRecord rec = render::singleInstance(m.clip, 0.0f);
        rec.position_scale = glm::vec4(m.position, 1.0f);
        rec.orientation = render::packQuaternion(glm::angleAxis(m.heading, glm::vec3(0, 1, 0)));
        crowd.instances.push_back(rec);
    }
    crowd.clip_bounds = render::clipCullBounds(asset);
    return crowd;
}

// The headless renderer's pictures of `crowd` on the host's device, one per entry of `shadows`
// (shadow map sizes; 0: none), one frame at `time`, the host's extent.
std::vector<Result<render::RenderOutput>> headlessPictures(const Host& host, const BakedAsset& asset,
                                                           const render::Crowd& crowd, const glm::mat4& vp, float time,
                                                           std::initializer_list<uint32_t> shadows) {
    std::vector<Result<render::RenderOutput>> out;
    Result<std::unique_ptr<gpu::Context>> own = adopt(host.device->device());
    EXPECT_TRUE(own.ok());
    if (!own) return out;
    gpu::Allocator allocator;
    gpu::createAllocator(allocator, *own.value());
    Result<render::GpuAsset> gpu_asset = render::uploadAsset(allocator, asset);
    EXPECT_TRUE(gpu_asset.ok());
    if (gpu_asset) {
        render::RenderSettings settings;
        settings.width = host.extent.width;
        settings.height = host.extent.height;
        settings.time = time;
        settings.frames = 1;
        settings.baked = &asset;
        for (uint32_t size : shadows) {
            settings.shadows.size = size;
            out.push_back(render::renderCrowd(allocator, gpu_asset.value(), crowd, vp, settings));
        }
        gpu_asset.value().release();
    }
    gpu::destroyAllocator(allocator);
    gpu::destroyContext(*own.value());
    return out;
}

// A renderer of up to 16 walkers drawn by technique baked into targets of `extent`.
std::unique_ptr<CrowdRenderer> walkerRenderer(const Host& host, const BakedAsset& asset, VkExtent2D extent) {
    CrowdRendererDesc desc;
    desc.asset = &asset;
    desc.technique = "baked";
    desc.max_members = 16;
    desc.extent = extent;
    Result<std::unique_ptr<CrowdRenderer>> created = CrowdRenderer::create(host.device->device(), desc);
    EXPECT_TRUE(created.ok()) << created.error().message;
    return created.ok() ? std::move(created).value() : nullptr;
}

} // namespace

// The crowd drawn into the host's frame equals the headless renderer's picture of the same crowd
// pixel for pixel, and the host's own passes around it keep their work.
TEST(Embed, HostFrameMatchesTheHeadlessRendererAndKeepsTheHostsPasses) {
    const BakedAsset asset = walker();
    Host host;
    std::unique_ptr<CrowdRenderer> renderer = walkerRenderer(host, asset, {kWidth, kHeight});
    ASSERT_NE(renderer, nullptr);
    CrowdRenderer& r = *renderer;
    const Member members[] = {at({-1.5f, 0, 0}, 0.3f), at({0, 0, 0}, 1.2f), at({1.5f, 0, -1}, -0.7f)};
    const render::Crowd crowd = addMembers(r, members, asset); // the same members for the headless renderer
    const glm::mat4 vp = camera(asset);
    const float time = 0.4f;

    const std::vector<uint8_t> embedded = host.frame(r, 0, {vp, time}, nullptr);
    const FrameStats stats = r.stats(0);
    EXPECT_EQ(stats.error, "");
    EXPECT_EQ(stats.members, 3u);
    EXPECT_EQ(stats.visible, 3u);
    EXPECT_GT(stats.triangles, 0u);
    EXPECT_EQ(r.technique().rfind("baked", 0), 0u);

    const std::vector<Result<render::RenderOutput>> pictures = headlessPictures(host, asset, crowd, vp, time, {0});
    ASSERT_EQ(pictures.size(), 1u);
    const Result<render::RenderOutput>& headless = pictures[0];
    ASSERT_TRUE(headless.ok()) << headless.error().message;
    EXPECT_EQ(embedded, headless.value().rgba);
    EXPECT_GT(pixelsNot(embedded, glm::u8vec4(embedded[0], embedded[1], embedded[2], embedded[3])), 200u);

    // The host's clear before throng's passes stays where no member is.
    const float red[4] = {1.0f, 0.0f, 0.0f, 1.0f};
    const std::vector<uint8_t> over = host.frame(r, 1, {vp, time}, red);
    const glm::u8vec4 corner(over[0], over[1], over[2], over[3]);
    EXPECT_EQ(corner, glm::u8vec4(255, 0, 0, 255));
    const size_t crowd_pixels = pixelsNot(over, corner);
    EXPECT_EQ(crowd_pixels, pixelsNot(embedded, glm::u8vec4(embedded[0], embedded[1], embedded[2], embedded[3])));
    renderer.reset();
    EXPECT_EQ(host.device->validationErrors(), 0u);
}

// A host that recreates its targets (a resized window) tells the renderer (setTargets): the
// frames after it draw into the new images what the headless renderer draws at that size, with
// occlusion culling's pyramid made anew over the new depth image; the old size is refused.
TEST(Embed, NewTargetsThroughSetTargets) {
    const BakedAsset asset = walker();
    Host host;
    std::unique_ptr<CrowdRenderer> renderer = walkerRenderer(host, asset, host.extent);
    ASSERT_NE(renderer, nullptr);
    CrowdRenderer& r = *renderer;
    const Member members[] = {at({-1.5f, 0, 0}, 0.3f), at({0, 0, 0}, 1.2f), at({1.5f, 0, -1}, -0.7f)};
    const render::Crowd crowd = addMembers(r, members, asset);
    const glm::mat4 vp = camera(asset); // the same aspect at both sizes
    const float time = 0.4f;
    for (uint32_t slot : {0u, 1u}) host.frame(r, slot, {vp, time}, nullptr);
    EXPECT_EQ(r.stats(1).error, "");

    EXPECT_FALSE(r.setTargets({0, kHeight}).ok());
    const VkExtent2D larger{kWidth * 3 / 2, kHeight * 3 / 2};
    host.recreateTargets(larger);
    ASSERT_TRUE(r.setTargets(larger).ok());
    std::vector<uint8_t> embedded;
    for (uint32_t slot : {0u, 1u, 0u}) embedded = host.frame(r, slot, {vp, time}, nullptr);
    EXPECT_EQ(r.stats(0).error, "");
    const std::vector<Result<render::RenderOutput>> pictures = headlessPictures(host, asset, crowd, vp, time, {0});
    ASSERT_EQ(pictures.size(), 1u);
    ASSERT_TRUE(pictures[0].ok()) << pictures[0].error().message;
    EXPECT_EQ(embedded, pictures[0].value().rgba);
    EXPECT_GT(pixelsNot(embedded, glm::u8vec4(embedded[0], embedded[1], embedded[2], embedded[3])), 400u);

    // Targets of the old size are now the wrong ones.
    host.recreateTargets({kWidth, kHeight});
    host.frame(r, 1, {vp, time}, nullptr);
    EXPECT_NE(r.stats(1).error.find("extent"), std::string::npos) << r.stats(1).error;
    EXPECT_EQ(r.stats(1).error_kind, ErrorKind::BadInput);
    renderer.reset();
    EXPECT_EQ(host.device->validationErrors(), 0u);
}

// Shadows through the host API (CrowdRendererDesc::shadow_map_size, the members' own box): the
// same picture as the headless renderer's with the same settings, and darker ground under them.
TEST(Embed, ShadowsMatchTheHeadlessRenderer) {
    const BakedAsset asset = walker();
    Host host;
    CrowdRendererDesc desc;
    desc.asset = &asset;
    desc.max_members = 4;
    desc.extent = {kWidth, kHeight};
    desc.shadows.size = 512;
    Result<std::unique_ptr<CrowdRenderer>> created = CrowdRenderer::create(host.device->device(), desc);
    ASSERT_TRUE(created.ok()) << created.error().message;
    CrowdRenderer& r = *created.value();
    const Member members[] = {at({-1.0f, 0, 0}, 0.3f), at({1.0f, 0, -0.5f}, -0.7f)};
    const render::Crowd crowd = addMembers(r, members, asset);
    const glm::mat4 vp = camera(asset);
    const std::vector<uint8_t> embedded = host.frame(r, 0, {vp, 0.4f}, nullptr);
    EXPECT_EQ(r.stats(0).error, "");

    const std::vector<Result<render::RenderOutput>> pictures = headlessPictures(host, asset, crowd, vp, 0.4f, {512, 0});
    ASSERT_EQ(pictures.size(), 2u);
    const Result<render::RenderOutput>& headless = pictures[0];
    const Result<render::RenderOutput>& plain = pictures[1];
    ASSERT_TRUE(headless.ok()) << headless.error().message;
    ASSERT_TRUE(plain.ok()) << plain.error().message;
    EXPECT_EQ(embedded, headless.value().rgba);
    // The ground covers the background, and part of it is in shadow (grey, darker than the lit ground).
    size_t dark = 0, lit = 0;
    for (size_t i = 0; i < embedded.size(); i += 4) {
        const uint8_t* p = &embedded[i];
        if (std::abs(int(p[0]) - int(p[1])) > 2 || std::abs(int(p[1]) - int(p[2])) > 2) continue;
        (p[0] < 150 ? dark : lit)++;
    }
    EXPECT_GT(lit, 1000u);
    EXPECT_GT(dark, 40u);
    EXPECT_NE(embedded, plain.value().rgba);
    created.value().reset();
    EXPECT_EQ(host.device->validationErrors(), 0u);
}

// Members added, changed and removed by the host: stable ids, the picture and the stats follow.
TEST(Embed, MembersAreTheHostsToAddChangeAndRemove) {
    const BakedAsset asset = walker();
    Host host;
    CrowdRendererDesc desc;
    desc.asset = &asset;
    desc.max_members = 3;
    desc.extent = {kWidth, kHeight};
    Result<std::unique_ptr<CrowdRenderer>> created = CrowdRenderer::create(host.device->device(), desc);
    ASSERT_TRUE(created.ok()) << created.error().message;
    CrowdRenderer& r = *created.value();
    const glm::mat4 vp = camera(asset);

    const std::vector<uint8_t> empty = host.frame(r, 0, {vp, 0.0f}, nullptr);
    const glm::u8vec4 sky(empty[0], empty[1], empty[2], empty[3]);
    EXPECT_EQ(pixelsNot(empty, sky), 0u);
    EXPECT_EQ(r.stats(0).members, 0u);

    const MemberId a = r.addMember(at({-1.5f, 0, 0}, 0.0f)).value();
    const MemberId b = r.addMember(at({0, 0, 0}, 0.0f)).value();
    const MemberId c = r.addMember(at({1.5f, 0, 0}, 0.0f)).value();
    EXPECT_FALSE(r.addMember(at({0, 0, 0}, 0.0f)).ok()); // full
    Member bad = at({0, 0, 0}, 0.0f, 99);
    EXPECT_FALSE(r.setMember(a, bad).ok()); // no clip 99
    const size_t three = pixelsNot(host.frame(r, 1, {vp, 0.0f}, nullptr), sky);
    EXPECT_EQ(r.stats(1).members, 3u);
    EXPECT_GT(three, 0u);

    ASSERT_TRUE(r.removeMember(b).ok());
    EXPECT_FALSE(r.removeMember(b).ok()); // gone
    EXPECT_FALSE(r.member(b).has_value());
    ASSERT_TRUE(r.member(c).has_value()); // moved into b's record, same id
    EXPECT_EQ(r.member(c)->position, glm::vec3(1.5f, 0, 0));
    const size_t two = pixelsNot(host.frame(r, 0, {vp, 0.0f}, nullptr), sky);
    EXPECT_EQ(r.stats(0).members, 2u);
    EXPECT_EQ(r.stats(0).visible, 2u);
    EXPECT_LT(two, three);

    // A new member reuses b's slot under a new id: the old id stays dead.
    const MemberId d = r.addMember(at({0, 0, 0}, 0.0f)).value();
    EXPECT_NE(d, b);
    EXPECT_FALSE(r.member(b).has_value());
    // Moved far behind the camera: culled.
    ASSERT_TRUE(r.setMember(d, at({0, 0, 1000.0f}, 0.0f)).ok());
    host.frame(r, 1, {vp, 0.0f}, nullptr);
    const FrameStats s = r.stats(1);
    EXPECT_EQ(s.members, 3u);
    if (host.ctx->indirect_count) {
        EXPECT_EQ(s.visible, 2u);
    } // culling on the GPU

    ASSERT_TRUE(r.removeMember(a).ok());
    ASSERT_TRUE(r.removeMember(c).ok());
    ASSERT_TRUE(r.removeMember(d).ok());
    EXPECT_EQ(pixelsNot(host.frame(r, 0, {vp, 0.0f}, nullptr), sky), 0u);
    created.value().reset();
    EXPECT_EQ(host.device->validationErrors(), 0u);
}

// What the host gets wrong is an error value, not a crash; a simulated crowd is the GPU's.
// Counts what throng allocates through the host's callbacks (render.h: every object throng
// creates on the host's device uses them), and what it frees.
struct CountingCallbacks {
    size_t allocations = 0, frees = 0;
    std::map<void*, size_t> live;
    VkAllocationCallbacks callbacks{};
    CountingCallbacks() {
        callbacks.pUserData = this;
        callbacks.pfnAllocation = [](void* user, size_t size, size_t alignment, VkSystemAllocationScope) -> void* {
            auto* self = static_cast<CountingCallbacks*>(user);
            void* p = std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
            if (p != nullptr) ++self->allocations, self->live[p] = size;
            return p;
        };
        callbacks.pfnReallocation = [](void* user, void* original, size_t size, size_t alignment,
                                       VkSystemAllocationScope scope) -> void* {
            auto* self = static_cast<CountingCallbacks*>(user);
            if (original == nullptr) return self->callbacks.pfnAllocation(user, size, alignment, scope);
            if (size == 0) {
                self->callbacks.pfnFree(user, original);
                return nullptr;
            }
            void* p = self->callbacks.pfnAllocation(user, size, alignment, scope);
            if (p == nullptr) return nullptr;
            std::memcpy(p, original, std::min(size, self->live[original]));
            self->callbacks.pfnFree(user, original);
            return p;
        };
        callbacks.pfnFree = [](void* user, void* memory) {
            if (memory == nullptr) return;
            auto* self = static_cast<CountingCallbacks*>(user);
            ++self->frees;
            self->live.erase(memory);
            std::free(memory);
        };
    }
};

// The host's allocation callbacks carry every host allocation of throng's objects (the upload's
// one-off fence included), and all of it is freed when the renderer goes. A renderer given other
// callbacks on the same device (whose objects would be freed through the wrong allocator) is
// refused while another holds it.
TEST(Embed, HostAllocationCallbacksCarryThrongsObjects) {
    const BakedAsset asset = walker();
    CountingCallbacks counting;
    Host host(&counting.callbacks); // its images through the same callbacks
    // The host's own command pool holds memory from its first command buffer on: made before counting.
    gpu::endOneTimeAndWait(*host.ctx, gpu::beginOneTime(*host.ctx));
    const uint64_t host_allocations = counting.allocations, host_frees = counting.frees;
    RenderDevice device = host.device->device();
    device.allocation_callbacks = &counting.callbacks;
    CrowdRendererDesc desc;
    desc.asset = &asset;
    desc.extent = {kWidth, kHeight};
    desc.max_members = 16;
    {
        Result<std::unique_ptr<CrowdRenderer>> r = CrowdRenderer::create(device, desc);
        ASSERT_TRUE(r.ok()) << r.error().message;
        ASSERT_TRUE(r.value()->addMember(Member{}).ok());
        const glm::mat4 vp = render::frameBounds(asset.bind_bounds, float(kWidth) / float(kHeight));
        host.frame(*r.value(), 0, FrameInput{vp, 0.5f}, nullptr);
        EXPECT_TRUE(r.value()->stats(0).error.empty()) << r.value()->stats(0).error;
    }
    EXPECT_GT(counting.allocations, host_allocations) << "throng created nothing through the host's callbacks";
    EXPECT_EQ(counting.allocations - host_allocations, counting.frees - host_frees)
        << counting.live.size() << " host allocations left alive";
    RenderDevice other = host.device->device(); // no callbacks: not those the host's context holds
    Result<std::unique_ptr<CrowdRenderer>> refused = CrowdRenderer::create(other, desc);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("allocation_callbacks differ"), std::string::npos)
        << refused.error().message;
    EXPECT_EQ(refused.error().kind, ErrorKind::BadInput);
    EXPECT_EQ(host.device->validationErrors(), 0u);
}

TEST(Embed, BadDescriptionsAndEditsAreErrors) {
    const BakedAsset asset = walker();
    Host host;
    CrowdRendererDesc desc;
    desc.extent = {kWidth, kHeight};
    EXPECT_FALSE(CrowdRenderer::create(host.device->device(), desc).ok()); // no asset
    desc.asset = &asset;
    desc.technique = "nonsense";
    EXPECT_NE(CrowdRenderer::create(host.device->device(), desc).error().message.find("nonsense"), std::string::npos);
    EXPECT_EQ(CrowdRenderer::create(host.device->device(), desc).error().kind, ErrorKind::BadInput);
    desc.technique = "baked";
    desc.raster = static_cast<Raster>(7); // what a program can set that no command line can
    EXPECT_EQ(CrowdRenderer::create(host.device->device(), desc).error().message,
              "raster 7 is not hardware, compute or auto");
    desc.raster = Raster::Hardware;
    desc.skinning = static_cast<Skinning>(9);
    EXPECT_EQ(CrowdRenderer::create(host.device->device(), desc).error().message,
              "skinning 9 is not linear or dual-quaternion");
    desc.skinning = Skinning::Linear;
    desc.cull.impostor_px = -1.0f;
    EXPECT_NE(CrowdRenderer::create(host.device->device(), desc).error().message.find("impostor_px"),
              std::string::npos);
    desc.cull.impostor_px = 0.0f;
    for (float bad : {-1.0f, 9.0f, std::numeric_limits<float>::quiet_NaN()}) {
        desc.cull.splat_px = bad;
        EXPECT_EQ(CrowdRenderer::create(host.device->device(), desc).error().message.substr(0, 24),
                  "splat_px must be 0 to 8 ")
            << bad;
    }
    desc.cull.splat_px = 0.0f;
    desc.skinning = Skinning::DualQuaternion;
    desc.technique = "static";
    EXPECT_NE(CrowdRenderer::create(host.device->device(), desc).error().message.find("dual-quaternion skinning"),
              std::string::npos);
    desc.technique = "baked";
    EXPECT_TRUE(CrowdRenderer::create(host.device->device(), desc).ok());
    desc.skinning = Skinning::Linear;
    desc.layers = {"idle@spine@50%"}; // the techniques that pose members: not baked
    EXPECT_NE(CrowdRenderer::create(host.device->device(), desc).error().message.find("pose members"),
              std::string::npos);
    desc.technique = "pose";
    EXPECT_TRUE(CrowdRenderer::create(host.device->device(), desc).ok());
    desc.layers = {"idle@elbow"};
    EXPECT_NE(CrowdRenderer::create(host.device->device(), desc).error().message.find("no joint 'elbow'"),
              std::string::npos);
    desc.layers.clear();
    desc.technique = "baked";
    desc.frames_in_flight = 0;
    EXPECT_FALSE(CrowdRenderer::create(host.device->device(), desc).ok());
    desc.frames_in_flight = 2;
    RenderDevice no_device = host.device->device();
    no_device.device = VK_NULL_HANDLE;
    EXPECT_FALSE(CrowdRenderer::create(no_device, desc).ok());
    RenderDevice no_features = host.device->device();
    no_features.enabled_features = nullptr; // dynamic rendering not known to be on
    EXPECT_NE(CrowdRenderer::create(no_features, desc).error().message.find("dynamicRendering"), std::string::npos);

    desc.simulate = true;
    desc.max_members = 64;
    Result<std::unique_ptr<CrowdRenderer>> simulated = CrowdRenderer::create(host.device->device(), desc);
    ASSERT_TRUE(simulated.ok()) << simulated.error().message;
    EXPECT_EQ(simulated.value()->memberCount(), 64u);
    EXPECT_FALSE(simulated.value()->addMember(Member{}).ok());
    const glm::mat4 vp = camera(asset);
    host.frame(*simulated.value(), 0, {vp, 0.5f}, nullptr);
    const FrameStats s = simulated.value()->stats(0);
    EXPECT_EQ(s.error, "");
    if (s.gpu_times) {
        EXPECT_EQ(s.passes.front().name, "simulate");
    }

    // A target of another size stops the renderer with a reason; the target still ends cleared.
    RenderTarget wrong = host.target(VK_IMAGE_LAYOUT_UNDEFINED);
    wrong.extent = {kWidth / 2, kHeight / 2};
    simulated.value()->update(1, {vp, 0.5f});
    VkCommandBuffer cmd = gpu::beginOneTime(*host.ctx);
    simulated.value()->record(cmd, 1, wrong);
    gpu::endOneTimeAndWait(*host.ctx, cmd);
    EXPECT_NE(simulated.value()->stats(1).error.find("extent"), std::string::npos);
    simulated.value().reset();

    // A light that points nowhere stops the frame with a reason.
    desc.simulate = false;
    Result<std::unique_ptr<CrowdRenderer>> dark = CrowdRenderer::create(host.device->device(), desc);
    ASSERT_TRUE(dark.ok()) << dark.error().message;
    host.frame(*dark.value(), 0, {vp, 0.5f, glm::vec3(0.0f)}, nullptr);
    EXPECT_NE(dark.value()->stats(0).error.find("light direction"), std::string::npos) << dark.value()->stats(0).error;
    dark.value().reset();

    // A headless job's enums out of their range, likewise (no command line can set them).
    CrowdJob job;
    job.members = 4;
    job.view = static_cast<ViewKind>(5);
    EXPECT_EQ(renderCrowd(*host.device, asset, job).error().message, "view 5 is not overview or street");
    job.view = ViewKind::Street;
    job.animation = static_cast<AnimationStorage>(6);
    EXPECT_EQ(renderCrowd(*host.device, asset, job).error().message,
              "animation storage 6 is not auto, image, texel-buffer or buffer");
    EXPECT_EQ(host.device->validationErrors(), 0u);
}

// A headless job that settles (CrowdJob::settle_seconds: frame 0 drawn again until the time has
// passed, as `throng bench --settle` asks of a GPU) reports its frames as one that does not, with
// the same picture, and takes at least that long; the device says it is a CPU (lavapipe), where
// the bench does not ask.
TEST(Embed, ASettlingJobDrawsTheSameFrames) {
    const BakedAsset asset = bake(makeWalker(), {}).value();
    Host host;
    CrowdJob job;
    job.members = 40;
    job.width = 96;
    job.height = 64;
    job.frames = 3;
    job.time = 1.0f;
    const Result<CrowdJobResult> plain = renderCrowd(*host.device, asset, job);
    ASSERT_TRUE(plain) << plain.error().message;
    job.settle_seconds = 0.4f;
    const auto start = std::chrono::steady_clock::now();
    const Result<CrowdJobResult> settled = renderCrowd(*host.device, asset, job);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(settled) << settled.error().message;
    EXPECT_GE(seconds, 0.4);
    EXPECT_EQ(settled.value().frames.size(), 3u);
    EXPECT_EQ(settled.value().rgba, plain.value().rgba);
    EXPECT_FALSE(std::all_of(plain.value().rgba.begin(), plain.value().rgba.end(),
                             [&](uint8_t b) { return b == plain.value().rgba[0]; }));
    if (host.device->name().find("llvmpipe") != std::string::npos) {
        EXPECT_TRUE(host.device->capabilities().cpu);
    }
    EXPECT_EQ(host.device->validationErrors(), 0u);
}

// How many times clip time passes e + k d (k whole) going from u0 (excluded) to u1 (included).
int64_t crossings(double e, double d, double u0, double u1) {
    return int64_t(std::floor((u1 - e) / d)) - int64_t(std::floor((u0 - e) / d));
}

// The render API: host-driven members' events over a run of frames equal eventsBetween per
// member; a simulated crowd's come from the CPU mirror of its steps, needing simulation_events.
TEST(Embed, MembersEventsFromTheClipTimeFunction) {
    BakeOptions o;
    o.footsteps = true;
    o.events["walk"] = {{0.0f, "start"}, {0.55f, "half"}};
    const BakedAsset asset = bake(makeWalker(), o).value();
    Host host;
    CrowdRendererDesc desc;
    desc.asset = &asset;
    desc.max_members = 4;
    desc.extent = {kWidth, kHeight};
    {
        auto r = CrowdRenderer::create(host.device->device(), desc);
        ASSERT_TRUE(r.ok()) << r.error().message;
        Member a, b;
        a.speed = 1.7f;
        a.time_offset = 0.2f;
        b.clip = 1;
        b.blend_clip = 0;
        b.blend = 0.8f; // mostly walk
        b.speed = 0.6f;
        b.position = {2.0f, 0.0f, 0.0f};
        const MemberId ia = r.value()->addMember(a).value();
        const MemberId ib = r.value()->addMember(b).value();
        std::map<std::pair<uint32_t, uint32_t>, int> seen;
        double t = 0.0;
        for (int frame = 0; frame < 200; ++frame, t += 1.0 / 30.0) {
            const auto events = r.value()->eventsBetween(t, t + 1.0 / 30.0).value();
            for (const MemberEvent& e : events) {
                EXPECT_EQ(e.clip, 0u);
                ++seen[std::make_pair(e.member.value, e.event)];
            }
        }
        for (const auto& [m, speed, offset] : {std::tuple{ia, 1.7, 0.2}, std::tuple{ib, 0.6, 0.0}})
            for (uint32_t e = 0; e < asset.clips[0].events.size(); ++e) {
                const double u0 = offset, u1 = t * speed + offset;
                const int64_t expected = crossings(asset.clips[0].events[e].time, asset.clips[0].duration, u0, u1);
                const int got = seen[std::make_pair(m.value, e)];
                EXPECT_EQ(got, expected);
            }
    }
    desc.simulate = true;
    desc.max_members = 50;
    {
        auto r = CrowdRenderer::create(host.device->device(), desc);
        ASSERT_TRUE(r.ok());
        EXPECT_FALSE(r.value()->eventsBetween(0.0, 1.0).ok()); // without simulation_events
    }
    desc.simulation_events = true;
    auto r = CrowdRenderer::create(host.device->device(), desc);
    ASSERT_TRUE(r.ok()) << r.error().message;
    FrameInput in;
    in.view_projection = camera(asset);
    size_t events = 0;
    std::map<uint32_t, int> per_member;
    double clock = r.value()->clock();
    for (int frame = 1; frame <= 60; ++frame) {
        in.time = float(frame) / 30.0f;
        host.frame(*r.value(), 0, in, nullptr); // the frame's simulate pass takes its steps
        const double now = r.value()->clock();
        const Result<std::vector<MemberEvent>> got = r.value()->eventsBetween(clock, now);
        clock = now;
        ASSERT_TRUE(got.ok());
        for (const MemberEvent& e : got.value()) {
            EXPECT_LT(e.member.value, 50u);
            ++per_member[e.member.value];
            ++events;
        }
    }
    std::printf("50 simulated walkers over 2 s: %zu events from %zu members\n", events, per_member.size());
    EXPECT_GT(events, 20u);
    EXPECT_GT(per_member.size(), 10u);
    r.value().reset();
    EXPECT_EQ(host.device->validationErrors(), 0u);
}

namespace {

// The records the render API makes of `members` (keys: their MemberIds' values) in a crowd of
// the models of `lib`: clips are the library's, the model in the record.
render::Crowd libraryCrowd(const render::AssetLibrary& lib, const std::vector<std::pair<uint32_t, Member>>& members) {
    render::Crowd crowd;
    crowd.clip_bounds = render::clipCullBounds(lib);
    for (const auto& [id, m] : members) {
        const uint32_t first = lib.ranges[m.model].first_clip;
        gpu::shader::InstanceRecord rec = render::singleInstance(first + m.clip, 0.0f, first + m.blend_clip);
        rec.clips = gpu::shader::throngClips(first + m.clip, first + m.blend_clip, m.model);
        rec.position_scale = glm::vec4(m.position, 1.0f);
        rec.orientation = render::packQuaternion(glm::angleAxis(m.heading, glm::vec3(0, 1, 0)));
        rec.key = m.key != 0 ? m.key : id + 1;
        crowd.instances.push_back(rec);
    }
    return crowd;
}

// The headless renderer's picture of `crowd` of the models of `lib` on the host's device:
// technique baked, one frame at `time`, culled by `cull`.
Result<render::RenderOutput> libraryPicture(const Host& host, const render::AssetLibrary& lib,
                                            const render::Crowd& crowd, const glm::mat4& vp, float time,
                                            const CullSettings& cull, Raster raster) {
    Result<std::unique_ptr<gpu::Context>> own = adopt(host.device->device());
    if (!own) return own.error();
    gpu::Allocator allocator;
    gpu::createAllocator(allocator, *own.value());
    Result<render::RenderOutput> out = Error{"the library did not upload"};
    if (Result<render::GpuAsset> on_gpu = render::uploadLibrary(allocator, lib); on_gpu) {
        render::RenderSettings settings;
        settings.width = kWidth;
        settings.height = kHeight;
        settings.time = time;
        settings.frames = 1;
        settings.technique = "baked";
        settings.cull = cull;
        settings.raster = raster;
        settings.baked = &lib.asset;
        out = render::renderCrowd(allocator, on_gpu.value(), crowd, vp, settings);
        on_gpu.value().release();
    }
    gpu::destroyAllocator(allocator);
    gpu::destroyContext(*own.value());
    return out;
}

} // namespace

// A crowd of several models in the host's frame (CrowdRendererDesc::models, Member::model): the
// members of each model in any order, added, moved between models and removed, drawn as the
// headless renderer draws the same records of the library of those models (itself tested
// against one-model crowds: mixed_test), pixel for pixel, with culling on and off; what does not
// fit a model, or names none, is an error.
TEST(Embed, SeveralModelsAreOneCrowdOfTheHost) {
    const BakedAsset asset = walker();
    Result<BakedAsset> baked_fish = bake(makeFish(), BakeOptions{});
    ASSERT_TRUE(baked_fish.ok());
    const BakedAsset& fish = baked_fish.value();
    Host host;
    CrowdRendererDesc desc;
    desc.models = {{&asset, 2}, {&fish, 3}};
    desc.technique = "baked";
    desc.raster = Raster::Hardware;
    desc.extent = {kWidth, kHeight};
    auto of = [](uint32_t model, glm::vec3 p, float heading, uint32_t clip = 0) {
        Member m = at(p, heading, clip);
        m.model = model;
        return m;
    };
    // The host's edits: members of both models in any order, one refused past its model's room,
    // one removed, one moved to the other model.
    auto edited = [&](const CullSettings& cull) -> std::unique_ptr<CrowdRenderer> {
        desc.cull = cull;
        Result<std::unique_ptr<CrowdRenderer>> created = CrowdRenderer::create(host.device->device(), desc);
        EXPECT_TRUE(created.ok()) << created.error().message;
        if (!created) return nullptr;
        CrowdRenderer& r = *created.value();
        EXPECT_TRUE(r.addMember(of(1, {-2.0f, 0.5f, 0}, 0.4f)).ok());
        EXPECT_TRUE(r.addMember(of(0, {-1.0f, 0, 0}, 0.3f, 1)).ok());
        const MemberId f2 = r.addMember(of(1, {1.0f, 0.3f, 1}, -0.5f)).value();
        const MemberId w2 = r.addMember(of(0, {0.5f, 0, -1}, 1.2f)).value();
        EXPECT_EQ(r.addMember(of(0, {0, 0, 0}, 0.0f)).error().message, "model 0 is full (max_members 2)");
        EXPECT_EQ(r.addMember(of(2, {0, 0, 0}, 0.0f)).error().message, "model 2 past the crowd's 2");
        EXPECT_EQ(r.addMember(of(1, {0, 0, 0}, 0.0f, uint32_t(fish.clips.size()))).error().message,
                  "clip " + std::to_string(fish.clips.size()) + " past the " + std::to_string(fish.clips.size()) +
                      " its model plays");
        EXPECT_EQ(r.setMember(f2, of(0, {0, 0, 0}, 0.0f)).message, "model 0 is full (max_members 2)");
        EXPECT_TRUE(r.removeMember(w2).ok());
        EXPECT_TRUE(r.setMember(f2, of(0, {1.0f, 0, 1}, -0.5f, 1)).ok()); // now a walker
        EXPECT_TRUE(r.addMember(of(1, {2.0f, 0.4f, -0.5f}, 2.0f)).ok());
        return std::move(created).value();
    };

    // The same members as records for the headless renderer.
    const BakedAsset* models[] = {&asset, &fish};
    Result<render::AssetLibrary> lib = render::buildAssetLibrary(models);
    ASSERT_TRUE(lib.ok());
    std::vector<std::pair<uint32_t, Member>> members;
    for (const Member& m : {of(1, {-2.0f, 0.5f, 0}, 0.4f), of(0, {-1.0f, 0, 0}, 0.3f, 1), of(0, {1.0f, 0, 1}, -0.5f, 1),
                            of(1, {2.0f, 0.4f, -0.5f}, 2.0f)})
        members.emplace_back(uint32_t(members.size()), m);
    const render::Crowd crowd = libraryCrowd(lib.value(), members);
    const glm::mat4 vp = camera(asset);
    // The hardware: pixel for pixel. The compute rasterizer: where two triangles tie in depth the
    // lower member wins, and the host's members are numbered otherwise than the headless crowd's,
    // so a few edge pixels may differ.
    for (const Raster raster : {Raster::Hardware, Raster::Compute})
        for (const bool culled : {true, false}) {
            SCOPED_TRACE(std::string(culled ? "culled" : "culling and LOD off") + ", raster " +
                         std::string(toString(raster)));
            desc.raster = raster;
            CullSettings cull;
            cull.cull = cull.lod = culled;
            std::unique_ptr<CrowdRenderer> r = edited(cull);
            ASSERT_NE(r, nullptr);
            const std::vector<uint8_t> embedded = host.frame(*r, 0, {vp, 0.6f}, nullptr);
            EXPECT_EQ(r->stats(0).members, 4u);
            r.reset();

            const Result<render::RenderOutput> headless =
                libraryPicture(host, lib.value(), crowd, vp, 0.6f, cull, raster);
            ASSERT_TRUE(headless.ok()) << headless.error().message;
            ASSERT_EQ(embedded.size(), headless.value().rgba.size());
            if (raster == Raster::Hardware) {
                EXPECT_EQ(embedded, headless.value().rgba);
            } else {
                size_t differ = 0;
                for (size_t i = 0; i < embedded.size(); i += 4)
                    differ += std::memcmp(&embedded[i], &headless.value().rgba[i], 4) != 0;
                EXPECT_LE(differ, embedded.size() / 4 / 100);
            }
            EXPECT_GT(pixelsNot(embedded, glm::u8vec4(embedded[0], embedded[1], embedded[2], embedded[3])), 200u);
        }
    desc.raster = Raster::Hardware;

    // palette: each member posed on the CPU from its own model's source animation, as the
    // host's edits leave the records; the picture differs from baked's only by the pose
    // sampling (exact keys against baked frames), so it is compared for coverage.
    desc.raster = Raster::Hardware;
    desc.technique = "palette";
    {
        std::unique_ptr<CrowdRenderer> posed = edited(CullSettings{});
        ASSERT_NE(posed, nullptr);
        const std::vector<uint8_t> picture = host.frame(*posed, 0, {vp, 0.6f}, nullptr);
        EXPECT_EQ(posed->stats(0).members, 4u);
        EXPECT_EQ(posed->stats(0).error, "");
        const Result<render::RenderOutput> baked_picture =
            libraryPicture(host, lib.value(), crowd, vp, 0.6f, CullSettings{}, Raster::Hardware);
        ASSERT_TRUE(baked_picture.ok()) << baked_picture.error().message;
        size_t covered = 0, baked_covered = 0;
        for (size_t i = 0; i < picture.size(); i += 4) {
            covered += std::memcmp(&picture[i], &picture[0], 4) != 0;
            baked_covered += std::memcmp(&baked_picture.value().rgba[i], &baked_picture.value().rgba[0], 4) != 0;
        }
        EXPECT_GT(covered, 100u);
        EXPECT_NEAR(double(covered), double(baked_covered), 0.1 * double(baked_covered));
    }
    desc.technique = "baked";

    // Simulated: throng deals the members in the proportions of the models' max_members.
    desc.simulate = true;
    desc.cull = CullSettings{};
    Result<std::unique_ptr<CrowdRenderer>> simulated = CrowdRenderer::create(host.device->device(), desc);
    ASSERT_TRUE(simulated.ok()) << simulated.error().message;
    EXPECT_EQ(simulated.value()->memberCount(), 5u);
    host.frame(*simulated.value(), 0, {vp, 1.0f}, nullptr);
    EXPECT_EQ(simulated.value()->stats(0).members, 5u);
    EXPECT_EQ(simulated.value()->stats(0).error, "");
    simulated.value().reset();
    desc.simulate = false;

    desc.asset = &asset; // both: refused
    EXPECT_EQ(CrowdRenderer::create(host.device->device(), desc).error().message,
              "CrowdRendererDesc: asset or models, not both (one model: asset)");
    desc.asset = nullptr;
    desc.technique = "cpu";
    EXPECT_EQ(CrowdRenderer::create(host.device->device(), desc).error().message, mixedCrowdProblem("cpu"));
    EXPECT_EQ(host.device->validationErrors(), 0u);
}

// The member calls of a crowd of several models, one of them a kit (builtin:kit: its parts chosen
// by each member's id), in random order (add, set, remove; ids reused;
// models changed; bad models, clips, stale ids and full models among them), each checked at once
// against a plain CPU model of the crowd (ids, each member's model and fields, live counts per
// model); every so often a frame, whose counts must be the CPU's, and at the end the picture,
// which must be the headless renderer's of the CPU's members. A seeded stateful fuzzer, brief
// enough for every test run.
TEST(Embed, MemberCallsOverSeveralModelsAgreeWithACpuModel) {
    const BakedAsset asset = walker();
    Result<BakedAsset> baked_fish = bake(makeFish(), BakeOptions{});
    ASSERT_TRUE(baked_fish.ok());
    const BakedAsset& fish = baked_fish.value();
    Result<BakedAsset> baked_kit = bake(makeKit(), BakeOptions{}); // parts chosen by each member's id
    ASSERT_TRUE(baked_kit.ok());
    const BakedAsset& kit = baked_kit.value();
    const BakedAsset* assets[] = {&asset, &fish, &kit};
    const uint32_t capacity[] = {5, 3, 4};
    Host host;
    CrowdRendererDesc desc;
    for (int m = 0; m < 3; ++m) desc.models.push_back({assets[m], capacity[m]});
    desc.technique = "baked";
    desc.extent = {kWidth, kHeight};
    Result<std::unique_ptr<CrowdRenderer>> created = CrowdRenderer::create(host.device->device(), desc);
    ASSERT_TRUE(created.ok()) << created.error().message;
    CrowdRenderer& r = *created.value();

    std::mt19937 rng(2026);
    auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
    std::map<uint32_t, Member> live; // the CPU's crowd: id -> member
    std::vector<MemberId> dead;      // removed ids, which must stay unknown
    uint32_t per_model[3] = {0, 0, 0};
    uint32_t added = 0, moved = 0, removed = 0, refused = 0; // what the run exercised
    auto randomMember = [&] {
        Member m;
        m.model = pick(10) == 0 ? 3 : pick(3); // now and then a model the crowd has not
        const uint32_t clips = uint32_t(assets[std::min(m.model, 2u)]->clips.size());
        m.clip = pick(12) == 0 ? clips : pick(clips); // now and then one past its clips
        m.blend_clip = pick(clips);
        m.position = glm::vec3(float(pick(9)) - 4.0f, 0.0f, float(pick(5)) - 2.0f);
        m.heading = float(pick(628)) * 0.01f;
        return m;
    };
    auto valid = [&](const Member& m) { return m.model < 3 && m.clip < assets[m.model]->clips.size(); };
    auto anyId = [&] {
        if (!dead.empty() && pick(4) == 0) return dead[pick(uint32_t(dead.size()))];
        if (live.empty()) return MemberId{};
        auto it = live.begin();
        std::advance(it, pick(uint32_t(live.size())));
        return MemberId{it->first};
    };
    const glm::mat4 vp = camera(asset);
    for (int op = 0; op < 1500; ++op) {
        SCOPED_TRACE("operation " + std::to_string(op));
        const uint32_t kind = pick(3);
        if (kind == 0) { // add
            const Member m = randomMember();
            const bool fits = valid(m) && per_model[m.model] < capacity[m.model];
            Result<MemberId> id = r.addMember(m);
            ASSERT_EQ(id.ok(), fits) << (id.ok() ? "" : id.error().message);
            if (fits) {
                ASSERT_EQ(live.count(id.value().value), 0u) << "an id in use given again";
                live[id.value().value] = m;
                ++per_model[m.model];
                ++added;
            } else {
                ++refused;
                EXPECT_EQ(id.error().message.find('\n'), std::string::npos);
            }
        } else if (kind == 1) { // set
            const MemberId id = anyId();
            Member m = randomMember();
            const auto it = live.find(id.value);
            const bool known = it != live.end();
            const bool fits =
                known && valid(m) && (m.model == it->second.model || per_model[m.model] < capacity[m.model]);
            ASSERT_EQ(r.setMember(id, m).ok(), fits);
            if (fits) {
                moved += m.model != it->second.model ? 1 : 0;
                --per_model[it->second.model];
                ++per_model[m.model];
                it->second = m;
            }
        } else { // remove
            const MemberId id = anyId();
            const bool known = live.count(id.value) > 0;
            ASSERT_EQ(r.removeMember(id).ok(), known);
            if (known) {
                --per_model[live[id.value].model];
                live.erase(id.value);
                dead.push_back(id);
                ++removed;
            }
        }
        // The crowd as the CPU has it.
        ASSERT_EQ(r.memberCount(), live.size());
        for (const MemberId id : dead) {
            if (live.count(id.value) == 0) {
                ASSERT_FALSE(r.member(id).has_value());
            }
        }
        for (const auto& [id, m] : live) {
            const std::optional<Member> got = r.member(MemberId{id});
            ASSERT_TRUE(got.has_value());
            ASSERT_EQ(got->model, m.model);
            ASSERT_EQ(got->clip, m.clip);
            ASSERT_EQ(got->position, m.position);
        }
        if (op % 150 == 149) {
            host.frame(r, uint32_t(op / 150) % 2, {vp, 0.5f}, nullptr);
            const FrameStats stats = r.stats(uint32_t(op / 150) % 2);
            ASSERT_EQ(stats.error, "");
            ASSERT_EQ(stats.members, live.size());
            ASSERT_LE(stats.visible, live.size());
        }
    }
    EXPECT_GT(added, 200u);
    EXPECT_GT(removed, 200u);
    EXPECT_GT(moved, 50u);
    EXPECT_GT(refused, 100u);
    // The last picture: the headless renderer's of the CPU's members (the kit's members wearing
    // the parts their ids choose).
    const std::vector<uint8_t> embedded = host.frame(r, 0, {vp, 0.5f}, nullptr);
    const BakedAsset* models[] = {&asset, &fish, &kit};
    Result<render::AssetLibrary> lib = render::buildAssetLibrary(models);
    ASSERT_TRUE(lib.ok());
    const render::Crowd crowd =
        libraryCrowd(lib.value(), std::vector<std::pair<uint32_t, Member>>(live.begin(), live.end()));
    ASSERT_FALSE(crowd.instances.empty());
    const Result<render::RenderOutput> headless =
        libraryPicture(host, lib.value(), crowd, vp, 0.5f, CullSettings{}, Raster::Hardware);
    ASSERT_TRUE(headless.ok()) << headless.error().message;
    size_t differ = 0;
    for (size_t i = 0; i < embedded.size(); i += 4)
        if (std::memcmp(&embedded[i], &headless.value().rgba[i], 4) != 0) ++differ;
    // Members may stand in one another (the layout is random): where two are at the same depth the
    // draw order, which differs, decides; nothing else may.
    EXPECT_LT(differ, embedded.size() / 4 / 200) << "pixels of " << embedded.size() / 4;
    EXPECT_GT(pixelsNot(embedded, glm::u8vec4(embedded[0], embedded[1], embedded[2], embedded[3])), 100u);
    created.value().reset();
    EXPECT_EQ(host.device->validationErrors(), 0u);
}

// Motion vectors through the render API (CrowdRendererDesc::velocity_format, RenderTarget::velocity):
// two members moved the same 1.5 units to the right between frames, the host saying one of them
// teleported: that one draws without motion, the other moves right by what the camera makes of
// 1.5 units (the same from the velocity image and from the members' projected positions). A
// format other than RG16F or RG32F is refused at create(); a target without a velocity image for
// a renderer that writes one (and the other way round) stops the frame with a reason. A member
// moved into a removed member's slot keeps its own motion (none, standing still).
TEST(Embed, MotionVectorsAndTeleports) {
    const BakedAsset asset = walker();
    Host host;
    CrowdRendererDesc desc;
    desc.asset = &asset;
    desc.technique = "baked";
    desc.max_members = 4;
    desc.extent = host.extent;
    desc.velocity_format = VK_FORMAT_R8G8_UNORM;
    EXPECT_NE(CrowdRenderer::create(host.device->device(), desc).error().message.find("velocity_format"),
              std::string::npos);
    desc.velocity_format = VK_FORMAT_R16G16_SFLOAT;
    Result<std::unique_ptr<CrowdRenderer>> created = CrowdRenderer::create(host.device->device(), desc);
    ASSERT_TRUE(created.ok()) << created.error().message;
    CrowdRenderer& r = *created.value();
    gpu::Image velocity = gpu::createImage(host.allocator, VK_FORMAT_R16G16_SFLOAT, kWidth, kHeight, 1,
                                           VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    gpu::Buffer readback = gpu::createBuffer(host.allocator, VkDeviceSize(kWidth) * kHeight * 4,
                                             VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Readback);
    const Member a = at(glm::vec3(-2.5f, 0.0f, 0.0f), 0.0f), b = at(glm::vec3(0.5f, 0.0f, 0.0f), 0.0f);
    const MemberId ida = r.addMember(a).value(), idb = r.addMember(b).value();
    const glm::mat4 vp = render::frameBounds({glm::vec3(-3.0f, 0.0f, -1.0f), glm::vec3(3.5f, 2.0f, 1.0f)},
                                             float(kWidth) / float(kHeight));
    auto frame = [&](bool with_velocity) {
        FrameInput in;
        in.view_projection = vp;
        in.time = 0.5f; // the same pose in both frames: only the moves make motion
        r.update(0, in);
        VkCommandBuffer cmd = gpu::beginOneTime(*host.ctx);
        RenderTarget t = host.target(VK_IMAGE_LAYOUT_UNDEFINED);
        if (with_velocity) {
            t.velocity = velocity.image;
            t.velocity_view = velocity.view;
        }
        r.record(cmd, 0, t);
        if (with_velocity) {
            gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                               VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                               VK_ACCESS_2_TRANSFER_READ_BIT);
            gpu::transitionImage(cmd, velocity.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
            VkBufferImageCopy region{};
            region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            region.imageExtent = {kWidth, kHeight, 1};
            vkCmdCopyImageToBuffer(cmd, velocity.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1,
                                   &region);
            gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                               VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        }
        gpu::endOneTimeAndWait(*host.ctx, cmd);
    };
    frame(true);
    EXPECT_TRUE(r.stats(0).error.empty()) << r.stats(0).error;
    Member a2 = a, b2 = b;
    a2.position.x += 1.5f;
    b2.position.x += 1.5f;
    ASSERT_TRUE(r.setMember(ida, a2).ok());
    ASSERT_TRUE(r.setMember(idb, b2).ok());
    ASSERT_TRUE(r.teleported(ida).ok());
    EXPECT_FALSE(r.teleported(MemberId{12345}).ok());
    frame(true);
    EXPECT_TRUE(r.stats(0).error.empty()) << r.stats(0).error;
    // Each member's pixels: those left and right of the midpoint between them.
    auto screenX = [&](glm::vec3 p) {
        const glm::vec4 c = vp * glm::vec4(p, 1.0f);
        return (c.x / c.w * 0.5f + 0.5f) * float(kWidth);
    };
    const float middle = screenX(glm::vec3(0.5f * (a2.position.x + b2.position.x), 1.0f, 0.0f));
    const float expected = screenX(b2.position + glm::vec3(0, 1, 0)) - screenX(b.position + glm::vec3(0, 1, 0));
    const uint32_t* v = static_cast<const uint32_t*>(readback.mapped());
    size_t still = 0, moving = 0;
    double largest_still = 0.0, sum_x = 0.0;
    for (uint32_t y = 0; y < kHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x) {
            const glm::vec2 m = glm::unpackHalf2x16(v[size_t(y) * kWidth + x]);
            if (m == glm::vec2(0.0f) && float(x) + 0.5f >= middle) continue; // not B (B moves everywhere)
            if (float(x) + 0.5f < middle) {
                largest_still = std::max(largest_still, double(glm::length(m)));
                ++still;
            } else {
                sum_x += m.x;
                ++moving;
            }
        }
    ASSERT_GT(moving, 100u);
    std::printf("teleported: largest motion %.5f px; moved: %zu pixels, mean %.2f px right (its centre: %.2f)\n",
                largest_still, moving, sum_x / double(moving), expected);
    EXPECT_LT(largest_still, 1e-3);
    EXPECT_NEAR(sum_x / double(moving), expected, 0.05 * expected);
    // A member that fills a removed one's slot keeps its own history: the last member (B) moves
    // into A's slot and, standing still, has no motion.
    ASSERT_TRUE(r.removeMember(ida).ok());
    frame(true);
    double largest = 0.0;
    for (size_t i = 0; i < size_t(kWidth) * kHeight; ++i)
        largest = std::max(largest, double(glm::length(glm::unpackHalf2x16(v[i]))));
    std::printf("after a removal, the member moved into its slot: largest motion %.5f px\n", largest);
    EXPECT_LT(largest, 1e-3);
    frame(false); // the renderer writes motion vectors: the target needs one
    EXPECT_NE(r.stats(0).error.find("velocity image"), std::string::npos);
    created.value().reset();
    gpu::destroyBuffer(host.allocator, readback);
    gpu::destroyImage(host.allocator, velocity);
}
