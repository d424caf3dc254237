// Motion vectors (issue #26 section 1, docs/IN_MOTION.md; src/render/history.h) from the compute
// rasterizer, on lavapipe with validation on:
// - a crowd that does not move, seen by a moving camera, has exactly the camera's motion: each
//   pixel's vector against one computed on the CPU in double from the pixel's depth and the two
//   cameras (triangles and splats);
// - an animated crowd walking under a moving camera: the last frame warped by this frame's
//   vectors reproduces this frame on the pixels inside the crowd's silhouettes, far better than
//   the last frame unwarped;
// - a member the host says teleported draws without motion, one moved without saying so with
//   the motion it made.
#include "test_util.h"
#include "walker_suite.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

using namespace throng;

namespace {

constexpr uint32_t kWidth = 320, kHeight = 180;

// A view-projection like the headless renderer's (reversed Z, y down) from `eye` toward `target`.
glm::mat4 lookFrom(glm::vec3 eye, glm::vec3 target) {
    glm::mat4 proj = glm::perspectiveRH_ZO(glm::radians(40.0f), float(kWidth) / float(kHeight), 400.0f, 0.1f);
    proj[1][1] *= -1.0f;
    return proj * glm::lookAtRH(eye, target, glm::vec3(0, 1, 0));
}

// Two cameras over `crowd`'s street view: where the view stands, looking a little down across
// the crowd, then moved by `move` (world units) and turned to the same point.
std::pair<glm::mat4, glm::mat4> streetCameras(const render::Crowd& crowd, glm::vec3 move) {
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Street, crowd, float(kWidth) / kHeight);
    const glm::vec3 eye = render::eyeOf(vp);
    const glm::vec3 target = eye + glm::normalize(glm::vec3(0.0f, -0.25f, 0.0f) - eye) * 10.0f;
    return {lookFrom(eye, target), lookFrom(eye + move, target)};
}

class Motion : public test::WalkerSuite {
  protected:
    BakeOptions bakeOptions() const override {
        BakeOptions o;
        o.vat = true; // technique vat
        return o;
    }
    // Frames at `times` (equally spaced; one frame per entry) seen by `cameras[i]`, with motion
    // vectors, depth and the last frame's picture read back.
    render::RenderOutput draw(const render::Crowd& crowd, const std::string& technique, std::vector<glm::mat4> cameras,
                              float time, float step, float splat_px = 0.0f,
                              std::function<void(uint32_t, render::CrowdRenderer&)> edit = {},
                              Raster raster = Raster::Compute, uint32_t shadow_map = 0) const {
        render::RenderSettings s;
        s.technique = technique;
        s.raster = raster;
        s.shadows.size = shadow_map;
        s.cull.occlusion = false;
        s.cull.splat_px = splat_px;
        s.width = kWidth;
        s.height = kHeight;
        s.frames = uint32_t(cameras.size());
        s.time = time;
        s.frame_step = step;
        s.baked = &baked_;
        s.velocity = true;
        s.read_depth = true;
        s.before_frame = [&](uint32_t i, render::CrowdRenderer& r) {
            if (edit) edit(i, r);
            return cameras[std::min<size_t>(i, cameras.size() - 1)];
        };
        Result<render::RenderOutput> out = render::renderCrowd(*allocator_, asset_, crowd, cameras.back(), s);
        EXPECT_TRUE(out.ok()) << out.error().message;
        return out.ok() ? std::move(out).value() : render::RenderOutput{};
    }
};

// The motion of a point at pixel (x, y) and reversed-Z depth `depth` of the frame seen by `now`,
// which the frame before saw by `before`: the pixel centre minus where `before` put the point.
glm::dvec2 cameraMotion(uint32_t x, uint32_t y, float depth, const glm::mat4& now, const glm::mat4& before) {
    const glm::dvec2 c(x + 0.5, y + 0.5);
    const glm::dvec4 ndc(c.x / kWidth * 2.0 - 1.0, c.y / kHeight * 2.0 - 1.0, double(depth), 1.0);
    glm::dvec4 world = glm::inverse(glm::dmat4(now)) * ndc;
    world /= world.w;
    const glm::dvec4 then = glm::dmat4(before) * world;
    return c - (glm::dvec2(then) / then.w * 0.5 + 0.5) * glm::dvec2(kWidth, kHeight);
}

struct Agreement {
    size_t pixels = 0, within = 0;
    double worst = 0.0;
};

Agreement againstCamera(const render::RenderOutput& o, const glm::mat4& now, const glm::mat4& before,
                        double tolerance) {
    Agreement a;
    for (uint32_t y = 0; y < kHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x) {
            const size_t i = size_t(y) * kWidth + x;
            if (o.depth[i] <= 0.0f) continue; // nothing drawn
            const glm::dvec2 expected = cameraMotion(x, y, o.depth[i], now, before);
            const double error = glm::length(glm::dvec2(o.velocity[i]) - expected);
            ++a.pixels;
            // Half floats keep 11 bits: a vector of v pixels within v / 1024.
            if (error <= tolerance + glm::length(expected) / 1024.0) ++a.within;
            a.worst = std::max(a.worst, error);
        }
    return a;
}

} // namespace

// A crowd that does not move (every frame at the same time) under a camera that moves and turns
// between two frames, drawn by every technique through both rasterizers, with shadows and the
// ground: every covered pixel's vector (members and ground) is the camera's motion of the point
// its depth says, within 0.05 pixels (the depth's and the vectors' own rounding). Every member a
// splat: within 0.5 pixels (a splat moves as its centre, its depth is its centre's).
TEST_F(Motion, AStillCrowdHasTheCamerasMotionOnEveryPath) {
    const render::Crowd crowd = crowdOf(400);
    const auto [before, now] = streetCameras(crowd, glm::vec3(0.4f, 0.1f, -0.3f));
    for (const TechniqueInfo& t : techniques())
        for (Raster raster : {Raster::Hardware, Raster::Compute}) {
            if (raster == Raster::Compute && !t.compute_raster) continue;
            const render::RenderOutput o =
                draw(crowd, std::string(t.name), {before, now}, 0.5f, 0.0f, 0.0f, {}, raster, 1024);
            const Agreement a = againstCamera(o, now, before, 0.05);
            std::printf("%-11s %-8s still crowd, moving camera: %zu pixels, %zu within 0.05 px of the camera's "
                        "motion, worst %.4f px\n",
                        std::string(t.name).c_str(), toString(raster), a.pixels, a.within, a.worst);
            ASSERT_GT(a.pixels, 20000u) << t.name << ": the crowd and the ground are not in the picture";
            EXPECT_GE(double(a.within), 0.999 * double(a.pixels)) << t.name << " " << toString(raster);
        }

    const render::Crowd many = crowdOf(20000);
    const glm::mat4 far = render::crowdViewProjection(render::ViewKind::Overview, many, float(kWidth) / kHeight);
    const glm::mat4 far_before = glm::translate(far, glm::vec3(1.5f, 0.0f, -1.0f));
    const render::RenderOutput s = draw(many, "static", {far_before, far}, 0.5f, 0.0f, CullSettings::kMaxSplatPx);
    EXPECT_EQ(s.drawn.splats, s.drawn.in_frustum) << "every member a splat";
    const Agreement b = againstCamera(s, far, far_before, 0.5);
    std::printf("splats: %zu pixels, %zu within 0.5 px of the camera's motion, worst %.4f px\n", b.pixels, b.within,
                b.worst);
    ASSERT_GT(b.pixels, 100u);
    EXPECT_GE(double(b.within), 0.999 * double(b.pixels));
}

// Walkers animated (`baked`, `vat`, `procedural`'s swim; through both rasterizers, LOD and the
// vertex cache on) under a moving camera, frames a 30th of a second apart: the last frame's
// picture, each pixel fetched from where this frame's vector says it came from, against this
// frame's picture, on the pixels inside the silhouettes (their 3 x 3 neighbourhood covered in
// both frames; those where the last frame showed another surface there, found by depth, left
// out): at least 99% within 24/255 per channel (the light on turning surfaces makes the rest),
// while the last frame taken as it is (no vectors) agrees on far fewer.
TEST_F(Motion, TheLastFrameWarpedByTheVectorsIsThisFrame) {
    const render::Crowd crowd = crowdOf(300);
    const auto [before, now] = streetCameras(crowd, glm::vec3(0.1f, 0.0f, -0.05f));
    const float step = 1.0f / 30.0f, time = 0.8f;
    for (const char* technique : {"baked", "vat", "procedural", "pose"})
        for (Raster raster : {Raster::Hardware, Raster::Compute}) {
            const render::RenderOutput last = draw(crowd, technique, {before}, time - step, step, 0.0f, {}, raster);
            const render::RenderOutput o = draw(crowd, technique, {before, now}, time, step, 0.0f, {}, raster);
            ASSERT_EQ(last.rgba.size(), o.rgba.size());
            auto covered = [](const render::RenderOutput& r, int x, int y) {
                if (x < 0 || y < 0 || x >= int(kWidth) || y >= int(kHeight)) return false;
                return r.depth[size_t(y) * kWidth + x] > 0.0f;
            };
            auto inside = [&](const render::RenderOutput& r, int x, int y) {
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx)
                        if (!covered(r, x + dx, y + dy)) return false;
                return true;
            };
            // This frame's pixel (x, y) against the last frame's pixels about point (fx, fy): one of
            // the four whose centres surround it (the point lies between samples: at a colour edge
            // the nearest may be across it) within 24/255 in every channel.
            auto agrees = [&](int x, int y, float fx, float fy) {
                const uint8_t* a = &o.rgba[(size_t(y) * kWidth + x) * 4];
                const int x0 = int(std::floor(fx - 0.5f)), y0 = int(std::floor(fy - 0.5f));
                for (int k = 0; k < 4; ++k) {
                    const int sx = std::clamp(x0 + (k & 1), 0, int(kWidth) - 1);
                    const int sy = std::clamp(y0 + (k >> 1), 0, int(kHeight) - 1);
                    const uint8_t* b = &last.rgba[(size_t(sy) * kWidth + sx) * 4];
                    bool near = true;
                    for (int c = 0; c < 3; ++c) near = near && std::abs(int(a[c]) - int(b[c])) <= 24;
                    if (near) return true;
                }
                return false;
            };
            // The world point a pixel of a frame seen by `vp` shows (its depth back through the camera).
            auto pointAt = [](const render::RenderOutput& r, const glm::mat4& vp, int x, int y) {
                const glm::dvec4 ndc((x + 0.5) / kWidth * 2.0 - 1.0, (y + 0.5) / kHeight * 2.0 - 1.0,
                                     double(r.depth[size_t(y) * kWidth + x]), 1.0);
                const glm::dvec4 w = glm::inverse(glm::dmat4(vp)) * ndc;
                return glm::dvec3(w) / w.w;
            };
            size_t pixels = 0, warped = 0, unwarped = 0, hidden = 0;
            double moved = 0.0;
            for (int y = 0; y < int(kHeight); ++y)
                for (int x = 0; x < int(kWidth); ++x) {
                    if (!inside(o, x, y)) continue;
                    const glm::vec2 v = o.velocity[size_t(y) * kWidth + x];
                    const int sx = int(std::floor(x + 0.5f - v.x)), sy = int(std::floor(y + 0.5f - v.y));
                    if (!inside(last, sx, sy) || !inside(last, x, y)) continue;
                    // Disoccluded: where the vector points, the last frame showed another surface (a
                    // point farther than a limb moves in a step from this one).
                    if (glm::length(pointAt(last, before, sx, sy) - pointAt(o, now, x, y)) > 0.1) {
                        ++hidden;
                        continue;
                    }
                    ++pixels;
                    moved += glm::length(v);
                    if (agrees(x, y, x + 0.5f - v.x, y + 0.5f - v.y)) ++warped;
                    if (agrees(x, y, x + 0.5f, y + 0.5f)) ++unwarped;
                }
            std::printf("%-10s %-8s %zu pixels inside (%zu disoccluded left out), mean motion %.2f px; warped by the "
                        "vectors %.2f%% agree, unwarped %.2f%%\n",
                        technique, toString(raster), pixels, hidden, pixels ? moved / double(pixels) : 0.0,
                        100.0 * double(warped) / double(pixels), 100.0 * double(unwarped) / double(pixels));
            ASSERT_GT(pixels, 1000u) << technique;
            EXPECT_GT(moved / double(pixels), 1.0) << technique << ": too little motion to tell";
            EXPECT_GE(double(warped), 0.99 * double(pixels)) << technique;
            EXPECT_LT(double(unwarped), 0.9 * double(warped)) << technique;
        }
}

// Two members moved 1.5 units along x between frames (the crowd otherwise still: a still camera,
// no time between the frames): the one the host says teleported has no motion on any pixel (under
// 0.001 px: the vectors' rounding), the other the projected 1.5 units on every pixel (within 0.05
// px of the camera's map of its move).
TEST_F(Motion, ATeleportedMemberHasNoMotion) {
    render::Crowd crowd = crowdOf(2);
    crowd.instances[0].position_scale = glm::vec4(-3.0f, 0.0f, 0.0f, 1.0f);
    crowd.instances[1].position_scale = glm::vec4(1.5f, 0.0f, 4.0f, 1.0f);
    const glm::mat4 vp = lookFrom(glm::vec3(0.0f, 2.0f, 12.0f), glm::vec3(0.0f, 0.9f, 2.0f));
    const glm::vec3 shift(1.5f, 0.0f, 0.0f);
    const render::RenderOutput o =
        draw(crowd, "baked", {vp, vp}, 0.5f, 0.0f, 0.0f, [&](uint32_t frame, render::CrowdRenderer& r) {
            if (frame != 1) return;
            for (uint32_t m : {0u, 1u}) r.records()[m].position_scale += glm::vec4(shift, 0.0f);
            r.markChanged(0, 2);
            r.teleported(0);
        });
    // Each member's pixels: left and right of the picture's middle (x = 0 projects there).
    size_t still = 0, moving = 0, right = 0;
    double worst_still = 0.0, worst_moving = 0.0;
    const glm::vec4 centre = vp * glm::vec4(0.0f, 0.9f, 2.0f, 1.0f);
    const float middle = (centre.x / centre.w * 0.5f + 0.5f) * kWidth;
    for (uint32_t y = 0; y < kHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x) {
            const size_t i = size_t(y) * kWidth + x;
            if (o.depth[i] <= 0.0f) continue;
            const glm::vec2 v = o.velocity[i];
            if (float(x) + 0.5f < middle) {
                ++still;
                worst_still = std::max(worst_still, double(glm::length(v)));
            } else {
                ++moving;
                // Where the point was: this pixel's point less the shift, seen by the same camera.
                const glm::dvec2 c(x + 0.5, y + 0.5);
                glm::dvec4 world = glm::inverse(glm::dmat4(vp)) *
                                   glm::dvec4(c.x / kWidth * 2.0 - 1.0, c.y / kHeight * 2.0 - 1.0, o.depth[i], 1.0);
                world /= world.w;
                const glm::dvec4 then = glm::dmat4(vp) * (world - glm::dvec4(shift, 0.0));
                const glm::dvec2 expected = c - (glm::dvec2(then) / then.w * 0.5 + 0.5) * glm::dvec2(kWidth, kHeight);
                const double error = glm::length(glm::dvec2(v) - expected);
                worst_moving = std::max(worst_moving, error);
                if (error <= 0.05 + glm::length(expected) / 1024.0) ++right;
            }
        }
    std::printf("teleported: %zu pixels, largest motion %.5f px; moved: %zu pixels, %zu within 0.05 px of its "
                "move, worst %.4f px\n",
                still, worst_still, moving, right, worst_moving);
    ASSERT_GT(still, 200u);
    ASSERT_GT(moving, 200u);
    EXPECT_LT(worst_still, 1e-3);
    EXPECT_GE(double(right), 0.999 * double(moving));
}

// The history is copied only after a frame that changed the records (history.h): a member the
// host moves in frame 1 of three, under a still camera with the clock stopped, has its move's
// motion in frame 1 and none in frame 2 (the history caught up with the move, though frame 0
// changed nothing and its copy was skipped); a fourth frame, after one that changed nothing,
// still has none.
TEST_F(Motion, AMoveShowsInItsFrameOnly) {
    render::Crowd crowd = crowdOf(2);
    crowd.instances[0].position_scale = glm::vec4(-3.0f, 0.0f, 0.0f, 1.0f);
    crowd.instances[1].position_scale = glm::vec4(1.5f, 0.0f, 4.0f, 1.0f);
    const glm::mat4 vp = lookFrom(glm::vec3(0.0f, 2.0f, 12.0f), glm::vec3(0.0f, 0.9f, 2.0f));
    auto move = [&](uint32_t frame, render::CrowdRenderer& r) {
        if (frame != 1) return;
        r.records()[1].position_scale += glm::vec4(1.0f, 0.0f, 0.0f, 0.0f);
        r.markChanged(1, 2);
    };
    for (uint32_t frames : {2u, 3u, 4u}) {
        const render::RenderOutput o = draw(crowd, "baked", std::vector<glm::mat4>(frames, vp), 0.5f, 0.0f, 0.0f, move);
        size_t covered = 0, moving = 0;
        double largest = 0.0;
        for (size_t i = 0; i < o.depth.size(); ++i) {
            if (o.depth[i] <= 0.0f) continue;
            ++covered;
            const double v = glm::length(glm::dvec2(o.velocity[i]));
            largest = std::max(largest, v);
            if (v > 1.0) ++moving;
        }
        std::printf("%u frames, the move in frame 1: in the last frame %zu of %zu covered pixels move over a pixel, "
                    "the largest motion %.4f px\n",
                    frames, moving, covered, largest);
        ASSERT_GT(covered, 400u);
        if (frames == 2) {
            EXPECT_GT(moving, 200u); // the moved member's pixels
        } else {
            EXPECT_EQ(moving, 0u);
            EXPECT_LT(largest, 1e-3);
        }
    }
}

// Techniques `pose` (a second pose on the GPU, from each member's last record at the last frame's
// time), `palette`, `palette-ubo`, `bonetex` (the last frame's poses kept by the CPU and uploaded
// beside this frame's) and `cpu` (the last positions skinned again from them) carry their limbs'
// motion: a walking crowd seen by a still camera, frames a tenth of a second apart, has only its
// limbs' motion, and their vectors agree with baked's (which skins the previous frame from the same
// clips, baked) on the pixels where both show the same surface (the same depth within 0.1%) and
// the limbs moved (baked's vector over 0.5 px): at least 95% within 0.25 px (baked samples its
// frames, the others the keys), through both rasterizers. Without the last palettes their vectors
// there were zero.
TEST_F(Motion, PaletteVectorsCarryTheLimbs) {
    const render::Crowd crowd = crowdOf(300);
    const glm::mat4 still = streetCameras(crowd, glm::vec3(0.0f)).second;
    const float step = 0.1f, time = 0.8f;
    for (const char* technique : {"pose", "palette", "palette-ubo", "cpu", "bonetex"})
        for (Raster raster : {Raster::Hardware, Raster::Compute}) {
            const render::RenderOutput baked = draw(crowd, "baked", {still, still}, time, step, 0.0f, {}, raster);
            const render::RenderOutput pose = draw(crowd, technique, {still, still}, time, step, 0.0f, {}, raster);
            ASSERT_EQ(baked.velocity.size(), pose.velocity.size());
            size_t pixels = 0, moving = 0, agree = 0;
            double baked_motion = 0.0, worst = 0.0;
            for (size_t i = 0; i < baked.velocity.size(); ++i) {
                const float a = baked.depth[i], b = pose.depth[i];
                if (a <= 0.0f || b <= 0.0f || std::abs(a - b) > 1e-3f * a) continue;
                ++pixels;
                const float motion = glm::length(baked.velocity[i]);
                if (motion <= 0.5f) continue;
                ++moving;
                baked_motion += motion;
                const double error = glm::length(baked.velocity[i] - pose.velocity[i]);
                worst = std::max(worst, error);
                if (error <= 0.25) ++agree;
            }
            std::printf("%-8s %-8s %zu pixels both show, %zu of them moving (baked's mean %.2f px): within 0.25 px "
                        "of baked's on %.2f%%, worst %.3f px\n",
                        technique, toString(raster), pixels, moving, baked_motion / double(std::max<size_t>(moving, 1)),
                        100.0 * double(agree) / double(std::max<size_t>(moving, 1)), worst);
            ASSERT_GT(moving, 1000u) << "the limbs hardly move: nothing to tell";
            EXPECT_GE(double(agree), 0.95 * double(moving)) << technique << " " << toString(raster);
        }
}

// The colour and velocity targets cleared by a compute pass through storage views (the default:
// render/target_clear.h) or by the first graphics pass's load op: the same frames to the byte
// (colour, depth, vectors), whoever rasterizes, with the ground or without (the background then
// the clear colour), plainly and with TAA (which reads and writes the cleared colour).
TEST_F(Motion, TargetsClearedByComputeOrByTheLoadOpGiveTheSameFrames) {
    const render::Crowd crowd = crowdOf(300);
    const std::pair<glm::mat4, glm::mat4> cameras = streetCameras(crowd, glm::vec3(0.3f, 0.0f, -0.2f));
    const glm::mat4 before = cameras.first, now = cameras.second; // lambdas below capture them (clang 14: no bindings)
    struct Case {
        Raster raster;
        bool ground, taa;
    };
    for (const Case c : {Case{Raster::Compute, false, false}, Case{Raster::Hardware, true, false},
                         Case{Raster::Auto, true, true}, Case{Raster::Compute, false, true}}) {
        render::RenderOutput out[2];
        for (int by_compute = 0; by_compute < 2; ++by_compute) {
            render::RenderSettings s;
            s.technique = "baked";
            s.raster = c.raster;
            s.ground = c.ground;
            s.taa = c.taa;
            s.velocity = true;
            s.read_depth = true;
            s.clear_by_compute = by_compute != 0;
            s.width = kWidth;
            s.height = kHeight;
            s.frames = 3;
            s.time = 0.5f;
            s.baked = &baked_;
            s.before_frame = [&](uint32_t i, render::CrowdRenderer&) { return i == 0 ? before : now; };
            Result<render::RenderOutput> o = render::renderCrowd(*allocator_, asset_, crowd, now, s);
            ASSERT_TRUE(o.ok()) << o.error().message;
            out[by_compute] = std::move(o).value();
        }
        const char* what = c.taa ? "with TAA" : "plain";
        const std::vector<std::string>& names = out[1].frames.back().pass_names;
        EXPECT_EQ(std::count(names.begin(), names.end(), "clear"), 1) << "the compute clear ran";
        EXPECT_EQ(std::count(out[0].frames.back().pass_names.begin(), out[0].frames.back().pass_names.end(), "clear"),
                  0);
        ASSERT_EQ(out[0].rgba.size(), size_t(kWidth) * kHeight * 4);
        EXPECT_TRUE(out[0].rgba == out[1].rgba) << toString(c.raster) << " " << what << ": colour";
        EXPECT_TRUE(out[0].depth == out[1].depth) << toString(c.raster) << " " << what << ": depth";
        EXPECT_TRUE(out[0].velocity == out[1].velocity) << toString(c.raster) << " " << what << ": vectors";
        // Content: the crowd is there, and without the ground the rest is the clear colour.
        size_t background = 0, covered = 0;
        for (size_t i = 0; i < out[1].depth.size(); ++i) {
            if (out[1].depth[i] > 0.0f) {
                ++covered;
                continue;
            }
            const uint8_t* p = &out[1].rgba[i * 4];
            if (std::abs(int(p[0]) - 173) <= 1 && std::abs(int(p[1]) - 196) <= 1 && std::abs(int(p[2]) - 218) <= 1)
                ++background;
        }
        std::printf("%-8s %-9s ground %-3s: %zu pixels covered, %zu background, frames alike\n", toString(c.raster),
                    what, c.ground ? "on" : "off", covered, background);
        EXPECT_GT(covered, 1000u);
        if (!c.ground && !c.taa) {
            EXPECT_EQ(background + covered, out[1].depth.size());
        }
    }
}
