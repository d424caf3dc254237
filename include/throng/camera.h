// throng/camera.h — a camera in throng's conventions, for hosts of the render API (FrameInput::
// view_projection), headless jobs (CrowdJob::camera) and `--camera` on the command line.
//
// throng's clip space is Vulkan's with two choices made: y points down the framebuffer (a world
// point above the camera's axis lands in a smaller row) and depth is reversed (the near plane
// maps to 1, the far plane to 0; depth cleared to 0, compared GREATER). viewProjection() builds
// exactly the matrix throng's own views use, so a host need not derive it.
#pragma once

#include <throng/api.h>
#include <throng/result.h>

#include <glm/glm.hpp>

#include <string>

THRONG_API_BEGIN
namespace throng {

struct Camera {
    glm::vec3 eye{0.0f, 2.0f, 10.0f}; // world units
    glm::vec3 target{0.0f};           // what the camera looks at (its axis passes through it)
    float fov_y_degrees = 40.0f;      // vertical field of view, (0, 180)
    // The depth range in world units along the axis, 0 < near_plane < far_plane. A headless job
    // or `--camera` with both 0 fits them to the crowd (cameraFitting below).
    float near_plane = 0.1f;
    float far_plane = 1000.0f;
    glm::vec3 up{0.0f, 1.0f, 0.0f}; // the world's up (not parallel to target - eye)
};

// Whether the depth range is left to be fitted (both 0: cameraFitting).
inline bool rangeToFit(const Camera& camera) { return camera.near_plane == 0.0f && camera.far_plane == 0.0f; }

// World to clip space for a picture of aspect width / height, as described at the top.
// Contract: cameraProblem(camera) is empty, !rangeToFit(camera) and aspect > 0.
glm::mat4 viewProjection(const Camera& camera, float aspect);

// Why `camera` cannot make a view-projection ("" when it can, once a range left to fit is
// fitted): a non-finite value, eye at the target, up along the axis, a field of view outside
// (0, 180), a depth range neither to fit nor 0 < near < far.
std::string cameraProblem(const Camera& camera);

// `camera` with its depth range fitted to a box (world min and max corners) it looks at: far just
// past the box's farthest corner, near at 1/10,000 of that (or at the box's nearest point when
// that is farther).
Camera cameraFitting(Camera camera, const glm::vec3& box_min, const glm::vec3& box_max);

// "EYE:TARGET[:FOV]", each point "x,y,z" in world units and FOV in degrees (40 when left out),
// as `--camera` takes it and the viewer's console `camera` prints it; the depth range is left 0
// (fitted to the crowd). Errors: one line saying what is wrong.
Result<Camera> parseCamera(const std::string& text);
// The camera as parseCamera() reads it back (eye, target and field of view only).
std::string toString(const Camera& camera);

} // namespace throng
THRONG_API_END
