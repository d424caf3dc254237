// A simulated crowd of walkers for tests that step the CPU reference (src/sim/).
#pragma once

#include "../src/sim/sim.h"

namespace throng::test {

struct WalkerRun {
    sim::SimSettings settings;
    sim::SimState state;
};

// `count` members of `asset` laid out by render::makeCrowd with `seed`, simulated as walkers with
// the settings settingsFor() derives.
inline WalkerRun walkerRun(const BakedAsset& asset, uint32_t count, uint64_t seed) {
    render::CrowdLayout o;
    o.count = count;
    o.seed = seed;
    const render::Crowd crowd = render::makeCrowd(asset, o);
    WalkerRun run;
    run.settings = sim::settingsFor(asset, crowd, sim::Kind::Walkers, seed);
    run.state = sim::initialState(crowd.instances, run.settings);
    return run;
}

} // namespace throng::test
