// The crowd as the last frame drew it; see history.h.
#include "history.h"
#include "frame_resources.h"

#include "../gpu/pipeline.h"
#include "../gpu/resources.h"
#include "../gpu/shader_blobs.h"
#include "../shaders/shared.h"

#include <algorithm>

namespace throng::render {

namespace {
constexpr VkDeviceSize kRecord = sizeof(gpu::shader::InstanceRecord);
}

MemberHistory::MemberHistory(gpu::Allocator& allocator, VkBuffer instances, uint32_t capacity, uint32_t slots)
    : instances_(instances), capacity_(std::max(capacity, 1u)), slots_(std::max(slots, 1u)) {
    motions_ = gpu::ownBuffer(allocator, slots_ * sizeof(gpu::shader::MotionParams), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                              gpu::MemoryUse::Upload);
    const gpu::Context& ctx = *allocator.context;
    const VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
    set_layout_ = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, bindings));
    layout_ = gpu::Unique<VkPipelineLayout>(
        ctx.device, gpu::createPipelineLayout(ctx, set_layout_, sizeof(uint32_t), VK_SHADER_STAGE_COMPUTE_BIT));
    pipeline_ =
        gpu::Unique<VkPipeline>(ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::history_comp_spv, layout_));
    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}};
    pool_ = gpu::createDescriptorPool(ctx, 1, sizes);
    set_ = gpu::allocateSets(ctx, pool_, set_layout_, 1)[0];
    previous_ = gpu::ownBuffer(allocator, capacity_ * kRecord,
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                               gpu::MemoryUse::Device);
    const gpu::DescriptorWrite writes[] = {gpu::DescriptorWrite::storage(0, instances),
                                           gpu::DescriptorWrite::storage(1, previous_->buffer)};
    gpu::writeDescriptors(ctx.device, set_, writes);
}

void MemberHistory::teleported(uint32_t member) {
    if (member < capacity_) teleported_.push_back(member);
}

void MemberHistory::moved(uint32_t from, uint32_t to) {
    if (from >= capacity_ || to >= capacity_ || from == to) return;
    uint32_t origin = from; // where the last frame drew what is now at `from`
    for (const auto& [at, drawn] : moves_)
        if (at == from) origin = drawn;
    for (auto& [at, drawn] : moves_)
        if (at == to) {
            drawn = origin;
            return;
        }
    moves_.push_back({to, origin});
}

gpu::Pass MemberHistory::copyPass() {
    const VkBuffer from = instances_, to = previous_->buffer;
    std::vector<VkBufferCopy> moves;
    for (const auto& [at, drawn] : moves_) moves.push_back({drawn * kRecord, at * kRecord, kRecord});
    moves_.clear();
    const bool copy = stale_;
    stale_ = false;
    const uint32_t words = uint32_t(capacity_ * kRecord / 16); // uvec4s (a record is 3)
    const uint32_t groups = std::min<uint32_t>((words + 255) / 256, 65535);
    const VkPipeline pipeline = pipeline_;
    const VkPipelineLayout layout = layout_;
    const VkDescriptorSet set = set_;
    return {"history",
            gpu::PassKind::Compute,
            gpu::PassTargets::ColorDepth,
            [=, moves = std::move(moves)](VkCommandBuffer cmd) {
                if (copy) {
                    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
                    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
                    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof words, &words);
                    vkCmdDispatch(cmd, groups, 1, 1);
                }
                if (moves.empty()) return;
                // Over the full copy: the moved records' history from where the last frame drew them.
                if (copy)
                    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                       VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                                       VK_ACCESS_2_TRANSFER_WRITE_BIT);
                vkCmdCopyBuffer(cmd, from, to, uint32_t(moves.size()), moves.data());
            },
            frame::Members,
            frame::History};
}

std::optional<gpu::Pass> MemberHistory::teleportPass() {
    if (teleported_.empty()) return std::nullopt;
    std::sort(teleported_.begin(), teleported_.end());
    teleported_.erase(std::unique(teleported_.begin(), teleported_.end()), teleported_.end());
    std::vector<VkBufferCopy> regions;
    for (uint32_t m : teleported_) {
        if (!regions.empty() && regions.back().srcOffset + regions.back().size == m * kRecord)
            regions.back().size += kRecord; // runs of members in one region
        else
            regions.push_back({m * kRecord, m * kRecord, kRecord});
    }
    teleported_.clear();
    const VkBuffer from = instances_, to = previous_->buffer;
    return gpu::Pass{"teleport",
                     gpu::PassKind::Transfer,
                     gpu::PassTargets::ColorDepth,
                     [from, to, regions = std::move(regions)](VkCommandBuffer cmd) {
                         vkCmdCopyBuffer(cmd, from, to, uint32_t(regions.size()), regions.data());
                     },
                     frame::Members | frame::History,
                     frame::History};
}

void MemberHistory::drew(const glm::mat4& view_projection, float time, bool changed_records) {
    stale_ = stale_ || changed_records;
    last_.drawn = true;
    last_.view_projection = view_projection;
    last_.time = time;
}

PreviousFrame MemberHistory::begin(uint32_t slot, const glm::mat4& view_projection, float time, VkExtent2D viewport) {
    PreviousFrame p = last_;
    p.records = previous_->buffer;
    if (!p.drawn) { // the first frame: against itself
        p.view_projection = view_projection;
        p.time = time;
    }
    p.viewport = viewport;
    gpu::shader::MotionParams m{};
    m.previous_view_projection = p.view_projection;
    m.viewport = glm::vec2(float(viewport.width), float(viewport.height));
    m.previous_time = p.time;
    if (slot < slots_) static_cast<gpu::shader::MotionParams*>(motions_->mapped())[slot] = m;
    return p;
}

} // namespace throng::render
