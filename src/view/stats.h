// What one frame shows — in the overlay's panel and, as one line of text, for the `stats` command
// (scripts and tests read it).
#pragma once

#include "crowd_state.h"
#include "swapchain.h"
#include "time_ruler.h"

#include <string>

namespace throng::view {

struct FrameReport {
    double fps = 0.0;
    double frame_ms = 0.0;     // smoothed
    const FrameCosts& costs;   // the last measured frame
    const LiveCrowd& crowd;    // started
    uint64_t upload_bytes = 0; // what the technique wrote for the GPU this frame
    uint64_t triangles = 0;    // drawn in the last measured frame (after culling and LOD)
};

// "stats: TECHNIQUE | N x SOURCE | F FPS, frame MS | GPU every pass by name | CPU wait, sample,
// skin, upload, ui, record | M triangles | MB uploaded per frame | GPU memory (B in use) | MiB
// resident | PRESENT WxH".
std::string statsLine(const FrameReport& frame, const gpu::Allocator& allocator, const Swapchain& swapchain);

// The process's resident set in bytes (Linux: /proc/self/statm); 0 when unknown.
uint64_t residentBytes();

} // namespace throng::view
