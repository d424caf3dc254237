// Animation events (throng/events.h, #13 part 4): every event reached exactly once per cycle per
// member, across loop boundaries and speed changes, for host-driven members (eventsBetween), for
// simulated ones (the simulation's integer clip times) and through the render API; footsteps
// found in the frames; the JSON sidecar, the EVNT section and their errors.
#include "../src/sim/events.h"
#include "../src/sim/member.h"

#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/events.h>
#include <throng/format.h>

#include "sim_util.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>

using namespace throng;

namespace {

BakedAsset walkerWithEvents() {
    BakeOptions o;
    o.lods = 1;
    o.footsteps = true;
    o.events["walk"] = {{0.0f, "start"}, {0.55f, "half"}};
    Result<BakedAsset> r = bake(makeWalker(), o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : BakedAsset{};
}

// How many times clip time passes e + k d (k whole) going from u0 (excluded) to u1 (included).
int64_t crossings(double e, double d, double u0, double u1) {
    return int64_t(std::floor((u1 - e) / d)) - int64_t(std::floor((u0 - e) / d));
}

} // namespace

TEST(Events, FootstepsOncePerFootPerCycle) {
    const BakedAsset asset = walkerWithEvents();
    const BakedClip& walk = asset.clips[0];
    std::vector<ClipEvent> steps;
    for (const ClipEvent& e : walk.events)
        if (e.name.rfind("footstep_", 0) == 0) steps.push_back(e);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_NE(steps[0].name, steps[1].name); // one left, one right
    const double apart = std::abs(double(steps[1].time - steps[0].time));
    std::printf("walker footsteps: %s at %.3f s, %s at %.3f s of %.3f s\n", steps[0].name.c_str(), steps[0].time,
                steps[1].name.c_str(), steps[1].time, walk.duration);
    EXPECT_NEAR(apart, 0.5 * walk.duration, 0.1 * walk.duration); // the other foot half a stride later
    EXPECT_TRUE(asset.clips[1].events.empty());                   // idle: the feet never lift
    // The sidecar's events merged in time order.
    ASSERT_EQ(walk.events.size(), 4u);
    EXPECT_EQ(walk.events.front().name, "start");
    for (size_t e = 1; e < walk.events.size(); ++e) EXPECT_LE(walk.events[e - 1].time, walk.events[e].time);
}

// A member at speed 1.7 for over ten cycles, in steps of every size (tiny, several cycles at
// once), its speed changing now and then with its phase kept (as a host or the simulation does):
// every event exactly as often as its clip time passes it, in time order, at the right time.
TEST(Events, HostDrivenMemberReachesEachEventOncePerCycle) {
    const BakedAsset asset = walkerWithEvents();
    const BakedClip& walk = asset.clips[0];
    const double d = walk.duration;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> step(0.0, 1.0);
    double speed = 1.7, offset = 0.37, t = 0.0;
    const double u_start = offset;
    std::vector<int64_t> count(walk.events.size(), 0), expected(walk.events.size(), 0);
    double last_time = -1.0;
    size_t changes = 0;
    std::vector<EventHit> hits;
    while ((t * speed + offset - u_start) < 30.0 * d) {
        double dt = step(rng) < 0.1 ? 3.0 * d * step(rng) : 0.05 * step(rng); // now and then a long jump
        if (step(rng) < 0.02) dt = 0.0;
        hits.clear();
        eventsBetween(walk, speed, offset, t, t + dt, hits);
        const double u0 = t * speed + offset, u1 = (t + dt) * speed + offset;
        for (const EventHit& h : hits) {
            ++count[h.event];
            EXPECT_GT(h.time, t - 1e-12);
            EXPECT_LE(h.time, t + dt + 1e-12);
            EXPECT_GE(h.time, last_time);
            last_time = h.time;
            const double u = h.time * speed + offset; // its clip time is the event's
            EXPECT_NEAR(std::remainder(u - double(walk.events[h.event].time), d), 0.0, 1e-9);
        }
        for (size_t e = 0; e < walk.events.size(); ++e) expected[e] += crossings(walk.events[e].time, d, u0, u1);
        t += dt;
        if (step(rng) < 0.1) { // a new speed, the clip time continuous
            const double u = t * speed + offset;
            speed = 0.5 + 2.0 * step(rng);
            offset = u - t * speed;
            ++changes;
        }
    }
    EXPECT_GT(changes, 3u);
    for (size_t e = 0; e < walk.events.size(); ++e) {
        EXPECT_EQ(count[e], expected[e]) << walk.events[e].name;
        EXPECT_GE(count[e], 29) << walk.events[e].name; // over thirty cycles
    }
}

TEST(Events, BackwardAndOnce) {
    BakedClip clip;
    clip.duration = 2.0f;
    clip.frame_count = 3;
    clip.events = {{0.5f, "a"}, {1.5f, "b"}};
    std::vector<EventHit> hits;
    eventsBetween(clip, -1.0, 0.0, 0.0, 3.0, hits); // clip time 0 -> -3: passes 1.5 - 2, 0.5 - 2, 1.5 - 4
    ASSERT_EQ(hits.size(), 3u);
    EXPECT_EQ(hits[0].event, 1u);
    EXPECT_NEAR(hits[0].time, 0.5, 1e-12);
    EXPECT_NEAR(hits[2].time, 2.5, 1e-12);
    hits.clear();
    clip.loop = false; // once: only b, at clip time 1.5
    eventsBetween(clip, 1.0, 1.0, 0.0, 10.0, hits);
    ASSERT_EQ(hits.size(), 1u);
    EXPECT_EQ(hits[0].event, 1u);
    hits.clear();
    eventsBetween(clip, 0.0, 0.0, 0.0, 10.0, hits); // standing still
    eventsBetween(clip, 1.0, 0.0, 5.0, 5.0, hits);  // an empty interval
    eventsBetween(clip, 1.0, NAN, 0.0, 5.0, hits);
    EXPECT_TRUE(hits.empty());
}

// Simulated walkers: the events of every step, from the integer clip times, against the clip
// time each member's steps add up to while it mostly shows its walk (members stop, wait, set off
// again, change speed and cross-fade on the way).
TEST(Events, SimulatedMembersReachEachEventOncePerCycle) {
    const BakedAsset asset = walkerWithEvents();
    test::WalkerRun run = test::walkerRun(asset, 200, 3);
    const sim::SimSettings& settings = run.settings;
    sim::SimState& state = run.state;
    const sim::shader::SimParams P = sim::simParams(settings, 200).value();
    const uint32_t d = P.clip_duration[sim::kWalk];
    const std::vector<ClipEvent>& events = asset.clips[0].events;
    std::vector<std::vector<int64_t>> count(200, std::vector<int64_t>(events.size(), 0));
    std::vector<std::vector<int64_t>> expected = count;
    std::vector<sim::SimEvent> out;
    double last = -1.0;
    for (int s = 0; s < 400; ++s) {
        out.clear();
        sim::stepEvents(state, settings, asset, out);
        for (const sim::SimEvent& e : out) {
            ++count[e.member][e.event];
            EXPECT_EQ(e.clip, 0u);
            EXPECT_GT(e.time, sim::stateTime(state, settings) - 1e-12);
            EXPECT_LE(e.time, sim::stateTime(state, settings) + sim::stepSeconds(settings) + 1e-12);
        }
        for (size_t i = 0; i < state.members.size(); ++i) {
            const sim::shader::MemberState& m = state.members[i];
            const uint32_t shown = m.fade < 32768u ? sim::shader::simSlotA(m.clips) : sim::shader::simSlotB(m.clips);
            if (shown != sim::kWalk) continue;
            const int64_t from = m.anim, to = from + int64_t(m.rate * P.step_q20 / 4096u);
            for (size_t e = 0; e < events.size(); ++e) {
                const int64_t at = std::min<int64_t>(std::llround(double(events[e].time) * 1048576.0), d - 1);
                expected[i][e] += (to - at + 64 * int64_t(d)) / d - (from - at + 64 * int64_t(d)) / d;
            }
        }
        sim::stepCpu(state, settings);
        (void)last;
    }
    size_t members = 0, reached = 0;
    for (size_t i = 0; i < 200; ++i) {
        members += count[i][0] > 0 ? 1 : 0;
        for (size_t e = 0; e < events.size(); ++e) {
            EXPECT_EQ(count[i][e], expected[i][e]) << "member " << i << " event " << events[e].name;
            reached += size_t(count[i][e]);
        }
    }
    std::printf("400 steps (13.3 s) of 200 walkers: %zu walked, reaching %zu events\n", members, reached);
    EXPECT_GT(members, 100u);
    EXPECT_GT(reached, members * events.size() * 3); // several cycles each
}

TEST(Events, SidecarAndFileErrors) {
    EXPECT_FALSE(parseEvents("{").ok());
    EXPECT_FALSE(parseEvents("[1]").ok());
    EXPECT_FALSE(parseEvents(R"({"walk": [{"time": -1, "name": "x"}]})").ok());
    EXPECT_FALSE(parseEvents(R"({"walk": [{"time": 1, "name": ""}]})").ok());
    EXPECT_FALSE(parseEvents(R"({"walk": [{"time": "1", "name": "x"}]})").ok());
    const auto good = parseEvents(R"({"walk": [{"time": 0.25, "name": "clap"}]})");
    ASSERT_TRUE(good.ok());
    BakedAsset asset = walkerWithEvents();
    EXPECT_TRUE(addEvents(asset, good.value()).ok());
    EXPECT_EQ(asset.clips[0].events.size(), 5u);
    std::map<std::string, std::vector<ClipEvent>> past{{"walk", {{1.1f, "end"}}}}; // a loop's end is its start
    EXPECT_FALSE(addEvents(asset, past).ok());
    std::map<std::string, std::vector<ClipEvent>> unknown{{"run", {{0.1f, "x"}}}};
    const Status s = addEvents(asset, unknown);
    EXPECT_EQ(s.message, "events: no clip 'run' (the clips: 'walk', 'idle')");

    // The EVNT section round trip, and a clip's events out of order refused.
    const std::string path = (test::scratchDir("events") / "walker.throng").string();
    ASSERT_TRUE(writeThrong(asset, path).ok());
    const BakedAsset back = readThrong(path).value();
    for (size_t c = 0; c < asset.clips.size(); ++c) EXPECT_EQ(back.clips[c].events, asset.clips[c].events);
    BakedAsset disordered = asset;
    std::swap(disordered.clips[0].events[0], disordered.clips[0].events[1]);
    EXPECT_FALSE(validate(disordered).ok());
}
