// The crowd on the GPU and its culling pass; see crowd_gpu.h.
#include "crowd_gpu.h"
#include "frame_resources.h"
#include "views.h"

#include "../gpu/pipeline.h"
#include "../gpu/shader_blobs.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace throng::render {

using gpu::shader::CullParams;
using gpu::shader::CullPhase;
using gpu::shader::DrawCommand;

std::vector<LodRanges> assetLods(const GpuAsset& asset) {
    std::vector<LodRanges> out;
    for (const GpuLod& lod : asset.lods) {
        if (out.size() == THRONG_MAX_LODS) break;
        LodRanges r;
        r.error = lod.error;
        for (const BakedLodRange& range : lod.submeshes) r.ranges.push_back({range.first_index, range.index_count});
        out.push_back(std::move(r));
    }
    if (out.empty()) { // no levels: the mesh itself
        LodRanges base;
        for (const BakedSubmesh& s : asset.submeshes) base.ranges.push_back({s.first_index, s.index_count});
        out.push_back(std::move(base));
    }
    return out;
}

Status checkStorageRange(uint64_t limit, uint64_t bytes, const std::string& what) {
    if (bytes <= limit) return {};
    char text[320];
    std::snprintf(text, sizeof text,
                  "%s: %.2f GB in one buffer; this device's shaders read at most %.2f GB (maxStorageBufferRange): use "
                  "fewer instances",
                  what.c_str(), double(bytes) * 1e-9, double(limit) * 1e-9);
    return Status::failure(text, ErrorKind::Unsupported);
}

uint64_t lodTriangles(const LodRanges& lod) {
    uint64_t n = 0;
    for (const glm::uvec2& r : lod.ranges) n += r.y / 3;
    return n;
}

std::array<glm::vec4, 6> frustumPlanes(const glm::mat4& m) {
    const glm::vec4 r0(m[0][0], m[1][0], m[2][0], m[3][0]);
    const glm::vec4 r1(m[0][1], m[1][1], m[2][1], m[3][1]);
    const glm::vec4 r2(m[0][2], m[1][2], m[2][2], m[3][2]);
    const glm::vec4 r3(m[0][3], m[1][3], m[2][3], m[3][3]);
    std::array<glm::vec4, 6> planes = {r3 + r0, r3 - r0, r3 + r1, r3 - r1, r2, r3 - r2};
    for (glm::vec4& p : planes) p /= std::max(glm::length(glm::vec3(p)), 1e-30f);
    return planes;
}

namespace {

static_assert(kMaxBakedLods == THRONG_MAX_LODS, "the culling pass holds every baked level");

constexpr VkShaderStageFlags kCompute = VK_SHADER_STAGE_COMPUTE_BIT;

// A storage buffer a shader reads whole must fit maxStorageBufferRange.
void checkRange(const gpu::Context& ctx, VkDeviceSize bytes, const char* what) {
    if (Status s = checkStorageRange(ctx.properties.limits.maxStorageBufferRange, bytes, what); !s)
        throw gpu::GpuError(s.message, s.kind);
}

} // namespace

std::vector<gpu::shader::CullAsset> cullAssets(const GpuAsset& asset, const std::vector<LodRanges>& lods,
                                               std::span<const gpu::shader::InstanceRecord> members,
                                               std::span<const uint32_t> model_capacity) {
    const size_t models = std::max<size_t>(asset.ranges.size(), 1);
    std::vector<gpu::shader::CullAsset> out(models);
    if (models == 1) { // the whole visible list's LOD regions, as before there were models
        gpu::shader::CullAsset& c = out[0];
        for (size_t l = 0; l < lods.size(); ++l) c.lod_errors[l / 4][l % 4] = lods[l].error;
        c.lod_count = uint32_t(lods.size());
        c.capacity = uint32_t(members.size());
        c.submesh_count = uint32_t(asset.submeshes.size());
        c.hardware_scale = 1.0f;
        return out;
    }
    std::vector<uint32_t> count(models, 0);
    for (size_t i = 0; i < members.size(); ++i) {
        const uint32_t m = gpu::shader::throngAssetOf(members[i].clips);
        if (m >= models)
            throw gpu::GpuError("member " + std::to_string(i) + " names model " + std::to_string(m + 1) +
                                    "; the crowd has " + std::to_string(models),
                                ErrorKind::BadInput);
        ++count[m];
    }
    if (!model_capacity.empty()) { // the host's: room for members that come later
        uint64_t total = 0;
        for (uint32_t c : model_capacity) total += c;
        if (model_capacity.size() != models || total > members.size())
            throw gpu::GpuError(std::to_string(model_capacity.size()) + " model capacities of " +
                                    std::to_string(total) + " members for " + std::to_string(models) + " models of " +
                                    std::to_string(members.size()) + " records",
                                ErrorKind::BadInput);
        count.assign(model_capacity.begin(), model_capacity.end());
    }
    uint32_t slot = 0;
    for (size_t m = 0; m < models; ++m) {
        const AssetRange& r = asset.ranges[m];
        gpu::shader::CullAsset& c = out[m];
        c.lod_count = uint32_t(std::min(r.lod_errors.size(), lods.size()));
        for (uint32_t l = 0; l < c.lod_count; ++l) c.lod_errors[l / 4][l % 4] = r.lod_errors[l];
        c.first_slot = slot;
        c.capacity = count[m];
        c.first_submesh = r.first_submesh;
        c.submesh_count = r.submesh_count;
        // Auto's share per model (autoShare of one triangle times this: the square root of its
        // LOD 0's triangles), so each model goes to the hardware where its own triangles are large.
        uint64_t triangles = 0;
        for (uint32_t sm = r.first_submesh; sm < r.first_submesh + r.submesh_count && !lods.empty(); ++sm)
            triangles += lods[0].ranges[sm].y / 3;
        c.hardware_scale = std::sqrt(float(std::max<uint64_t>(triangles, 1)));
        slot += count[m];
    }
    return out;
}

std::shared_ptr<const CullPipelines> createCullPipelines(const gpu::Context& ctx) {
    return createCullPipelines(ctx, ctx.subgroup_counts);
}

std::shared_ptr<const CullPipelines> createCullPipelines(const gpu::Context& ctx, bool subgroup_counts) {
    assert(!subgroup_counts || ctx.subgroup_counts);
    auto p = std::make_shared<CullPipelines>();
    const VkDescriptorSetLayoutBinding bindings[] = {
        {THRONG_CULL_BINDING_PARAMS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr},
        {THRONG_CULL_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr},
        {THRONG_CULL_BINDING_BOUNDS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr},
        {THRONG_CULL_BINDING_VISIBLE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr},
        {THRONG_CULL_BINDING_COUNTS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr},
        {THRONG_CULL_BINDING_RANGES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr},
        {THRONG_CULL_BINDING_DRAWS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr},
        {THRONG_CULL_BINDING_DRAW_COUNTS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr},
        {THRONG_CULL_BINDING_DRAWN, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr},
        {THRONG_CULL_BINDING_IMPOSTOR_DRAW, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr},
        {THRONG_CULL_BINDING_ASSETS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr}};
    p->set_layout = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, bindings));
    p->layout = gpu::Unique<VkPipelineLayout>(
        ctx.device, gpu::createPipelineLayout(ctx, p->set_layout, sizeof(CullPhase), kCompute));
    p->cull = gpu::Unique<VkPipeline>(
        ctx.device,
        gpu::createComputePipeline(
            ctx, subgroup_counts ? gpu::shaders::cull_subgroups_comp_spv : gpu::shaders::cull_comp_spv, p->layout));
    // Only where occlusion culling can run: the others never bind a pyramid. (The pyramid has a
    // set of its own: lavapipe (Mesa 22.3) crashes binding a set whose image binding was never written.)
    if (ctx.depth_pyramid) {
        const VkDescriptorSetLayoutBinding pyramid[] = {
            {THRONG_CULL_BINDING_PYRAMID, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, kCompute, nullptr}};
        p->pyramid_set_layout = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, pyramid));
        const VkDescriptorSetLayout sets[] = {p->set_layout, p->pyramid_set_layout};
        const VkPushConstantRange range{kCompute, 0, sizeof(CullPhase)};
        VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
        lci.setLayoutCount = 2;
        lci.pSetLayouts = sets;
        lci.pushConstantRangeCount = 1;
        lci.pPushConstantRanges = &range;
        VkPipelineLayout layout = VK_NULL_HANDLE;
        VK_CHECK(vkCreatePipelineLayout(ctx.device, &lci, gpu::hostCallbacks(ctx.device), &layout));
        p->late_layout = gpu::Unique<VkPipelineLayout>(ctx.device, layout);
        p->cull_late = gpu::Unique<VkPipeline>(
            ctx.device, gpu::createComputePipeline(ctx,
                                                   subgroup_counts ? gpu::shaders::cull_late_subgroups_comp_spv
                                                                   : gpu::shaders::cull_late_comp_spv,
                                                   p->late_layout));
    }
    p->draws =
        gpu::Unique<VkPipeline>(ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::draws_comp_spv, p->layout));
    return p;
}

CrowdGpu::CrowdGpu(gpu::Allocator& a, const GpuAsset& asset, std::span<const gpu::shader::InstanceRecord> members,
                   std::span<const Bounds> cull_bounds, uint32_t slots, std::shared_ptr<const CullPipelines> pipelines,
                   bool light_view, std::span<const uint32_t> model_capacity, const PartBoxes& part_boxes)
    : allocator_(&a), asset_(&asset), members_(uint32_t(members.size())), live_(members_), lods_(assetLods(asset)) {
    const gpu::Context& ctx = *a.context;
    can_cull_ = ctx.indirect_count;
    const uint32_t lod_count = uint32_t(lods_.size());
    cull_assets_ = cullAssets(asset, lods_, members, model_capacity);
    const VkDeviceSize n = std::max<VkDeviceSize>(members_, 1);
    identity_base_ = lod_count * members_;
    impostor_base_ = (lod_count + 1) * members_;
    light_base_ = light_view ? (lod_count + 2) * members_ : 0;
    const VkDeviceSize regions = lod_count + 2 + (light_view ? lod_count : 0);
    // Transfer source too: tests read them back (CrowdGpu::snapshot, the simulation's checks).
    const VkBufferUsageFlags storage =
        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;

    checkRange(ctx, n * sizeof(gpu::shader::InstanceRecord), "crowd members");
    instances_ = gpu::ownBuffer(a, n * sizeof(gpu::shader::InstanceRecord), storage, gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, *instances_, members.data(), members.size() * sizeof(gpu::shader::InstanceRecord));

    checkRange(ctx, regions * n * sizeof(uint32_t), "visible list");
    visible_ = gpu::ownBuffer(a, regions * n * sizeof(uint32_t), storage, gpu::MemoryUse::Device);
    // The identity region, a model's members together (in order) where the crowd has several.
    std::vector<uint32_t> identity(members_);
    std::vector<uint32_t> next(cull_assets_.size());
    for (size_t m = 0; m < cull_assets_.size(); ++m) next[m] = cull_assets_[m].first_slot;
    for (uint32_t i = 0; i < members_; ++i)
        identity[cull_assets_.size() > 1 ? next[gpu::shader::throngAssetOf(members[i].clips)]++ : i] = i;
    gpu::uploadBuffer(a, *visible_, identity.data(), identity.size() * sizeof(uint32_t),
                      VkDeviceSize(identity_base_) * sizeof(uint32_t));

    std::vector<glm::vec4> boxes = cullBoxTable(cull_bounds, part_boxes, asset.ranges, cull_assets_);
    if (boxes.empty()) boxes.assign(2, glm::vec4(0.0f));
    bounds_ = gpu::ownBuffer(a, boxes.size() * sizeof(glm::vec4), storage, gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, *bounds_, boxes.data(), boxes.size() * sizeof(glm::vec4));

    const size_t submeshes = std::max<size_t>(asset.submeshes.size(), 1);
    std::vector<glm::uvec2> ranges(submeshes * THRONG_MAX_LODS, glm::uvec2(0));
    for (uint32_t l = 0; l < lod_count; ++l)
        for (size_t s = 0; s < lods_[l].ranges.size(); ++s) ranges[s * THRONG_MAX_LODS + l] = lods_[l].ranges[s];
    ranges_ = gpu::ownBuffer(a, ranges.size() * sizeof(glm::uvec2), storage, gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, *ranges_, ranges.data(), ranges.size() * sizeof(glm::uvec2));

    assets_ = gpu::ownBuffer(a, cull_assets_.size() * sizeof(gpu::shader::CullAsset), storage, gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, *assets_, cull_assets_.data(), cull_assets_.size() * sizeof(gpu::shader::CullAsset));

    counts_ = gpu::ownBuffer(a, countWords() * sizeof(uint32_t), storage, gpu::MemoryUse::Device);
    // Three regions: the draws of the first (or only) phase, the late phase's, the light's view's.
    draws_ = gpu::ownBuffer(a, 3 * submeshes * THRONG_MAX_LODS * sizeof(DrawCommand),
                            storage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, gpu::MemoryUse::Device);
    draw_counts_ = gpu::ownBuffer(a, 3 * submeshes * sizeof(uint32_t), storage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                  gpu::MemoryUse::Device);
    drawn_ = gpu::ownBuffer(a, n * sizeof(uint32_t), storage, gpu::MemoryUse::Device);
    impostor_draw_ = gpu::ownBuffer(a, sizeof(DrawCommand) + sizeof(uint32_t),
                                    storage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, gpu::MemoryUse::Device);
    // Zeroed once: no draw ever reads indirect commands that were never written, and the first
    // occlusion-culled frame draws nothing early.
    gpu::submitAndWait(ctx, [&](VkCommandBuffer cmd) {
        vkCmdFillBuffer(cmd, draws_->buffer, 0, VK_WHOLE_SIZE, 0);
        vkCmdFillBuffer(cmd, draw_counts_->buffer, 0, VK_WHOLE_SIZE, 0);
        vkCmdFillBuffer(cmd, counts_->buffer, 0, VK_WHOLE_SIZE, 0);
        vkCmdFillBuffer(cmd, drawn_->buffer, 0, VK_WHOLE_SIZE, 0);
        vkCmdFillBuffer(cmd, impostor_draw_->buffer, 0, VK_WHOLE_SIZE, 0);
    });
    slot_culled_.assign(slots, false);
    if (!can_cull_) return;

    for (uint32_t s = 0; s < slots; ++s) {
        params_.push_back(
            gpu::ownBuffer(a, sizeof(CullParams), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryUse::Upload));
        if (light_view)
            light_params_.push_back(
                gpu::ownBuffer(a, sizeof(CullParams), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryUse::Upload));
        readback_.push_back(gpu::ownBuffer(a, countWords() * sizeof(uint32_t), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                           gpu::MemoryUse::Readback));
        std::memset(readback_.back()->mapped(), 0, countWords() * sizeof(uint32_t));
    }
    pipelines_ = pipelines ? std::move(pipelines) : createCullPipelines(ctx);
    const uint32_t plain_sets = light_view ? 2 * slots : slots;
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 11 * plain_sets},
                                          {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, slots}};
    pool_ = gpu::createDescriptorPool(ctx, plain_sets + slots, sizes);
    sets_ = gpu::allocateSets(ctx, pool_, pipelines_->set_layout, slots);
    if (light_view) light_sets_ = gpu::allocateSets(ctx, pool_, pipelines_->set_layout, slots);
    if (pipelines_->cull_late) pyramid_sets_ = gpu::allocateSets(ctx, pool_, pipelines_->pyramid_set_layout, slots);
    for (uint32_t s = 0; s < slots; ++s) {
        writeSet(sets_[s], params_[s]->buffer);
        if (light_view) writeSet(light_sets_[s], light_params_[s]->buffer);
    }
}

void CrowdGpu::writeSet(VkDescriptorSet set, VkBuffer params) const {
    const gpu::DescriptorWrite writes[] = {
        gpu::DescriptorWrite::storage(THRONG_CULL_BINDING_PARAMS, params),
        gpu::DescriptorWrite::storage(THRONG_CULL_BINDING_INSTANCES, instances_->buffer),
        gpu::DescriptorWrite::storage(THRONG_CULL_BINDING_BOUNDS, bounds_->buffer),
        gpu::DescriptorWrite::storage(THRONG_CULL_BINDING_VISIBLE, visible_->buffer),
        gpu::DescriptorWrite::storage(THRONG_CULL_BINDING_COUNTS, counts_->buffer),
        gpu::DescriptorWrite::storage(THRONG_CULL_BINDING_RANGES, ranges_->buffer),
        gpu::DescriptorWrite::storage(THRONG_CULL_BINDING_DRAWS, draws_->buffer),
        gpu::DescriptorWrite::storage(THRONG_CULL_BINDING_DRAW_COUNTS, draw_counts_->buffer),
        gpu::DescriptorWrite::storage(THRONG_CULL_BINDING_DRAWN, drawn_->buffer),
        gpu::DescriptorWrite::storage(THRONG_CULL_BINDING_IMPOSTOR_DRAW, impostor_draw_->buffer),
        gpu::DescriptorWrite::storage(THRONG_CULL_BINDING_ASSETS, assets_->buffer)};
    gpu::writeDescriptors(allocator_->context->device, set, writes);
}

CullParams CrowdGpu::viewParams(const glm::mat4& vp, VkExtent2D viewport, const CullSettings& settings,
                                HardwareShare hardware) const {
    CullParams p{};
    const std::array<glm::vec4, 6> planes = frustumPlanes(vp);
    for (int i = 0; i < 6; ++i) p.planes[i] = planes[i];
    p.depth_row = glm::vec4(vp[0][3], vp[1][3], vp[2][3], vp[3][3]);
    p.pixels_per_unit = pixelsPerUnit(vp, float(viewport.height));
    p.lod_error_px = settings.lod_error_px;
    p.members = live_;
    p.lod_count = settings.lod ? uint32_t(lods_.size()) : 1u;
    p.frustum = settings.cull ? 1u : 0u;
    p.submeshes = uint32_t(asset_->submeshes.size());
    const uint32_t groups = (live_ + THRONG_CULL_LOCAL_SIZE - 1) / THRONG_CULL_LOCAL_SIZE;
    p.row_width = std::min(groups, 32768u) * THRONG_CULL_LOCAL_SIZE;
    p.visible_stride = members_;
    p.identity_base = identity_base_;
    p.draw_lods = hardware.lods;
    p.hardware_px = hardware.lods == 1 ? hardware.lod0_px : 0.0f;
    p.impostor_px = settings.impostor_px;
    p.splat_px = settings.splat_px;
    p.impostor_base = impostor_base_;
    p.view_projection = vp;
    p.viewport = glm::vec2(float(viewport.width), float(viewport.height));
    p.assets = uint32_t(cull_assets_.size());
    return p;
}

void CrowdGpu::addLightPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const glm::mat4& light_view_projection,
                              uint32_t map_size, const CullSettings& settings, HardwareShare hardware) {
    light_culled_ = can_cull_ && (settings.active() || mixed()) && live_ > 0 && light_base_ != 0;
    if (!light_culled_) return;
    CullSettings light = settings;
    light.impostor_px = 0.0f; // an impostor casts as its mesh would
    light.splat_px = 0.0f;    // and a splat
    light.occlusion = false;
    // The map is read through a 3 x 3 filter: an error of 2 texels does not show, and far members
    // (a few texels tall) drop to their coarsest level (on the H200 a million walkers' shadow
    // pass went from 71 ms at 1 texel, drawing LOD 6 (82 triangles), to the coarsest level's 18).
    light.lod_error_px = std::max(settings.lod_error_px, 2.0f);
    CullParams p = viewParams(light_view_projection, {map_size, map_size}, light, hardware);
    p.visible_base = light_base_;
    // Orthographic: every member at "depth" 1 (row 3 is (0, 0, 0, 1)), where chooseLod() would
    // subtract the member's radius. At a depth of 1e6 with the scale 1e6 times larger the
    // radius no longer matters: the level follows the member's size in texels.
    p.depth_row = glm::vec4(0.0f, 0.0f, 0.0f, 1e6f);
    p.pixels_per_unit *= 1e6f;
    std::memcpy(light_params_[slot]->mapped(), &p, sizeof p);
    passes.push_back({"shadow-cull", gpu::PassKind::Compute, gpu::PassTargets::ColorDepth,
                      [this, slot](VkCommandBuffer cmd) { recordCull(cmd, slot, THRONG_CULL_PHASE_SHADOW); },
                      frame::Members | frame::Culled, frame::Culled});
}

void CrowdGpu::addPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const glm::mat4& vp, VkExtent2D viewport,
                         const CullSettings& settings, const DepthPyramid* pyramid, HardwareShare hardware) {
    // A crowd of several models is always culled: the pass puts each model's members in its
    // sub-region (with culling and LOD off: every member, at LOD 0), which its submeshes draw.
    culled_ = can_cull_ && (settings.active() || mixed()) && live_ > 0;
    // A crowd's first culled frame has no last frame to start from: frustum only (which marks what
    // the next frame's early phase draws).
    occluding_ = culled_ && settings.cull && settings.occlusion && pyramid != nullptr && pipelines_->cull_late &&
                 culled_frames_ > 0;
    if (culled_) ++culled_frames_;
    slot_culled_[slot] = culled_;
    if (!culled_) return;
    CullParams p = viewParams(vp, viewport, settings, hardware);
    if (occluding_) {
        p.pyramid_levels = pyramid->levels();
        // The slot's last frame has finished (its fence was waited for): its set may change.
        const gpu::DescriptorWrite write = gpu::DescriptorWrite::sampled(
            THRONG_CULL_BINDING_PYRAMID, pyramid->sampler(), pyramid->view(), VK_IMAGE_LAYOUT_GENERAL);
        gpu::writeDescriptors(allocator_->context->device, pyramid_sets_[slot], std::span(&write, 1));
    }
    std::memcpy(params_[slot]->mapped(), &p, sizeof p);
    const uint32_t phase = occluding_ ? THRONG_CULL_PHASE_EARLY : THRONG_CULL_PHASE_ALL;
    passes.push_back({"cull", gpu::PassKind::Compute, gpu::PassTargets::ColorDepth,
                      [this, slot, phase](VkCommandBuffer cmd) { recordCull(cmd, slot, phase); },
                      frame::Members | frame::Culled, frame::Culled});
}

void CrowdGpu::addLatePasses(std::vector<gpu::Pass>& passes, uint32_t slot) {
    passes.push_back({"cull-late", gpu::PassKind::Compute, gpu::PassTargets::ColorDepth,
                      [this, slot](VkCommandBuffer cmd) { recordCull(cmd, slot, THRONG_CULL_PHASE_LATE); },
                      frame::Members | frame::Culled | frame::Pyramid, frame::Culled});
}

void CrowdGpu::recordCull(VkCommandBuffer cmd, uint32_t slot, uint32_t phase) const {
    recorded_phase_ = phase;
    if (phase != THRONG_CULL_PHASE_LATE) { // the late phase goes on counting where the early one stopped
        vkCmdFillBuffer(cmd, counts_->buffer, 0, VK_WHOLE_SIZE, 0);
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                           VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    }
    const CullPhase constants{phase, 0, 0, 0};
    if (phase == THRONG_CULL_PHASE_LATE) {
        const VkDescriptorSet sets[] = {sets_[slot], pyramid_sets_[slot]};
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_->late_layout, 0, 2, sets, 0, nullptr);
        vkCmdPushConstants(cmd, pipelines_->late_layout, kCompute, 0, sizeof constants, &constants);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_->cull_late);
    } else {
        const VkDescriptorSet set = phase == THRONG_CULL_PHASE_SHADOW ? light_sets_[slot] : sets_[slot];
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_->layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, pipelines_->layout, kCompute, 0, sizeof constants, &constants);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_->cull);
    }
    const uint32_t groups = (live_ + THRONG_CULL_LOCAL_SIZE - 1) / THRONG_CULL_LOCAL_SIZE;
    const uint32_t x = std::min(groups, 32768u);
    vkCmdDispatch(cmd, x, (groups + x - 1) / x, 1);
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
    if (phase == THRONG_CULL_PHASE_LATE) { // draws.comp has the plain layout
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_->layout, 0, 1, &sets_[slot], 0,
                                nullptr);
        vkCmdPushConstants(cmd, pipelines_->layout, kCompute, 0, sizeof constants, &constants);
    }
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_->draws);
    vkCmdDispatch(cmd, uint32_t((asset_->submeshes.size() + THRONG_CULL_LOCAL_SIZE - 1) / THRONG_CULL_LOCAL_SIZE), 1,
                  1);
    // The counts are copied after the late phase; the light's are nobody's business.
    if (phase == THRONG_CULL_PHASE_EARLY || phase == THRONG_CULL_PHASE_SHADOW) return;
    // The counts, for the host (statistics only: nothing of the frame waits for them).
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    const VkBufferCopy region{0, 0, countWords() * sizeof(uint32_t)};
    vkCmdCopyBuffer(cmd, counts_->buffer, readback_[slot]->buffer, 1, &region);
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                       VK_ACCESS_2_HOST_READ_BIT);
}

void CrowdGpu::drawSubmesh(VkCommandBuffer cmd, uint32_t submesh, uint32_t first, uint32_t count) const {
    if (culled_) {
        const VkDeviceSize region = recorded_phase_ == THRONG_CULL_PHASE_LATE     ? 1
                                    : recorded_phase_ == THRONG_CULL_PHASE_SHADOW ? 2
                                                                                  : 0;
        const VkDeviceSize index = region * asset_->submeshes.size() + submesh;
        vkCmdDrawIndexedIndirectCount(cmd, draws_->buffer, index * THRONG_MAX_LODS * sizeof(DrawCommand),
                                      draw_counts_->buffer, index * sizeof(uint32_t), uint32_t(lods_.size()),
                                      sizeof(DrawCommand));
        return;
    }
    const glm::uvec2 range = lods_[0].ranges[submesh];
    if (cull_assets_.size() > 1) { // the submesh's model's members, together in the identity region
        const gpu::shader::CullAsset& model = cull_assets_[modelOfSubmesh(submesh)];
        first = model.first_slot;
        count = model.capacity;
    }
    if (range.y > 0 && count > 0) vkCmdDrawIndexed(cmd, range.y, count, range.x, 0, identity_base_ + first);
}

uint32_t CrowdGpu::modelOfSubmesh(uint32_t submesh) const {
    for (uint32_t m = 0; m < cull_assets_.size(); ++m)
        if (submesh - cull_assets_[m].first_submesh < cull_assets_[m].submesh_count) return m;
    return 0;
}

uint64_t CrowdGpu::modelTriangles(uint32_t model, uint32_t lod) const {
    const gpu::shader::CullAsset& c = cull_assets_[model];
    uint64_t n = 0;
    for (uint32_t s = c.first_submesh; s < c.first_submesh + c.submesh_count && s < lods_[lod].ranges.size(); ++s)
        n += lods_[lod].ranges[s].y / 3;
    return n;
}

double CrowdGpu::wornTriangles(uint32_t model, uint32_t lod) const {
    const gpu::shader::CullAsset& c = cull_assets_[model];
    double n = 0.0;
    for (uint32_t s = c.first_submesh; s < c.first_submesh + c.submesh_count && s < lods_[lod].ranges.size(); ++s) {
        const uint32_t wear =
            s < asset_->submesh_props.size() ? asset_->submesh_props[s] >> THRONG_DRAW_WEAR_SHIFT : 0u;
        n += double(gpu::shader::throngWearShare(wear)) / 256.0 * double(lods_[lod].ranges[s].y / 3);
    }
    return n;
}

uint64_t CrowdGpu::fullDetailTriangles() const {
    uint64_t n = 0;
    for (uint32_t m = 0; m < cull_assets_.size(); ++m) n += uint64_t(cull_assets_[m].capacity) * modelTriangles(m, 0);
    return cull_assets_.size() > 1 ? n : uint64_t(live_) * lodTriangles(lods_[0]);
}

HardwareShare autoShare(uint64_t lod0_triangles, float triangle_px) {
    return {1u, std::sqrt(2.0f * std::max(triangle_px, 0.0f) * float(std::max<uint64_t>(lod0_triangles, 1)))};
}

CullCounts CrowdGpu::counts(uint32_t slot) const {
    CullCounts c;
    if (!slot_culled_[slot]) {
        c.in_frustum = live_;
        c.per_lod[0] = live_;
        double triangles = 0.0;
        for (uint32_t m = 0; m < cull_assets_.size(); ++m)
            triangles += double(cull_assets_.size() > 1 ? cull_assets_[m].capacity : live_) * wornTriangles(m, 0);
        c.triangles = uint64_t(std::llround(triangles));
        return c;
    }
    const uint32_t* raw = static_cast<const uint32_t*>(readback_[slot]->mapped());
    c.in_frustum = raw[THRONG_COUNT_IN_FRUSTUM];
    c.occluded = raw[THRONG_COUNT_OCCLUDED];
    c.impostors = raw[THRONG_COUNT_IMPOSTORS];
    c.splats = raw[THRONG_COUNT_SPLATS];
    c.hardware = raw[THRONG_COUNT_HARDWARE];
    double triangles = 0.0;
    for (size_t l = 0; l < lods_.size(); ++l) {
        c.per_lod[l] = raw[l] + (l == 0 ? raw[THRONG_COUNT_HARDWARE] : 0u); // auto's hardware share of LOD 0
        if (cull_assets_.size() == 1) triangles += double(c.per_lod[l]) * wornTriangles(0, uint32_t(l));
    }
    const uint32_t models = uint32_t(cull_assets_.size());
    for (uint32_t m = 0; models > 1 && m < models; ++m) {
        for (uint32_t l = 0; l < lods_.size(); ++l)
            triangles += double(std::min(raw[gpu::shader::throngRegionCount(m, l)], cull_assets_[m].capacity)) *
                         wornTriangles(m, l);
        triangles += // auto's hardware share of its LOD 0
            double(std::min(raw[gpu::shader::throngRegionHardware(models, m)], cull_assets_[m].capacity)) *
            wornTriangles(m, 0);
    }
    c.triangles = uint64_t(std::llround(triangles));
    return c;
}

CrowdGpu::Snapshot CrowdGpu::snapshot() const {
    Snapshot out;
    std::vector<uint32_t> counts(countWords());
    gpu::downloadBuffer(*allocator_, *counts_, counts.data(), counts.size() * sizeof(uint32_t));
    out.in_frustum = counts[THRONG_COUNT_IN_FRUSTUM];
    out.occluded = counts[THRONG_COUNT_OCCLUDED];
    out.drawn.resize(members_);
    if (members_ > 0) gpu::downloadBuffer(*allocator_, *drawn_, out.drawn.data(), members_ * sizeof(uint32_t));
    for (size_t l = 0; l < lods_.size(); ++l) {
        if (cull_assets_.size() > 1) { // each model's sub-region in turn
            std::vector<uint32_t> members;
            for (uint32_t m = 0; m < cull_assets_.size(); ++m) {
                const gpu::shader::CullAsset& c = cull_assets_[m];
                std::vector<uint32_t> part(
                    std::min(counts[gpu::shader::throngRegionCount(m, uint32_t(l))], c.capacity));
                if (!part.empty())
                    gpu::downloadBuffer(*allocator_, *visible_, part.data(), part.size() * sizeof(uint32_t),
                                        (VkDeviceSize(l) * members_ + c.first_slot) * sizeof(uint32_t));
                members.insert(members.end(), part.begin(), part.end());
            }
            out.members.push_back(std::move(members));
            continue;
        }
        std::vector<uint32_t> members(std::min(counts[l], members_));
        if (!members.empty())
            gpu::downloadBuffer(*allocator_, *visible_, members.data(), members.size() * sizeof(uint32_t),
                                VkDeviceSize(l) * members_ * sizeof(uint32_t));
        if (l == 0 && counts[THRONG_COUNT_HARDWARE] > 0) { // auto's hardware share, at the region's end
            const uint32_t n = std::min(counts[THRONG_COUNT_HARDWARE], members_);
            std::vector<uint32_t> back(n);
            gpu::downloadBuffer(*allocator_, *visible_, back.data(), n * sizeof(uint32_t),
                                VkDeviceSize(members_ - n) * sizeof(uint32_t));
            members.insert(members.end(), back.rbegin(), back.rend());
        }
        out.members.push_back(std::move(members));
    }
    out.impostors.resize(std::min(counts[THRONG_COUNT_IMPOSTORS], members_));
    if (!out.impostors.empty())
        gpu::downloadBuffer(*allocator_, *visible_, out.impostors.data(), out.impostors.size() * sizeof(uint32_t),
                            VkDeviceSize(impostor_base_) * sizeof(uint32_t));
    gpu::downloadBuffer(*allocator_, *impostor_draw_, &out.impostor_draw, sizeof out.impostor_draw);
    const size_t submeshes = asset_->submeshes.size();
    out.draw_counts.resize(submeshes);
    std::vector<DrawCommand> all(submeshes * THRONG_MAX_LODS);
    if (submeshes > 0) {
        gpu::downloadBuffer(*allocator_, *draw_counts_, out.draw_counts.data(), submeshes * sizeof(uint32_t));
        gpu::downloadBuffer(*allocator_, *draws_, all.data(), all.size() * sizeof(DrawCommand));
    }
    for (size_t s = 0; s < submeshes; ++s)
        for (uint32_t d = 0; d < std::min<uint32_t>(out.draw_counts[s], THRONG_MAX_LODS); ++d)
            out.draws.push_back(all[s * THRONG_MAX_LODS + d]);
    return out;
}

} // namespace throng::render
