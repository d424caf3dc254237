// The barriers between a frame's passes (gpu/passes.h): planBarriers on pass lists, without a
// device, against what each pass declares; then every kind of frame rendered on lavapipe under
// the validation layer's synchronization validation, where a pass that touches what it does
// not declare (or a barrier missing inside a pass) is a hazard, and a hazard is an error.
#include "../src/gpu/passes.h"
#include "../src/render/frame_resources.h"
#include "../src/sim/motion.h"

#include "walker_suite.h"

using namespace throng;

namespace {

constexpr VkPipelineStageFlags2 kGraphics = VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT;

gpu::Pass pass(const char* name, gpu::PassKind kind, gpu::Resources reads, gpu::Resources writes,
               gpu::PassTargets targets = gpu::PassTargets::OwnDepth) {
    return {name, kind, targets, [](VkCommandBuffer) {}, reads, writes};
}

std::vector<gpu::PassBarrier> plan(const std::vector<gpu::Pass>& passes) { return gpu::planBarriers(passes); }

} // namespace

TEST(PlanBarriers, TheFirstPassWaitsForEverythingBefore) {
    const std::vector<gpu::PassBarrier> b = plan({pass("a", gpu::PassKind::Compute, 0, 0)});
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b[0].src, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
    EXPECT_EQ(b[0].dst, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
}

TEST(PlanBarriers, PassesOfUnrelatedResourcesGetNone) {
    using namespace render::frame;
    const auto b = plan({pass("members", gpu::PassKind::Transfer, 0, Members),
                         pass("pose", gpu::PassKind::Compute, Members, Animation),
                         pass("shadow-cull", gpu::PassKind::Compute, Members | Culled, Culled)});
    EXPECT_TRUE(b[1].needed());
    EXPECT_EQ(b[1].src, gpu::passStages(gpu::PassKind::Transfer));
    EXPECT_EQ(b[1].dst, gpu::passStages(gpu::PassKind::Compute));
    // The members are already visible to compute shaders; the culled lists were not touched.
    EXPECT_FALSE(b[2].needed());
}

TEST(PlanBarriers, ReadAfterWriteWaitsForTheWriterOnly) {
    using namespace render::frame;
    const auto b = plan({pass("cull", gpu::PassKind::Compute, Culled, Culled),
                         pass("draw", gpu::PassKind::Graphics, DrawReads, 0, gpu::PassTargets::ColorDepth),
                         pass("cache", gpu::PassKind::Compute, Members | Culled, Cache),
                         pass("raster", gpu::PassKind::Compute, Cache | Culled, Visibility),
                         pass("resolve", gpu::PassKind::Compute, Cache | Visibility, Resolved),
                         pass("composite", gpu::PassKind::Graphics, Resolved, 0, gpu::PassTargets::ColorDepth)});
    // The draw waits for the culling.
    EXPECT_EQ(b[1].src, gpu::passStages(gpu::PassKind::Compute));
    EXPECT_EQ(b[1].dst, kGraphics);
    // The cache reads the culled lists, visible so far to the graphics stages only: it waits for
    // the culling pass's compute stage, not for the draw (the hardware's share, which it may
    // overlap).
    EXPECT_EQ(b[2].src, gpu::passStages(gpu::PassKind::Compute));
    EXPECT_EQ(b[2].src & kGraphics, 0u);
    EXPECT_EQ(b[2].dst, gpu::passStages(gpu::PassKind::Compute));
    // The raster reads the cache.
    EXPECT_TRUE(b[3].needed());
    EXPECT_EQ(b[3].src & kGraphics, 0u);
    // The resolve (compute) waits for the raster, not for the draw; the composite for the resolve
    // and for the draw (the targets, write after write).
    EXPECT_EQ(b[4].src, gpu::passStages(gpu::PassKind::Compute));
    EXPECT_EQ(b[4].dst, gpu::passStages(gpu::PassKind::Compute));
    EXPECT_EQ(b[5].src, gpu::passStages(gpu::PassKind::Compute) | kGraphics);
    EXPECT_EQ(b[5].dst, kGraphics);
}

TEST(PlanBarriers, OneBarrierServesLaterReadersInTheSameStages) {
    using namespace render::frame;
    const auto b =
        plan({pass("cull", gpu::PassKind::Compute, 0, Culled), pass("cache", gpu::PassKind::Compute, Culled, Cache),
              pass("other", gpu::PassKind::Compute, Culled, Pyramid)});
    EXPECT_TRUE(b[1].needed());
    EXPECT_FALSE(b[2].needed()) << "the culled lists were made visible to compute shaders before `cache`";
}

TEST(PlanBarriers, WriteAfterReadWaitsForTheReaders) {
    using namespace render::frame;
    const auto b =
        plan({pass("cull", gpu::PassKind::Compute, 0, Culled), pass("draw", gpu::PassKind::Graphics, Culled, 0),
              pass("cull-again", gpu::PassKind::Compute, 0, Culled)});
    // Before `cull-again`: the draw's read (write after read) and the culling's write (write
    // after write, visible so far to graphics only).
    EXPECT_EQ(b[2].src, kGraphics | gpu::passStages(gpu::PassKind::Compute));
    EXPECT_EQ(b[2].dst, gpu::passStages(gpu::PassKind::Compute));
}

TEST(PlanBarriers, GraphicsPassesOnTheTargetsAreOrdered) {
    const auto b = plan({pass("ground", gpu::PassKind::Graphics, 0, 0, gpu::PassTargets::ColorDepth),
                         pass("draw", gpu::PassKind::Graphics, 0, 0, gpu::PassTargets::ColorDepth),
                         pass("shadow", gpu::PassKind::Graphics, 0, render::frame::ShadowMap)});
    EXPECT_EQ(b[1].src, kGraphics);
    EXPECT_EQ(b[1].dst, kGraphics);
    EXPECT_FALSE(b[2].needed()) << "a pass into its own depth image touches nothing of the frame's targets";
}

TEST(PlanBarriers, APassThatDeclaresNothingIsFullyOrdered) {
    using namespace render::frame;
    gpu::Pass host{"host", gpu::PassKind::Compute, gpu::PassTargets::ColorDepth, [](VkCommandBuffer) {}};
    const auto b = plan({pass("cull", gpu::PassKind::Compute, 0, Culled),
                         pass("draw", gpu::PassKind::Graphics, Culled, 0, gpu::PassTargets::ColorDepth), host,
                         pass("cache", gpu::PassKind::Compute, Cache, Cache)});
    // The undeclared pass waits for every earlier stage that wrote or read anything.
    EXPECT_EQ(b[2].src, kGraphics | gpu::passStages(gpu::PassKind::Compute));
    // And what comes after waits for it, whatever it touches.
    EXPECT_EQ(b[3].src, gpu::passStages(gpu::PassKind::Compute));
}

namespace {

// The walker with impostors and vertex animation baked, in a context with synchronization
// validation.
class FrameSync : public test::WalkerSuite {
  protected:
    static void SetUpTestSuite() {
        synchronization_ = true;
        GpuSuite::SetUpTestSuite();
        synchronization_ = false;
    }
    BakeOptions bakeOptions() const override {
        BakeOptions o;
        o.impostors.enabled = true;
        o.vat = true;
        return o;
    }
};

} // namespace

// Every technique through hardware, compute and auto, in the street (occlusion culling's two
// phases; auto's split with a low triangle size) with shadows; then simulation, impostors, motion
// vectors (simulated with shadows, impostors with a teleport) and a frame without culling. Several frames each: the
// first of a crowd is not occlusion-culled.
TEST_F(FrameSync, EveryKindOfFrameHasTheBarriersItNeeds) {
    const render::Crowd crowd = crowdOf(120);
    CullSettings cull;
    cull.hardware_triangle_px = 1.0f;
    std::vector<std::string> names;
    for (const TechniqueInfo& t : techniques()) names.emplace_back(t.name);
    names.erase(std::remove(names.begin(), names.end(), "procedural"), names.end()); // fish only
    size_t renders = 0;
    for (const std::string& technique : names)
        for (Raster raster : {Raster::Hardware, Raster::Compute, Raster::Auto}) {
            if (raster != Raster::Hardware && !context_->int64_atomics) continue;
            SCOPED_TRACE(technique + (raster == Raster::Hardware  ? " hardware"
                                      : raster == Raster::Compute ? " compute"
                                                                  : " auto"));
            render::RenderSettings s;
            s.technique = technique;
            s.raster = raster;
            s.shadows.size = 256;
            const render::RenderOutput out = renderAt(crowd, render::ViewKind::Street, 3, 0.5f, cull, s);
            EXPECT_FALSE(out.rgba.empty());
            ++renders;
        }
    {
        SCOPED_TRACE("simulated");
        Result<render::MotionFactory> motion = sim::gpuMotion(*context_, baked_, crowd, sim::kindFor("baked"), 1);
        ASSERT_TRUE(motion.ok()) << motion.error().message;
        render::RenderSettings s;
        s.motion = std::move(motion).value();
        s.shadows.size = 256;
        EXPECT_FALSE(renderAt(crowd, render::ViewKind::Street, 3, 0.5f, cull, s).rgba.empty());
    }
    {
        SCOPED_TRACE("impostors");
        CullSettings far = cull;
        far.impostor_px = 60.0f;
        const render::RenderOutput out = renderAt(crowd, render::ViewKind::Overview, 3, 0.5f, far);
        EXPECT_GT(out.drawn.impostors, 0u);
    }
    for (Raster raster : {Raster::Hardware, Raster::Auto}) { // motion vectors: history, teleports, every pass's
        SCOPED_TRACE(raster == Raster::Hardware ? "motion vectors, hardware" : "motion vectors, auto");
        if (raster != Raster::Hardware && !context_->int64_atomics) continue;
        Result<render::MotionFactory> motion = sim::gpuMotion(*context_, baked_, crowd, sim::kindFor("baked"), 1);
        ASSERT_TRUE(motion.ok()) << motion.error().message;
        render::RenderSettings s;
        s.raster = raster;
        s.motion = std::move(motion).value();
        s.shadows.size = 256;
        s.velocity = true;
        EXPECT_FALSE(renderAt(crowd, render::ViewKind::Street, 3, 0.5f, cull, s).velocity.empty());
        render::RenderSettings t;
        t.raster = raster;
        t.velocity = true;
        t.before_frame = [&](uint32_t frame, render::CrowdRenderer& r) {
            if (frame == 1) r.teleported(3);
            return render::crowdViewProjection(render::ViewKind::Overview, crowd, 320.0f / 180.0f);
        };
        CullSettings far = cull;
        far.impostor_px = 60.0f;
        EXPECT_GT(renderAt(crowd, render::ViewKind::Overview, 3, 0.5f, far, t).drawn.impostors, 0u);
    }
    {
        SCOPED_TRACE("not culled");
        EXPECT_FALSE(
            renderAt(crowd, render::ViewKind::Overview, 2, 0.5f, CullSettings{false, false, 0.0f, false}).rgba.empty());
    }
    std::printf("%zu renders of every technique and raster mode, with shadows, a simulation, impostors: no hazard\n",
                renders);
}
