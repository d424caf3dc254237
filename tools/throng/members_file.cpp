// `throng render --members FILE`: the crowd a render drew, as JSON another engine reads to draw
// the same members from the same camera (examples/godot-crowd; its README lists the fields).
#include "commands.h"

#include <nlohmann/json.hpp>

namespace throng::cli {

namespace {

nlohmann::json vec(const glm::vec3& v) { return {v.x, v.y, v.z}; }
nlohmann::json vec(const glm::vec4& v) { return {v.x, v.y, v.z, v.w}; }

} // namespace

std::string membersJson(const CrowdJobResult& out, const std::vector<std::string>& models, float time,
                        const glm::vec3& light_direction) {
    nlohmann::json j;
    j["format"] = "throng-members";
    j["version"] = 1;
    j["models"] = models;
    j["time"] = time;
    j["size"] = {out.width, out.height};
    const Camera& c = out.camera;
    j["camera"] = {{"eye", vec(c.eye)},    {"target", vec(c.target)},
                   {"up", vec(c.up)},      {"fov_y_degrees", c.fov_y_degrees},
                   {"near", c.near_plane}, {"far", c.far_plane}};
    nlohmann::json vp = nlohmann::json::array();
    for (int column = 0; column < 4; ++column)
        for (int row = 0; row < 4; ++row) vp.push_back(out.view_projection[column][row]);
    j["view_projection"] = vp; // column-major
    j["light_direction"] = vec(glm::normalize(light_direction));
    j["ambient"] = kAmbientLight;
    nlohmann::json members = nlohmann::json::array();
    for (const LaidOutMember& m : out.members)
        members.push_back({{"position", vec(m.position)},
                           {"rotation", vec(m.rotation)},
                           {"scale", m.scale},
                           {"model", m.model},
                           {"clip", m.clip},
                           {"blend_clip", m.blend_clip},
                           {"blend", m.blend},
                           {"time_offset", m.time_offset},
                           {"speed", m.speed},
                           {"tint", vec(m.tint)}});
    j["members"] = std::move(members);
    return j.dump() + "\n"; // one line: a crowd of a million members is a file of about 250 MB
}

} // namespace throng::cli
