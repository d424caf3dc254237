// Cameras in throng's conventions; see include/throng/camera.h.
#include <throng/camera.h>

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <vector>

namespace throng {

namespace {

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// "x,y,z": three finite numbers, nothing else.
bool parsePoint(const std::string& text, glm::vec3& out) {
    const char* p = text.c_str();
    for (int i = 0; i < 3; ++i) {
        char* end = nullptr;
        const double v = std::strtod(p, &end);
        if (end == p || !std::isfinite(v) || std::fabs(v) > 1e9) return false;
        out[i] = float(v);
        p = end;
        if (i < 2) {
            if (*p != ',') return false;
            ++p;
        }
    }
    return *p == '\0';
}

} // namespace

std::string cameraProblem(const Camera& c) {
    if (!finite(c.eye) || !finite(c.target) || !finite(c.up)) return "a camera's points must be finite";
    const glm::vec3 axis = c.target - c.eye;
    if (!(glm::length(axis) > 0.0f)) return "the camera's eye is at its target";
    if (!(glm::length(glm::cross(glm::normalize(axis), c.up)) > 1e-6f))
        return "the camera's up is along its axis (or zero)";
    if (!(c.fov_y_degrees > 0.0f && c.fov_y_degrees < 180.0f))
        return "the camera's field of view must be between 0 and 180 degrees";
    if (!rangeToFit(c) && !(c.near_plane > 0.0f && c.far_plane > c.near_plane && std::isfinite(c.far_plane)))
        return "the camera's depth range must be 0 < near < far";
    return "";
}

glm::mat4 viewProjection(const Camera& c, float aspect) {
    const glm::mat4 view = glm::lookAtRH(c.eye, c.target, c.up);
    // Reversed Z: GLM's zero-to-one projection given far for near and near for far.
    glm::mat4 projection = glm::perspectiveRH_ZO(glm::radians(c.fov_y_degrees), aspect, c.far_plane, c.near_plane);
    projection[1][1] *= -1.0f; // y down the framebuffer
    return projection * view;
}

Camera cameraFitting(Camera c, const glm::vec3& lo, const glm::vec3& hi) {
    const glm::vec3 axis = glm::normalize(c.target - c.eye);
    float nearest = std::numeric_limits<float>::max(), farthest = 0.0f;
    for (int i = 0; i < 8; ++i) {
        const glm::vec3 corner((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
        const float depth = glm::dot(corner - c.eye, axis);
        nearest = std::min(nearest, depth);
        farthest = std::max(farthest, depth);
    }
    // Inside or beside the box, a little past what the axis reaches; never a zero range.
    c.far_plane = std::max(farthest * 1.01f, 1e-3f);
    c.near_plane = std::max(c.far_plane * 1e-4f, nearest * 0.99f);
    if (!(c.near_plane < c.far_plane)) c.near_plane = c.far_plane * 1e-4f;
    return c;
}

Result<Camera> parseCamera(const std::string& text) {
    const std::string usage = "camera \"" + text + "\": expected EYE:TARGET[:FOV], e.g. 0,1.7,30:0,1,0:50";
    std::vector<std::string> parts;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ':');) parts.push_back(part);
    if (parts.size() < 2 || parts.size() > 3 || text.empty() || text.back() == ':') return Error{usage};
    Camera c;
    c.near_plane = c.far_plane = 0.0f; // fitted to the crowd
    if (!parsePoint(parts[0], c.eye) || !parsePoint(parts[1], c.target)) return Error{usage};
    if (parts.size() == 3) {
        char* end = nullptr;
        const double fov = std::strtod(parts[2].c_str(), &end);
        if (parts[2].empty() || *end != '\0') return Error{usage};
        c.fov_y_degrees = float(fov);
    }
    if (std::string problem = cameraProblem(c); !problem.empty()) return Error{"camera \"" + text + "\": " + problem};
    return c;
}

std::string toString(const Camera& c) {
    // Each number the shortest text that reads back as the same float.
    std::string text;
    auto put = [&](float v, char after) {
        char digits[32];
        const std::to_chars_result r = std::to_chars(digits, digits + sizeof digits, v);
        text.append(digits, r.ptr);
        if (after != '\0') text += after;
    };
    put(c.eye.x, ',');
    put(c.eye.y, ',');
    put(c.eye.z, ':');
    put(c.target.x, ',');
    put(c.target.y, ',');
    put(c.target.z, ':');
    put(c.fov_y_degrees, '\0');
    return text;
}

} // namespace throng
