// The crowd's passes of a frame; see crowd_frame.h.
#include "crowd_frame.h"

namespace throng::render {

float addCrowdPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const CrowdFrame& frame) {
    gpu::shader::DrawConstants constants = frame.constants;
    if (frame.motion != nullptr) constants.time = frame.motion->addPasses(passes, constants.time);
    if (frame.crowd != nullptr) {
        const CullSettings none{false, false, 0.0f, false};
        frame.crowd->addPasses(passes, slot, constants.view_projection, frame.viewport, frame.technique->drawsCulled() ? frame.cull : none,
                               frame.pyramid);
    }
    frame.technique->addPasses(passes, slot, constants);
    if (frame.crowd != nullptr && frame.crowd->occluding()) {
        passes.push_back(frame.pyramid->pass());
        frame.crowd->addLatePasses(passes, slot);
        Technique* technique = frame.technique;
        passes.push_back({"draw-late", gpu::PassKind::Graphics, gpu::PassTargets::ColorDepth,
                          [technique, slot, constants](VkCommandBuffer cmd) { technique->record(cmd, slot, constants); }});
    }
    return constants.time;
}

} // namespace throng::render
