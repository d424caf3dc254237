// The crowd simulation on the GPU (sim.h for what a step does). Per step, each a compute dispatch
// (src/shaders/sim_*.comp), a barrier between every two:
//   clear      the per-cell counts (vkCmdFillBuffer)
//   cells      per member: its cell, and its rank in the cell from an atomic add to the count;
//              only at a simulation's first step: every step counts its members' new cells
//              itself, into the other of two count buffers, cleared before it (the next step's,
//              which then scans that buffer: the two swap every step). Ten million walkers on an
//              H100: a pass over 960 MB of states less per step.
//   scan       exclusive prefix sum of the counts (blocks of 1,024, level by level, then the block
//              sums added back): the first sorted slot of every cell
//   scatter    per member: its position and velocity into slot start[cell] + rank
//   step       per member: the neighbour sums over the 3 x 3 (x 3) cells around it, then the member
//              step of sim_member.h (the CPU reference's very code), then its new cell and rank
//              (for the next step); on the last step of a record() also its InstanceRecord
// The order of members within a cell is the atomics' and changes from run to run; the step is
// independent of it (integer sums), so results are bit-identical run to run and equal to stepCpu().
//
// Scale: dispatches are 2D past maxComputeWorkGroupCount[0] groups; every storage buffer is
// checked against maxStorageBufferRange before anything is allocated (1,000,000 members: 96 MB
// of states, 32 MB sorted, 8 MB of cell ranks, about 16 MB of cells twice; lavapipe's limit, 128 MiB,
// holds up to 1.39 million members). Nothing is read back or done on the CPU per frame.
#pragma once

#include "sim.h"

#include "../gpu/owned.h"

#include <memory>

namespace throng::sim {

// The pipelines of every simulation on one device; build them once and share them (lavapipe
// compiles each in hundreds of milliseconds). Throws gpu::GpuError.
struct SimPipelines {
    gpu::Unique<VkDescriptorSetLayout> set_layout;
    gpu::Unique<VkPipelineLayout> layout;
    gpu::Unique<VkPipeline> cells, scan, scatter, step;
};
std::shared_ptr<const SimPipelines> createSimPipelines(const gpu::Context& context);

// An error naming the buffer and the sizes when a simulation of `members` members would need a
// storage buffer past the device's maxStorageBufferRange, or a dispatch past its
// maxComputeWorkGroupCount (both dimensions); also validate()'s errors.
Status checkDeviceLimits(const gpu::Context& context, const SimSettings& settings, uint32_t members);

constexpr uint32_t kSimStampsPerStep = 5;
// What the phases of a step are called, in the order of their stamps (GpuSimulation::record).
constexpr const char* kSimPhases[kSimStampsPerStep - 1] = {"cells", "scan", "scatter", "step"};

class GpuSimulation {
  public:
    // Uploads `initial` and writes its records into `instances` (waiting for the GPU once: load
    // time). `instances`: a storage buffer of at least initial.members.size() InstanceRecords,
    // which every record() rewrites; the simulation does not own it, and it must outlive it.
    // `max_groups_x`: tests only, fewer workgroups per dispatch row than the device allows, to
    // exercise 2D dispatches with small crowds (0: the device's limit).
    // Throws gpu::GpuError: checkDeviceLimits() failing (its message), out of memory. Everything
    // made so far is freed when it throws. Contract (asserted): validate(settings) passes,
    // initial has members, instances is not null.
    GpuSimulation(gpu::Allocator& allocator, const SimState& initial, const SimSettings& settings, VkBuffer instances,
                  std::shared_ptr<const SimPipelines> pipelines = nullptr, uint32_t max_groups_x = 0);
    GpuSimulation(const GpuSimulation&) = delete;
    GpuSimulation& operator=(const GpuSimulation&) = delete;

    // Records `steps` fixed steps into `cmd` (a compute-capable command buffer outside any
    // rendering), then the records at the new time; nothing when steps == 0. Self-contained: it
    // starts with a barrier after all earlier commands (so it may overwrite records that earlier
    // draws read) and ends with a full memory barrier (all writes visible to every later stage:
    // vertex shaders, compute, transfers). Advances the simulation's clock by `steps` at
    // recording: every recorded command buffer must be submitted, once, in recording order.
    // `stamps` (optional, timing: tests/sim_test.cpp): a timestamp query pool of at least
    // kSimStampsPerStep x steps queries, reset; step s writes queries kSimStampsPerStep x s + k at
    // the start (k = 0) and after its cells (1: the clear of the next step's counts, and the
    // cells pass where it runs), scan (2), scatter (3) and step (4) dispatches.
    void record(VkCommandBuffer cmd, uint32_t steps, VkQueryPool stamps = VK_NULL_HANDLE);

    // The members after everything recorded so far (tests). Contract: that work has been submitted
    // (readBack waits for the queue to finish it).
    void readBack(SimState& state);

    uint32_t members() const { return members_; }
    uint64_t steps() const { return steps_; }
    // The time of the last recorded step (stateTime): what the renderer's clock should read.
    double time() const;
    uint64_t bytes() const; // device memory of the simulation's own buffers

  private:
    struct ScanLevel {
        uint32_t offset = 0, count = 0; // elements of the starts buffer: first, and how many (multiple of 1,024)
    };
    void dispatch(VkCommandBuffer cmd, VkPipeline pipeline, const shader::SimConstants& constants,
                  uint32_t groups) const;
    void recordWrite(VkCommandBuffer cmd, uint32_t flags, float time) const;

    gpu::Allocator* allocator_ = nullptr;
    std::shared_ptr<const SimPipelines> pipelines_;
    SimSettings settings_;
    shader::SimParams params_{};
    uint32_t members_ = 0;
    uint32_t max_groups_x_ = 65535;
    uint64_t steps_ = 0;
    double start_time_ = 0.0;
    std::vector<ScanLevel> levels_;
    gpu::OwnedBuffer params_buffer_, members_buffer_, cells_buffer_, sorted_buffer_;
    // Two count-and-scan buffers: starts_[current_] holds the counts of the members' cells now
    // (when counted_), the other receives the next step's; sets_[k] binds starts_[k] as the
    // starts and the other as the next counts.
    gpu::OwnedBuffer starts_[2];
    uint32_t current_ = 0;
    bool counted_ = false; // the cells and counts of the members as they are now: the last step's
    gpu::Unique<VkDescriptorPool> pool_;
    VkDescriptorSet sets_[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
};

} // namespace throng::sim
