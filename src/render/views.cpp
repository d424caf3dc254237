// Camera placements for the crowd; see views.h.
#include "views.h"

#include "renderer.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>

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

namespace {

glm::mat4 streetView(const Crowd& crowd, float aspect) {
    const StreetPose pose = streetPose(crowd);
    const glm::mat4 view = glm::lookAtRH(pose.eye, pose.target, glm::vec3(0, 1, 0));
    glm::mat4 proj =
        glm::perspectiveRH_ZO(pose.fov_y, aspect, pose.far_plane, pose.near_plane); // reversed Z: far, near
    proj[1][1] *= -1.0f;                                                            // Vulkan's y points down
    return proj * view;
}

} // namespace

glm::mat4 crowdViewProjection(ViewKind view, const Crowd& crowd, float aspect) {
    return view == ViewKind::Street ? streetView(crowd, aspect) : frameBounds(crowd.bounds, aspect);
}

} // namespace throng::render
