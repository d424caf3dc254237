// SamplingJob: a clip at one time into local joint transforms.
#include <throng/anim.h>

#include "interpolate.h"

#include <cmath>

namespace throng {

double clipTime(double time, double duration, bool loop) {
    if (!(duration > 0.0) || !std::isfinite(time)) return 0.0;
    if (!loop) return std::clamp(time, 0.0, duration);
    double r = std::fmod(time, duration);
    if (r < 0.0) r += duration;
    return r;
}

glm::vec4 sampleTrack(const Track& track, float t) { return detail::sampleTrackT<float>(track, t); }

bool SamplingJob::validate() const {
    if (skeleton == nullptr || clip == nullptr) return false;
    if (output.size() < skeleton->size()) return false;
    for (const Track& track : clip->tracks)
        if (track.joint >= skeleton->size() || track.times.empty()) return false;
    return true;
}

bool SamplingJob::run() const {
    if (!validate()) return false;
    std::copy(skeleton->rest.begin(), skeleton->rest.end(), output.begin());
    const float t = float(clipTime(time, clip->duration, loop));
    for (const Track& track : clip->tracks) {
        const glm::vec4 v = sampleTrack(track, t);
        Transform& out = output[track.joint];
        switch (track.target) {
        case TrackTarget::Translation: out.translation = glm::vec3(v); break;
        case TrackTarget::Rotation: out.rotation = glm::quat(v.w, v.x, v.y, v.z); break;
        case TrackTarget::Scale: out.scale = glm::vec3(v); break;
        }
    }
    return true;
}

} // namespace throng
