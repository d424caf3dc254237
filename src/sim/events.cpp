// Events of simulated members; see events.h.
#include "events.h"
#include "member.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace throng::sim {

void stepEvents(const SimState& state, const SimSettings& settings, const BakedAsset& asset,
                std::vector<SimEvent>& out) {
    if (settings.kind != Kind::Walkers || state.members.empty()) return;
    const std::vector<shader::SimModelParams> models = modelParams(settings, uint32_t(state.members.size())).value();
    const double t0 = stateTime(state, settings), step = stepSeconds(settings);
    for (uint32_t i = 0; i < state.members.size(); ++i) {
        const shader::MemberState& m = state.members[i];
        const shader::SimParams& P = paramsOf(models, m).params;
        const uint32_t slot = m.fade < THRONG_SIM_FADE_ONE / 2 ? shader::simSlotA(m.clips) : shader::simSlotB(m.clips);
        if (slot > 2) continue;
        const uint32_t clip = P.clip_index[slot] & 0xffffu;
        const int64_t d = int64_t(P.clip_duration[slot]);
        if (clip >= asset.clips.size() || asset.clips[clip].events.empty() || d <= 0) continue;
        const int64_t from = int64_t(m.anim);
        const int64_t to =
            from + int64_t(m.rate * P.step_q20 / uint32_t(THRONG_SIM_RATE_ONE)); // sim_member.h's advance
        if (to <= from) continue;
        const std::vector<ClipEvent>& events = asset.clips[clip].events;
        // Crossings e + k d in (from, to], cycle by cycle, events in time order within a cycle.
        for (int64_t k = from / d; k * d <= to; ++k)
            for (uint32_t e = 0; e < events.size(); ++e) {
                const int64_t at =
                    std::min<int64_t>(std::llround(double(events[e].time) * THRONG_SIM_TIME_ONE), d - 1) + k * d;
                if (at <= from || at > to) continue;
                out.push_back({i, clip, e, t0 + step * double(at - from) / double(to - from)});
            }
    }
}

EventMirror::EventMirror(const SimState& initial, const SimSettings& settings, const BakedAsset& asset)
    : state_(initial), settings_(settings), asset_(&asset) {}

void EventMirror::advance(uint32_t steps) {
    std::vector<SimEvent> step;
    for (uint32_t s = 0; s < steps; ++s) {
        step.clear();
        stepEvents(state_, settings_, *asset_, step);
        std::stable_sort(step.begin(), step.end(),
                         [](const SimEvent& a, const SimEvent& b) { return a.time < b.time; });
        log_.insert(log_.end(), step.begin(), step.end());
        stepCpu(state_, settings_);
    }
    const double keep_from = time() - kKeepSeconds;
    while (!log_.empty() && log_.front().time <= keep_from) log_.pop_front();
}

std::vector<SimEvent> EventMirror::between(double t0, double t1) const {
    const auto first =
        std::upper_bound(log_.begin(), log_.end(), t0, [](double t, const SimEvent& e) { return t < e.time; });
    const auto last = std::upper_bound(first, log_.end(), t1, [](double t, const SimEvent& e) { return t < e.time; });
    return std::vector<SimEvent>(first, last);
}

} // namespace throng::sim
