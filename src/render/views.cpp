// Camera placements for the crowd; see views.h.
#include "views.h"

#include "renderer.h"

#include <throng/camera.h>

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>

namespace throng::render {

StreetPose streetPose(const Crowd& crowd) {
    // The model's height: the tallest clip box, or the box of every member's poses at its model's
    // scale where the crowd has one (members are scaled 0.9 .. 1.1 around it).
    float bottom = 0.0f, top = 0.0f;
    if (crowd.member_bounds.min.y <= crowd.member_bounds.max.y) {
        bottom = std::min(bottom, crowd.member_bounds.min.y);
        top = std::max(top, crowd.member_bounds.max.y);
    } else
        for (const Bounds& b : crowd.clip_bounds) {
            bottom = std::min(bottom, b.min.y);
            top = std::max(top, b.max.y);
        }
    const float height = std::max(top - bottom, 1e-3f);
    const Bounds& b = crowd.bounds;
    const glm::vec3 center = 0.5f * (b.min + b.max);
    // Fish swim in a volume around y = 0: look from the school's middle height instead.
    const bool school = b.min.y < -0.25f * height;
    const float eye_y = school ? center.y : bottom + 0.94f * height;
    StreetPose pose;
    pose.eye = glm::vec3(center.x, eye_y, b.max.z + 0.05f * height);
    pose.target = glm::vec3(center.x, eye_y, center.z);
    pose.far_plane = glm::length(glm::vec2(b.max.x - b.min.x, b.max.z - b.min.z)) + height;
    pose.near_plane = 0.02f * height;
    return pose;
}

Camera crowdCamera(ViewKind view, const Crowd& crowd, float aspect) {
    if (view != ViewKind::Street) return overviewCamera(crowd.bounds, aspect);
    const StreetPose pose = streetPose(crowd);
    Camera camera;
    camera.eye = pose.eye;
    camera.target = pose.target;
    camera.fov_y_degrees = glm::degrees(pose.fov_y);
    camera.near_plane = pose.near_plane;
    camera.far_plane = pose.far_plane;
    return camera;
}

glm::mat4 crowdViewProjection(ViewKind view, const Crowd& crowd, float aspect) {
    return viewProjection(crowdCamera(view, crowd, aspect), aspect);
}

glm::vec3 eyeOf(const glm::mat4& vp) {
    // Rows 0, 1 and 3 of vp times (eye, 1) are 0: three equations in the eye.
    const glm::dmat3 rows =
        glm::transpose(glm::dmat3(glm::dvec3(vp[0][0], vp[1][0], vp[2][0]), glm::dvec3(vp[0][1], vp[1][1], vp[2][1]),
                                  glm::dvec3(vp[0][3], vp[1][3], vp[2][3])));
    const double det = glm::determinant(rows);
    if (!(std::abs(det) > 1e-30)) return glm::vec3(0.0f);
    return glm::vec3(glm::inverse(rows) * -glm::dvec3(vp[3][0], vp[3][1], vp[3][3]));
}

float pixelsPerUnit(const glm::mat4& vp, float height) {
    return glm::length(glm::vec3(vp[0][1], vp[1][1], vp[2][1])) * 0.5f * height;
}

} // namespace throng::render
