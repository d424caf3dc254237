// The simulation behind the renderer's CrowdMotion; see motion.h.
#include "motion.h"
#include "../render/frame_resources.h"

#include <cmath>

namespace throng::sim {

namespace {

class SimMotion final : public render::CrowdMotion {
  public:
    SimMotion(gpu::Allocator& a, const SimState& initial, const SimSettings& settings, VkBuffer instances,
              std::shared_ptr<const SimPipelines> pipelines, std::shared_ptr<EventMirror> events)
        : settings_(settings), sim_(a, initial, settings, instances, std::move(pipelines)), events_(std::move(events)) {
    }

    float addPasses(std::vector<gpu::Pass>& passes, float time) override {
        const double step = stepSeconds(settings_);
        const double now = sim_.time();
        uint32_t steps = 0;
        if (double(time) > now)
            steps = uint32_t(std::min(std::floor((double(time) - now) / step + 1e-9), double(kMaxStepsPerFrame)));
        // Every frame has the pass, also with no step to take (the frame list stays the same).
        passes.push_back({"simulate", gpu::PassKind::Compute, gpu::PassTargets::ColorDepth,
                          [this, steps](VkCommandBuffer cmd) { sim_.record(cmd, steps); },
                          render::frame::Members | render::frame::Simulation,
                          render::frame::Members | render::frame::Simulation});
        if (events_) events_->advance(steps); // the same steps on the CPU: their events
        last_steps_ = steps;
        return float(now + double(steps) * step);
    }
    uint32_t lastSteps() const override { return last_steps_; }

  private:
    SimSettings settings_;
    GpuSimulation sim_;
    std::shared_ptr<EventMirror> events_;
    uint32_t last_steps_ = 0;
};

} // namespace

Kind kindFor(std::string_view technique) { return render::techniqueSwims(technique) ? Kind::School : Kind::Walkers; }

namespace {

Result<render::MotionFactory> motionOf(const gpu::Context& context, const SimSettings& settings,
                                       const BakedAsset& asset, const render::Crowd& crowd,
                                       std::shared_ptr<const SimPipelines> pipelines, double start_time,
                                       std::shared_ptr<EventMirror>* events) {
    if (Status s = checkDeviceLimits(context, settings, uint32_t(crowd.instances.size())); !s) return s.error();
    auto initial = std::make_shared<const SimState>(initialState(crowd.instances, settings, start_time));
    std::shared_ptr<EventMirror> mirror;
    if (events != nullptr) *events = mirror = std::make_shared<EventMirror>(*initial, settings, asset);
    return render::MotionFactory([settings, initial, pipelines, mirror](
                                     gpu::Allocator& a, VkBuffer instances) -> std::unique_ptr<render::CrowdMotion> {
        return std::make_unique<SimMotion>(a, *initial, settings, instances, pipelines, mirror);
    });
}

} // namespace

Result<render::MotionFactory> gpuMotion(const gpu::Context& context, const BakedAsset& asset,
                                        const render::Crowd& crowd, Kind kind, uint64_t seed,
                                        std::shared_ptr<const SimPipelines> pipelines, double start_time,
                                        std::shared_ptr<EventMirror>* events) {
    return motionOf(context, settingsFor(asset, crowd, kind, seed), asset, crowd, std::move(pipelines), start_time,
                    events);
}

Result<render::MotionFactory> gpuMotion(const gpu::Context& context, std::span<const BakedAsset* const> models,
                                        const render::AssetLibrary& library, const render::Crowd& crowd, Kind kind,
                                        uint64_t seed, std::shared_ptr<const SimPipelines> pipelines, double start_time,
                                        std::shared_ptr<EventMirror>* events) {
    return motionOf(context, settingsFor(models, library, crowd, kind, seed), library.asset, crowd,
                    std::move(pipelines), start_time, events);
}

} // namespace throng::sim
