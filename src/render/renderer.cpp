// Headless crowd rendering; see renderer.h.
#include "renderer.h"

#include "../gpu/frame.h"
#include "../gpu/passes.h"
#include "taa.h"

#include <throng/camera.h>
#include <throng/render.h>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/packing.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

namespace throng::render {

namespace {

constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

} // namespace

gpu::shader::DrawConstants crowdConstants(const glm::mat4& view_projection, float time, const GpuAsset& asset,
                                          const glm::vec3& light_direction) {
    gpu::shader::DrawConstants c{};
    c.view_projection = view_projection;
    c.light_direction = glm::vec4(glm::normalize(light_direction), kAmbientLight);
    c.time = time;
    c.joint_count = asset.joint_count;
    c.vertex_count = asset.vertex_count;
    return c;
}

Camera overviewCamera(const Bounds& b, float aspect) {
    const glm::vec3 center = 0.5f * (b.min + b.max);
    const float radius = std::max(0.5f * glm::length(b.max - b.min), 1e-4f);
    const float fov = glm::radians(40.0f);
    const glm::vec3 direction = glm::normalize(glm::vec3(0.35f, 0.55f, 1.0f));
    auto camera = [&](float distance) {
        Camera c;
        c.eye = center + direction * distance;
        c.target = center;
        c.fov_y_degrees = glm::degrees(fov);
        c.near_plane = std::max(distance - radius, radius * 1e-3f);
        c.far_plane = distance + 2.0f * radius;
        return c;
    };
    auto fits = [&](const Camera& placed) {
        const glm::mat4 vp =
            viewProjection(placed, aspect); // reversed Z (throng/camera.h): precision over large crowds
        for (int i = 0; i < 8; ++i) {
            const glm::vec3 corner((i & 1) ? b.max.x : b.min.x, (i & 2) ? b.max.y : b.min.y,
                                   (i & 4) ? b.max.z : b.min.z);
            const glm::vec4 c = vp * glm::vec4(corner, 1.0f);
            if (c.w <= 0.0f || std::fabs(c.x) > 0.95f * c.w || std::fabs(c.y) > 0.95f * c.w) return false;
        }
        return true;
    };
    // The bounding sphere always fits; then move closer while the box's corners still do.
    const float half_fov = aspect >= 1.0f ? fov * 0.5f : std::atan(std::tan(fov * 0.5f) * aspect);
    float far_enough = radius / std::sin(half_fov), too_close = radius;
    for (int i = 0; i < 24; ++i) {
        const float mid = 0.5f * (far_enough + too_close);
        (fits(camera(mid)) ? far_enough : too_close) = mid;
    }
    return camera(far_enough);
}

glm::mat4 frameBounds(const Bounds& b, float aspect) { return viewProjection(overviewCamera(b, aspect), aspect); }

Result<RenderOutput> renderCrowd(gpu::Allocator& a, const GpuAsset& asset, const Crowd& crowd,
                                 const glm::mat4& view_projection, const RenderSettings& s) {
    const gpu::Context& ctx = *a.context;
    if (s.capture && s.frames != 1) return Error{"capture renders exactly one frame"};
    if (s.taa && !ctx.depth_sampled) return Error{"TAA reads the depth, and this device cannot sample D32_SFLOAT"};
    if (s.capture && !ctx.vertex_stores)
        return Error{"capture needs vertexPipelineStoresAndAtomics, which this device lacks"};
    // Everything made below is owned here and freed on every path, the frame slots first, the
    // renderer next, then the targets; after a failure the GPU may still be running submitted
    // frames (or be lost): the catch waits for it, ignoring the result, before they are freed.
    gpu::OwnedBuffer capture, readback, depth_readback, velocity_readback;
    std::array<gpu::OwnedBuffer, kFramesInFlight> kept_readback; // per slot (keep_frames)
    gpu::OwnedImage color, depth, velocity_image;
    std::unique_ptr<TemporalAA> taa;
    std::unique_ptr<CrowdRenderer> renderer;
    struct Slot : gpu::FrameSlot {
        const gpu::Context* context = nullptr; // set once made
        bool pending = false;
        uint32_t frame = 0; // the frame it last submitted
        Slot() = default;
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;
        ~Slot() {
            if (context != nullptr) gpu::destroyFrameSlot(*context, *this);
        }
    };
    std::array<Slot, kFramesInFlight> slots;
    try {
        CrowdRendererSetup setup = s; // the crowd's options as given, then what this render decides
        setup.members = crowd.instances;
        setup.capacity = 0;
        setup.clip_bounds = crowd.clip_bounds;
        setup.color_format = kColorFormat;
        setup.depth_format = kDepthFormat;
        const bool velocity = s.velocity || s.taa; // TAA reprojects by the vectors
        setup.velocity_format = velocity ? kVelocityFormat : VK_FORMAT_UNDEFINED;
        setup.extent = {s.width, s.height};
        setup.frames_in_flight = kFramesInFlight;
        // Capture records every vertex of every member: nothing culled.
        if (s.capture) setup.cull = CullSettings{false, false, 0.0f, false};
        if (setup.shadows.area.min == setup.shadows.area.max) setup.shadows.area = crowd.bounds;
        if (s.capture) {
            const size_t count = std::max<size_t>(crowd.instances.size() * asset.vertex_count, 1);
            capture = gpu::ownBuffer(a, count * sizeof(glm::vec4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                     gpu::MemoryUse::Readback);
            std::fill_n(static_cast<glm::vec4*>(capture->mapped()), count,
                        glm::vec4(std::numeric_limits<float>::quiet_NaN()));
            setup.hooks.capture = capture->buffer;
        }
        Result<std::unique_ptr<CrowdRenderer>> created = CrowdRenderer::create(a, asset, setup);
        if (!created) return created.error();
        renderer = std::move(created).value();
        RenderOutput out;
        out.width = s.width;
        out.height = s.height;
        // With TAA the pass reads the frame's colour (sampled) and writes its picture back
        // through a storage view (taa.h: TaaFrame::color_storage); the clear by compute writes
        // through it too (target_clear.h).
        const VkImageUsageFlags color_usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                              (s.taa ? VkImageUsageFlags(VK_IMAGE_USAGE_SAMPLED_BIT) : 0u);
        color = gpu::OwnedImage(a, s.taa || s.clear_by_compute
                                       ? gpu::createImageWithStorageView(a, kColorFormat, VK_FORMAT_R8G8B8A8_UNORM,
                                                                         s.width, s.height, color_usage)
                                       : gpu::createImage(a, kColorFormat, s.width, s.height, 1, color_usage));
        // Sampled too where occlusion culling can build its depth pyramid from it.
        depth = gpu::OwnedImage(
            a, gpu::createImage(a, kDepthFormat, s.width, s.height, 1,
                                VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                    (ctx.depth_pyramid || s.taa ? VkImageUsageFlags(VK_IMAGE_USAGE_SAMPLED_BIT) : 0u) |
                                    (s.read_depth ? VkImageUsageFlags(VK_IMAGE_USAGE_TRANSFER_SRC_BIT) : 0u),
                                VK_IMAGE_ASPECT_DEPTH_BIT));
        readback = gpu::ownBuffer(a, VkDeviceSize(s.width) * s.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                  gpu::MemoryUse::Readback);
        if (s.read_depth)
            depth_readback = gpu::ownBuffer(a, VkDeviceSize(s.width) * s.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                            gpu::MemoryUse::Readback);
        if (velocity) {
            const VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                            (s.taa ? VkImageUsageFlags(VK_IMAGE_USAGE_SAMPLED_BIT) : 0u);
            // Cleared by compute through an R32_UINT view (no storage format feature needed).
            velocity_image = gpu::OwnedImage(
                a, s.clear_by_compute ? gpu::createImageWithStorageView(a, kVelocityFormat, VK_FORMAT_R32_UINT, s.width,
                                                                        s.height, usage)
                                      : gpu::createImage(a, kVelocityFormat, s.width, s.height, 1, usage));
            velocity_readback = gpu::ownBuffer(a, VkDeviceSize(s.width) * s.height * 4,
                                               VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Readback);
        }
        if (s.taa) taa = std::make_unique<TemporalAA>(a, VkExtent2D{s.width, s.height});
        gpu::FrameTargets targets;
        if (velocity) {
            targets.velocity = velocity_image->image;
            targets.velocity_view = velocity_image->view;
        }
        if (s.clear_by_compute) {
            targets.color_storage_view = color->storage_view;
            if (velocity) targets.velocity_storage_view = velocity_image->storage_view;
        }
        targets.color = color->image;
        targets.color_view = color->view;
        targets.depth = depth->image;
        targets.depth_view = depth->view;
        targets.extent = {s.width, s.height};
        targets.clear = kBackground;
        targets.settle = true;
        for (Slot& f : slots) {
            static_cast<gpu::FrameSlot&>(f) = gpu::createFrameSlot(ctx, 0);
            f.context = &ctx;
        }

        const uint32_t frames = std::max(s.frames, 1u);
        out.frames.resize(frames);
        out.technique = std::string(renderer->techniqueName());
        out.raster = renderer->rasterMode();
        out.notes = renderer->notes();
        auto finish = [&](uint32_t slot) {
            Slot& f = slots[slot];
            VK_CHECK(vkWaitForFences(ctx.device, 1, &f.fence, VK_TRUE, UINT64_MAX));
            if (!f.pending) return;
            out.frames[f.frame] = renderer->collect(slot);
            f.pending = false;
            if (f.frame + s.keep_frames >= frames && f.frame + 1 < frames && s.readback) {
                const uint8_t* p = static_cast<const uint8_t*>(kept_readback[slot]->mapped());
                out.kept.emplace_back(p, p + size_t(s.width) * s.height * 4);
            }
        };
        // Frame 0 drawn again while the GPU settles (RenderSettings::settle_seconds).
        const auto settle_end =
            std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                   std::chrono::duration<double>(std::max(s.settle_seconds, 0.0f)));
        uint32_t submitted = 0;
        for (uint32_t i = 0; i < frames; ++submitted) {
            if (s.progress) s.progress(i, frames);
            const uint32_t slot = submitted % kFramesInFlight;
            Slot& f = slots[slot];
            finish(slot);
            glm::mat4 vp = s.before_frame ? s.before_frame(i, *renderer) : view_projection;
            if (taa) vp = taa->jitter(vp);
            renderer->update(slot, vp, s.time - float(frames - 1 - i) * s.frame_step, s.light_direction);
            gpu::beginFrame(ctx, f, 0);
            std::vector<gpu::Pass> after;
            if (taa) {
                TaaFrame frame{targets};
                frame.color_storage = color->storage_view;
                after.push_back(taa->pass(frame));
            }
            renderer->record(f.cmd, slot, targets, ctx.depth_pyramid || s.taa, after);
            if (i + 1 == frames && s.capture)
                gpu::memoryBarrier(f.cmd, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                                   VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
            // `image` (in `layout`, of `aspect`) copied into `to` whole; the image left a transfer source.
            auto copyOut = [&](VkImage image, VkImageLayout layout, VkImageAspectFlags aspect, VkBuffer to) {
                gpu::transitionImage(f.cmd, image, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, aspect);
                VkBufferImageCopy region{};
                region.imageSubresource = {aspect, 0, 0, 1};
                region.imageExtent = {s.width, s.height, 1};
                vkCmdCopyImageToBuffer(f.cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, to, 1, &region);
            };
            const VkImageLayout drawn = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
            if (i + s.keep_frames >= frames && i + 1 < frames && s.readback) { // a kept frame's picture
                if (!kept_readback[slot]->buffer)
                    kept_readback[slot] = gpu::ownBuffer(a, VkDeviceSize(s.width) * s.height * 4,
                                                         VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Readback);
                copyOut(color->image, drawn, VK_IMAGE_ASPECT_COLOR_BIT, kept_readback[slot]->buffer);
                gpu::transitionImage(f.cmd, color->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, drawn);
                gpu::memoryBarrier(f.cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                   VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
            }
            if (i + 1 == frames && s.readback) {
                copyOut(color->image, drawn, VK_IMAGE_ASPECT_COLOR_BIT, readback->buffer);
                if (s.read_depth)
                    copyOut(depth->image, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT,
                            depth_readback->buffer);
                if (s.velocity)
                    copyOut(velocity_image->image, drawn, VK_IMAGE_ASPECT_COLOR_BIT, velocity_readback->buffer);
                gpu::memoryBarrier(f.cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                   VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
            }
            VK_CHECK(vkEndCommandBuffer(f.cmd));
            VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
            cbi.commandBuffer = f.cmd;
            VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
            si.commandBufferInfoCount = 1;
            si.pCommandBufferInfos = &cbi;
            VK_CHECK(vkQueueSubmit2(ctx.queue, 1, &si, f.fence));
            f.pending = true;
            f.frame = i;
            const bool again = i == 0 && frames > 1 && std::chrono::steady_clock::now() < settle_end;
            if (!again) ++i;
        }
        // Drain in submission order so the timings stay in frame order.
        for (uint32_t k = 0; k < kFramesInFlight; ++k) finish((submitted + k) % kFramesInFlight);
        if (s.readback) {
            out.rgba.resize(size_t(s.width) * s.height * 4);
            std::memcpy(out.rgba.data(), readback->mapped(), out.rgba.size());
            if (s.keep_frames > 0) out.kept.push_back(out.rgba);
            if (s.read_depth) {
                out.depth.resize(size_t(s.width) * s.height);
                std::memcpy(out.depth.data(), depth_readback->mapped(), out.depth.size() * sizeof(float));
            }
            if (s.velocity) {
                const uint32_t* v = static_cast<const uint32_t*>(velocity_readback->mapped());
                out.velocity.resize(size_t(s.width) * s.height);
                for (size_t i = 0; i < out.velocity.size(); ++i) out.velocity[i] = glm::unpackHalf2x16(v[i]);
            }
        }
        // Every pass any frame had, in the last frame's order (the steady state: a crowd's first
        // frame is not occlusion-culled), a pass only earlier frames had after the one it followed
        // there; frame 0 pays for pipeline compilation on some drivers: medians skip it when there
        // are more.
        std::vector<std::string> pass_names = out.frames.back().pass_names;
        for (auto f = out.frames.rbegin(); f != out.frames.rend(); ++f) {
            auto at = pass_names.begin();
            for (const std::string& name : f->pass_names) {
                const auto found = std::find(pass_names.begin(), pass_names.end(), name);
                at = found != pass_names.end() ? found + 1 : pass_names.insert(at, name) + 1;
            }
        }
        out.gpu_times = ctx.timestamps;
        for (size_t p = 0; out.gpu_times && p < pass_names.size(); ++p) {
            std::vector<double> ms;
            for (uint32_t i = frames > 1 ? 1 : 0; i < frames; ++i) ms.push_back(out.frames[i].passMs(pass_names[p]));
            out.passes.push_back({pass_names[p], median(ms)});
        }
        out.drawn = out.frames.back().drawn;
        out.triangles = out.drawn.triangles;
        out.submitted_triangles = renderer->crowd().fullDetailTriangles();
        out.vertex_cache = renderer->vertexCacheStats();
        if (s.read_shadow_map && renderer->shadows() != nullptr) {
            const uint32_t last = (frames - 1) % kFramesInFlight;
            out.shadow_map = renderer->shadows()->readMap();
            out.shadow_light = renderer->shadows()->lightMatrix(last);
        }

        if (s.capture) {
            const glm::vec4* p = static_cast<const glm::vec4*>(capture->mapped());
            out.positions.assign(p, p + crowd.instances.size() * asset.vertex_count);
        }
        return out;
    } catch (const gpu::GpuError& e) { // out of memory, a lost device
        vkDeviceWaitIdle(ctx.device);
        return e.error();
    }
}

} // namespace throng::render
