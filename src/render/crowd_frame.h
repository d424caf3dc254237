// The crowd's part of a frame as passes (gpu/passes.h), in the one order every caller's
// render::CrowdRenderer records:
//
//   simulate      the motion moves the members (when there is one)
//   upload, pose  the technique's prepare passes (bonetex's texture upload, pose's palettes):
//                 before anything draws with them
//   with shadows (shadows.h): `shadow-cull` (the light's view), `shadow` (the map: by the
//                 compute rasterizer where it draws the frame, compute_raster.h, then with Auto
//                 `shadow-near`, the hardware's share by the technique on top; else the
//                 technique), `ground`
//   cull          culling and LOD (when on and the technique draws culled); with occlusion
//                 culling the early phase: the members the last frame drew
//   draw          the technique's draw; with the compute rasterizer `cache` and `raster` instead
//                 (Auto: `draw` first, of the members whose triangles are large: HardwareShare)
//   pyramid       with occlusion culling: the depth pyramid of what the early phase drew (the
//                 depth image, the visibility buffer, or both),
//   cull-late     every member against it,
//   draw-late     and the technique's draw of those the early phase did not draw (with the
//                 compute rasterizer `raster-late`, Auto's `draw-late` first);
//   resolve       with the compute rasterizer: every pixel it drew, shaded (in compute),
//   composite     and written into the frame's colour and depth, depth-tested
//   impostors     the members culling sent to impostors
#pragma once

#include "compute_raster.h"
#include "crowd_gpu.h"
#include "depth_pyramid.h"
#include "history.h"
#include "impostors.h"
#include "technique.h"

#include <memory>
#include <vector>

namespace throng::render {

// What moves the members before they are culled and drawn: the crowd simulation (src/sim/
// motion.h) behind an interface, so that rendering does not depend on it.
class ShadowMap;
class Ground;

class CrowdMotion {
  public:
    virtual ~CrowdMotion() = default;
    // Adds the passes that bring the members (the records in CrowdGpu::instances()) toward frame
    // time `time`, and returns the time the frame is to be drawn at (the members' own clock).
    virtual float addPasses(std::vector<gpu::Pass>& passes, float time) = 0;
    // The steps the last addPasses took (a simulation's fixed steps; 0 for motion without steps).
    virtual uint32_t lastSteps() const { return 0; }
};

struct CrowdFrame {
    CrowdGpu* crowd = nullptr;             // the members; null: every member drawn, nothing culled
    CrowdMotion* motion = nullptr;         // moves them first; null: they stand
    Technique* technique = nullptr;        // draws them (required)
    const DepthPyramid* pyramid = nullptr; // the frame's depth pyramid; null: no occlusion culling
    ComputeRaster* raster = nullptr;       // draws instead of the technique (`raster` ... `composite`); null: it draws
    Raster raster_mode =
        Raster::Compute;               // with `raster`: Compute, or Auto (LOD 0 by the technique, the rest by `raster`)
    ImpostorPass* impostors = nullptr; // draws the members culling sent to impostors (cull.impostor_px); null: none are
    // Shadows (shadows.h): the map, its light matrix for this slot already updated (update()), the
    // technique made with it and `crowd` with a light's view. Null: none.
    const ShadowMap* shadows = nullptr;
    // The ground (ground.h), drawn under `ground_area` after the shadow passes. Null: none.
    const Ground* ground = nullptr;
    Bounds ground_area;

    // With motion vectors (history.h): the members as the last frame drew them, its camera and
    // time. Null: none.
    MemberHistory* history = nullptr;

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
