// The crowd simulation (issue #10 section 2, docs/SIMULATION.md): members that move, on the GPU,
// with a CPU reference that computes the same steps.
//
// Two kinds. Walkers (skinned assets) roam a flat field: each walks to its own random goal,
// waits there a little, then picks another; keeps apart from its neighbours; turns toward where
// it moves at a limited rate; plays idle, walk or run by its speed, cross-fading on a change, at
// the playback rate that keeps its feet from sliding (ground speed / the clip's natural ground
// speed). Fish (technique `procedural`) school inside a box: separation, alignment, cohesion,
// walls; they face where they swim and beat their tails faster when they swim faster.
//
// (docs/SIMULATION.md describes the behaviour in full: goals, separation, turning, clip choice.)
//
// Fixed steps. A step advances every member by SimSettings::step seconds. The state is integers
// (src/shaders/sim_shared.h gives the units) and one step is the same integer arithmetic on the
// CPU and the GPU (src/shaders/sim_member.h, compiled by both), so the same seed gives the same
// crowd, bit for bit, after any number of steps, on any device and on the CPU. The neighbour
// sums are integer sums: the order in which the GPU's grid visits neighbours (decided by
// atomics) cannot change them. The InstanceRecords written from a state use floats (world
// position, orientation, time offset) and may differ between devices in the last bits.
//
// Time. A state is at time start_time + steps * stepSeconds(). Its records are correct for the
// renderer's time (DrawConstants::time) at that time and run on from it: a member's clip time
// is time * speed + time_offset, equal to the member's own clip time at the state's time, with
// speed its playback rate over the next step; so drawing anywhere between two steps shows the
// animation the next step will continue, and a speed change never makes the clip time jump.
#pragma once

#include "../render/crowd.h"
#include "../shaders/shared.h"
#include "../shaders/sim_shared.h"

#include <throng/baked.h>
#include <throng/result.h>

#include <array>
#include <span>
#include <vector>

namespace throng::sim {

enum class Kind : uint32_t { Walkers = THRONG_SIM_KIND_WALKERS, School = THRONG_SIM_KIND_SCHOOL };

// The clip slots of walkers.
enum Slot : uint32_t { kIdle = THRONG_SIM_SLOT_IDLE, kWalk = THRONG_SIM_SLOT_WALK, kRun = THRONG_SIM_SLOT_RUN };

struct ClipSlot {
    int32_t clip = -1;          // the asset's clip; -1: the slot is empty (never chosen; walk must have one)
    float duration = 0.0f;      // seconds (clip times wrap by it)
    float natural_speed = 0.0f; // ground speed at which the clip's feet do not slide, world units/s at scale 1;
                                // 0: the clip plays at its own pace whatever the speed (idle)
    // Root motion (throng/root_motion.h): the clip's curve, (x, z, yaw) per baked frame over the
    // duration (BakedClip::root_motion). Not empty: members playing the slot move by it.
    std::vector<glm::vec3> root_motion;
};

// What one model of a crowd of several brings to the simulation (SimSettings::models).
struct ModelGait {
    std::array<ClipSlot, 3> slots; // walkers: by Slot, the crowd's clip numbers (the library's)
    float walk_speed = 1.4f;       // walkers: as SimSettings::walk_speed, for this model
    float run_speed = 0.0f;
    float scale = 1.0f;      // as SimSettings::scale, for this model
    uint32_t first_clip = 0; // fish: the clip their records name (the model's first)
};

// Everything that stays the same over a simulation. Distances are world units, times seconds;
// a member's own speeds (walk_speed, cruise_speed, natural speeds) scale with its scale.
struct SimSettings {
    Kind kind = Kind::Walkers;
    uint64_t seed = 1;         // goals, waits and preferred speeds
    float step = 1.0f / 30.0f; // seconds, in (0, 1/8]; used as a whole number of 2^-20 s: stepSeconds()
    Bounds field;              // walkers roam its x-z rectangle (each keeps its height); fish swim inside it
    float radius = 1.0f;       // neighbour radius: the grid's smallest cell, and the fixed-point scale
                               // (1 position unit = radius / 16384); the field may be 65,536 radii across
    float separation = 1.0f;   // members closer than this push apart; <= radius (walkers: == radius)
    float push = 2.0f;         // the push at full overlap, per neighbour: walkers a speed (units/s), fish
                               // an acceleration (units/s^2)
    float max_speed = 2.0f;    // units/s; at most radius / 2 per step
    float min_speed = 0.0f;    // fish: units/s
    float max_accel = 4.0f;    // units/s^2
    float max_rate = 3.0f;     // the largest playback rate, in [1, 4]
    // The scale every member's record carries beside its own (render::Crowd::model_scales: its
    // model drawn at CrowdLayout::model_size). The distances and speeds here are at it, so a
    // member's own scale, for its speeds, is its record's divided by it. In (0, 1e6].
    float scale = 1.0f;

    // Walkers.
    std::array<ClipSlot, 3> slots; // by Slot: idle, walk, run
    float walk_speed = 1.4f;       // preferred walking speed at scale 1 (each member: 0.85-1.15 times it)
    float run_speed = 0.0f;        // preferred running speed at scale 1 (0: nobody runs)
    float runner_share = 0.2f;     // share of members who run (when run_speed > 0 and slot run has a clip)
    float arrive_radius = 0.6f;    // a goal is reached this close
    float slow_radius = 1.8f;      // walkers slow down from this far from their goal; < 8 radii
    float max_wait = 3.0f;         // seconds idle at a reached goal, at most
    float turn_rate = 3.0f;        // radians per second
    float fade_time = 0.25f;       // seconds of a cross-fade
    float sidestep = 0.5f;         // share of the separation push turned to the member's right, in [0, 1]

    // Fish.
    float cruise_speed = 1.0f;     // units/s at scale 1 (each fish: 0.9-1.1 times it): tail beats at rate 1
    float cohesion = 1.0f;         // acceleration toward the neighbours' centre at one radius from it, units/s^2
    float alignment = 2.0f;        // per second: how fast a fish takes on its neighbours' mean velocity
    float cruise_pull = 2.0f;      // per second: how fast a fish returns to its cruise speed
    float wall_margin = 1.0f;      // fish turn away from walls closer than this; at most 4 radii
    float wall_accel = 4.0f;       // units/s^2 away from a wall, at the wall
    float beats_per_second = 1.5f; // tail beats per second at rate 1: the technique's SwimParams::beats_per_second

    uint32_t max_cells = 0; // the most grid cells (0: 4 * members + 4096); cells double until under it

    // A crowd of several models (issue #25; a member's model is its record's, throngAssetOf):
    // what differs per model. Empty: one model, the fields above. The fields above are the
    // crowd's (the radius, the field, the speeds' limits); `slots`, walk_speed and run_speed are
    // then model 0's.
    std::vector<ModelGait> models;
};

// Errors, one line naming the setting: a step outside (0, 1/8] s, a non-finite or non-positive
// radius, separation past the radius, an empty or too large field, speeds past half a radius
// per step, an empty walk slot, a rate or share out of range.
Status validate(const SimSettings& settings);

// The integer constants of a step (the same for the CPU and the GPU). Errors: validate()'s.
Result<shader::SimParams> simParams(const SimSettings& settings, uint32_t members);

// The models of the crowd (at least one), and the settings of model `model`: `settings` with its
// gait (one model: `settings` itself).
uint32_t modelCount(const SimSettings& settings);
SimSettings modelSettings(const SimSettings& settings, uint32_t model);

// Every model's params and root table (the GPU's params buffer; SimModelParams). Errors:
// validate()'s for any model's settings.
Result<std::vector<shader::SimModelParams>> modelParams(const SimSettings& settings, uint32_t members);

// The params member `m` steps with: its model's (the last model's past them, as sim_step.comp
// clamps). Contract: models is not empty.
const shader::SimModelParams& paramsOf(std::span<const shader::SimModelParams> models, const shader::MemberState& m);

// The root motion table that follows SimParams in the GPU's params buffer (sim_shared.h): each
// slot's curve sampled at the table's times, in position units at scale 1, the yaw beyond the
// cycle's steady turn as float bits. Zeros for slots without a curve. Contract: P is
// simParams(settings, ...).
using RootTable = std::array<glm::ivec4, THRONG_SIM_ROOT_ENTRIES>;
RootTable rootTable(const SimSettings& settings, const shader::SimParams& P);

// The step as the simulation uses it: a whole number of 2^-20 s.
double stepSeconds(const SimSettings& settings);

// Settings for `crowd` of `asset` (render::makeCrowd; crowd.bounds becomes the field):
//  Walkers: radius = max(1.2 x the bind pose's larger horizontal extent, 0.3 x its height); slots
//    by clip name (a name containing "idle", "walk", "run", case-insensitive), then unnamed slots
//    filled with the remaining clips in index order (walk first, then idle, then run); natural
//    speeds measured from the clips (naturalGroundSpeed; a clip with a root motion curve: its
//    root speed, rootSpeed(), and the slot moves members by the curve); walk_speed = the walk clip's natural speed,
//    run_speed the run clip's; push 3 x walk_speed; max_accel walk_speed / 0.35 s; arrive within
//    one radius, slow down from three.
//  School: body length L = the bind pose's largest extent; separation L, radius 2 L, cruise 1.5 L/s
//    (0.5 to 3 L/s), push 40 L/s^2, the crowd's bounds as the volume, beats_per_second from
//    throng::defaultSwim().
SimSettings settingsFor(const BakedAsset& asset, const render::Crowd& crowd, Kind kind, uint64_t seed = 1);

// Settings for `crowd` of several models (`models`, each as settingsFor measures it alone; the
// library of them gives their first clips): the crowd's radius and separation the largest of
// theirs, the speed limits and pushes the largest, each model's gait its own (ModelGait, its
// slots' clips in the library's numbers). One model: settingsFor(*models[0], ...).
SimSettings settingsFor(std::span<const BakedAsset* const> models, const render::AssetLibrary& library,
                        const render::Crowd& crowd, Kind kind, uint64_t seed = 1);

// The ground speed at which clip `clip` of `asset` keeps its feet still, model units per second:
// the average speed at which its lowest vertices (the feet on the ground, within 2% of the
// height of the lowest) move backward (-z; models face +z) between baked frames, plus the clip's
// own forward drift (root motion: the centre's travel over the clip / its duration). Below 5% of
// the model's height per second it is 0 (a clip that stays in place, e.g. idle). For a walking clip
// where that finds nothing (no contact with the ground), settingsFor() falls back on a stride of
// 0.8 x height per loop (1.4 x height for run).
float naturalGroundSpeed(const BakedAsset& asset, uint32_t clip);

// The simulated members and their clock.
struct SimState {
    std::vector<shader::MemberState> members;
    uint64_t steps = 0;      // steps taken since the initial state
    double start_time = 0.0; // seconds: the time of the initial state
};

// start_time + steps * stepSeconds(), and the same rounded to float: the time the records of the
// state are for (the renderer's DrawConstants::time).
double stateTime(const SimState& state, const SimSettings& settings);
float recordTime(const SimState& state, const SimSettings& settings);

// Members from `records` (a crowd's, at time `start_time`): position (clamped into the field),
// facing, scale, colour and model kept; walkers keep their clip where it is one of the slots (else walk)
// and its clip time; fish keep their swim phase and swim straight ahead at their cruise speed.
// Contract (asserted): validate(settings) passes; records is not empty.
SimState initialState(std::span<const gpu::shader::InstanceRecord> records, const SimSettings& settings,
                      double start_time = 0.0);

// One step of every member, the reference for the GPU: a neighbour grid in member order, the
// member step of sim_member.h. Integer arithmetic, no floating point.
// Contract (asserted): validate(settings) passes.
void stepCpu(SimState& state, const SimSettings& settings);

// The records of every member at recordTime(state). Contract (asserted): out.size() == members.
void writeInstances(const SimState& state, const SimSettings& settings, std::span<gpu::shader::InstanceRecord> out);

} // namespace throng::sim
