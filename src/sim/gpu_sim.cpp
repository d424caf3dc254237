// The simulation's buffers, pipelines and dispatches (gpu_sim.h).
#include "gpu_sim.h"

#include "../gpu/pipeline.h"
#include "../gpu/shader_blobs.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <string>

namespace throng::sim {

namespace {

constexpr VkShaderStageFlags kCompute = VK_SHADER_STAGE_COMPUTE_BIT;
constexpr VkPipelineStageFlags2 kComputeStage = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
constexpr VkAccessFlags2 kShaderReadWrite = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;

uint32_t groupsFor(uint64_t items, uint32_t per_group) { return uint32_t((items + per_group - 1) / per_group); }

struct Level {
    uint32_t offset, count;
};

// The prefix sum's levels in one buffer: level 0 holds the counts of every cell and one more
// (its start becomes the total), padded to whole blocks; each further level holds the block sums
// of the one before, padded, until a level is one block.
std::vector<Level> scanLevels(uint32_t cells) {
    std::vector<Level> levels;
    uint64_t count = (uint64_t(cells) + 1 + THRONG_SIM_SCAN_BLOCK - 1) / THRONG_SIM_SCAN_BLOCK * THRONG_SIM_SCAN_BLOCK;
    uint64_t offset = 0;
    for (;;) {
        levels.push_back({uint32_t(offset), uint32_t(count)});
        if (count <= THRONG_SIM_SCAN_BLOCK) break;
        offset += count;
        const uint64_t blocks = count / THRONG_SIM_SCAN_BLOCK;
        count = (blocks + THRONG_SIM_SCAN_BLOCK - 1) / THRONG_SIM_SCAN_BLOCK * THRONG_SIM_SCAN_BLOCK;
    }
    return levels;
}

uint64_t scanElements(const std::vector<Level>& levels) { return uint64_t(levels.back().offset) + levels.back().count; }

std::string megabytes(uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", double(bytes) / 1e6);
    return text;
}

// Workgroups along x and y for `groups` groups at most `max_x` per row.
VkExtent2D split(uint32_t groups, uint32_t max_x) {
    const uint32_t x = std::max(1u, std::min(groups, max_x));
    return {x, (groups + x - 1) / x};
}

} // namespace

std::shared_ptr<const SimPipelines> createSimPipelines(const gpu::Context& ctx) {
    auto p = std::make_shared<SimPipelines>();
    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (uint32_t b :
         {THRONG_SIM_BINDING_PARAMS, THRONG_SIM_BINDING_MEMBERS, THRONG_SIM_BINDING_CELLS, THRONG_SIM_BINDING_STARTS,
          THRONG_SIM_BINDING_SORTED, THRONG_SIM_BINDING_INSTANCES, THRONG_SIM_BINDING_NEXT_COUNTS})
        bindings.push_back({b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kCompute, nullptr});
    p->set_layout = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, bindings));
    p->layout = gpu::Unique<VkPipelineLayout>(
        ctx.device, gpu::createPipelineLayout(ctx, p->set_layout, sizeof(shader::SimConstants), kCompute));
    p->cells = gpu::Unique<VkPipeline>(ctx.device,
                                       gpu::createComputePipeline(ctx, gpu::shaders::sim_cells_comp_spv, p->layout));
    p->scan = gpu::Unique<VkPipeline>(ctx.device,
                                      gpu::createComputePipeline(ctx, gpu::shaders::sim_scan_comp_spv, p->layout));
    p->scatter = gpu::Unique<VkPipeline>(
        ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::sim_scatter_comp_spv, p->layout));
    p->step = gpu::Unique<VkPipeline>(ctx.device,
                                      gpu::createComputePipeline(ctx, gpu::shaders::sim_step_comp_spv, p->layout));
    return p;
}

Status checkDeviceLimits(const gpu::Context& ctx, const SimSettings& settings, uint32_t members) {
    Result<shader::SimParams> params = simParams(settings, members);
    if (!params) return Status::failure(params.error());
    const VkPhysicalDeviceLimits& limits = ctx.properties.limits;
    const uint64_t range = limits.maxStorageBufferRange;
    const std::vector<Level> levels = scanLevels(params.value().grid_dims.w);
    const struct {
        const char* what;
        uint64_t bytes;
    } buffers[] = {
        {"member states", uint64_t(members) * sizeof(shader::MemberState)},
        {"sorted members", uint64_t(members) * sizeof(shader::SortedMember)},
        {"cell ranks", uint64_t(members) * 8},
        {"grid cells", scanElements(levels) * 4}, // each of two such buffers
        {"instance records", uint64_t(members) * sizeof(gpu::shader::InstanceRecord)},
    };
    for (const auto& b : buffers)
        if (b.bytes > range)
            return Status::failure("simulation of " + std::to_string(members) + " members: its " + b.what + " (" +
                                       megabytes(b.bytes) + ") exceed the device's maxStorageBufferRange (" +
                                       megabytes(range) + ")",
                                   ErrorKind::Unsupported);
    const uint32_t max_x = std::min(limits.maxComputeWorkGroupCount[0], 65535u);
    for (uint32_t groups :
         {groupsFor(members, THRONG_SIM_LOCAL_SIZE), levels.front().count / uint32_t(THRONG_SIM_SCAN_BLOCK)})
        if (split(groups, max_x).height > limits.maxComputeWorkGroupCount[1])
            return Status::failure("simulation of " + std::to_string(members) + " members: " + std::to_string(groups) +
                                       " workgroups exceed the device's maxComputeWorkGroupCount",
                                   ErrorKind::Unsupported);
    return {};
}

GpuSimulation::GpuSimulation(gpu::Allocator& a, const SimState& initial, const SimSettings& settings,
                             VkBuffer instances, std::shared_ptr<const SimPipelines> pipelines, uint32_t max_groups_x)
    : allocator_(&a), settings_(settings), members_(uint32_t(initial.members.size())), steps_(initial.steps),
      start_time_(initial.start_time) {
    assert(validate(settings).ok() && members_ > 0 && instances != VK_NULL_HANDLE);
    const gpu::Context& ctx = *a.context;
    if (Status st = checkDeviceLimits(ctx, settings, members_); !st) throw gpu::GpuError(st.message, st.kind);
    params_ = simParams(settings, members_).value();
    max_groups_x_ = std::min(ctx.properties.limits.maxComputeWorkGroupCount[0], 65535u);
    if (max_groups_x > 0) max_groups_x_ = std::min(max_groups_x_, max_groups_x);
    pipelines_ = pipelines ? std::move(pipelines) : createSimPipelines(ctx);
    for (const Level& l : scanLevels(params_.grid_dims.w)) levels_.push_back({l.offset, l.count});

    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    const VkBufferUsageFlags transfer = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    // Every model's params and root table (one model: one entry).
    const std::vector<shader::SimModelParams> models = modelParams(settings, members_).value();
    const size_t params_bytes = models.size() * sizeof(shader::SimModelParams);
    params_buffer_ = gpu::ownBuffer(a, params_bytes, storage | transfer, gpu::MemoryUse::Device);
    members_buffer_ =
        gpu::ownBuffer(a, uint64_t(members_) * sizeof(shader::MemberState), storage | transfer, gpu::MemoryUse::Device);
    cells_buffer_ = gpu::ownBuffer(a, uint64_t(members_) * 8, storage, gpu::MemoryUse::Device);
    const uint64_t elements = uint64_t(levels_.back().offset) + levels_.back().count;
    for (gpu::OwnedBuffer& starts : starts_)
        starts = gpu::ownBuffer(a, elements * 4, storage | transfer, gpu::MemoryUse::Device);
    sorted_buffer_ =
        gpu::ownBuffer(a, uint64_t(members_) * sizeof(shader::SortedMember), storage, gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, *params_buffer_, models.data(), params_bytes);
    gpu::uploadBuffer(a, *members_buffer_, initial.members.data(), members_buffer_->size);

    const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 14};
    pool_ = gpu::createDescriptorPool(ctx, 2, std::span(&size, 1));
    const std::vector<VkDescriptorSet> sets = gpu::allocateSets(ctx, pool_, pipelines_->set_layout, 2);
    gpu::DescriptorWrite records = gpu::DescriptorWrite::storage(THRONG_SIM_BINDING_INSTANCES, instances);
    records.buffer.range = uint64_t(members_) * sizeof(gpu::shader::InstanceRecord);
    for (uint32_t k = 0; k < 2; ++k) {
        sets_[k] = sets[k];
        const gpu::DescriptorWrite writes[] = {
            gpu::DescriptorWrite::storage(THRONG_SIM_BINDING_PARAMS, params_buffer_->buffer),
            gpu::DescriptorWrite::storage(THRONG_SIM_BINDING_MEMBERS, members_buffer_->buffer),
            gpu::DescriptorWrite::storage(THRONG_SIM_BINDING_CELLS, cells_buffer_->buffer),
            gpu::DescriptorWrite::storage(THRONG_SIM_BINDING_STARTS, starts_[k]->buffer),
            gpu::DescriptorWrite::storage(THRONG_SIM_BINDING_SORTED, sorted_buffer_->buffer),
            records,
            gpu::DescriptorWrite::storage(THRONG_SIM_BINDING_NEXT_COUNTS, starts_[1 - k]->buffer),
        };
        gpu::writeDescriptors(ctx.device, sets_[k], writes);
    }

    // The records of the initial state, so that a frame drawn before the first step shows it.
    SimState clock;
    clock.steps = steps_;
    clock.start_time = start_time_;
    const float time = recordTime(clock, settings_);
    gpu::submitAndWait(ctx, [&](VkCommandBuffer cmd) {
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT, kComputeStage,
                           kShaderReadWrite);
        recordWrite(cmd, THRONG_SIM_FLAG_WRITE, time);
        gpu::memoryBarrier(cmd, kComputeStage, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                           VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    });
}

double GpuSimulation::time() const { return start_time_ + double(steps_) * stepSeconds(settings_); }

uint64_t GpuSimulation::bytes() const {
    return params_buffer_->size + members_buffer_->size + cells_buffer_->size + starts_[0]->size + starts_[1]->size +
           sorted_buffer_->size;
}

void GpuSimulation::dispatch(VkCommandBuffer cmd, VkPipeline pipeline, const shader::SimConstants& constants,
                             uint32_t groups) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdPushConstants(cmd, pipelines_->layout, kCompute, 0, sizeof(constants), &constants);
    const VkExtent2D g = split(groups, max_groups_x_);
    vkCmdDispatch(cmd, g.width, g.height, 1);
}

void GpuSimulation::recordWrite(VkCommandBuffer cmd, uint32_t flags, float time) const {
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_->layout, 0, 1, &sets_[current_], 0,
                            nullptr);
    shader::SimConstants constants{};
    constants.flags = flags;
    constants.time = time;
    dispatch(cmd, pipelines_->step, constants, groupsFor(members_, THRONG_SIM_LOCAL_SIZE));
}

void GpuSimulation::record(VkCommandBuffer cmd, uint32_t steps, VkQueryPool stamps) {
    if (steps == 0) return;
    auto stamp = [&](uint32_t step, uint32_t k) {
        if (stamps != VK_NULL_HANDLE)
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, stamps, step * kSimStampsPerStep + k);
    };
    auto computeBarrier = [&](VkPipelineStageFlags2 dst_stage) {
        gpu::memoryBarrier(cmd, kComputeStage, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, dst_stage,
                           kShaderReadWrite |
                               (dst_stage & VK_PIPELINE_STAGE_2_TRANSFER_BIT ? VK_ACCESS_2_TRANSFER_WRITE_BIT : 0));
    };
    const uint32_t member_groups = groupsFor(members_, THRONG_SIM_LOCAL_SIZE);
    // After everything before: draws may still read the records this overwrites.
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                       kComputeStage | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                       kShaderReadWrite | VK_ACCESS_2_TRANSFER_WRITE_BIT);
    const uint64_t count_bytes = uint64_t(levels_.front().count) * 4;
    for (uint32_t s = 0; s < steps; ++s) {
        stamp(s, 0);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_->layout, 0, 1, &sets_[current_], 0,
                                nullptr);
        // The next step's counts cleared (this step's stepping adds to them), and this step's
        // counted here where no step before counted them.
        if (!counted_) vkCmdFillBuffer(cmd, starts_[current_]->buffer, 0, count_bytes, 0);
        vkCmdFillBuffer(cmd, starts_[1 - current_]->buffer, 0, count_bytes, 0);
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, kComputeStage,
                           kShaderReadWrite);
        shader::SimConstants constants{};
        if (!counted_) {
            dispatch(cmd, pipelines_->cells, constants, member_groups);
            computeBarrier(kComputeStage);
        }
        stamp(s, 1);
        // The prefix sum: every level's blocks scanned (each block's total into the next level),
        // then from the top down each level's scanned block sums added to its blocks.
        for (size_t l = 0; l < levels_.size(); ++l) {
            constants = {};
            constants.offset = levels_[l].offset;
            constants.count = levels_[l].count;
            if (l + 1 < levels_.size()) {
                constants.sums = levels_[l + 1].offset;
                constants.flags = THRONG_SIM_FLAG_SCAN_SUMS;
            }
            dispatch(cmd, pipelines_->scan, constants, levels_[l].count / THRONG_SIM_SCAN_BLOCK);
            computeBarrier(kComputeStage);
        }
        for (size_t l = levels_.size() - 1; l-- > 0;) {
            constants = {};
            constants.offset = levels_[l].offset;
            constants.count = levels_[l].count;
            constants.sums = levels_[l + 1].offset;
            constants.flags = THRONG_SIM_FLAG_SCAN_ADD;
            dispatch(cmd, pipelines_->scan, constants, levels_[l].count / THRONG_SIM_SCAN_BLOCK);
            computeBarrier(kComputeStage);
        }
        stamp(s, 2);
        constants = {};
        dispatch(cmd, pipelines_->scatter, constants, member_groups);
        computeBarrier(kComputeStage);
        stamp(s, 3);
        const bool last = s + 1 == steps;
        constants.flags = THRONG_SIM_FLAG_STEP | THRONG_SIM_FLAG_COUNT | (last ? THRONG_SIM_FLAG_WRITE : 0u);
        SimState clock;
        clock.steps = steps_ + s + 1;
        clock.start_time = start_time_;
        constants.time = recordTime(clock, settings_);
        dispatch(cmd, pipelines_->step, constants, member_groups);
        counted_ = true;
        current_ = 1 - current_;
        stamp(s, 4);
        if (!last)
            computeBarrier(kComputeStage |
                           VK_PIPELINE_STAGE_2_TRANSFER_BIT); // the next clear overwrites what this read
    }
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                       VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    steps_ += steps;
}

void GpuSimulation::readBack(SimState& state) {
    state.members.resize(members_);
    gpu::downloadBuffer(*allocator_, *members_buffer_, state.members.data(), members_buffer_->size);
    state.steps = steps_;
    state.start_time = start_time_;
}

} // namespace throng::sim
