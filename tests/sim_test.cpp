// The crowd simulation (src/sim/): the GPU against the CPU reference, determinism, and what the
// crowd does (keeps apart, reaches goals, plays the clip its speed asks for, stays in its volume),
// on whatever Vulkan device is present (lavapipe in CI), validation layers on.
//
// Tolerances: the state is integers and one step is the same integer arithmetic on both sides,
// so GPU and CPU states must be equal bit for bit. The records are floats computed from the
// state by the same function compiled twice: positions must agree within 1e-4 world units,
// orientations (halves) within 2e-3, time offsets within 1e-4 s; clips, colours, speeds and
// blends exactly (tests print what they measured).
#include "../src/sim/gpu_sim.h"
#include "../src/sim/member.h"

#include <throng/bake.h>
#include <throng/builtin.h>

#include "gpu_suite.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <glm/gtc/packing.hpp>
#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

using namespace throng;
using sim::SimSettings;
using sim::SimState;

namespace {

const BakedAsset& bakedOnce(bool fish) {
    static BakedAsset walker, school;
    BakedAsset& asset = fish ? school : walker;
    if (asset.clips.empty()) {
        BakeOptions o;
        o.lods = 1;
        Result<BakedAsset> r = bake(fish ? makeFish() : makeWalker(), o);
        EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
        if (r.ok()) asset = std::move(r).value();
    }
    return asset;
}

// builtin:strider baked with root motion: its walk moves members by the curve (sim_member.h).
const BakedAsset& striderOnce() {
    static BakedAsset asset;
    if (asset.clips.empty()) {
        BakeOptions o;
        o.lods = 1;
        o.root_motion = "auto";
        Result<BakedAsset> r = bake(makeStrider(), o);
        EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
        if (r.ok()) asset = std::move(r).value();
    }
    return asset;
}

struct Scenario {
    const BakedAsset* asset = nullptr;
    SimSettings settings;
    SimState initial;
};

Scenario walkers(uint32_t count, uint64_t seed, bool root_motion = false) {
    Scenario s;
    s.asset = root_motion ? &striderOnce() : &bakedOnce(false);
    render::CrowdLayout o;
    o.count = count;
    o.seed = seed;
    const render::Crowd crowd = render::makeCrowd(*s.asset, o);
    s.settings = sim::settingsFor(*s.asset, crowd, sim::Kind::Walkers, seed);
    s.initial = sim::initialState(crowd.instances, s.settings);
    return s;
}

Scenario school(uint32_t count, uint64_t seed) {
    Scenario s;
    s.asset = &bakedOnce(true);
    render::CrowdLayout o;
    o.count = count;
    o.seed = seed;
    o.volume = true;
    const render::Crowd crowd = render::makeCrowd(*s.asset, o);
    s.settings = sim::settingsFor(*s.asset, crowd, sim::Kind::School, seed);
    s.initial = sim::initialState(crowd.instances, s.settings);
    return s;
}

SimState runCpu(const Scenario& s, uint32_t steps) {
    SimState state = s.initial;
    for (uint32_t i = 0; i < steps; ++i) sim::stepCpu(state, s.settings);
    return state;
}

std::vector<gpu::shader::InstanceRecord> records(const SimState& state, const SimSettings& settings) {
    std::vector<gpu::shader::InstanceRecord> out(state.members.size());
    sim::writeInstances(state, settings, out);
    return out;
}

glm::vec4 orientation(const gpu::shader::InstanceRecord& r) {
    return glm::vec4(glm::unpackHalf2x16(r.orientation.x), glm::unpackHalf2x16(r.orientation.y));
}

bool sameMembers(const SimState& a, const SimState& b) {
    return a.members.size() == b.members.size() &&
           std::memcmp(a.members.data(), b.members.data(), a.members.size() * sizeof(a.members[0])) == 0;
}

// Members whose states differ, and the largest distance between their positions (world units).
std::pair<size_t, double> stateDifference(const SimState& a, const SimState& b, const SimSettings& settings) {
    const double unit = sim::simParams(settings, uint32_t(a.members.size())).value().origin.w;
    size_t differ = 0;
    double worst = 0.0;
    for (size_t i = 0; i < a.members.size(); ++i) {
        if (std::memcmp(&a.members[i], &b.members[i], sizeof(a.members[i])) != 0) ++differ;
        worst = std::max(
            worst,
            glm::length(glm::dvec3(glm::ivec3(a.members[i].position) - glm::ivec3(b.members[i].position))) * unit);
    }
    return {differ, worst};
}

struct RecordErrors {
    double position = 0.0, orientation = 0.0, time_offset = 0.0;
    size_t other = 0; // records whose clips, colour, scale, speed or blend differ
};

RecordErrors compareRecords(const std::vector<gpu::shader::InstanceRecord>& a,
                            const std::vector<gpu::shader::InstanceRecord>& b) {
    RecordErrors e;
    for (size_t i = 0; i < a.size(); ++i) {
        e.position =
            std::max(e.position, double(glm::length(glm::vec3(a[i].position_scale) - glm::vec3(b[i].position_scale))));
        const glm::vec4 qa = orientation(a[i]), qb = orientation(b[i]);
        e.orientation = std::max(e.orientation, double(std::min(glm::length(qa - qb), glm::length(qa + qb))));
        e.time_offset = std::max(e.time_offset, double(std::abs(a[i].time_offset - b[i].time_offset)));
        if (a[i].clips != b[i].clips || a[i].color != b[i].color || a[i].position_scale.w != b[i].position_scale.w ||
            a[i].speed != b[i].speed || a[i].blend != b[i].blend)
            ++e.other;
    }
    return e;
}

// Smallest distance between two members (walkers: in x-z), world units; brute force.
double closestPair(const SimState& state, const SimSettings& settings) {
    const double unit = sim::simParams(settings, uint32_t(state.members.size())).value().origin.w;
    const bool planar = settings.kind == sim::Kind::Walkers;
    double closest = 1e300;
    for (size_t i = 0; i < state.members.size(); ++i)
        for (size_t j = i + 1; j < state.members.size(); ++j) {
            glm::dvec3 d(glm::ivec3(state.members[i].position) - glm::ivec3(state.members[j].position));
            if (planar) d.y = 0.0;
            closest = std::min(closest, glm::length(d) * unit);
        }
    return closest;
}

class Sim : public test::GpuSuite {
  protected:
    static void SetUpTestSuite() {
        GpuSuite::SetUpTestSuite();
        if (context_ != nullptr) pipelines_ = sim::createSimPipelines(*context_);
    }
    static void TearDownTestSuite() {
        pipelines_.reset();
        GpuSuite::TearDownTestSuite();
    }

    struct GpuRun {
        SimState state;
        std::vector<gpu::shader::InstanceRecord> records;
        double ms_per_step = 0.0;
    };

    // `steps` steps on the GPU, `per_record` per record() call, each call submitted and waited for.
    static GpuRun runGpu(const Scenario& s, uint32_t steps, uint32_t per_record, uint32_t max_groups_x = 0) {
        GpuRun run;
        const size_t n = s.initial.members.size();
        gpu::OwnedBuffer instances = gpu::ownBuffer(
            *allocator_, n * sizeof(gpu::shader::InstanceRecord),
            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, gpu::MemoryUse::Device);
        sim::GpuSimulation simulation(*allocator_, s.initial, s.settings, instances->buffer, pipelines_, max_groups_x);
        const auto start = std::chrono::steady_clock::now();
        for (uint32_t done = 0; done < steps;) {
            const uint32_t k = std::min(per_record, steps - done);
            gpu::submitAndWait(*context_, [&](VkCommandBuffer cmd) { simulation.record(cmd, k); });
            done += k;
        }
        run.ms_per_step = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
                          std::max(steps, 1u);
        simulation.readBack(run.state);
        run.records.resize(n);
        gpu::downloadBuffer(*allocator_, *instances, run.records.data(), n * sizeof(gpu::shader::InstanceRecord));
        return run;
    }

    // GPU against CPU after `steps` steps: states bit for bit, records within the tolerances.
    static void expectGpuMatchesCpu(const char* what, const Scenario& s, uint32_t steps, uint32_t per_record,
                                    uint32_t max_groups_x = 0) {
        const GpuRun gpu_run = runGpu(s, steps, per_record, max_groups_x);
        const SimState cpu = runCpu(s, steps);
        EXPECT_EQ(gpu_run.state.steps, cpu.steps);
        const auto [differ, distance] = stateDifference(gpu_run.state, cpu, s.settings);
        const RecordErrors e = compareRecords(gpu_run.records, records(cpu, s.settings));
        std::printf(
            "%s, %zu members, %u steps: %zu states differ (largest position difference %.3g); records: position %.3g, "
            "orientation %.3g, time offset %.3g s, %zu with other differences; GPU %.2f ms per step\n",
            what, cpu.members.size(), steps, differ, distance, e.position, e.orientation, e.time_offset, e.other,
            gpu_run.ms_per_step);
        EXPECT_TRUE(sameMembers(gpu_run.state, cpu)) << differ << " member states differ";
        EXPECT_LE(e.position, 1e-4);
        EXPECT_LE(e.orientation, 2e-3);
        EXPECT_LE(e.time_offset, 1e-4);
        EXPECT_EQ(e.other, 0u);
        // And the crowd moved: the comparison is not one of two idle crowds.
        EXPECT_FALSE(sameMembers(cpu, s.initial));
    }

    static inline std::shared_ptr<const sim::SimPipelines> pipelines_;
};

} // namespace

TEST_F(Sim, WalkersOnGpuMatchCpuReference) { expectGpuMatchesCpu("walkers", walkers(300, 7), 30, 10); }

TEST_F(Sim, RootMotionWalkersOnGpuMatchCpuReference) {
    const Scenario s = walkers(300, 7, true);
    EXPECT_EQ(sim::simParams(s.settings, 300).value().root_slots & (1u << sim::kWalk), 1u << sim::kWalk);
    expectGpuMatchesCpu("walkers moved by root motion", s, 30, 10);
}

TEST_F(Sim, SchoolOnGpuMatchesCpuReference) { expectGpuMatchesCpu("fish", school(300, 7), 30, 10); }

// A field far larger than the crowd (1.8 million cells: three levels of prefix sum) and at most
// two workgroups per dispatch row (every dispatch 2D), as a million members would need.
TEST_F(Sim, SparseGridAndTwoDimensionalDispatchesMatchCpu) {
    Scenario s = walkers(300, 3);
    const glm::vec3 centre = 0.5f * (s.settings.field.min + s.settings.field.max);
    s.settings.field.min = centre + (s.settings.field.min - centre) * 60.0f;
    s.settings.field.max = centre + (s.settings.field.max - centre) * 60.0f;
    s.settings.max_cells = 4'000'000;
    const sim::shader::SimParams P = sim::simParams(s.settings, 300).value();
    EXPECT_GT(P.grid_dims.w, 1'048'576u); // > 1024 * 1024: three levels
    s.initial = sim::initialState(records(s.initial, s.settings), s.settings);
    expectGpuMatchesCpu("walkers in a sparse grid, 2D dispatches", s, 10, 5, 2);
}

TEST_F(Sim, SameSeedGivesBitIdenticalGpuResults) {
    const Scenario s = walkers(300, 11);
    const GpuRun a = runGpu(s, 20, 20);
    const GpuRun b = runGpu(s, 20, 7); // also: how the steps are split over record() calls does not matter
    EXPECT_TRUE(sameMembers(a.state, b.state));
    EXPECT_EQ(std::memcmp(a.records.data(), b.records.data(), a.records.size() * sizeof(a.records[0])), 0);
    const Scenario fish = school(300, 11);
    EXPECT_TRUE(sameMembers(runGpu(fish, 20, 20).state, runGpu(fish, 20, 20).state));
    // Another seed: another crowd.
    EXPECT_FALSE(sameMembers(a.state, runGpu(walkers(300, 12), 20, 20).state));
}

// No two walkers closer than half the separation radius at any of 200 steps (CPU reference,
// equal to the GPU by the tests above), in a crowd as dense as makeCrowd lays it out.
// simSqrt (sim_member.h: a float guess corrected with integers) is floor(sqrt(n)) exactly: every
// n below 2^22, and around every square up to 2^32 - 1 (k^2 - 1, k^2, k^2 + k), checked in 64-bit
// integers. The GPU runs the same correction on its own guess (states bit for bit, above).
TEST(SimCpu, SquareRootIsExact) {
    auto exact = [](uint64_t n, uint64_t r) { return r * r <= n && (r + 1) * (r + 1) > n; };
    uint64_t wrong = 0, checked = 0;
    auto check = [&](uint64_t n) {
        ++checked;
        if (!exact(n, sim::shader::simSqrt(uint32_t(n)))) ++wrong;
    };
    for (uint64_t n = 0; n < (1u << 22); ++n) check(n);
    for (uint64_t k = 1; k < 65536; ++k)
        for (uint64_t n : {k * k - 1, k * k, k * k + k}) check(n);
    check(0xffffffffu);
    std::printf("%" PRIu64 " roots checked, %" PRIu64 " wrong\n", checked, wrong);
    EXPECT_EQ(wrong, 0u);
}

TEST(SimCpu, WalkersKeepApart) {
    const Scenario s = walkers(400, 5);
    SimState state = s.initial;
    double closest = closestPair(state, s.settings);
    const double start = closest;
    for (int i = 0; i < 200; ++i) {
        sim::stepCpu(state, s.settings);
        closest = std::min(closest, closestPair(state, s.settings));
    }
    std::printf("walkers: separation radius %.3f, closest pair at start %.3f, over 200 steps %.3f (%.0f%%)\n",
                s.settings.separation, start, closest, 100.0 * closest / s.settings.separation);
    EXPECT_GE(closest, 0.5 * s.settings.separation);
}

TEST(SimCpu, FishKeepApartAndStayInTheirVolume) {
    const Scenario s = school(300, 5);
    const sim::shader::SimParams P = sim::simParams(s.settings, 300).value();
    SimState state = s.initial;
    double closest = closestPair(state, s.settings);
    const double start = closest;
    bool inside = true;
    for (int i = 0; i < 300; ++i) {
        sim::stepCpu(state, s.settings);
        closest = std::min(closest, closestPair(state, s.settings));
        const std::vector<gpu::shader::InstanceRecord> r = records(state, s.settings);
        for (const gpu::shader::InstanceRecord& x : r)
            for (int a = 0; a < 3; ++a)
                inside = inside && x.position_scale[a] >= s.settings.field.min[a] - 1e-3f &&
                         x.position_scale[a] <= s.settings.field.max[a] + 1e-3f;
        for (const sim::shader::MemberState& m : state.members)
            for (int a = 0; a < 3; ++a)
                inside = inside && m.position[a] >= P.field_min[a] && m.position[a] <= P.field_max[a];
    }
    std::printf("fish: separation radius %.3f, closest pair at start %.3f, over 300 steps %.3f (%.0f%%)\n",
                s.settings.separation, start, closest, 100.0 * closest / s.settings.separation);
    EXPECT_TRUE(inside);
    EXPECT_GE(closest, 0.5 * s.settings.separation);
    // They swim: speeds within the limits, and faster fish beat their tails faster.
    const double unit = P.origin.w, dt = sim::stepSeconds(s.settings);
    for (const sim::shader::MemberState& m : state.members) {
        const double speed = glm::length(glm::dvec3(glm::ivec3(m.velocity))) * unit / dt;
        EXPECT_GE(speed, 0.99 * s.settings.min_speed);
        EXPECT_LE(speed, 1.01 * s.settings.max_speed);
        // Within the rounding of integer speeds (whole units per step) and Q12 rates.
        const double speed_units = glm::length(glm::dvec3(glm::ivec3(m.velocity)));
        const double expected = std::clamp(speed / (m.goal.w * unit / dt), 0.25, double(s.settings.max_rate));
        EXPECT_NEAR(m.rate / 4096.0, expected, expected / speed_units + 1.0 / 4096.0);
    }
}

TEST(SimCpu, WalkersReachTheirGoals) {
    const Scenario s = walkers(200, 9);
    SimState state = s.initial;
    std::vector<double> farthest(state.members.size(), 0.0);
    const double unit = sim::simParams(s.settings, 200).value().origin.w;
    for (int i = 0; i < 900; ++i) { // 30 s
        sim::stepCpu(state, s.settings);
        for (size_t m = 0; m < state.members.size(); ++m)
            farthest[m] = std::max(farthest[m], glm::length(glm::dvec3(glm::ivec3(state.members[m].position) -
                                                                       glm::ivec3(s.initial.members[m].position))) *
                                                    unit);
    }
    size_t reached = 0, goals = 0, moved = 0;
    for (size_t m = 0; m < state.members.size(); ++m) {
        reached += state.members[m].position.w > 0;
        goals += size_t(state.members[m].position.w);
        moved += farthest[m] > s.settings.radius;
    }
    std::printf("walkers after 30 s: %zu of %zu reached a goal (%zu goals), %zu moved more than a radius\n", reached,
                state.members.size(), goals, moved);
    EXPECT_GE(reached, state.members.size() * 9 / 10);
    EXPECT_EQ(moved, state.members.size());
}

// Idle below a speed, walk above, a cross-fade in [0, 1) on every change, the walk played at
// ground speed / natural speed (feet that do not slide).
TEST(SimCpu, ClipsFollowSpeedWithCrossFades) {
    const Scenario s = walkers(300, 4);
    const sim::shader::SimParams P = sim::simParams(s.settings, 300).value();
    const double unit = P.origin.w, dt = sim::stepSeconds(s.settings);
    const uint32_t walk = uint32_t(s.settings.slots[sim::kWalk].clip),
                   idle = uint32_t(s.settings.slots[sim::kIdle].clip);
    EXPECT_EQ(walk, 0u); // builtin:walker: clips walk, idle
    EXPECT_EQ(idle, 1u);
    EXPECT_EQ(s.settings.slots[sim::kRun].clip, -1);
    SimState state = s.initial;
    size_t fading = 0, walking = 0, idling = 0, changes = 0;
    double worst_rate = 0.0;
    std::vector<uint32_t> last_a(state.members.size());
    for (size_t m = 0; m < state.members.size(); ++m)
        last_a[m] = gpu::shader::throngClipA(records(state, s.settings)[m].clips);
    for (int i = 0; i < 300; ++i) {
        sim::stepCpu(state, s.settings);
        const std::vector<gpu::shader::InstanceRecord> r = records(state, s.settings);
        for (size_t m = 0; m < r.size(); ++m) {
            const uint32_t a = gpu::shader::throngClipA(r[m].clips), b = gpu::shader::throngClipB(r[m].clips);
            ASSERT_GE(r[m].blend, 0.0f);
            ASSERT_LT(r[m].blend, 1.0f);
            ASSERT_TRUE(a == walk || a == idle);
            ASSERT_TRUE(b == walk || b == idle);
            if (a != last_a[m]) ++changes;
            last_a[m] = a;
            const double scale = r[m].position_scale.w;
            const glm::ivec2 moved = state.members[m].motion;
            const double speed = glm::length(glm::dvec2(moved)) * unit / dt / scale; // ground speed at scale 1
            if (a != b) {
                ++fading;
                continue;
            }
            if (a == walk) {
                ++walking;
                EXPECT_GE(speed, 0.149 * s.settings.slots[sim::kWalk].natural_speed) << "walking too slowly";
                const double rate =
                    std::min(speed / s.settings.slots[sim::kWalk].natural_speed, double(s.settings.max_rate));
                worst_rate = std::max(worst_rate, std::abs(rate - r[m].speed));
            } else {
                ++idling;
                EXPECT_LE(speed, 0.301 * s.settings.slots[sim::kWalk].natural_speed) << "idle while moving";
                EXPECT_EQ(r[m].speed, 1.0f); // idle plays at its own pace
            }
        }
    }
    std::printf("clips over 300 steps x 300 walkers: %zu walking, %zu idle, %zu cross-fading, %zu changes of clip; "
                "walk rate vs ground speed / natural speed: largest difference %.2g\n",
                walking, idling, fading, changes, worst_rate);
    EXPECT_GT(fading, 0u);
    EXPECT_GT(idling, 0u);
    EXPECT_GT(changes, 50u);
    EXPECT_LE(worst_rate, 2e-3);
}

// Between two steps the renderer extrapolates each member's clip time (time * speed +
// time_offset); the next step's records continue it without a jump, whatever the speed did.
TEST(SimCpu, AnimationTimeIsContinuousAcrossSteps) {
    for (bool fish : {false, true}) {
        const Scenario s = fish ? school(200, 2) : walkers(200, 2);
        SimState state = s.initial;
        std::vector<gpu::shader::InstanceRecord> before = records(state, s.settings);
        double worst = 0.0;
        size_t speed_changes = 0;
        for (int i = 0; i < 200; ++i) {
            sim::stepCpu(state, s.settings);
            const std::vector<gpu::shader::InstanceRecord> after = records(state, s.settings);
            const double t = sim::recordTime(state, s.settings);
            for (size_t m = 0; m < after.size(); ++m) {
                const double beats = fish ? s.settings.beats_per_second : 1.0;
                const double played = before[m].time_offset + t * before[m].speed * beats;
                const double now = after[m].time_offset + t * after[m].speed * beats;
                // Clip times wrap by clip A's duration (fish: phases by whole cycles).
                const uint32_t a = gpu::shader::throngClipA(after[m].clips);
                const double period = fish ? 1.0 : double(s.asset->clips[a].duration);
                const double jump = std::remainder(now - played, period);
                worst = std::max(worst, std::abs(jump));
                speed_changes += before[m].speed != after[m].speed;
            }
            before = after;
        }
        std::printf("%s: largest jump of the clip time between steps %.3g %s (%zu speed changes)\n",
                    fish ? "fish" : "walkers", worst, fish ? "cycles" : "s", speed_changes);
        EXPECT_LE(worst, 1e-4);
        EXPECT_GT(speed_changes, 100u);
    }
}

// The records place members where their state says and turn the model's +z to where they face:
// walkers their heading, fish their velocity. Walkers' headings follow where they move at a
// limited rate: over 200 steps, moving walkers go more than 45 degrees off their heading in under
// 10% of the cases (shoves from neighbours, turns in progress) and backward in under 2%.
TEST(SimCpu, RecordsFaceWhereMembersGo) {
    for (bool fish : {false, true}) {
        const Scenario s = fish ? school(200, 8) : walkers(200, 8);
        const sim::shader::SimParams P = sim::simParams(s.settings, 200).value();
        SimState state = s.initial;
        double facing = 0.0, place = 0.0;
        size_t moving = 0, off45 = 0, off90 = 0;
        for (int i = 0; i < 200; ++i) {
            sim::stepCpu(state, s.settings);
            const std::vector<gpu::shader::InstanceRecord> r = records(state, s.settings);
            for (size_t m = 0; m < r.size(); ++m) {
                const sim::shader::MemberState& x = state.members[m];
                const glm::vec4 q = orientation(r[m]);
                const glm::vec3 forward = glm::quat(q.w, q.x, q.y, q.z) * glm::vec3(0.0f, 0.0f, 1.0f);
                const glm::dvec3 want = fish ? glm::normalize(glm::dvec3(glm::ivec3(x.velocity)))
                                             : glm::normalize(glm::dvec3(x.heading.x, 0.0, x.heading.y));
                facing = std::max(facing, glm::length(glm::dvec3(forward) - want));
                const glm::dvec3 world =
                    glm::dvec3(glm::vec3(P.origin)) + glm::dvec3(glm::ivec3(x.position)) * double(P.origin.w);
                place = std::max(place, glm::length(world - glm::dvec3(glm::vec3(r[m].position_scale))));
                const glm::dvec3 moved(x.motion.x, 0.0, x.motion.y);
                if (fish || glm::length(moved) < 0.3 * P.natural_speed[sim::kWalk]) continue;
                ++moving;
                const double along = glm::dot(glm::normalize(moved), want);
                off45 += along < 0.7071;
                off90 += along < 0.0;
            }
        }
        std::printf("%s: facing within %.2g of the %s, positions within %.2g", fish ? "fish" : "walkers", facing,
                    fish ? "velocity" : "heading", place);
        if (!fish)
            std::printf("; of %zu moving walkers, %.1f%% more than 45 degrees off their heading, %.2f%% backward",
                        moving, 100.0 * off45 / moving, 100.0 * off90 / moving);
        std::printf("\n");
        EXPECT_LE(facing, 4e-3); // halves: 2^-11 per component
        EXPECT_LE(place, 1e-4);
        if (!fish) {
            EXPECT_GT(moving, 10000u);
            EXPECT_LT(off45, moving / 10);
            EXPECT_LT(off90, moving / 50);
        }
    }
}

TEST(SimCpu, SettingsForTheBuiltinCreatures) {
    const BakedAsset& walker = bakedOnce(false);
    const float walk = sim::naturalGroundSpeed(walker, 0), idle = sim::naturalGroundSpeed(walker, 1);
    std::printf("builtin:walker: natural ground speed of walk %.3f m/s (stride %.3f m per %.2f s loop), idle %.3f\n",
                walk, walk * walker.clips[0].duration, walker.clips[0].duration, idle);
    EXPECT_GT(walk, 0.8f); // a 1.8 m walker with 22-degree hip swings: a stride of about 1.2 m
    EXPECT_LT(walk, 1.6f);
    EXPECT_EQ(idle, 0.0f);
    render::CrowdLayout o;
    o.count = 100;
    const SimSettings s = sim::settingsFor(walker, render::makeCrowd(walker, o), sim::Kind::Walkers);
    EXPECT_TRUE(sim::validate(s).ok()) << sim::validate(s).message;
    EXPECT_EQ(s.slots[sim::kWalk].natural_speed, walk);
    EXPECT_EQ(s.walk_speed, walk);
    o.volume = true;
    const SimSettings f = sim::settingsFor(bakedOnce(true), render::makeCrowd(bakedOnce(true), o), sim::Kind::School);
    EXPECT_TRUE(sim::validate(f).ok()) << sim::validate(f).message;
    // Bad settings are refused with a message naming the setting.
    SimSettings bad = s;
    bad.max_speed = 1000.0f;
    EXPECT_NE(sim::validate(bad).message.find("max_speed"), std::string::npos) << sim::validate(bad).message;
    bad = s;
    bad.step = 0.5f;
    EXPECT_NE(sim::validate(bad).message.find("step"), std::string::npos);
    bad = s;
    bad.slots[sim::kWalk].clip = -1;
    EXPECT_NE(sim::validate(bad).message.find("walk"), std::string::npos);
}

TEST_F(Sim, RefusesCrowdsPastTheDeviceLimits) {
    const Scenario s = walkers(100, 1);
    EXPECT_TRUE(sim::checkDeviceLimits(*context_, s.settings, 1'000'000).ok())
        << sim::checkDeviceLimits(*context_, s.settings, 1'000'000).message;
    const uint64_t range = context_->properties.limits.maxStorageBufferRange;
    const uint64_t too_many = range / sizeof(sim::shader::MemberState) + 1;
    if (too_many < (1u << 28)) {
        const Status st = sim::checkDeviceLimits(*context_, s.settings, uint32_t(too_many));
        EXPECT_FALSE(st.ok());
        EXPECT_NE(st.message.find("maxStorageBufferRange"), std::string::npos) << st.message;
    }
}

// Out of memory at every fault point of building a simulation (its pipelines included), in turn:
// the constructor throws gpu::GpuError and leaves no memory or Vulkan object behind (the
// validation layers report objects destroyed while in use; the allocator's bytes in use return).
TEST_F(Sim, FailedConstructionFreesEverything) {
    const Scenario s = walkers(100, 1);
    gpu::OwnedBuffer instances = gpu::ownBuffer(*allocator_, 100 * sizeof(gpu::shader::InstanceRecord),
                                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryUse::Device);
    const VkDeviceSize in_use = allocator_->in_use;
    for (bool own_pipelines : {false, true}) {
        auto build = [&] {
            sim::GpuSimulation simulation(*allocator_, s.initial, s.settings, instances->buffer,
                                          own_pipelines ? nullptr : pipelines_);
        };
        gpu::setFailAllocation(0);
        build();
        const uint64_t points = gpu::faultPoints();
        EXPECT_GT(points, own_pipelines ? 12u : 6u);
        uint64_t threw = 0;
        for (uint64_t n = 1; n <= points; ++n) {
            gpu::setFailAllocation(n);
            try {
                build();
            } catch (const gpu::GpuError& e) {
                ++threw;
                EXPECT_NE(std::string(e.what()).find("out of GPU memory"), std::string::npos) << e.what();
            }
            EXPECT_EQ(allocator_->in_use, in_use) << "fault point " << n;
        }
        gpu::setFailAllocation(0);
        std::printf("%s pipelines: %" PRIu64 " fault points, %" PRIu64
                    " of them thrown (the others absorbed by a fallback)\n",
                    own_pipelines ? "own" : "shared", points, threw);
        EXPECT_GE(threw, points / 2);
    }
}

// Not a check: how long one step takes at 100,000 walkers on this device (printed; the
// environment variable THRONG_SIM_TIMING_MEMBERS sets another count). Ten steps recorded in one
// command buffer, after a warm-up step. Twice: with the members' indices in the crowd's layout
// order (neighbours have nearby indices, as at the start of a run) and shuffled (as after walkers
// have crossed the field for a while). On an H100 at ten million the shuffled step costs a
// quarter more (docs/IN_MOTION.md, section 4).
TEST_F(Sim, TimingOf100kWalkers) {
    const char* env = std::getenv("THRONG_SIM_TIMING_MEMBERS");
    const uint32_t members = env != nullptr ? uint32_t(std::strtoul(env, nullptr, 10)) : 100'000u;
    Scenario s = walkers(std::max(members, 1u), 1);
    for (const bool shuffled : {false, true}) {
        const char* order = shuffled ? "shuffled" : "layout order";
        if (shuffled) {
            std::mt19937 rng(7);
            std::shuffle(s.initial.members.begin(), s.initial.members.end(), rng);
        }
        constexpr uint32_t kSteps = 10;
        VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qi.queryCount = kSteps * sim::kSimStampsPerStep;
        VkQueryPool raw = VK_NULL_HANDLE;
        ASSERT_EQ(vkCreateQueryPool(context_->device, &qi, gpu::hostCallbacks(context_->device), &raw), VK_SUCCESS);
        const gpu::Unique<VkQueryPool> stamps(context_->device, raw);
        gpu::OwnedBuffer instances =
            gpu::ownBuffer(*allocator_, s.initial.members.size() * sizeof(gpu::shader::InstanceRecord),
                           VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryUse::Device);
        sim::GpuSimulation simulation(*allocator_, s.initial, s.settings, instances->buffer, pipelines_);
        auto wallMsPerStep = [&](uint32_t per_submission) {
            const auto start = std::chrono::steady_clock::now();
            for (uint32_t done = 0; done < kSteps; done += per_submission)
                gpu::submitAndWait(*context_, [&](VkCommandBuffer cmd) { simulation.record(cmd, per_submission); });
            return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() / kSteps;
        };
        // Busy first, for a second at least: an idle GPU's clocks rise only after a while busy (an
        // H100 stayed at 345-690 MHz through a tenth of a second's steps, against its 1,980 MHz
        // under `throng bench`'s frames: ten million walkers' step took 2.7 times bench's).
        const auto warm_until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
        do (void)wallMsPerStep(kSteps);
        while (std::chrono::steady_clock::now() < warm_until);
        const double ten = wallMsPerStep(kSteps), one = wallMsPerStep(1);
        std::printf("%u walkers (%s) on %s: %.2f ms per step (10 steps in one submission), %.2f ms (one step per "
                    "submission)\n",
                    members, order, context_->device_name.c_str(), ten, one);
        // Each phase of a step by the GPU's timestamps (the median of ten steps), per member too.
        gpu::submitAndWait(*context_, [&](VkCommandBuffer cmd) {
            vkCmdResetQueryPool(cmd, stamps, 0, qi.queryCount);
            simulation.record(cmd, kSteps, stamps);
        });
        std::vector<uint64_t> t(qi.queryCount);
        ASSERT_EQ(vkGetQueryPoolResults(context_->device, stamps, 0, qi.queryCount, t.size() * 8, t.data(), 8,
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                  VK_SUCCESS);
        const double period_ms = double(context_->properties.limits.timestampPeriod) * 1e-6;
        std::printf("phases (median of %u steps):", kSteps);
        for (uint32_t k = 0; k < sim::kSimStampsPerStep; ++k) {
            std::vector<double> ms;
            for (uint32_t step = 0; step < kSteps; ++step) {
                const uint64_t* at = &t[step * sim::kSimStampsPerStep];
                ms.push_back(double(k + 1 < sim::kSimStampsPerStep ? at[k + 1] - at[k] : at[k] - at[0]) * period_ms);
            }
            std::nth_element(ms.begin(), ms.begin() + kSteps / 2, ms.end());
            const double median = ms[kSteps / 2];
            std::printf(" %s %.3f ms (%.2f ns a member)", k + 1 < sim::kSimStampsPerStep ? sim::kSimPhases[k] : "total",
                        median, median * 1e6 / double(members));
        }
        std::printf("\n");
    }
}

// A million walkers: grid, dispatches and buffers at the scale the simulation is for; one step,
// GPU against CPU, bit for bit.
TEST_F(Sim, MillionWalkers) {
    const auto start = std::chrono::steady_clock::now();
    const Scenario s = walkers(1'000'000, 1);
    const double setup = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    expectGpuMatchesCpu("a million walkers", s, 1, 1);
    std::printf("(crowd and initial state on the CPU: %.2f s)\n", setup);
}

// A crowd of several models (issue #25): the walker, the strider with root motion and the fish
// (walking with its one clip), each member stepping with its own model's clips, speeds and root
// curve, on the GPU bit for bit as on the CPU; every record keeps its member's model and plays
// that model's clips; each model's members walk at their own gait.
TEST_F(Sim, SeveralModelsOnGpuMatchCpuReference) {
    const BakedAsset* models[] = {&bakedOnce(false), &striderOnce(), &bakedOnce(true)};
    Result<render::AssetLibrary> built = render::buildAssetLibrary(models);
    ASSERT_TRUE(built.ok()) << built.error().message;
    const render::AssetLibrary& lib = built.value();
    render::CrowdLayout o;
    o.count = 300;
    o.seed = 11;
    const render::Crowd crowd = render::makeCrowd(lib, o);
    Scenario s;
    s.asset = &lib.asset;
    s.settings = sim::settingsFor(models, lib, crowd, sim::Kind::Walkers, 11);
    ASSERT_EQ(s.settings.models.size(), 3u);
    ASSERT_TRUE(sim::validate(s.settings).ok()) << sim::validate(s.settings).message;
    s.initial = sim::initialState(crowd.instances, s.settings);
    const std::vector<sim::shader::SimModelParams> params = sim::modelParams(s.settings, 300).value();
    EXPECT_EQ(params[1].params.root_slots & (1u << sim::kWalk), 1u << sim::kWalk) << "the strider walks by its curve";
    EXPECT_EQ(params[0].params.root_slots, 0u);
    EXPECT_NE(params[0].params.natural_speed[sim::kWalk], params[1].params.natural_speed[sim::kWalk]);
    expectGpuMatchesCpu("three models", s, 30, 10);

    const SimState after = runCpu(s, 60);
    const std::vector<gpu::shader::InstanceRecord> out = records(after, s.settings);
    for (size_t i = 0; i < out.size(); ++i) {
        const uint32_t model = gpu::shader::throngAssetOf(crowd.instances[i].clips);
        ASSERT_EQ(gpu::shader::throngAssetOf(out[i].clips), model) << "member " << i;
        const render::AssetRange& r = lib.ranges[model];
        for (uint32_t clip : {gpu::shader::throngClipA(out[i].clips), gpu::shader::throngClipB(out[i].clips)})
            ASSERT_TRUE(clip >= r.first_clip && clip < r.first_clip + r.clip_count)
                << "member " << i << " of model " << model << " plays clip " << clip;
        ASSERT_EQ(sim::shader::simModelOf(after.members[i].clips), model);
    }
    // The same crowd of the walker alone steps as it always did: one model's settings have none.
    EXPECT_TRUE(sim::settingsFor(*models[0], crowd, sim::Kind::Walkers, 11).models.empty());
}

// Models drawn at another size (CrowdLayout::model_size, issue #25): the simulation measures
// each at the size drawn, so a crowd at twice the size steps as the same crowd twice as large,
// bit for bit (a factor of two is exact in floating point: the layout, the settings, the
// fixed-point unit and every record double, the integer state stays). Alone (the strider, root
// motion) against its size as made, and three models of three sizes against the same at twice
// that size, on the GPU as on the CPU.
TEST_F(Sim, ModelsAtTwiceTheSizeStepAsTheSameCrowdTwiceAsLarge) {
    auto sized = [](std::span<const BakedAsset* const> models, float model_size) {
        Result<render::AssetLibrary> lib = render::buildAssetLibrary(models);
        EXPECT_TRUE(lib.ok());
        render::CrowdLayout o;
        o.count = 200;
        o.seed = 5;
        o.model_size = model_size;
        Scenario s;
        const render::Crowd crowd =
            models.size() == 1 ? render::makeCrowd(*models[0], o) : render::makeCrowd(lib.value(), o);
        s.settings = models.size() == 1 ? sim::settingsFor(*models[0], crowd, sim::Kind::Walkers, 5)
                                        : sim::settingsFor(models, lib.value(), crowd, sim::Kind::Walkers, 5);
        EXPECT_TRUE(sim::validate(s.settings).ok()) << sim::validate(s.settings).message;
        s.initial = sim::initialState(crowd.instances, s.settings);
        return s;
    };
    auto expectTwice = [](const Scenario& small, const Scenario& large, const char* what) {
        SCOPED_TRACE(what);
        const SimState a = runCpu(small, 40), b = runCpu(large, 40);
        ASSERT_EQ(a.members.size(), b.members.size());
        size_t moved = 0;
        for (size_t i = 0; i < a.members.size(); ++i) {
            sim::shader::MemberState m = b.members[i];
            ASSERT_EQ(glm::uintBitsToFloat(m.scale), 2.0f * glm::uintBitsToFloat(a.members[i].scale)) << i;
            m.scale = a.members[i].scale;
            ASSERT_EQ(std::memcmp(&m, &a.members[i], sizeof(m)), 0) << "member " << i;
            moved += a.members[i].position != small.initial.members[i].position;
        }
        EXPECT_GT(moved, a.members.size() / 2) << "the crowd walks";
        const std::vector<gpu::shader::InstanceRecord> ra = records(a, small.settings), rb = records(b, large.settings);
        for (size_t i = 0; i < ra.size(); ++i)
            ASSERT_EQ(rb[i].position_scale, 2.0f * ra[i].position_scale) << "member " << i;
    };
    const BakedAsset* strider[] = {&striderOnce()};
    const Bounds& bind = striderOnce().bind_bounds;
    const glm::vec3 e = bind.max - bind.min;
    const Scenario made = sized(strider, 0.0f), doubled = sized(strider, 2.0f * std::max({e.x, e.y, e.z}));
    EXPECT_EQ(doubled.settings.scale, 2.0f);
    EXPECT_EQ(doubled.settings.radius, 2.0f * made.settings.radius);
    expectTwice(made, doubled, "the strider at twice its size");

    const BakedAsset* three[] = {&bakedOnce(false), &striderOnce(), &bakedOnce(true)};
    const Scenario small = sized(three, 1.5f), large = sized(three, 3.0f);
    ASSERT_EQ(large.settings.models.size(), 3u);
    EXPECT_NE(large.settings.models[0].scale, large.settings.models[2].scale) << "the fish is made at another size";
    expectTwice(small, large, "three models at 1.5 and 3 units");
    expectGpuMatchesCpu("three models at 3 units", large, 30, 10);
}
