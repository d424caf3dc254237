// Settings from an asset and its crowd (sim.h: settingsFor), and the natural ground speed of a
// clip measured from its baked frames (naturalGroundSpeed).
//
// Natural ground speed: a walking clip that stays in place moves its feet backward while they
// touch the ground; played at rate r by a member that moves at ground speed u, a foot on the
// ground slides at u - r * (its backward speed). The feet stay put when r = u / that speed, so
// that speed is the clip's natural ground speed. It is measured on the skinned mesh: at every
// baked frame the vertices within 2% of the height of the lowest one stand for the feet on the
// ground, and their mean travel along z to the next frame, over the frame time, is the foot
// speed at that frame; the clip's is the mean over its frames. A clip with root motion moves the
// whole mesh forward instead: its centre's travel over the clip, divided by the duration, is
// added.
#include "sim.h"

#include "../render/technique.h"

#include <throng/root_motion.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

namespace throng::sim {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Clip per slot (idle, walk, run): by name, then the clips no name claimed, in index order, to
// the empty slots in the order walk, idle, run.
std::array<int32_t, 3> assignSlots(const BakedAsset& asset) {
    std::array<int32_t, 3> slot{-1, -1, -1};
    std::vector<bool> used(asset.clips.size(), false);
    for (uint32_t c = 0; c < asset.clips.size(); ++c) {
        const std::string name = lower(asset.clips[c].name);
        int32_t k = -1;
        if (name.find("idle") != std::string::npos)
            k = kIdle;
        else if (name.find("run") != std::string::npos)
            k = kRun;
        else if (name.find("walk") != std::string::npos)
            k = kWalk;
        if (k >= 0 && slot[size_t(k)] < 0) {
            slot[size_t(k)] = int32_t(c);
            used[c] = true;
        }
    }
    uint32_t next = 0;
    for (uint32_t k : {uint32_t(kWalk), uint32_t(kIdle), uint32_t(kRun)}) {
        if (slot[k] >= 0) continue;
        while (next < used.size() && used[next]) ++next;
        if (next == used.size()) break;
        slot[k] = int32_t(next);
        used[next] = true;
    }
    return slot;
}

} // namespace

float naturalGroundSpeed(const BakedAsset& asset, uint32_t clip) {
    const BakedClip& c = asset.clips.at(clip);
    if (c.frame_count < 2 || !(c.duration > 0.0f) || asset.vertices.empty()) return 0.0f;
    const glm::vec3 extent = asset.bind_bounds.max - asset.bind_bounds.min;
    const double height = extent.y > 0.0f ? extent.y : std::max({extent.x, extent.y, extent.z});
    // At most about 4,096 vertices: every k-th.
    const size_t stride = std::max<size_t>(1, asset.vertices.size() / 4096);
    std::vector<uint32_t> chosen;
    for (size_t v = 0; v < asset.vertices.size(); v += stride) chosen.push_back(uint32_t(v));

    std::vector<std::vector<glm::dvec3>> frames(c.frame_count);
    std::vector<glm::dvec4> rows(size_t(asset.joint_count) * 3);
    for (uint32_t f = 0; f < c.frame_count; ++f) {
        for (uint32_t j = 0; j < asset.joint_count; ++j)
            for (uint32_t r = 0; r < 3; ++r) rows[j * 3 + r] = glm::dvec4(bakedTexel(asset, clip, f, j, r));
        frames[f].reserve(chosen.size());
        for (uint32_t v : chosen) {
            const BakedVertex& bv = asset.vertices[v];
            const glm::dvec4 p(bv.position[0], bv.position[1], bv.position[2], 1.0);
            glm::dvec3 out(0.0);
            for (int k = 0; k < 4; ++k) {
                if (bv.weights[k] == 0.0f) continue;
                const size_t j = bv.joints[k];
                out += double(bv.weights[k]) *
                       glm::dvec3(glm::dot(rows[j * 3], p), glm::dot(rows[j * 3 + 1], p), glm::dot(rows[j * 3 + 2], p));
            }
            frames[f].push_back(out);
        }
    }
    const double dt = double(c.duration) / double(c.frame_count - 1);
    double foot = 0.0;
    for (uint32_t f = 0; f + 1 < c.frame_count; ++f) {
        double lowest = frames[f][0].y;
        for (const glm::dvec3& p : frames[f]) lowest = std::min(lowest, p.y);
        double travel = 0.0;
        size_t contact = 0;
        for (size_t v = 0; v < chosen.size(); ++v)
            if (frames[f][v].y < lowest + 0.02 * height) {
                travel += frames[f + 1][v].z - frames[f][v].z;
                ++contact;
            }
        foot += -travel / double(contact) / dt;
    }
    foot /= double(c.frame_count - 1);
    auto centreZ = [&](const std::vector<glm::dvec3>& points) {
        double z = 0.0;
        for (const glm::dvec3& p : points) z += p.z;
        return z / double(points.size());
    };
    const double drift = (centreZ(frames.back()) - centreZ(frames.front())) / double(c.duration);
    const double speed = foot + drift;
    return speed < 0.05 * height ? 0.0f : float(speed);
}

namespace {

// settingsFor's measure of `asset` at its size as made.
SimSettings measured(const BakedAsset& asset, const render::Crowd& crowd, Kind kind, uint64_t seed) {
    SimSettings s;
    s.kind = kind;
    s.seed = seed;
    s.field = crowd.bounds;
    const glm::vec3 extent = asset.bind_bounds.max - asset.bind_bounds.min;
    const float largest = std::max({extent.x, extent.y, extent.z, 1e-6f});
    if (kind == Kind::School) {
        const float length = largest;
        s.separation = length;
        s.radius = 2.0f * length;
        s.cruise_speed = 1.5f * length;
        s.min_speed = 0.5f * length;
        s.max_speed = 3.0f * length;
        s.max_accel = 3.0f * length;
        s.push = 40.0f * length;
        s.cohesion = 1.0f * length;
        s.alignment = 2.0f;
        s.wall_margin = s.radius;
        s.wall_accel = 6.0f * length;
        s.beats_per_second = throng::defaultSwim().beats_per_second;
        return s;
    }
    const float height = extent.y > 0.0f ? extent.y : largest;
    s.radius = s.separation = std::max(1.2f * std::max(extent.x, extent.z), 0.3f * height);
    const std::array<int32_t, 3> slots = assignSlots(asset);
    for (uint32_t k = 0; k < 3; ++k) {
        if (slots[k] < 0) continue;
        ClipSlot& slot = s.slots[k];
        slot.clip = slots[k];
        slot.duration = asset.clips[size_t(slot.clip)].duration;
        // A clip with a root motion curve carries its members by it, at its root speed; idle keeps
        // a curve that hardly travels (its sway), a gait whose curve does not travel is measured.
        const BakedClip& clip = asset.clips[size_t(slot.clip)];
        const float root_speed = float(rootSpeed(clip));
        const bool travels = root_speed >= 0.05f * height;
        if (!clip.root_motion.empty() && (travels || k == kIdle)) slot.root_motion = clip.root_motion;
        slot.natural_speed =
            slot.root_motion.empty() ? naturalGroundSpeed(asset, uint32_t(slot.clip)) : (travels ? root_speed : 0.0f);
        // A gait that the measure cannot see: one stride per loop, by the height.
        if (slot.natural_speed == 0.0f && slot.duration > 0.0f && k != kIdle)
            slot.natural_speed = (k == kRun ? 1.4f : 0.8f) * height / slot.duration;
    }
    s.walk_speed = s.slots[kWalk].natural_speed > 0.0f ? s.slots[kWalk].natural_speed : 0.75f * height;
    s.run_speed = s.slots[kRun].clip >= 0 ? s.slots[kRun].natural_speed : 0.0f;
    // Speeds stay under half a radius per step (validate()).
    const float cap = 0.45f * s.radius / float(stepSeconds(s));
    for (ClipSlot& slot : s.slots) slot.natural_speed = std::min(slot.natural_speed, cap);
    s.walk_speed = std::min(s.walk_speed, cap);
    s.run_speed = std::min(s.run_speed, cap);
    s.max_speed = std::min(1.25f * std::max(s.walk_speed * 1.15f, s.run_speed * 1.1f), cap);
    s.push = std::min(3.0f * s.walk_speed, cap);
    s.max_accel = s.walk_speed / 0.35f;
    s.arrive_radius = s.radius;
    s.slow_radius = 3.0f * s.radius;
    return s;
}

// `s` (measured at a model's size as made) for the model drawn `scale` times that: every
// distance and speed times `scale` (root motion's travel too, not its yaw), rates and times as
// they were.
SimSettings atScale(SimSettings s, float scale) {
    if (!(scale > 0.0f) || scale == 1.0f) return s;
    s.scale = scale;
    for (float* f :
         {&s.radius, &s.separation, &s.push, &s.max_speed, &s.min_speed, &s.max_accel, &s.walk_speed, &s.run_speed,
          &s.arrive_radius, &s.slow_radius, &s.cruise_speed, &s.cohesion, &s.wall_margin, &s.wall_accel})
        *f *= scale;
    for (ClipSlot& slot : s.slots) {
        slot.natural_speed *= scale;
        for (glm::vec3& r : slot.root_motion) r = glm::vec3(r.x * scale, r.y * scale, r.z);
    }
    return s;
}

float modelScaleOf(const render::Crowd& crowd, size_t model) {
    return model < crowd.model_scales.size() ? crowd.model_scales[model] : 1.0f;
}

} // namespace

SimSettings settingsFor(const BakedAsset& asset, const render::Crowd& crowd, Kind kind, uint64_t seed) {
    return atScale(measured(asset, crowd, kind, seed), modelScaleOf(crowd, 0));
}

SimSettings settingsFor(std::span<const BakedAsset* const> models, const render::AssetLibrary& library,
                        const render::Crowd& crowd, Kind kind, uint64_t seed) {
    SimSettings s = settingsFor(*models[0], crowd, kind, seed);
    if (models.size() == 1) return s;
    // Each model measured alone; the crowd takes the largest radius, speed limits and pushes.
    std::vector<SimSettings> own;
    for (size_t m = 0; m < models.size(); ++m)
        own.push_back(atScale(measured(*models[m], crowd, kind, seed), modelScaleOf(crowd, m)));
    for (const SimSettings& o : own) {
        s.radius = std::max(s.radius, o.radius);
        s.max_speed = std::max(s.max_speed, o.max_speed);
        s.min_speed = std::max(s.min_speed, o.min_speed);
        s.max_accel = std::max(s.max_accel, o.max_accel);
        s.push = std::max(s.push, o.push);
        s.cruise_speed = std::max(s.cruise_speed, o.cruise_speed);
        s.cohesion = std::max(s.cohesion, o.cohesion);
        s.wall_accel = std::max(s.wall_accel, o.wall_accel);
        s.wall_margin = std::max(s.wall_margin, o.wall_margin);
    }
    for (const SimSettings& o : own) s.separation = std::max(s.separation, o.separation); // each within its radius
    s.min_speed = std::min(s.min_speed, s.max_speed);
    if (kind == Kind::Walkers) {
        s.arrive_radius = s.radius;
        s.slow_radius = 3.0f * s.radius;
    }
    for (size_t m = 0; m < models.size(); ++m) {
        ModelGait g;
        g.slots = own[m].slots;
        for (ClipSlot& slot : g.slots)
            if (slot.clip >= 0) slot.clip += int32_t(library.ranges[m].first_clip);
        g.walk_speed = own[m].walk_speed;
        g.run_speed = own[m].run_speed;
        g.scale = own[m].scale;
        g.first_clip = library.ranges[m].first_clip;
        s.models.push_back(std::move(g));
    }
    s.slots = s.models[0].slots;
    s.walk_speed = s.models[0].walk_speed;
    s.run_speed = s.models[0].run_speed;
    s.scale = s.models[0].scale;
    return s;
}

} // namespace throng::sim
