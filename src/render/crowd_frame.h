// The crowd's part of a frame as passes (gpu/passes.h), in the one order the headless renderer,
// the benchmark and the viewer all use:
//
//   simulate      the motion moves the members (when there is one)
//   with shadows (shadows.h): `upload` or `pose` (the technique's, moved here), `shadow-cull` (the light's
//                 view), `shadow` (the map), `ground`
//   cull          culling and LOD (when on and the technique draws culled); with occlusion
//                 culling the early phase: the members the last frame drew
//   upload, draw  the technique's passes (upload when it has transfers, `pose` for technique pose); with the compute
//                 rasterizer its prepare passes (upload, `pose`: what the raster skins from) then `cache`,
//                 `raster` and `resolve` instead of its draw (and no occlusion culling); with `auto` the
//                 technique's passes, then those
//   pyramid       with occlusion culling: the depth pyramid of what `draw` drew,
//   cull-late     every member against it,
//   draw-late     and the technique's draw of those `draw` did not draw.
#pragma once

#include "compute_raster.h"
#include "crowd_gpu.h"
#include "depth_pyramid.h"
#include "impostors.h"
#include "technique.h"

#include <memory>
#include <vector>

namespace throng::render {

// What moves the members before they are culled and drawn: the crowd simulation (src/sim/
// motion.h) behind an interface, so that rendering does not depend on it.
class ShadowMap;

class CrowdMotion {
  public:
    virtual ~CrowdMotion() = default;
    // Adds the passes that bring the members (the records in CrowdGpu::instances()) toward frame
    // time `time`, and returns the time the frame is to be drawn at (the members' own clock).
    virtual float addPasses(std::vector<gpu::Pass>& passes, float time) = 0;
};

struct CrowdFrame {
    CrowdGpu* crowd = nullptr;             // the members; null: every member drawn, nothing culled
    CrowdMotion* motion = nullptr;         // moves them first; null: they stand
    Technique* technique = nullptr;        // draws them (required)
    const DepthPyramid* pyramid = nullptr; // the frame's depth pyramid; null: no occlusion culling
    ComputeRaster* raster = nullptr; // draws instead of the technique (`raster`, `resolve`); null: the technique draws
    Raster raster_mode =
        Raster::Compute;               // with `raster`: Compute, or Auto (LOD 0 by the technique, the rest by `raster`)
    ImpostorPass* impostors = nullptr; // draws the members culling sent to impostors (cull.impostor_px); null: none are
    // Shadows (shadows.h): the map, its light matrix for this slot already updated (update()), the
    // technique made with it and `crowd` with a light's view. Null: none.
    const ShadowMap* shadows = nullptr;

    gpu::shader::DrawConstants constants{}; // camera, light, time
    CullSettings cull;                      // used only when the technique draws culled
    VkExtent2D viewport{};                  // the frame's targets
};

// Appends the passes of frame slot `slot`; the passes keep pointers to everything in `frame`.
// The draw constants carry the slot in draw_bits (THRONG_DRAW_SLOT_SHIFT: the lit pass's ShadowParams).
// With LOD on, the draws' constants also say which LODs `baked` skins coarsely.
// Returns the time the frame is drawn at (the motion's clock, else constants.time).
float addCrowdPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const CrowdFrame& frame);

} // namespace throng::render
