// A GPU test suite (gpu_suite.h) with builtin:walker baked and uploaded, seeded crowds of it, and
// headless renders of them at 320x180: shared by the culling and compute-raster tests.
#pragma once

#include "../src/render/renderer.h"
#include "../src/render/views.h"

#include <throng/bake.h>
#include <throng/builtin.h>

#include "gpu_suite.h"

namespace throng::test {

class WalkerSuite : public GpuSuite {
  protected:
    void SetUp() override {
        GpuSuite::SetUp();
        if (HasFatalFailure()) return; // no device
        Result<BakedAsset> r = bake(suiteModel(), bakeOptions());
        ASSERT_TRUE(r.ok());
        baked_ = std::move(r).value();
        prepare(baked_);
        if (HasFatalFailure()) return;
        Result<render::GpuAsset> g = render::uploadAsset(*allocator_, baked_);
        ASSERT_TRUE(g.ok());
        asset_ = std::move(g).value();
        uploaded_ = true;
    }
    virtual Model suiteModel() const { return makeWalker(); } // a suite of another model overrides it
    virtual BakeOptions bakeOptions() const { return {}; }
    virtual void prepare(BakedAsset&) const {} // after baking, before the upload (e.g. attachProps)
    void TearDown() override {
        if (uploaded_) asset_.release();
        GpuSuite::TearDown();
    }
    render::Crowd crowdOf(uint32_t count) const {
        render::CrowdLayout co;
        co.count = count;
        return render::makeCrowd(baked_, co);
    }
    // `crowd` seen from `view` at 320x180, `frames` frames up to `time`, culled by `cull`;
    // `settings` gives the rest (technique, raster).
    render::RenderOutput renderAt(const render::Crowd& crowd, render::ViewKind view, uint32_t frames, float time,
                                  const CullSettings& cull, render::RenderSettings settings = {}) const {
        settings.width = 320;
        settings.height = 180;
        settings.frames = frames;
        settings.time = time;
        settings.cull = cull;
        settings.baked = &baked_;
        const glm::mat4 vp = render::crowdViewProjection(view, crowd, 320.0f / 180.0f);
        Result<render::RenderOutput> out = render::renderCrowd(*allocator_, asset_, crowd, vp, settings);
        EXPECT_TRUE(out.ok()) << out.error().message;
        return out.ok() ? std::move(out).value() : render::RenderOutput{};
    }
    BakedAsset baked_;
    render::GpuAsset asset_;
    bool uploaded_ = false;
};

} // namespace throng::test
