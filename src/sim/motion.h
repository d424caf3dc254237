// The crowd simulation as the renderer's CrowdMotion (render/renderer.h): every frame a
// `simulate` pass of the whole fixed steps that bring the members up to the frame's time, and the
// frame drawn at the simulation's own clock. Used by `render`, `bench` and `view` for --simulate.
#pragma once

#include "events.h"
#include "gpu_sim.h"

#include "../render/renderer.h"

namespace throng::sim {

// At most this many steps in one frame (8 s at 30 steps a second): a frame far ahead of the
// simulation's clock (a long pause, `render --time 1000`) does not stall the GPU; the members'
// clock then lags the frame's.
constexpr uint32_t kMaxStepsPerFrame = 240;

// The kind of simulation for technique `technique`: a school for one that swims
// (TechniqueInfo::swims), walkers else.
Kind kindFor(std::string_view technique);

// A motion factory for `crowd` of `asset` (settingsFor: the field, clip slots by name or index,
// natural speeds), seeded by `seed`, its clock starting at `start_time` seconds. `pipelines`:
// shared ones, or null.
// `events`: not null, it receives a mirror of the simulation that logs the members' animation
// events (events.h) as the frames take their steps (the asset must outlive it).
// Errors: the settings invalid, the device's limits too small for the crowd (checkDeviceLimits).
Result<render::MotionFactory> gpuMotion(const gpu::Context& context, const BakedAsset& asset,
                                        const render::Crowd& crowd, Kind kind, uint64_t seed,
                                        std::shared_ptr<const SimPipelines> pipelines = nullptr,
                                        double start_time = 0.0, std::shared_ptr<EventMirror>* events = nullptr);

// The same for a crowd of several models (`models`, concatenated as `library`, which must
// outlive the factory and the motions it makes): settingsFor(models, library, ...), each member
// stepping with its own model's gait.
Result<render::MotionFactory> gpuMotion(const gpu::Context& context, std::span<const BakedAsset* const> models,
                                        const render::AssetLibrary& library, const render::Crowd& crowd, Kind kind,
                                        uint64_t seed, std::shared_ptr<const SimPipelines> pipelines = nullptr,
                                        double start_time = 0.0, std::shared_ptr<EventMirror>* events = nullptr);

} // namespace throng::sim
