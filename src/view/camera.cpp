// The viewer's camera; see camera.h.
#include "camera.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace throng::view {

namespace {

constexpr float kMaxPitch = 1.553343f; // 89 degrees

glm::vec3 right(const Camera& c) { return glm::normalize(glm::cross(viewDirection(c), glm::vec3(0, 1, 0))); }

} // namespace

glm::vec3 viewDirection(const Camera& c) {
    return glm::vec3(-std::cos(c.pitch) * std::sin(c.yaw), -std::sin(c.pitch), -std::cos(c.pitch) * std::cos(c.yaw));
}

glm::vec3 eyePosition(const Camera& c) {
    return c.mode == CameraMode::Orbit ? c.target - viewDirection(c) * c.distance : c.position;
}

Camera frameCrowd(const Bounds& b, float aspect) {
    Camera c;
    c.target = 0.5f * (b.min + b.max);
    c.scene_radius = std::max(0.5f * glm::length(b.max - b.min), 1e-4f);
    // The direction headless renders use (renderer.cpp, frameBounds): front, right, above.
    const glm::vec3 from = glm::normalize(glm::vec3(0.35f, 0.55f, 1.0f));
    c.yaw = std::atan2(from.x, from.z);
    c.pitch = std::asin(from.y);
    const float half = aspect >= 1.0f ? 0.5f * c.fov_y : std::atan(std::tan(0.5f * c.fov_y) * aspect);
    c.distance = c.scene_radius / std::sin(half); // the bounding sphere fits
    return c;
}

Camera lookingAt(const throng::Camera& lens, const Bounds& bounds, float aspect) {
    Camera c = frameCrowd(bounds, aspect); // its scene radius
    const glm::vec3 dir = glm::normalize(lens.target - lens.eye);
    c.mode = CameraMode::Fly;
    c.position = lens.eye;
    c.target = lens.target;
    c.distance = glm::length(lens.target - lens.eye);
    c.yaw = std::atan2(-dir.x, -dir.z);
    c.pitch = -std::asin(dir.y);
    c.fov_y = glm::radians(lens.fov_y_degrees);
    return c;
}

Camera viewCamera(render::ViewKind view, const render::Crowd& crowd, float aspect) {
    if (view != render::ViewKind::Street) return frameCrowd(crowd.bounds, aspect);
    const render::StreetPose pose = render::streetPose(crowd);
    throng::Camera street;
    street.eye = pose.eye;
    street.target = pose.target;
    street.fov_y_degrees = glm::degrees(pose.fov_y);
    return lookingAt(street, crowd.bounds, aspect);
}

throng::Camera lens(const Camera& c) {
    throng::Camera l;
    l.eye = eyePosition(c);
    // Along the view direction, as far as the orbit's distance (orbiting: the point it turns about).
    l.target = l.eye + viewDirection(c) * std::max(c.distance, 1e-3f);
    l.fov_y_degrees = glm::degrees(c.fov_y);
    l.far_plane = glm::length(l.eye - c.target) + 3.0f * c.scene_radius;
    l.near_plane = std::max(c.scene_radius * 1e-4f, l.far_plane * 1e-6f);
    return l;
}

glm::mat4 viewProjection(const Camera& c, float aspect) {
    return throng::viewProjection(lens(c), std::max(aspect, 1e-3f)); // reversed Z, y down (throng/camera.h)
}

void orbit(Camera& c, float yaw, float pitch) {
    c.yaw += yaw;
    c.pitch = std::clamp(c.pitch + pitch, -kMaxPitch, kMaxPitch);
}

void zoom(Camera& c, float steps) {
    if (c.mode == CameraMode::Orbit) {
        c.distance = std::clamp(c.distance * std::pow(0.88f, steps), c.scene_radius * 1e-3f, c.scene_radius * 1e3f);
    } else {
        c.position += viewDirection(c) * (steps * 0.05f * c.scene_radius);
    }
}

void pan(Camera& c, float r, float u) {
    const float unit = c.mode == CameraMode::Orbit ? c.distance : c.scene_radius;
    const glm::vec3 up = glm::normalize(glm::cross(right(c), viewDirection(c)));
    const glm::vec3 delta = (right(c) * r + up * u) * unit;
    (c.mode == CameraMode::Orbit ? c.target : c.position) += delta;
}

void fly(Camera& c, const glm::vec3& move) {
    const glm::vec3 delta =
        (right(c) * move.x + glm::vec3(0, 1, 0) * move.y + viewDirection(c) * move.z) * c.scene_radius;
    (c.mode == CameraMode::Orbit ? c.target : c.position) += delta;
}

void setMode(Camera& c, CameraMode mode) {
    if (mode == c.mode) return;
    if (mode == CameraMode::Fly) {
        c.position = eyePosition(c);
    } else {
        c.target = c.position + viewDirection(c) * c.distance;
    }
    c.mode = mode;
}

} // namespace throng::view
