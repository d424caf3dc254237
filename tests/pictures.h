// Comparing pictures in the GPU tests: two renders pixel by pixel, and a camera placed by eye
// and target (shared by the raster, shading and shadow tests).
#pragma once

#include "../src/render/renderer.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cstdlib>

namespace throng::test {

struct Agreement {
    size_t pixels = 0, differ = 0, covered = 0;
};

// Pixels whose colours differ by more than `tolerance` in any channel; pixels of `a` not its
// background (the corner pixel's colour).
inline Agreement comparePictures(const render::RenderOutput& a, const render::RenderOutput& b, int tolerance) {
    Agreement r;
    r.pixels = a.rgba.size() / 4;
    for (size_t i = 0; i + 3 < a.rgba.size() && i + 3 < b.rgba.size(); i += 4) {
        int d = 0;
        for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(a.rgba[i + c]) - int(b.rgba[i + c])));
        r.differ += d > tolerance;
        r.covered += a.rgba[i] != a.rgba[0] || a.rgba[i + 1] != a.rgba[1] || a.rgba[i + 2] != a.rgba[2];
    }
    return r;
}

// One pixel of the compute rasterizer's visibility buffer (raster_body.glsl): depth key << 40 |
// member << 16 | the triangle of the member's model; `covered` false where nothing was drawn.
struct VisibilityId {
    bool covered = false;
    uint32_t depth_key = 0, member = 0, triangle = 0;
};
inline VisibilityId decodeVisibility(uint64_t v) {
    if (v == ~uint64_t(0)) return {};
    return {true, uint32_t(v >> 40), uint32_t(v >> 16) & 0xffffffu, uint32_t(v & 0xffffu)};
}

// Reversed-Z perspective looking from `eye` at `target` (as the renderer's views build theirs),
// for a picture of `aspect` (width / height).
inline glm::mat4 cameraAt(const glm::vec3& eye, const glm::vec3& target, float fov_degrees, float aspect) {
    const glm::mat4 view = glm::lookAtRH(eye, target, glm::vec3(0.0f, 1.0f, 0.0f));
    glm::mat4 proj = glm::perspectiveRH_ZO(glm::radians(fov_degrees), aspect, 50.0f, 0.05f);
    proj[1][1] *= -1.0f;
    return proj * view;
}

} // namespace throng::test
