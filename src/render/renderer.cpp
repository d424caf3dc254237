// Headless crowd rendering; see renderer.h.
#include "renderer.h"

#include "../gpu/frame.h"


#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>

namespace throng::render {

namespace {

constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_SRGB;  // shaders write linear; PNG bytes come out sRGB
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

struct FrameSlot : gpu::FrameSlot {
    bool pending = false;
    uint32_t frame = 0;  // the frame it last submitted
};

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

constexpr uint32_t kTimestamps = 3;  // frame begin, crowd pass begin, end

// Fills the GPU times of `sample` from the slot's timestamps (none: they stay 0).
void readTimestamps(const gpu::Context& ctx, VkQueryPool pool, FrameSample& sample) {
    if (pool == VK_NULL_HANDLE) return;
    uint64_t t[kTimestamps] = {};
    VK_CHECK(vkGetQueryPoolResults(ctx.device, pool, 0, kTimestamps, sizeof t, t, sizeof(uint64_t),
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    const double to_ms = double(ctx.properties.limits.timestampPeriod) * 1e-6;
    sample.gpu_upload_ms = double(t[1] - t[0]) * to_ms;
    sample.gpu_crowd_ms = double(t[2] - t[1]) * to_ms;
    sample.gpu_frame_ms = double(t[2] - t[0]) * to_ms;
}

} // namespace

gpu::shader::DrawConstants crowdConstants(const glm::mat4& view_projection, float time, const GpuAsset& asset) {
    gpu::shader::DrawConstants c{};
    c.view_projection = view_projection;
    c.light_direction = glm::vec4(glm::normalize(glm::vec3(-0.4f, -1.0f, -0.5f)), 0.35f);
    c.time = time;
    c.joint_count = asset.joint_count;
    c.vertex_count = asset.vertex_count;
    return c;
}

glm::mat4 frameBounds(const Bounds& b, float aspect) {
    const glm::vec3 center = 0.5f * (b.min + b.max);
    const float radius = std::max(0.5f * glm::length(b.max - b.min), 1e-4f);
    const float fov = glm::radians(40.0f);
    const glm::vec3 direction = glm::normalize(glm::vec3(0.35f, 0.55f, 1.0f));
    auto camera = [&](float distance) {
        const glm::vec3 eye = center + direction * distance;
        const glm::mat4 view = glm::lookAtRH(eye, center, glm::vec3(0, 1, 0));
        // Reversed Z (near -> 1, far -> 0) for precision over large crowds.
        glm::mat4 proj = glm::perspectiveRH_ZO(fov, aspect, distance + 2.0f * radius, std::max(distance - radius, radius * 1e-3f));
        proj[1][1] *= -1.0f;  // Vulkan's y points down
        return proj * view;
    };
    auto fits = [&](const glm::mat4& vp) {
        for (int i = 0; i < 8; ++i) {
            const glm::vec3 corner((i & 1) ? b.max.x : b.min.x, (i & 2) ? b.max.y : b.min.y, (i & 4) ? b.max.z : b.min.z);
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

Result<RenderOutput> renderCrowd(gpu::Allocator& a, const GpuAsset& asset, const Crowd& crowd, const glm::mat4& view_projection,
                                 const RenderSettings& s) {
    const gpu::Context& ctx = *a.context;
    TechniqueSetup setup;
    setup.allocator = &a;
    setup.asset = &asset;
    setup.instances = &crowd.instances;
    setup.color_format = kColorFormat;
    setup.depth_format = kDepthFormat;
    setup.frames_in_flight = kFramesInFlight;
    setup.swim = s.swim;
    BakedAssetMesh mesh;
    if (s.baked != nullptr) {
        setup.source = &s.baked->source;
        if (s.technique == "cpu") mesh = cpuMesh(*s.baked);
        setup.mesh = &mesh;
    }
    setup.encoding = s.encoding;
    setup.bone_precision = s.bone_precision;
    setup.storage_buffer_limit = s.storage_buffer_limit;
    if (s.capture && s.frames != 1) return Error{"capture renders exactly one frame"};
    if (s.capture && !ctx.vertex_stores) return Error{"capture needs vertexPipelineStoresAndAtomics, which this device lacks"};
    // Everything made below, freed on every path; after a failure the GPU may still be running
    // submitted frames (or be lost): wait for it, ignoring the result, before freeing.
    gpu::Buffer capture, readback;
    gpu::Image color, depth;
    std::unique_ptr<Technique> technique;
    std::array<FrameSlot, kFramesInFlight> slots;
    auto release = [&] {
        for (FrameSlot& f : slots) gpu::destroyFrameSlot(ctx, f);
        technique.reset();
        gpu::destroyBuffer(a, capture);
        gpu::destroyBuffer(a, readback);
        gpu::destroyImage(a, depth);
        gpu::destroyImage(a, color);
    };
    try {
        if (s.capture) {
            const size_t count = std::max<size_t>(crowd.instances.size() * asset.vertex_count, 1);
            capture = gpu::createBuffer(a, count * sizeof(glm::vec4), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryUse::Readback);
            std::fill_n(static_cast<glm::vec4*>(capture.mapped()), count, glm::vec4(std::numeric_limits<float>::quiet_NaN()));
            setup.capture = capture.buffer;
        }
        Result<std::unique_ptr<Technique>> created = createTechnique(s.technique, setup);
        if (!created) {
            release();
            return created.error();
        }
        technique = std::move(created).value();
        RenderOutput out;
        out.width = s.width;
        out.height = s.height;
        color = gpu::createImage(a, kColorFormat, s.width, s.height, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
        depth = gpu::createImage(a, kDepthFormat, s.width, s.height, 1, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                                            VK_IMAGE_ASPECT_DEPTH_BIT);
        readback = gpu::createBuffer(a, VkDeviceSize(s.width) * s.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Readback);

        for (FrameSlot& f : slots) static_cast<gpu::FrameSlot&>(f) = gpu::createFrameSlot(ctx, kTimestamps);

        const uint32_t frames = std::max(s.frames, 1u);
        out.frames.resize(frames);
        out.technique = std::string(technique->name());
        for (uint32_t i = 0; i < frames; ++i) {
            FrameSlot& f = slots[i % kFramesInFlight];
            VK_CHECK(vkWaitForFences(ctx.device, 1, &f.fence, VK_TRUE, UINT64_MAX));
            if (f.pending) {
                readTimestamps(ctx, f.queries, out.frames[f.frame]);
                f.pending = false;
            }
            const float time = s.time - float(frames - 1 - i) * s.frame_step;
            technique->update(i % kFramesInFlight, time);
            out.frames[i].cpu = technique->stats();
            const auto record_start = std::chrono::steady_clock::now();
            gpu::beginFrame(ctx, f, kTimestamps);
            technique->recordTransfers(f.cmd, i % kFramesInFlight);
            gpu::transitionImage(f.cmd, color.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
            gpu::transitionImage(f.cmd, depth.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT);
            gpu::writeTimestamp(f.cmd, f, 1);

            VkRenderingAttachmentInfo ca{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
            ca.imageView = color.view;
            ca.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
            ca.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
            ca.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
            ca.clearValue.color = kBackground;
            VkRenderingAttachmentInfo da{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
            da.imageView = depth.view;
            da.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
            da.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
            da.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
            da.clearValue.depthStencil = {0.0f, 0};
            VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
            ri.renderArea = {{0, 0}, {s.width, s.height}};
            ri.layerCount = 1;
            ri.colorAttachmentCount = 1;
            ri.pColorAttachments = &ca;
            ri.pDepthAttachment = &da;
            vkCmdBeginRendering(f.cmd, &ri);
            const VkViewport viewport{0.0f, 0.0f, float(s.width), float(s.height), 0.0f, 1.0f};
            const VkRect2D scissor{{0, 0}, {s.width, s.height}};
            vkCmdSetViewport(f.cmd, 0, 1, &viewport);
            vkCmdSetScissor(f.cmd, 0, 1, &scissor);
            technique->record(f.cmd, i % kFramesInFlight, crowdConstants(view_projection, time, asset));
            vkCmdEndRendering(f.cmd);
            gpu::writeTimestamp(f.cmd, f, 2);

            if (i + 1 == frames && s.capture)
                gpu::memoryBarrier(f.cmd, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                                   VK_ACCESS_2_HOST_READ_BIT);
            if (i + 1 == frames && s.readback) {
                gpu::transitionImage(f.cmd, color.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
                VkBufferImageCopy region{};
                region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
                region.imageExtent = {s.width, s.height, 1};
                vkCmdCopyImageToBuffer(f.cmd, color.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &region);
                gpu::memoryBarrier(f.cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                                   VK_ACCESS_2_HOST_READ_BIT);
            }
            VK_CHECK(vkEndCommandBuffer(f.cmd));
            out.frames[i].cpu_record_ms = millisecondsSince(record_start);
            VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
            cbi.commandBuffer = f.cmd;
            VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
            si.commandBufferInfoCount = 1;
            si.pCommandBufferInfos = &cbi;
            VK_CHECK(vkQueueSubmit2(ctx.queue, 1, &si, f.fence));
            f.pending = true;
            f.frame = i;
        }
        for (uint32_t k = 0; k < kFramesInFlight; ++k) {
            // Drain in submission order so the timings stay in frame order.
            FrameSlot& f = slots[(frames + k) % kFramesInFlight];
            VK_CHECK(vkWaitForFences(ctx.device, 1, &f.fence, VK_TRUE, UINT64_MAX));
            if (f.pending) {
                readTimestamps(ctx, f.queries, out.frames[f.frame]);
                f.pending = false;
            }
        }
        if (s.readback) {
            out.rgba.resize(size_t(s.width) * s.height * 4);
            std::memcpy(out.rgba.data(), readback.mapped(), out.rgba.size());
        }
        // Frame 0 pays for pipeline compilation on some drivers: medians skip it when there are more.
        std::vector<double> upload_ms, crowd_ms;
        for (uint32_t i = frames > 1 ? 1 : 0; i < frames; ++i) {
            upload_ms.push_back(out.frames[i].gpu_upload_ms);
            crowd_ms.push_back(out.frames[i].gpu_crowd_ms);
        }
        out.gpu_times = ctx.timestamps;
        if (out.gpu_times) {
            out.passes.push_back({"upload", median(upload_ms)});
            out.passes.push_back({"crowd", median(crowd_ms)});
        }
        out.triangles = uint64_t(asset.index_count / 3) * crowd.instances.size();

        if (s.capture) {
            const glm::vec4* p = static_cast<const glm::vec4*>(capture.mapped());
            out.positions.assign(p, p + crowd.instances.size() * asset.vertex_count);
        }
        release();
        return out;
    } catch (const gpu::GpuError& e) {  // out of memory, a lost device
        vkDeviceWaitIdle(ctx.device);
        release();
        return Error{e.what()};
    }
}

} // namespace throng::render
