// The crowd as the last frame drew it; see history.h.
#include "history.h"
#include "frame_resources.h"

#include "../gpu/resources.h"
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
    previous_ = gpu::ownBuffer(allocator, capacity_ * kRecord,
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                               gpu::MemoryUse::Device);
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
    const VkBufferCopy all{0, 0, capacity_ * kRecord};
    std::vector<VkBufferCopy> moves;
    for (const auto& [at, drawn] : moves_) moves.push_back({drawn * kRecord, at * kRecord, kRecord});
    moves_.clear();
    return {"history",
            gpu::PassKind::Transfer,
            gpu::PassTargets::ColorDepth,
            [from, to, all, moves = std::move(moves)](VkCommandBuffer cmd) {
                vkCmdCopyBuffer(cmd, from, to, 1, &all);
                if (moves.empty()) return;
                // Over the full copy: the moved records' history from where the last frame drew them.
                gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                   VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
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

void MemberHistory::drew(const glm::mat4& view_projection, float time) {
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
