// The viewer's camera: orbit around a target, or fly freely; both keep yaw and pitch of the
// direction from the target (orbit) or towards the eye (fly), so switching keeps the view.
#pragma once

#include "../render/views.h"

#include <throng/baked.h>
#include <throng/camera.h>

#include <glm/glm.hpp>

namespace throng::view {

enum class CameraMode { Orbit, Fly };

struct Camera {
    CameraMode mode = CameraMode::Orbit;
    glm::vec3 target{0.0f};    // orbit: the point looked at
    glm::vec3 position{0.0f};  // fly: the eye
    float yaw = 0.0f;          // radians about +y; 0 looks along -z
    float pitch = 0.0f;        // radians; positive looks down
    float distance = 1.0f;     // orbit: eye to target
    float fov_y = 0.6981317f;  // 40 degrees
    float scene_radius = 1.0f; // sets near and far planes and movement speeds
};

// An orbit camera that shows all of `bounds` at `aspect` (width / height), from the front, above.
Camera frameCrowd(const Bounds& bounds, float aspect);

// The camera of a view users have (render/views.h): overview frames the crowd (frameCrowd); street
// flies at the street view's eye, looking where it looks, with its field of view.
Camera viewCamera(render::ViewKind view, const render::Crowd& crowd, float aspect);

glm::vec3 eyePosition(const Camera& camera);
glm::vec3 viewDirection(const Camera& camera); // unit, from the eye

// Reversed-Z perspective (near -> depth 1) with Vulkan's y down, times the view.
glm::mat4 viewProjection(const Camera& camera, float aspect);
// The same camera in throng's public form (throng/camera.h): what the console's `camera` prints.
throng::Camera lens(const Camera& camera);
// A flying camera at `lens`'s eye looking at its target with its field of view (its depth range
// follows the scene, `bounds`, as every viewer camera's does).
Camera lookingAt(const throng::Camera& lens, const Bounds& bounds, float aspect);

void orbit(Camera& camera, float yaw_radians, float pitch_radians); // pitch kept within +-89 degrees
void zoom(Camera& camera, float steps);          // orbit: distance x 0.88 per step in; fly: moves forward
void pan(Camera& camera, float right, float up); // in units of the distance (orbit) or scene radius (fly)
void fly(Camera& camera, const glm::vec3& move); // x right, y up, z forward; scene radii
void setMode(Camera& camera, CameraMode mode);   // same eye and direction in the new mode

} // namespace throng::view
