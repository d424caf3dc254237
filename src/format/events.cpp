// Which events a member reaches between two times: throng/events.h, runtime part.
#include <throng/events.h>

#include <algorithm>
#include <cmath>

namespace throng {

void eventsBetween(const BakedClip& clip, double speed, double time_offset, double t0, double t1,
                   std::vector<EventHit>& out) {
    if (clip.events.empty() || speed == 0.0 || !(t1 > t0) || !std::isfinite(speed) || !std::isfinite(time_offset) ||
        !std::isfinite(t0) || !std::isfinite(t1))
        return;
    const double u0 = t0 * speed + time_offset, u1 = t1 * speed + time_offset;
    const bool forward = speed > 0.0;
    const double lo = std::min(u0, u1), hi = std::max(u0, u1);
    // Forward the interval of clip times is (lo, hi]; backward [lo, hi): t0 excluded, t1 included.
    auto reached = [&](double u) { return forward ? (u > lo && u <= hi) : (u >= lo && u < hi); };
    const size_t start = out.size();
    auto add = [&](uint32_t e, double u) {
        if (out.size() - start < kMaxEventHits) out.push_back({e, (u - time_offset) / speed});
    };
    const double d = double(clip.duration);
    if (!clip.loop || !(d > 0.0)) {
        for (uint32_t e = 0; e < clip.events.size(); ++e)
            if (reached(double(clip.events[e].time))) add(e, double(clip.events[e].time));
    } else {
        const double first = std::floor(lo / d), last = std::floor(hi / d);
        const double cycles = std::min(last - first, double(kMaxEventHits));
        for (double k = 0.0; k <= cycles && out.size() - start < kMaxEventHits; k += 1.0)
            for (uint32_t e = 0; e < clip.events.size(); ++e) {
                const double u = double(clip.events[e].time) + (first + k) * d;
                if (reached(u)) add(e, u);
            }
    }
    if (!forward) std::reverse(out.begin() + ptrdiff_t(start), out.end()); // world time order
}

} // namespace throng
