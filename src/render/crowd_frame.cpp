// The crowd's passes of a frame; see crowd_frame.h.
#include "crowd_frame.h"

#include "ground.h"
#include "shadows.h"

#include <algorithm>
#include <optional>

namespace throng::render {

float addCrowdPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const CrowdFrame& frame) {
    gpu::shader::DrawConstants constants = frame.constants;
    constants.draw_bits = slot << THRONG_DRAW_SLOT_SHIFT;
    if (frame.motion != nullptr) constants.time = frame.motion->addPasses(passes, constants.time);
    // What motion is measured against (the first frame: itself).
    std::optional<PreviousFrame> previous;
    if (frame.history != nullptr)
        previous = frame.history->begin(slot, constants.view_projection, constants.time, frame.viewport);
    const ShadowMap* shadows = frame.crowd != nullptr ? frame.shadows : nullptr;
    // The technique's own passes before anything draws with them: its uploads, pose's palettes
    // (the shadow pass and the compute rasterizer read them too).
    frame.technique->addPreparePasses(passes, slot, constants, previous ? &*previous : nullptr);
    auto techniquePasses = [&] { addDrawPass(passes, *frame.technique, slot, constants); };
    // The technique's draws read culled lists unless it says otherwise (palette-ubo's uniform
    // batches hold consecutive members); the compute rasterizer reads any member's animation by
    // its index, so it draws culled lists for every technique, and with auto such a technique
    // leaves it the whole crowd.
    // Without culling (off, or capture) auto's hardware share is every member, as before.
    const bool technique_culls = frame.technique->drawsCulled();
    const bool culling = frame.crowd != nullptr && frame.cull.active() && frame.crowd->canCull();
    const bool split = frame.raster != nullptr && frame.raster_mode == Raster::Auto && (technique_culls || !culling);
    if (frame.crowd != nullptr) {
        const CullSettings none{false, false, 0.0f, false, false};
        CullSettings cull = technique_culls || frame.raster != nullptr ? frame.cull : none;
        if (frame.impostors == nullptr) cull.impostor_px = 0.0f; // nothing would draw them
        if (frame.raster == nullptr) cull.splat_px = 0.0f;       // nor splats: the compute rasterizer draws them
        // What the technique's draws take: everything without the compute rasterizer, nothing with
        // compute, with auto the members at LOD 0 whose triangles are large on screen (autoShare).
        // A crowd of several models: per model (CullAsset::hardware_scale), from one triangle's share.
        const uint64_t lod0_triangles = frame.crowd->mixed() ? 1 : lodTriangles(frame.crowd->lods()[0]);
        const HardwareShare hardware = frame.raster == nullptr ? HardwareShare{}
                                       : split                 ? autoShare(lod0_triangles, cull.hardware_triangle_px)
                                                               : HardwareShare{0u, 0.0f};
        if (shadows != nullptr) {
            // With the compute rasterizer the casters are rasterized in compute too, the hardware's
            // share (auto) drawn on top; with auto and a light's view that is not culled (every
            // member at LOD 0), all of it by the hardware, as the camera's.
            const bool compute = frame.raster != nullptr && frame.raster->castsShadows();
            HardwareShare light = compute ? hardware : HardwareShare{};
            // The light's view is culled only where whoever draws it reads culled lists.
            const CullSettings light_cull = technique_culls || light.lods == 0 ? cull : none;
            frame.crowd->addLightPasses(passes, slot, shadows->lightMatrix(slot), shadows->settings().size, light_cull,
                                        light);
            const bool light_culled = frame.crowd->lightCulled();
            if (!light_culled && light.lods > 0) light = HardwareShare{};
            const bool compute_casts = compute && light.lods < THRONG_MAX_LODS;
            if (compute_casts) frame.raster->addShadowPasses(passes, slot, constants, light_culled, light.lods > 0);
            if (light.lods > 0) passes.push_back(shadows->shadowPass(slot, *frame.technique, constants, compute_casts));
        }
        if (frame.ground != nullptr) passes.push_back(frame.ground->pass(slot, constants, frame.ground_area));
        frame.crowd->addPasses(passes, slot, constants.view_projection, frame.viewport, cull, frame.pyramid, hardware);
        if (frame.crowd->culled() && cull.lod && cull.coarse_skinning) {
            // The draw of LOD l reads members from region l of the visible list.
            const GpuAsset& asset = frame.crowd->asset();
            constants.lod_stride = frame.crowd->members();
            constants.coarse_lods = std::min(asset.first_coarse_lod, 0xffffu) | uint32_t(frame.crowd->lods().size())
                                                                                    << 16;
        }
    }
    if (frame.crowd == nullptr && frame.ground != nullptr)
        passes.push_back(frame.ground->pass(slot, constants, frame.ground_area));
    const bool occluding = frame.crowd != nullptr && frame.crowd->occluding();
    auto drawLate = [&] { addDrawPass(passes, *frame.technique, slot, constants, "draw-late"); };
    if (frame.raster != nullptr) {
        // Auto: the hardware's share first (without culling every member at LOD 0: all of it).
        if (split) techniquePasses();
        if (!split || (frame.crowd != nullptr && frame.crowd->culled())) {
            frame.raster->addPasses(passes, slot, constants, occluding, previous ? &*previous : nullptr);
            if (occluding) { // the pyramid of what both drew, then the late phase of both
                passes.push_back(
                    frame.pyramid->pass(split ? PyramidSource::DepthAndVisibility : PyramidSource::Visibility));
                frame.crowd->addLatePasses(passes, slot);
                if (split) drawLate();
                frame.raster->addLatePasses(passes, slot);
            }
        }
    } else {
        techniquePasses();
        if (occluding) {
            passes.push_back(frame.pyramid->pass());
            frame.crowd->addLatePasses(passes, slot);
            drawLate();
        }
    }
    // Last: the culling passes above chose them and wrote their draw.
    if (frame.impostors != nullptr && frame.crowd != nullptr && frame.crowd->culled() && frame.cull.impostor_px > 0.0f)
        frame.impostors->addPasses(passes, slot, constants, previous ? &*previous : nullptr);
    return constants.time;
}

} // namespace throng::render
