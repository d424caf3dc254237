// The compute rasterizer (src/render/compute_raster.h, docs/FAR_FIELD.md) against the hardware
// rasterizer, on lavapipe with validation on: the same crowd, the same camera, the same frame, for
// `baked` and `static`, in the overview and in the street view (members overlapping: depth order),
// at full detail and with LOD. Pixels may differ where the two rasterizers' edge rules and rounding
// differ (a pixel centre on a shared edge, a triangle a fraction of a pixel across); the rest must
// agree within a small colour tolerance.
#include "../src/render/compute_raster.h"

#include "walker_suite.h"

#include <algorithm>
#include <cstdlib>

using namespace throng;

namespace {

using ComputeRaster = test::WalkerSuite;

struct Agreement {
    size_t pixels = 0, differ = 0, covered = 0;
};

// Pixels whose colours differ by more than `tolerance` in any channel; pixels not background.
Agreement compare(const render::RenderOutput& a, const render::RenderOutput& b, int tolerance) {
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

TEST_F(ComputeRaster, PictureAgreesWithTheHardwareRasterizer) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    for (const char* technique : {"baked", "static"}) {
        for (render::ViewKind view : {render::ViewKind::Overview, render::ViewKind::Street}) {
            for (bool lod : {false, true}) {
                const render::Crowd crowd = crowdOf(view == render::ViewKind::Street ? 400 : 120);
                render::RenderSettings s;
                s.technique = technique;
                const render::CullSettings cull{true, lod, 1.0f, false, true};
                const render::RenderOutput hardware = renderAt(crowd, view, 1, 0.8f, cull, s);
                s.compute_raster = true;
                const render::RenderOutput compute = renderAt(crowd, view, 1, 0.8f, cull, s);
                ASSERT_EQ(hardware.rgba.size(), compute.rgba.size());
                const Agreement agree = compare(hardware, compute, 24);
                std::printf("%s, %s, LOD %s: %zu of %zu pixels covered, %zu differ (%.2f%%)\n", technique, render::toString(view),
                            lod ? "on" : "off", agree.covered, agree.pixels, agree.differ, 100.0 * double(agree.differ) / double(agree.pixels));
                EXPECT_GT(agree.covered, agree.pixels / 50) << "nothing drawn";
                EXPECT_LE(agree.differ, agree.pixels / 100) << technique << ", " << render::toString(view) << ": more than 1% of pixels differ";
                bool resolved = false;
                for (const render::PassTiming& p : compute.passes) resolved = resolved || p.name == "resolve";
                EXPECT_TRUE(resolved || !context_->timestamps) << "no resolve pass";
            }
        }
    }
}

TEST_F(ComputeRaster, RefusesWhatItCannotDraw) {
    const render::Crowd crowd = crowdOf(10);
    render::RenderSettings s;
    s.technique = "palette";
    s.compute_raster = true;
    s.baked = &baked_;
    s.width = 64;
    s.height = 36;
    const Result<render::RenderOutput> out =
        render::renderCrowd(*allocator_, asset_, crowd, render::crowdViewProjection(render::ViewKind::Overview, crowd, 64.0f / 36.0f), s);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error().message.find("--raster compute"), std::string::npos) << out.error().message;
    EXPECT_EQ(render::computeRasterProblem(*context_, "baked", baked_, (1u << 24) + 1).empty(), false);
}

} // namespace
