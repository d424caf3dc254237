// The views users have of a crowd, shared by `render`, `bench` and `view`:
//   overview  the whole crowd in the picture, from the front and above (frameBounds);
//   street    a person standing at the edge of the crowd looking across it: the eye at 94% of
//             the model's height (1.7 m for a 1.8 m walker) above the ground, just outside the
//             crowd's box at its middle, looking horizontally over its centre, 60 degrees of
//             vertical field of view. For a school of fish the same, at the school's mid-height.
#pragma once

#include "crowd.h"

#include <throng/camera.h>
#include <throng/options.h>

#include <glm/glm.hpp>

#include <string_view>

namespace throng::render {

using throng::ViewKind; // throng/options.h, with its names (toString, parseViewKind)

// Where the street view stands and looks (world space), its vertical field of view (radians) and
// its depth range.
struct StreetPose {
    glm::vec3 eye{0.0f}, target{0.0f};
    float fov_y = 1.0471976f; // 60 degrees
    float near_plane = 0.01f, far_plane = 100.0f;
};
StreetPose streetPose(const Crowd& crowd);

// The camera of `view` of `crowd` (members' clip boxes give the model's height) for an image of
// aspect width / height, and its reversed-Z (near -> 1, far -> 0) view-projection (throng/camera.h).
Camera crowdCamera(ViewKind view, const Crowd& crowd, float aspect);
glm::mat4 crowdViewProjection(ViewKind view, const Crowd& crowd, float aspect);

// What a view-projection says of its camera: the eye of a perspective one (the point whose clip
// x, y and w are 0; the origin when there is none, as for an orthographic one), and the screen
// pixels one world unit covers at view depth 1 in a picture `height` pixels tall.
glm::vec3 eyeOf(const glm::mat4& view_projection);
float pixelsPerUnit(const glm::mat4& view_projection, float height);

} // namespace throng::render
