// Constants and structs of the crowd simulation (src/sim/, docs/SIMULATION.md) shared by C++ and
// GLSL. Every mirrored struct has static_asserts on its size and member offsets (C++ side,
// bottom of this file); GLSL reads them with std430.
//
// Fixed point. The simulation's state is integers, so that the same seed gives the same crowd
// bit for bit on every device and on the CPU (integer arithmetic is exact and associative; see
// sim_member.h). Units:
//   position   1 unit = radius / 2^THRONG_SIM_RADIUS_BITS world units (SimParams::origin.w), from
//              SimParams::origin: the neighbour radius is exactly 16384 units
//   velocity   units per step
//   direction  Q14 unit vectors (16384 = 1)
//   rate       Q12 playback rates (4096 = the clip's own pace)
//   blend      Q16 (65536 = all clip B)
//   time       Q20 seconds (walkers' clip time) or Q20 cycles (fish swim phase)
#ifndef THRONG_SHADERS_SIM_SHARED_H
#define THRONG_SHADERS_SIM_SHARED_H

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
namespace throng::sim::shader {
using vec4 = glm::vec4;
using ivec2 = glm::ivec2;
using ivec3 = glm::ivec3;
using ivec4 = glm::ivec4;
using uvec3 = glm::uvec3;
using uvec4 = glm::uvec4;
using uint = uint32_t;
#endif

// Descriptor bindings (set 0 of every sim_*.comp).
#define THRONG_SIM_BINDING_PARAMS 0    // storage buffer (read only): SimModelParams per model
#define THRONG_SIM_BINDING_MEMBERS 1   // storage buffer: MemberState[members]
#define THRONG_SIM_BINDING_CELLS 2     // storage buffer: uvec2 (cell, rank in the cell) per member
#define THRONG_SIM_BINDING_STARTS 3    // storage buffer: uint, the counts/starts per cell and the scan's upper levels
#define THRONG_SIM_BINDING_SORTED 4    // storage buffer: SortedMember[members], members in cell order
#define THRONG_SIM_BINDING_INSTANCES 5 // storage buffer: gpu::shader::InstanceRecord[members] (the renderer's)
#define THRONG_SIM_BINDING_NEXT_COUNTS                                                                                 \
    6 // storage buffer: uint, the next step's counts per cell (the other starts buffer)

#define THRONG_SIM_LOCAL_SIZE 128  // threads per workgroup (every device supports 128)
#define THRONG_SIM_SCAN_ITEMS 8    // elements per thread of the prefix sum
#define THRONG_SIM_SCAN_BLOCK 1024 // THRONG_SIM_LOCAL_SIZE * THRONG_SIM_SCAN_ITEMS elements per workgroup

#define THRONG_SIM_KIND_WALKERS 0
#define THRONG_SIM_KIND_SCHOOL 1

#define THRONG_SIM_RADIUS_BITS 14 // the neighbour radius is 1 << 14 position units
#define THRONG_SIM_LOCAL_SHIFT 2  // pair maths works on offsets >> 2: the radius is 4096 there
#define THRONG_SIM_LOCAL_RADIUS 4096
#define THRONG_SIM_ONE 16384                 // Q14
#define THRONG_SIM_RATE_ONE 4096             // Q12
#define THRONG_SIM_FADE_ONE 65536u           // Q16
#define THRONG_SIM_TIME_ONE 1048576u         // Q20
#define THRONG_SIM_POSITION_LIMIT 1073741823 // |position| <= 2^30 - 1: differences fit in an int

// Clip slots of walkers: MemberState::clips holds slots, SimParams::clip_index maps them to the
// asset's clips.
#define THRONG_SIM_SLOT_IDLE 0u
#define THRONG_SIM_SLOT_WALK 1u
#define THRONG_SIM_SLOT_RUN 2u

// Root motion (throng/root_motion.h): a slot whose clip has a curve moves its members by it.
// After SimParams in the params buffer: THRONG_SIM_ROOT_ENTRIES ivec4, for slot s and sample k
// (0 .. THRONG_SIM_ROOT_SAMPLES) at index s * (THRONG_SIM_ROOT_SAMPLES + 1) + k: x, z = the
// curve's travel since the cycle's start at time k * q (q = max(duration / 32, 1), Q20; the
// last sample at the duration itself), position units at scale 1; y = 0; w = float bits of the
// yaw the curve adds there beyond its steady turn (radians; drawn, not steered by).
#define THRONG_SIM_ROOT_SAMPLES 32
#define THRONG_SIM_ROOT_ENTRIES 99 // 3 slots x 33 samples

// SimConstants::flags
#define THRONG_SIM_FLAG_STEP 1u      // sim_step.comp: advance the member one step
#define THRONG_SIM_FLAG_WRITE 2u     // sim_step.comp: write its InstanceRecord
#define THRONG_SIM_FLAG_SCAN_ADD 4u  // sim_scan.comp: add the scanned block sums (else scan blocks)
#define THRONG_SIM_FLAG_SCAN_SUMS 8u // sim_scan.comp, scanning: write each block's total to `sums`
#define THRONG_SIM_FLAG_COUNT 16u    // sim_step.comp, stepping: the member's new cell and rank for the next step

// One member: 96 bytes. Walkers and fish share the layout; fields a kind does not use are 0.
struct MemberState {
    ivec4 position; // xyz: units from SimParams::origin (walkers: y stays); w: goals reached (walkers)
    ivec4 velocity; // xyz: units per step (walkers: their own walking velocity, y = 0); w: steps left waiting at the
                    // goal (walkers)
    ivec4 goal;     // walkers: x, z of the goal; w: preferred speed (walkers) or cruise speed (fish), units per step
    ivec2 heading;  // walkers: the direction the member faces, (x, z) as a Q14 unit vector
    uint clips;     // walkers: slot of clip A (bits 0-7) and of clip B (bits 16-23); B == A: no cross-fade;
                    // the member's model in bits 8-15 (walkers and fish: simModelOf)
    uint fade;      // walkers: weight of clip B, Q16, < 65536
    uint anim;      // walkers: clip time, Q20 seconds; fish: swim phase, Q20 cycles in [0, 1)
    uint rate;      // playback rate over the next step, Q12 (the InstanceRecord's speed)
    uint rng;       // state of the member's random numbers (goals, waits)
    uint size;      // the member's own scale, Q12 (integer maths): its record's over its model's
                    // (SimSettings::scale), whose distances and speeds SimParams holds
    uint scale;     // the member's scale as float bits (InstanceRecord::position_scale.w)
    uint color;     // RGBA8 (InstanceRecord::color)
    ivec2 motion;   // walkers: (x, z) of the last step's move, units: velocity plus the separation push
};

// A member as the neighbour search reads it, in cell order: 32 bytes.
struct SortedMember {
    ivec4 position; // xyz: position; w: member index
    ivec4 velocity; // xyz: velocity; w: 0
};

// Everything a step needs that does not change (sim/sim.cpp: simParams). 256 bytes.
struct SimParams {
    vec4 origin;     // xyz: world position of unit 0; w: world units per position unit
    ivec4 field_min; // units: the box members stay in (walkers: x and z only)
    ivec4 field_max;
    ivec4 grid_min;      // units: corner of cell (0, 0, 0)
    uvec4 grid_dims;     // cells along x, y, z (walkers: y = 1); w: cells in all
    uvec4 clip_index;    // walkers: the asset's clip of slot idle, walk, run; w: bit s set when slot s has a clip
    uvec4 clip_duration; // walkers: Q20 seconds of each slot's clip (0: never wrapped)
    ivec4 natural_speed; // walkers: units per step of each slot's clip at scale 1 (0: plays at its own pace)
    ivec4 thresholds;    // walkers: units per step at scale 1: idle -> walk above x, walk -> idle below y,
                         //          walk -> run above z, run -> walk below w
    uint members;
    uint kind;       // THRONG_SIM_KIND_*
    uint cell_shift; // cell = (position - grid_min) >> cell_shift per axis (cells are >= the radius)
    uint step_q20;   // the step, Q20 seconds
    int separation;  // separation radius, local units (<= 4096)
    int push_speed;  // velocity of the push at full overlap, per neighbour, units per step
    int sidestep;    // walkers: Q12 share of the push turned to the member's right
    int max_accel;   // units per step per step
    int max_speed;   // units per step
    int min_speed;   // fish: units per step
    int arrive;      // walkers: goal reached within this many units
    int slow_radius; // walkers: slow down within this many units of the goal
    uint wait_steps; // walkers: at most this many steps waiting at a goal
    int turn_cos;    // walkers: Q14 cosine and sine of the largest turn per step
    int turn_sin;
    int turn_min_speed;     // walkers: units per step under which the heading stays
    uint fade_step;         // walkers: Q16 blend added per step during a cross-fade
    uint rate_max;          // Q12: the largest playback rate
    int cohesion;           // fish: acceleration toward the neighbours' centre at one radius, units per step per step
    int alignment;          // fish: Q12 share of the difference to the neighbours' mean velocity taken per step
    int wall_margin;        // fish: units from a wall where turning away begins
    int wall_accel;         // fish: acceleration away from a wall at the wall, units per step per step
    uint beat_q20;          // fish: swim cycles per step at rate 1, Q20
    float beats_per_second; // fish: tail beats per second at rate 1 (SwimParams::beats_per_second)
    int cruise_pull;        // fish: Q12 share of the difference to the fish's cruise speed taken per step
    uint root_slots;        // walkers: bit s set when slot s moves its members by its root motion curve
    uint models;            // the crowd's models: SimModelParams entries in the params buffer (>= 1)
    uint reserved2;
};

// A crowd of several models (issue #25): the params buffer holds one of these per model, model 0
// first, each its SimParams (the crowd's fields the same in every one; its slots' clips, their
// durations and natural speeds, its thresholds and root slots its own) and its root motion
// table. A member's model is in MemberState::clips (simModelOf). 1840 bytes.
struct SimModelParams {
    SimParams params;
    ivec4 root[THRONG_SIM_ROOT_ENTRIES];
};

// Push constants of every sim_*.comp: 32 bytes.
struct SimConstants {
    uint offset; // sim_scan: first element of the level
    uint count;  // sim_scan: elements of the level (a multiple of THRONG_SIM_SCAN_BLOCK)
    uint sums;   // sim_scan: first element of the next level (its block sums)
    uint flags;  // THRONG_SIM_FLAG_*
    float time;  // sim_step: the simulation time after the step, seconds (for the records)
    uint reserved0;
    uint reserved1;
    uint reserved2;
};

#ifdef __cplusplus
static_assert(sizeof(MemberState) == 96);
static_assert(offsetof(MemberState, velocity) == 16);
static_assert(offsetof(MemberState, goal) == 32);
static_assert(offsetof(MemberState, heading) == 48);
static_assert(offsetof(MemberState, clips) == 56);
static_assert(offsetof(MemberState, fade) == 60);
static_assert(offsetof(MemberState, anim) == 64);
static_assert(offsetof(MemberState, rate) == 68);
static_assert(offsetof(MemberState, rng) == 72);
static_assert(offsetof(MemberState, size) == 76);
static_assert(offsetof(MemberState, scale) == 80);
static_assert(offsetof(MemberState, color) == 84);
static_assert(offsetof(MemberState, motion) == 88);
static_assert(sizeof(SortedMember) == 32);
static_assert(offsetof(SortedMember, velocity) == 16);
static_assert(sizeof(SimParams) == 256);
static_assert(sizeof(SimModelParams) == 256 + 16 * THRONG_SIM_ROOT_ENTRIES);
static_assert(offsetof(SimParams, field_min) == 16);
static_assert(offsetof(SimParams, grid_min) == 48);
static_assert(offsetof(SimParams, grid_dims) == 64);
static_assert(offsetof(SimParams, clip_index) == 80);
static_assert(offsetof(SimParams, clip_duration) == 96);
static_assert(offsetof(SimParams, natural_speed) == 112);
static_assert(offsetof(SimParams, thresholds) == 128);
static_assert(offsetof(SimParams, members) == 144);
static_assert(offsetof(SimParams, step_q20) == 156);
static_assert(offsetof(SimParams, separation) == 160);
static_assert(offsetof(SimParams, max_speed) == 176);
static_assert(offsetof(SimParams, wait_steps) == 192);
static_assert(offsetof(SimParams, fade_step) == 208);
static_assert(offsetof(SimParams, cohesion) == 216);
static_assert(offsetof(SimParams, beat_q20) == 232);
static_assert(offsetof(SimParams, beats_per_second) == 236);
static_assert(offsetof(SimParams, cruise_pull) == 240);
static_assert(sizeof(SimConstants) == 32);
static_assert(offsetof(SimConstants, time) == 16);
} // namespace throng::sim::shader
#endif

#endif
