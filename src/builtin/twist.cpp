// twist.cpp — builtin:twist, the test piece of dual-quaternion skinning: an open cylinder along
// +y on two joints whose clip turns the upper joint about the cylinder's axis.
#include <throng/builtin.h>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <cmath>

namespace throng {
namespace {

constexpr int kRings = 17;         // y = 0, 0.125, ..., 2
constexpr int kTwistSegments = 24; // around the axis
constexpr float kRadius = 0.25f, kHeight = 2.0f;

// The upper joint's share of a vertex at height y: 0 below 0.5, 1 above 1.5, smooth between
// (0.5 at the middle ring, y = 1).
float upperWeight(float y) {
    const float t = std::clamp((y - 0.5f) / 1.0f, 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

} // namespace

Model makeTwist() {
    Model model;
    model.source = "builtin:twist";
    model.format = "built-in (generated)";
    model.skeleton.names = {"base", "top"};
    model.skeleton.parents = {-1, 0};
    Transform base, top;
    top.translation = glm::vec3(0.0f, 1.0f, 0.0f);
    model.skeleton.rest = {base, top};
    model.skins.push_back(Skin{"twist", {0, 1}});
    PaletteEntry upper{1, glm::mat4(1.0f)};
    upper.inverse_bind[3] = glm::vec4(0.0f, -1.0f, 0.0f, 1.0f);
    model.palette = {PaletteEntry{0, glm::mat4(1.0f)}, upper};
    model.materials = {Material{"twist", glm::vec4(1.0f), -1}}; // colour is in the vertices

    Mesh mesh;
    mesh.name = "twist";
    mesh.skin = 0;
    for (int r = 0; r < kRings; ++r) {
        const float y = kHeight * float(r) / float(kRings - 1);
        const float w = upperWeight(y);
        for (int s = 0; s < kTwistSegments; ++s) {
            const double a = 2.0 * 3.14159265358979323846 * s / kTwistSegments;
            const glm::vec3 n(float(std::cos(a)), 0.0f, float(std::sin(a)));
            mesh.positions.push_back(glm::vec3(kRadius * n.x, y, kRadius * n.z));
            mesh.normals.push_back(n);
            mesh.uvs.push_back(glm::vec2(float(s) / kTwistSegments, y / kHeight));
            // Stripes along the axis, so the twist shows: alternate segments light and dark.
            const float shade = (s / 2) % 2 == 0 ? 0.9f : 0.35f;
            mesh.colors.push_back(glm::vec4(shade, shade * (0.6f + 0.4f * y / kHeight), 0.3f, 1.0f));
            mesh.joints.push_back(glm::u16vec4(0, 1, 0, 0));
            mesh.weights.push_back(glm::vec4(1.0f - w, w, 0.0f, 0.0f));
        }
    }
    for (int r = 0; r + 1 < kRings; ++r)
        for (int s = 0; s < kTwistSegments; ++s) {
            const uint32_t a = uint32_t(r * kTwistSegments + s),
                           b = uint32_t(r * kTwistSegments + (s + 1) % kTwistSegments);
            const uint32_t c = a + kTwistSegments, d = b + kTwistSegments;
            mesh.indices.insert(mesh.indices.end(), {a, c, b, b, c, d});
        }
    mesh.submeshes = {Submesh{0, uint32_t(mesh.indices.size()), 0}};
    model.meshes.push_back(std::move(mesh));

    // Clip `twist`: the upper joint turns about +y from 0 to 180 degrees over 2 s (keys every 45
    // degrees, slerped), and back over the next 2 s.
    Clip clip;
    clip.name = "twist";
    clip.duration = 4.0f;
    Track track{1, TrackTarget::Rotation, Interpolation::Linear, {}, {}};
    for (int k = 0; k <= 8; ++k) {
        const int step = k <= 4 ? k : 8 - k;
        const glm::quat q = glm::angleAxis(float(3.14159265358979323846 / 4.0 * step), glm::vec3(0, 1, 0));
        track.times.push_back(0.5f * float(k));
        track.values.push_back(glm::vec4(q.x, q.y, q.z, q.w));
    }
    clip.tracks.push_back(std::move(track));
    model.clips.push_back(std::move(clip));
    return model;
}

} // namespace throng
