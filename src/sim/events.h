// Animation events of simulated members (throng/events.h): which events each member reaches in a
// step, from the simulation's own integer clip times, so the GPU simulation needs no readback:
// a CPU mirror takes the same steps (the CPU reference is the GPU's bit for bit) and logs them.
#pragma once

#include "sim.h"

#include <deque>
#include <memory>

namespace throng::sim {

struct SimEvent {
    uint32_t member = 0; // index in the simulation
    uint32_t clip = 0;   // the asset's clip
    uint32_t event = 0;  // index into its events
    double time = 0.0;   // simulation time at which the member reached it
};

// Appends the events the members of `state` reach in the step that follows it (call before
// stepCpu), in member order: each member's clip time runs from MemberState::anim by the step's
// advance (rate x step, Q20, as sim_member.h adds it), its events at their times in Q20 (every
// cycle of the clip's Q20 duration), for the clip it mostly shows (A while the fade is under
// half, else B). The time within the step is interpolated. Fish have no clips: none.
void stepEvents(const SimState& state, const SimSettings& settings, const BakedAsset& asset,
                std::vector<SimEvent>& out);

// The events of a simulation running elsewhere (the GPU), from a CPU copy that takes the same
// steps. Costs a CPU step per step: about what stepCpu costs (tens of ms for 100,000 members).
class EventMirror {
  public:
    // Contract: `asset` outlives the mirror; validate(settings) passes.
    EventMirror(const SimState& initial, const SimSettings& settings, const BakedAsset& asset);
    // Takes `steps` steps (what the GPU simulation just recorded), logging their events. The log
    // keeps the last kKeepSeconds of simulation time.
    void advance(uint32_t steps);
    // The logged events with time in (t0, t1], in time order.
    std::vector<SimEvent> between(double t0, double t1) const;
    double time() const { return stateTime(state_, settings_); }

    static constexpr double kKeepSeconds = 60.0;

  private:
    SimState state_;
    SimSettings settings_;
    const BakedAsset* asset_ = nullptr;
    std::deque<SimEvent> log_;
};

} // namespace throng::sim
