// throng/events.h — animation events: named moments of a clip (footsteps, sounds, hits) and the
// ones a member crosses between two times.
//
// Events live in BakedClip::events (baked.h), stored in the .throng file's optional `EVNT`
// section (docs/FORMAT.md). They come from a JSON sidecar given to `throng bake --events
// FILE.json`, {"CLIP": [{"time": SECONDS, "name": "NAME"}, ...], ...}, or are found as footsteps
// with `--events auto` (footstepEvents below), or both.
//
// Which events a member crosses is computed from the same clip time the shaders use, time *
// speed + time_offset (wrapped by the duration for a looping clip), so a host needs no GPU
// readback: it asks for the events between the previous frame's time and this one's. Intervals
// are half-open, (t0, t1]: calls over consecutive intervals report each crossing exactly once,
// across loop boundaries and whatever the steps.
#pragma once

#include <throng/api.h>
#include <throng/baked.h>
#include <throng/result.h>

#include <map>
#include <string>
#include <string_view>
#include <vector>

THRONG_API_BEGIN
namespace throng {

// --- Runtime (throng_format) -----------------------------------------------------------------

struct EventHit {
    uint32_t event = 0; // index into the clip's events
    double time = 0.0;  // the world time at which the member reached it
};

// At most this many hits per call (a huge interval of a short clip stops there).
constexpr size_t kMaxEventHits = size_t(1) << 20;

// Appends to `out`, in time order, the events of `clip` that a member whose clip time is
// time * speed + time_offset reaches while the world time goes from t0 (excluded) to t1
// (included): a looping clip's event at e is reached at every clip time e + k * duration, a
// non-looping clip's once, at e. Speed 0 reaches nothing; a negative speed plays backward and
// reaches events the other way. Nothing when t1 <= t0 or a value is not finite.
void eventsBetween(const BakedClip& clip, double speed, double time_offset, double t0, double t1,
                   std::vector<EventHit>& out);

// --- Offline (throng_bake) ---------------------------------------------------------------------

// Events by clip name from the JSON sidecar's text: {"CLIP": [{"time": s, "name": "..."}]}.
// Errors (one line): not JSON, not that shape, a time that is not a finite number >= 0, a name
// empty or longer than kMaxEventName, more than kMaxClipEvents events for a clip.
Result<std::map<std::string, std::vector<ClipEvent>>> parseEvents(std::string_view json_text);

// Puts `events` into the clips they name, merged with what each clip has, sorted by time.
// Errors: a clip name the asset does not have (listing a few that it has), a time past the
// clip's duration (a looping clip: at or past it), too many events. `asset` unchanged then.
Status addEvents(BakedAsset& asset, const std::map<std::string, std::vector<ClipEvent>>& events);

// Footsteps found in the baked frames: the feet are the bind pose's vertices within 5% of its
// height of the lowest one, left (+x, the model faces +z) and right (-x); a foot touches down
// where its lowest vertex, skinned by the baked matrices, comes within 1% of the model's size
// of the clip's ground (the lowest any foot reaches in it) after having been above 2%, unless
// the foot moves forward faster than 10% of the size per second there (a swing skimming the
// ground); the time is found between frames by interpolation. Looping clips are scanned twice round, so a step
// across the loop is found once. Events "footstep_left" and "footstep_right". Clips where a
// foot never lifts (idle) get none.
std::vector<std::vector<ClipEvent>> footstepEvents(const BakedAsset& asset);

} // namespace throng
THRONG_API_END
