// The crowd's passes of a frame; see crowd_frame.h.
#include "crowd_frame.h"

#include "shadows.h"

#include <algorithm>

namespace throng::render {

float addCrowdPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const CrowdFrame& frame) {
    gpu::shader::DrawConstants constants = frame.constants;
    constants.draw_bits = slot << THRONG_DRAW_SLOT_SHIFT;
    if (frame.motion != nullptr) constants.time = frame.motion->addPasses(passes, constants.time);
    const ShadowMap* shadows = frame.crowd != nullptr ? frame.shadows : nullptr;
    // The technique's own passes before anything draws with them: its uploads, pose's palettes
    // (the shadow pass and the compute rasterizer read them too).
    frame.technique->addPreparePasses(passes, slot, constants);
    auto techniquePasses = [&] { addDrawPass(passes, *frame.technique, slot, constants); };
    if (frame.crowd != nullptr) {
        const CullSettings none{false, false, 0.0f, false, false};
        CullSettings cull = frame.technique->drawsCulled() ? frame.cull : none;
        if (frame.impostors == nullptr) cull.impostor_px = 0.0f; // nothing would draw them
        if (shadows != nullptr) {
            // With the compute rasterizer the casters are rasterized in compute too, but for the
            // finer levels with auto (the hardware's, drawn on top) and, with auto, a light's view
            // that is not culled (every member at LOD 0: all of it the hardware's, as the camera's).
            const bool compute = frame.raster != nullptr && frame.raster->castsShadows();
            uint32_t light_hardware_lods = !compute ? THRONG_MAX_LODS : frame.raster_mode == Raster::Auto ? 1u : 0u;
            frame.crowd->addLightPasses(passes, slot, shadows->lightMatrix(slot), shadows->settings().size, cull,
                                        light_hardware_lods);
            const bool light_culled = frame.crowd->lightCulled();
            if (!light_culled && light_hardware_lods > 0) light_hardware_lods = THRONG_MAX_LODS;
            const bool compute_casts = compute && light_hardware_lods < THRONG_MAX_LODS;
            if (compute_casts)
                frame.raster->addShadowPasses(passes, slot, constants, light_culled, light_hardware_lods,
                                              light_hardware_lods > 0);
            if (light_hardware_lods > 0)
                passes.push_back(shadows->shadowPass(slot, *frame.technique, constants, compute_casts));
            if (shadows->settings().ground) passes.push_back(shadows->groundPass(slot, constants));
        }
        // Auto: the hardware draws LOD 0 only, the compute rasterizer the rest.
        const uint32_t hardware_lods = frame.raster == nullptr             ? THRONG_MAX_LODS
                                       : frame.raster_mode == Raster::Auto ? 1u
                                                                           : 0u;
        frame.crowd->addPasses(passes, slot, constants.view_projection, frame.viewport, cull,
                               frame.raster ? nullptr : frame.pyramid, hardware_lods);
        if (frame.crowd->culled() && cull.lod && cull.coarse_skinning) {
            // The draw of LOD l reads members from region l of the visible list.
            const GpuAsset& asset = frame.crowd->asset();
            constants.lod_stride = frame.crowd->members();
            constants.coarse_lods = std::min(asset.first_coarse_lod, 0xffffu) | uint32_t(frame.crowd->lods().size())
                                                                                    << 16;
        }
    }
    if (frame.raster != nullptr) {
        // Auto without culling: every member at LOD 0, all of it the hardware's.
        const bool split = frame.raster_mode == Raster::Auto;
        if (split) techniquePasses();
        if (!split || (frame.crowd != nullptr && frame.crowd->culled()))
            frame.raster->addPasses(passes, slot, constants, split ? 1u : 0u);
    } else {
        techniquePasses();
    }
    if (frame.raster == nullptr && frame.crowd != nullptr && frame.crowd->occluding()) {
        passes.push_back(frame.pyramid->pass());
        frame.crowd->addLatePasses(passes, slot);
        Technique* technique = frame.technique;
        passes.push_back(
            {"draw-late", gpu::PassKind::Graphics, gpu::PassTargets::ColorDepth,
             [technique, slot, constants](VkCommandBuffer cmd) { technique->record(cmd, slot, constants); }});
    }
    // Last: the culling passes above chose them and wrote their draw.
    if (frame.impostors != nullptr && frame.crowd != nullptr && frame.crowd->culled() && frame.cull.impostor_px > 0.0f)
        frame.impostors->addPasses(passes, slot, constants);
    return constants.time;
}

} // namespace throng::render
