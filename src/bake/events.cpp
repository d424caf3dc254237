// Animation events at bake time: the JSON sidecar and footsteps found in the frames
// (throng/events.h, offline part).
#include <throng/events.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace throng {
namespace {

constexpr double kFootBand = 0.05; // of the height: bind vertices this close to the lowest are feet
constexpr double kTouch = 0.01;    // of the size: a foot this close to the ground touches it
constexpr double kLift = 0.02;     // of the size: a foot this far above it has lifted
constexpr double kSwing = 0.1;     // of the size per second: a foot moving forward faster swings

struct Foot {
    double lowest = 0.0; // height of its lowest vertex
    double z = 0.0;      // mean z of its vertices (forward: +z)
};

// Each foot (0: left, +x; 1: right) at every frame of clip c, skinned by the baked matrices.
std::vector<std::array<Foot, 2>> footHeights(const BakedAsset& asset, uint32_t c,
                                             const std::array<std::vector<uint32_t>, 2>& feet) {
    const BakedClip& clip = asset.clips[c];
    std::vector<std::array<Foot, 2>> heights(clip.frame_count);
    std::vector<glm::dvec4> rows(size_t(asset.joint_count) * 3);
    for (uint32_t f = 0; f < clip.frame_count; ++f) {
        for (uint32_t j = 0; j < asset.joint_count; ++j)
            for (uint32_t r = 0; r < 3; ++r) rows[j * 3 + r] = glm::dvec4(bakedTexel(asset, c, f, j, r));
        for (int side = 0; side < 2; ++side) {
            double lowest = INFINITY, z = 0.0;
            for (uint32_t v : feet[side]) {
                const BakedVertex& bv = asset.vertices[v];
                const glm::dvec4 p(bv.position[0], bv.position[1], bv.position[2], 1.0);
                double y = 0.0;
                for (int k = 0; k < 4; ++k) {
                    if (bv.weights[k] == 0.0f) continue;
                    y += double(bv.weights[k]) * glm::dot(rows[bv.joints[k] * 3 + 1], p);
                    z += double(bv.weights[k]) * glm::dot(rows[bv.joints[k] * 3 + 2], p);
                }
                lowest = std::min(lowest, y);
            }
            heights[f][side] = {lowest, z / double(feet[side].size())};
        }
    }
    return heights;
}

} // namespace

Result<std::map<std::string, std::vector<ClipEvent>>> parseEvents(std::string_view json_text) {
    using nlohmann::json;
    json j = json::parse(json_text.begin(), json_text.end(), nullptr, false);
    if (j.is_discarded()) return Error{"events: not JSON"};
    if (!j.is_object()) return Error{"events: expected an object of clip names, e.g. {\"walk\": [...]}"};
    std::map<std::string, std::vector<ClipEvent>> out;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string where = "events: clip '" + it.key().substr(0, 64) + "'";
        if (!it.value().is_array()) return Error{where + ": expected a list of {\"time\": s, \"name\": \"...\"}"};
        if (it.value().size() > kMaxClipEvents)
            return Error{where + ": more than " + std::to_string(kMaxClipEvents) + " events"};
        std::vector<ClipEvent>& list = out[it.key()];
        for (const json& e : it.value()) {
            if (!e.is_object() || !e.contains("time") || !e.contains("name") || !e["time"].is_number() ||
                !e["name"].is_string())
                return Error{where + ": every event needs a number \"time\" and a string \"name\""};
            const double t = e["time"].get<double>();
            const std::string name = e["name"].get<std::string>();
            if (!std::isfinite(t) || t < 0.0 || t > 1e9)
                return Error{where + ": time " + e["time"].dump() + " is not a time >= 0"};
            if (name.empty() || name.size() > kMaxEventName)
                return Error{where + ": an event name must have 1 to " + std::to_string(kMaxEventName) + " bytes"};
            list.push_back({float(t), name});
        }
    }
    return out;
}

Status addEvents(BakedAsset& asset, const std::map<std::string, std::vector<ClipEvent>>& events) {
    std::vector<std::vector<ClipEvent>> merged(asset.clips.size());
    for (size_t c = 0; c < asset.clips.size(); ++c) merged[c] = asset.clips[c].events;
    for (const auto& [clip_name, list] : events) {
        const std::string& name = clip_name; // clang 14 cannot capture a structured binding in a lambda
        const auto clip = std::find_if(asset.clips.begin(), asset.clips.end(),
                                       [&name](const BakedClip& b) { return b.name == name; });
        if (clip == asset.clips.end()) {
            std::string some;
            for (size_t c = 0; c < asset.clips.size() && c < 8; ++c)
                some += (c > 0 ? ", '" : "'") + asset.clips[c].name + "'";
            return Status::failure("events: no clip '" + name.substr(0, 64) + "' (the clips: " + some +
                                   (asset.clips.size() > 8 ? ", ..." : "") + ")");
        }
        for (const ClipEvent& e : list) {
            const bool past = clip->loop && clip->duration > 0.0f ? e.time >= clip->duration : e.time > clip->duration;
            if (past)
                return Status::failure("events: clip '" + name + "': event '" + e.name + "' at " +
                                       std::to_string(e.time) + " s is past the clip's " +
                                       std::to_string(clip->duration) + " s" +
                                       (clip->loop ? " (a looping clip's end is its start)" : ""));
        }
        std::vector<ClipEvent>& to = merged[size_t(clip - asset.clips.begin())];
        to.insert(to.end(), list.begin(), list.end());
        if (to.size() > kMaxClipEvents)
            return Status::failure("events: clip '" + name + "': more than " + std::to_string(kMaxClipEvents) +
                                   " events");
    }
    for (size_t c = 0; c < asset.clips.size(); ++c) {
        std::stable_sort(merged[c].begin(), merged[c].end(),
                         [](const ClipEvent& a, const ClipEvent& b) { return a.time < b.time; });
        asset.clips[c].events = std::move(merged[c]);
    }
    return {};
}

std::vector<std::vector<ClipEvent>> footstepEvents(const BakedAsset& asset) {
    std::vector<std::vector<ClipEvent>> out(asset.clips.size());
    if (asset.vertices.empty()) return out;
    const Bounds& b = asset.bind_bounds;
    const double height = double(b.max.y - b.min.y);
    const double size = double(b.diagonal());
    std::array<std::vector<uint32_t>, 2> feet;
    for (uint32_t v = 0; v < asset.vertices.size(); ++v) {
        const float* p = asset.vertices[v].position;
        if (double(p[1] - b.min.y) <= kFootBand * height && p[0] != 0.0f) feet[p[0] > 0.0f ? 0 : 1].push_back(v);
    }
    if (feet[0].empty() || feet[1].empty()) return out;
    for (uint32_t c = 0; c < asset.clips.size(); ++c) {
        const BakedClip& clip = asset.clips[c];
        if (clip.frame_count < 2 || !(clip.duration > 0.0f)) continue;
        const std::vector<std::array<Foot, 2>> h = footHeights(asset, c, feet);
        double ground = INFINITY;
        for (const auto& f : h) ground = std::min({ground, f[0].lowest, f[1].lowest});
        const double touch = ground + kTouch * size, lift = ground + kLift * size;
        const double swing = kSwing * size * double(clip.duration) / double(clip.frame_count - 1); // per frame
        for (int side = 0; side < 2; ++side) {
            bool down = h[0][side].lowest <= touch;
            // Looping: twice round (the last frame is the first again), events from the second.
            const uint32_t n = clip.frame_count;
            const uint32_t rounds = clip.loop ? 2 : 1;
            for (uint32_t r = 0; r < rounds; ++r)
                for (uint32_t f = 1; f < n; ++f) {
                    const double y = h[f][side].lowest;
                    if (down && y > lift) down = false;
                    // A foot skimming the ground as it swings forward does not step.
                    if (down || y > touch || h[f][side].z - h[f - 1][side].z > swing) continue;
                    down = true;
                    if (r + 1 < rounds) continue;
                    const double y0 = h[f - 1][side].lowest;
                    const double s = y0 > y ? std::clamp((y0 - touch) / (y0 - y), 0.0, 1.0) : 1.0;
                    double t =
                        bakedFrameTime(clip, f - 1) + s * (bakedFrameTime(clip, f) - bakedFrameTime(clip, f - 1));
                    if (clip.loop && t >= double(clip.duration)) t = 0.0;
                    out[c].push_back({float(t), side == 0 ? "footstep_left" : "footstep_right"});
                }
        }
        std::stable_sort(out[c].begin(), out[c].end(),
                         [](const ClipEvent& a, const ClipEvent& e) { return a.time < e.time; });
    }
    return out;
}

} // namespace throng
