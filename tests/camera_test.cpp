// throng/camera.h: viewProjection() against the reversed-Z, y-down perspective worked out here in
// double from the camera's basis; the depth range fitted to a box; parseCamera() and toString()
// reading each other back, and every bad camera refused with a line.
#include <throng/camera.h>

#include <gtest/gtest.h>

#include <cmath>

using namespace throng;

namespace {

// Where `p` lands in normalized device coordinates, by the definitions: the view basis (forward
// to the target, right, up), the point's depth d along the axis, x and y over d against the
// half field of view (y negated: down the framebuffer), and depth near (far - d) / (d (far - near)):
// 1 at the near plane, 0 at the far plane.
glm::dvec3 expectedNdc(const Camera& c, double aspect, const glm::dvec3& p) {
    const glm::dvec3 eye(c.eye), forward = glm::normalize(glm::dvec3(c.target) - eye);
    const glm::dvec3 right = glm::normalize(glm::cross(forward, glm::dvec3(c.up)));
    const glm::dvec3 up = glm::cross(right, forward);
    const glm::dvec3 v = p - eye;
    const double d = glm::dot(v, forward);
    const double t = std::tan(glm::radians(double(c.fov_y_degrees)) * 0.5);
    const double n = c.near_plane, f = c.far_plane;
    return {glm::dot(v, right) / d / (t * aspect), -glm::dot(v, up) / d / t, n * (f - d) / (d * (f - n))};
}

glm::dvec3 ndc(const glm::mat4& vp, const glm::dvec3& p) {
    const glm::dvec4 clip = glm::dmat4(vp) * glm::dvec4(p, 1.0);
    return glm::dvec3(clip) / clip.w;
}

} // namespace

TEST(Camera, ViewProjectionIsReversedZAndYDown) {
    Camera c;
    c.eye = {3.0f, 4.0f, 12.0f};
    c.target = {-1.0f, 1.0f, 0.5f};
    c.fov_y_degrees = 50.0f;
    c.near_plane = 0.5f;
    c.far_plane = 200.0f;
    ASSERT_EQ(cameraProblem(c), "");
    const double aspect = 16.0 / 9.0;
    const glm::mat4 vp = viewProjection(c, float(aspect));
    const glm::dvec3 forward = glm::normalize(glm::dvec3(c.target - c.eye));
    // The target at the centre; the near plane at depth 1, the far plane at 0.
    EXPECT_NEAR(glm::length(glm::dvec2(ndc(vp, glm::dvec3(c.target)))), 0.0, 1e-6);
    EXPECT_NEAR(ndc(vp, glm::dvec3(c.eye) + forward * double(c.near_plane)).z, 1.0, 1e-6);
    EXPECT_NEAR(ndc(vp, glm::dvec3(c.eye) + forward * double(c.far_plane)).z, 0.0, 1e-6);
    // Above the axis lands up the picture: a smaller y.
    EXPECT_LT(ndc(vp, glm::dvec3(c.target) + glm::dvec3(0.0, 1.0, 0.0)).y, 0.0);
    // Points all over the frustum against the reference.
    double worst = 0.0;
    for (int i = 0; i < 1000; ++i) {
        const double u = std::fmod(i * 0.618034, 1.0) * 2.0 - 1.0, w = std::fmod(i * 0.754878, 1.0) * 2.0 - 1.0;
        const double depth = 0.6 + std::fmod(i * 0.569840, 1.0) * 150.0;
        const glm::dvec3 p = glm::dvec3(c.eye) + forward * depth + glm::dvec3(u * depth * 0.3, w * depth * 0.2, 0.0);
        const glm::dvec3 got = ndc(vp, p), want = expectedNdc(c, aspect, p);
        worst = std::max({worst, std::abs(got.x - want.x), std::abs(got.y - want.y), std::abs(got.z - want.z)});
    }
    std::printf("viewProjection against the double reference: worst %.2e in NDC over 1000 points\n", worst);
    EXPECT_LT(worst, 1e-5);
}

TEST(Camera, FittingHoldsTheBoxInTheDepthRange) {
    Camera c;
    c.eye = {0.0f, 1.7f, 40.0f};
    c.target = {0.0f, 1.0f, 0.0f};
    const glm::vec3 lo(-30.0f, 0.0f, -30.0f), hi(30.0f, 2.0f, 30.0f);
    const Camera fitted = cameraFitting(c, lo, hi);
    ASSERT_EQ(cameraProblem(fitted), "");
    const glm::mat4 vp = viewProjection(fitted, 1.5f);
    for (int i = 0; i < 8; ++i) {
        const glm::dvec3 corner((i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z);
        const glm::dvec4 clip = glm::dmat4(vp) * glm::dvec4(corner, 1.0);
        if (clip.w <= 0.0) continue; // behind the eye
        EXPECT_GE(clip.z / clip.w, 0.0) << "corner " << i << " past the far plane";
        EXPECT_LE(clip.z / clip.w, 1.0) << "corner " << i << " before the near plane";
    }
}

TEST(Camera, ParsedAndPrintedAlike) {
    const Result<Camera> c = parseCamera("0,1.7,30:0.25,1,-2.5:50");
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c.value().eye, glm::vec3(0.0f, 1.7f, 30.0f));
    EXPECT_EQ(c.value().target, glm::vec3(0.25f, 1.0f, -2.5f));
    EXPECT_EQ(c.value().fov_y_degrees, 50.0f);
    EXPECT_EQ(c.value().near_plane, 0.0f); // fitted to the crowd
    EXPECT_EQ(toString(c.value()), "0,1.7,30:0.25,1,-2.5:50");
    const Result<Camera> d = parseCamera("1,2,3:4,5,6");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(d.value().fov_y_degrees, 40.0f);
    const Result<Camera> again = parseCamera(toString(d.value()));
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again.value().eye, d.value().eye);
    for (const char* bad :
         {"", "1,2,3", "1,2:3,4,5", "1,2,3:4,5,6:", "1,2,3:4,5,6:50:1", "1,2,3:1,2,3", "0,5,0:0,0,0", "1,2,3:4,5,6:0",
          "1,2,3:4,5,6:180", "nan,0,0:1,1,1", "1e99,0,0:1,1,1", "1,2,3:4,5,x", "1,2,3 :4,5,6", "1,2,3:4,5,6:50deg"}) {
        const Result<Camera> r = parseCamera(bad);
        EXPECT_FALSE(r.ok()) << "'" << bad << "' was taken";
        if (!r.ok()) {
            EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
        }
    }
}
