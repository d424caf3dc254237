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

Camera viewCamera(render::ViewKind view, const render::Crowd& crowd, float aspect) {
    Camera c = frameCrowd(crowd.bounds, aspect);
    if (view != render::ViewKind::Street) return c;
    const render::StreetPose pose = render::streetPose(crowd);
    const glm::vec3 dir = glm::normalize(pose.target - pose.eye);
    c.mode = CameraMode::Fly;
    c.position = pose.eye;
    c.target = pose.target;
    c.distance = glm::length(pose.target - pose.eye);
    c.yaw = std::atan2(-dir.x, -dir.z);
    c.pitch = -std::asin(dir.y);
    c.fov_y = pose.fov_y;
    return c;
}

glm::mat4 viewProjection(const Camera& c, float aspect) {
    const glm::vec3 eye = eyePosition(c);
    const glm::vec3 dir = viewDirection(c);
    const glm::mat4 view = glm::lookAtRH(eye, eye + dir, glm::vec3(0, 1, 0));
    const float to_scene = glm::length(eye - c.target);
    const float far_plane = to_scene + 3.0f * c.scene_radius;
    const float near_plane = std::max(c.scene_radius * 1e-4f, far_plane * 1e-6f);
    glm::mat4 proj = glm::perspectiveRH_ZO(c.fov_y, std::max(aspect, 1e-3f), far_plane, near_plane); // reversed Z
    proj[1][1] *= -1.0f;
    return proj * view;
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
