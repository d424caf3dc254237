// Temporal anti-aliasing of headless frames (issue #26 section 2, docs/IN_MOTION.md;
// src/render/taa.h) on lavapipe with validation on:
// - flicker: walkers walking on the spot, about two pixels tall, seen by a still camera; the
//   mean change of each pixel's luma from one frame to the next, against the same for a picture
//   supersampled 4 x 4 (the reference of what the frames should show): TAA brings the flicker
//   above the reference's down by at least half;
// - ghosting: a walker crossing the street view, moved every frame: once it has passed, the
//   pixels it covered in earlier frames show the sky as the frame drawn without TAA does; a
//   walker that stood still for 40 frames and then jumped aside (teleported): where it stood,
//   the ground and its shadow show as without TAA 4 frames later.
#include "test_util.h"
#include "walker_suite.h"

#include "../src/render/taa.h"
#include "../src/sim/motion.h"

#include "../src/gpu/png.h"
#include <throng/headless.h>

#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <cstdio>

using namespace throng;

namespace {

constexpr uint32_t kWidth = 320, kHeight = 180;

double toLinear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

// Linear luma per pixel of an sRGB picture, box-filtered down `factor` times on each axis.
std::vector<double> luma(const std::vector<uint8_t>& rgba, uint32_t width, uint32_t height, uint32_t factor = 1) {
    const uint32_t w = width / factor, h = height / factor;
    std::vector<double> out(size_t(w) * h, 0.0);
    for (uint32_t y = 0; y < h * factor; ++y)
        for (uint32_t x = 0; x < w * factor; ++x) {
            const uint8_t* p = &rgba[(size_t(y) * width + x) * 4];
            const double l =
                0.2126 * toLinear(p[0] / 255.0) + 0.7152 * toLinear(p[1] / 255.0) + 0.0722 * toLinear(p[2] / 255.0);
            out[size_t(y / factor) * w + x / factor] += l / double(factor * factor);
        }
    return out;
}

double meanChange(const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0.0;
    for (size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
    return sum / double(a.size());
}

// Standing 6 units from the origin at eye height, looking at it (reversed Z, y down).
glm::mat4 streetCamera() {
    glm::mat4 proj = glm::perspectiveRH_ZO(glm::radians(40.0f), float(kWidth) / kHeight, 100.0f, 0.1f);
    proj[1][1] *= -1.0f;
    return proj * glm::lookAtRH(glm::vec3(0.0f, 1.0f, 6.0f), glm::vec3(0.0f, 0.9f, 0.0f), glm::vec3(0, 1, 0));
}

enum class Ground { None, Lit, Shadowed };

class Taa : public test::WalkerSuite {
  protected:
    // `frames` frames up to `time`, 1/30 s apart (a simulation step each), `scale` times the
    // test's size: the last `keep` frames' pictures (the last alone without).
    std::vector<std::vector<uint8_t>> draw(const render::Crowd& crowd, const glm::mat4& vp, uint32_t frames, float time,
                                           bool taa, uint32_t scale = 1,
                                           std::function<glm::mat4(uint32_t, render::CrowdRenderer&)> before = {},
                                           bool simulate = false, uint32_t keep = 0,
                                           Ground ground = Ground::None) const {
        render::RenderSettings s;
        s.ground = ground != Ground::None;
        if (ground == Ground::Shadowed) { // over the same area whatever the members do
            s.shadows.size = 512;
            s.shadows.area = Bounds{glm::vec3(-4.0f, 0.0f, -4.0f), glm::vec3(4.0f, 2.0f, 4.0f)};
        }
        if (simulate) {
            Result<render::MotionFactory> motion = sim::gpuMotion(*context_, baked_, crowd, sim::kindFor("baked"), 1);
            EXPECT_TRUE(motion.ok()) << motion.error().message;
            if (motion) s.motion = std::move(motion).value();
        }
        s.raster = Raster::Compute;
        s.cull.occlusion = false;
        s.width = kWidth * scale;
        s.height = kHeight * scale;
        s.frames = frames;
        s.time = time;
        s.baked = &baked_;
        s.taa = taa;
        s.frame_step = 1.0f / 30.0f;
        s.keep_frames = keep;
        s.before_frame = std::move(before);
        Result<render::RenderOutput> out = render::renderCrowd(*allocator_, asset_, crowd, vp, s);
        EXPECT_TRUE(out.ok()) << out.error().message;
        if (!out.ok()) return {};
        if (keep == 0) return {std::move(out).value().rgba};
        return std::move(out).value().kept;
    }
};

} // namespace

// The overview of 6,000 simulated walkers at 320x180 (about two pixels tall, walking), a still
// camera: the flicker of consecutive frames (the mean change of each pixel's linear luma, over 8
// pairs of frames: half the jitter's cycle) drawn plainly, with TAA after it has converged, and
// supersampled 4 x 4 (what the motion itself changes); TAA's flicker above the reference's at
// most half the plain frames'; its mean luma within 1% of the plain frames' (the members keep
// their share of the picture: clamped to each pixel's 3 x 3 neighbourhood it was 1.4% lighter here,
// 7% over the crowd of the overview).
TEST_F(Taa, FlickerOfTheOverviewAtLeastHalved) {
    const render::Crowd crowd = crowdOf(6000);
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Overview, crowd, float(kWidth) / kHeight);
    const float time = 1.0f;
    const uint32_t frames = kTaaFrames; // TAA converged by then
    // The mean of the flicker between each of the last 9 frames and the next (half the jitter's cycle).
    auto flicker = [&](bool taa, uint32_t scale) {
        // Without TAA only the last 9 frames matter (the simulation reaches the same state however
        // many frames it is drawn in).
        const std::vector<std::vector<uint8_t>> kept =
            draw(crowd, vp, taa ? frames + 8 : 9, time, taa, scale, {}, true, 9, Ground::Lit);
        EXPECT_EQ(kept.size(), 9u);
        double sum = 0.0, mean = 0.0;
        for (size_t k = 0; k < kept.size(); ++k) {
            const std::vector<double> l = luma(kept[k], kWidth * scale, kHeight * scale, scale);
            for (double v : l) mean += v / double(l.size() * kept.size());
            if (k + 1 < kept.size()) sum += meanChange(l, luma(kept[k + 1], kWidth * scale, kHeight * scale, scale));
        }
        return std::pair(sum / double(std::max<size_t>(kept.size(), 2) - 1), mean);
    };
    const auto [plain, plain_mean] = flicker(false, 1);
    const auto [taa, taa_mean] = flicker(true, 1);
    const double reference = flicker(false, 4).first;
    // What TAA converges to is the frames' mean: the members keep their share of the picture.
    std::printf("mean luma: plain %.5f, TAA %.5f (%+.2f%%)\n", plain_mean, taa_mean,
                100.0 * (taa_mean - plain_mean) / plain_mean);
    EXPECT_NEAR(taa_mean, plain_mean, 0.01 * plain_mean);
    // TAA's frames may change less than the reference's: the blend also smooths the walkers'
    // own motion over a few frames, which the supersampled frames show whole.
    std::printf("mean luma change a frame: plain %.5f, TAA %.5f (%.1fx less), 4x4 supersampled %.5f; above the "
                "reference: plain %.5f, TAA %.5f\n",
                plain, taa, plain / std::max(taa, 1e-9), reference, plain - reference, taa - reference);
    ASSERT_GT(plain, reference) << "the plain frames do not flicker";
    EXPECT_LE(taa - reference, 0.5 * (plain - reference));
}

// One walker crossing the street view from left to right, moved 0.15 units a frame for 24
// frames (and walking), drawn with TAA and plainly: over the pixels it covered in earlier frames
// and covers no more (its trail), the TAA picture differs from the plain one by more than 24/255
// on none but a few (the jittered edge of the sky and the ground line).
TEST_F(Taa, NoGhostBehindAWalkerCrossingTheStreet) {
    render::Crowd crowd = crowdOf(1);
    crowd.instances[0].position_scale = glm::vec4(-2.0f, 0.0f, 0.0f, 1.0f);
    const glm::mat4 vp = streetCamera();
    const uint32_t frames = 24;
    auto walk = [&](uint32_t frame, render::CrowdRenderer& r) {
        r.records()[0].position_scale.x = -2.0f + 0.15f * float(frame);
        r.markChanged(0, 1);
        return vp;
    };
    const std::vector<uint8_t> taa = draw(crowd, vp, frames, 1.0f, true, 1, walk).front();
    const std::vector<uint8_t> plain = draw(crowd, vp, frames, 1.0f, false, 1, walk).front();
    // The trail: covered by the walker's box in frames 8 .. frames - 4, not in the last frame's.
    const glm::vec3 lo(-0.45f, 0.0f, -0.3f), hi(0.45f, 1.85f, 0.3f);
    auto box = [&](float x, int& x0, int& x1, int& y0, int& y1) {
        x0 = int(kWidth), x1 = -1, y0 = int(kHeight), y1 = -1;
        for (int c = 0; c < 8; ++c) {
            const glm::vec3 p((c & 1 ? hi.x : lo.x) + x, c & 2 ? hi.y : lo.y, c & 4 ? hi.z : lo.z);
            const glm::vec4 q = vp * glm::vec4(p, 1.0f);
            const int sx = int((q.x / q.w * 0.5f + 0.5f) * kWidth), sy = int((q.y / q.w * 0.5f + 0.5f) * kHeight);
            x0 = std::min(x0, sx), x1 = std::max(x1, sx), y0 = std::min(y0, sy), y1 = std::max(y1, sy);
        }
    };
    int nx0, nx1, ny0, ny1, tx0, tx1, ty0, ty1, ex0, ex1, ey0, ey1;
    box(-2.0f + 0.15f * float(frames - 1), nx0, nx1, ny0, ny1);
    box(-2.0f + 0.15f * 8.0f, tx0, tx1, ty0, ty1);
    box(-2.0f + 0.15f * float(frames - 4), ex0, ex1, ey0, ey1);
    size_t trail = 0, ghost = 0;
    for (int y = std::max(std::min(ty0, ey0), 0); y <= std::min(std::max(ty1, ey1), int(kHeight) - 1); ++y)
        for (int x = std::max(tx0, 0); x <= std::min(ex1, int(kWidth) - 1); ++x) {
            if (x >= nx0 - 2 && x <= nx1 + 2 && y >= ny0 - 2 && y <= ny1 + 2) continue; // where it is now
            ++trail;
            const uint8_t* a = &taa[(size_t(y) * kWidth + x) * 4];
            const uint8_t* b = &plain[(size_t(y) * kWidth + x) * 4];
            for (int c = 0; c < 3; ++c)
                if (std::abs(int(a[c]) - int(b[c])) > 24) {
                    ++ghost;
                    break;
                }
        }
    std::printf("the walker's trail: %zu pixels, %zu differ from the frame without TAA by more than 24/255\n", trail,
                ghost);
    ASSERT_GT(trail, 500u);
    EXPECT_LE(ghost, trail / 100);
}

// A walker standing (walking on the spot) on the ground in the street view for 40 frames, then
// teleported a metre and a half to its right: where it and its shadow stood, the ground's pixels
// have no motion (the vectors say their history is good), but what they showed is gone; the TAA
// picture 4 frames later shows what the plain frame does on all but a few of those pixels. (With
// the clamp only where pixels moved, as the second session's TAA had it, and the depth test, 85
// of them stayed 24/255 or more off: its shadow, fading at 4% a frame.) Where it stands now is
// measured, not asserted: at this size its legs are two pixels wide and swing several pixels a
// frame (the frames are a 30th of a second apart), and its new shadow on the still ground fades
// in through the 5 x 5 box; a third of those pixels differ from the plain frame by 24/255.
TEST_F(Taa, NoGhostWhereAStillWalkerStood) {
    render::Crowd crowd = crowdOf(1);
    crowd.instances[0].position_scale = glm::vec4(-1.0f, 0.0f, 0.0f, 1.0f);
    const glm::mat4 vp = streetCamera();
    const uint32_t frames = 44;
    auto jump = [&](uint32_t frame, render::CrowdRenderer& r) {
        if (frame == 40) {
            r.records()[0].position_scale.x = 0.5f;
            r.markChanged(0, 1);
            r.teleported(0);
        }
        return vp;
    };
    const std::vector<uint8_t> taa = draw(crowd, vp, frames, 1.0f, true, 1, jump, false, 0, Ground::Shadowed).front();
    const std::vector<uint8_t> plain =
        draw(crowd, vp, frames, 1.0f, false, 1, jump, false, 0, Ground::Shadowed).front();
    // Where it stood: the pixels the plain frame 39 showed it on (differing from the sky), less a
    // pixel round where it stands now.
    const std::vector<uint8_t> before = draw(crowd, vp, 40, 1.0f, false, 1, jump, false, 0, Ground::Shadowed).front();
    render::Crowd away = crowd; // nothing in sight
    away.instances[0].position_scale.x = 1000.0f;
    const std::vector<uint8_t> empty = draw(away, vp, 1, 1.0f, false, 1, {}, false, 0, Ground::Shadowed).front();
    size_t stood = 0, ghost = 0, stands = 0, faint = 0;
    for (size_t i = 0; i < size_t(kWidth) * kHeight; ++i) {
        auto differs = [&](const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int by) {
            for (int c = 0; c < 3; ++c)
                if (std::abs(int(a[i * 4 + c]) - int(b[i * 4 + c])) > by) return true;
            return false;
        };
        if (differs(plain, empty, 8)) { // where it stands now (and its shadow)
            ++stands;
            faint += differs(taa, plain, 24) ? 1 : 0;
        }
        if (!differs(before, empty, 8) || differs(plain, empty, 0)) continue;
        ++stood;
        ghost += differs(taa, plain, 24) ? 1 : 0;
    }
    std::printf("where it stands now: %zu pixels, %zu differ from the frame without TAA by more than 24/255\n", stands,
                faint);
    if (const char* dump = std::getenv("THRONG_TAA_DUMP")) {
        (void)gpu::writePng(std::string(dump) + "-taa.png", taa, kWidth, kHeight);
        (void)gpu::writePng(std::string(dump) + "-plain.png", plain, kWidth, kHeight);
        (void)gpu::writePng(std::string(dump) + "-before.png", before, kWidth, kHeight);
    }
    std::printf("where the walker stood: %zu pixels, %zu differ from the frame without TAA by more than 24/255\n",
                stood, ghost);
    ASSERT_GT(stood, 300u);
    EXPECT_LE(ghost, stood / 100);
}
