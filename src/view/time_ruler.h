// The time ruler (after the Gamefest "TimeRuler" idea): one bar per frame stage on a shared
// time axis, CPU stages in one lane and GPU passes in another, with a marker at the target
// frame time, so what costs what reads off at a glance. rulerBars() is plain data (tested);
// drawTimeRuler() draws it with Dear ImGui.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace throng::view {

// One GPU pass of a frame as its timestamps measured it, from the frame's first timestamp.
struct GpuPassTime {
    std::string name;
    double start_ms = 0.0;
    double length_ms = 0.0;
};

// What one frame cost. CPU stages run one after another in this order; GPU passes (every pass
// of the frame by name, gpu/passes.h, then the viewer's overlay) by their start and length from
// the frame's first timestamp.
struct FrameCosts {
    double cpu_wait_ms = 0.0;   // waiting for the frame slot's fence and the swapchain image
    double cpu_sample_ms = 0.0; // technique: sampling poses
    double cpu_skin_ms = 0.0;   // technique: CPU skinning
    double cpu_upload_ms = 0.0; // technique: writing per-frame buffers
    double cpu_ui_ms = 0.0;     // building the overlay
    double cpu_record_ms = 0.0; // recording the command buffer
    std::vector<GpuPassTime> gpu_passes;
    double gpuMs(const std::string& pass) const; // the pass's length, 0 when the frame had none
};

// Pass i of `names` ran from timestamp i to timestamp i + 1 (timestamp 0: the frame's start);
// `ms_per_tick` is the device's timestampPeriod * 1e-6. Contract: ticks.size() == names.size() + 1.
std::vector<GpuPassTime> gpuPassTimes(std::span<const uint64_t> ticks, std::span<const std::string> names,
                                      double ms_per_tick);

struct RulerBar {
    std::string name;
    int lane; // 0: CPU, 1: GPU
    double start_ms;
    double length_ms;
    uint32_t color; // ImGui colour (ABGR)
};

std::vector<RulerBar> rulerBars(const FrameCosts& costs);

// Draws the lanes at the current ImGui cursor, `width` pixels wide, scaled so that the longer
// of the bars' end and `target_ms` fits; a vertical line marks `target_ms`.
void drawTimeRuler(const std::vector<RulerBar>& bars, double target_ms, float width);

} // namespace throng::view
