// Crowds of several models (issue #25, docs/MIXED_CROWDS.md): the asset library
// (src/render/asset_library.h) against its models read one by one, and a crowd of two models
// drawn by the hardware against the two one-model crowds drawn apart and composed by their
// depth: every pixel the same, with culling and LOD on, for every technique that draws such a
// crowd. Validation on.
#include "../src/render/asset_library.h"
#include "../src/render/compute_raster.h"
#include "../src/render/crowd_renderer.h"
#include "../src/render/renderer.h"
#include "../src/render/shadows.h"
#include "../src/render/views.h"

#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/technique.h>

#include "gpu_suite.h"
#include "pictures.h"

#include <glm/gtc/packing.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <bit>
#include <cstdio>
#include <map>

using namespace throng;

namespace {

BakedAsset baked(Model model, bool vat = false) {
    BakeOptions o;
    o.vat = vat;
    Result<BakedAsset> r = bake(model, o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : BakedAsset{};
}

// A valid asset of one joint, one triangle and `clips` one-frame clips.
BakedAsset tinyAsset(uint32_t clips) {
    BakedAsset a;
    a.name = "tiny";
    a.joint_count = 1;
    a.max_frames = 1;
    for (uint32_t c = 0; c < clips; ++c) {
        BakedClip clip;
        clip.name = "c" + std::to_string(c);
        clip.frame_bounds = {Bounds{glm::vec3(0.0f), glm::vec3(1.0f)}};
        a.clips.push_back(clip);
        const float rows[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
        a.animation_f32.insert(a.animation_f32.end(), rows, rows + 12);
    }
    for (int v = 0; v < 3; ++v) {
        BakedVertex x{};
        x.position[0] = v == 1 ? 1.0f : 0.0f;
        x.position[1] = v == 2 ? 1.0f : 0.0f;
        x.normal[2] = 1.0f;
        x.weights[0] = 1.0f;
        a.vertices.push_back(x);
        a.indices.push_back(uint32_t(v));
    }
    a.submeshes.push_back(BakedSubmesh{0, 3});
    a.bind_bounds = Bounds{glm::vec3(0.0f), glm::vec3(1.0f)};
    return a;
}

// The walker, the strider and the fish (different skeletons, sizes and levels), baked with vertex
// animation, and their library.
struct ThreeModels {
    BakedAsset walker = baked(makeWalker(), true), strider = baked(makeStrider(), true), fish = baked(makeFish(), true);
    const BakedAsset* models[3] = {&walker, &strider, &fish};
    Result<render::AssetLibrary> library = render::buildAssetLibrary(models);
    ThreeModels() = default;
    ThreeModels(const ThreeModels&) = delete;
};

} // namespace

TEST(AssetLibrary, OneModelIsThatModel) {
    const BakedAsset walker = baked(makeWalker());
    const BakedAsset* models[] = {&walker};
    Result<render::AssetLibrary> lib = render::buildAssetLibrary(models);
    ASSERT_TRUE(lib.ok()) << lib.error().message;
    const BakedAsset& a = lib.value().asset;
    EXPECT_EQ(a.vertices.size(), walker.vertices.size());
    EXPECT_EQ(a.indices, walker.indices);
    EXPECT_EQ(a.animation_f32, walker.animation_f32);
    EXPECT_EQ(a.animation_f16, walker.animation_f16);
    EXPECT_EQ(a.source.palette.size(), walker.source.palette.size());
    ASSERT_EQ(lib.value().ranges.size(), 1u);
    const render::AssetRange& r = lib.value().ranges[0];
    EXPECT_EQ(r.first_vertex, 0u);
    EXPECT_EQ(r.vertex_count, walker.vertices.size());
    EXPECT_EQ(r.clip_count, walker.clips.size());
    EXPECT_EQ(r.lod_errors.size(), lodLevels(walker).size());
}

// Every element of each model is where its range says, unchanged but for the rebasing.
TEST(AssetLibrary, EveryModelIsWhereItsRangeSays) {
    const ThreeModels three;
    const auto& models = three.models;
    ASSERT_TRUE(three.library.ok()) << three.library.error().message;
    const render::AssetLibrary& lib = three.library.value();
    const BakedAsset& all = lib.asset;
    ASSERT_TRUE(validate(all).ok());
    ASSERT_EQ(lib.ranges.size(), 3u);
    EXPECT_TRUE(all.source.palette.empty()) << "several models have no one source animation";
    EXPECT_FALSE(all.hasVat()) << "several models' vertex animation is kept beside the asset";
    size_t widest = 0;
    for (const BakedAsset* m : models) widest = std::max(widest, m->vertices.size());
    ASSERT_EQ(lib.vat_row_texels, 2 * widest);
    ASSERT_EQ(lib.vat_f32.size(), 4 * all.clips.size() * all.max_frames * lib.vat_row_texels);
    size_t levels = 0;
    for (const BakedAsset* m : models) levels = std::max(levels, lodLevels(*m).size());
    EXPECT_EQ(lodLevels(all).size(), levels);
    for (size_t i = 0; i < 3; ++i) {
        SCOPED_TRACE(models[i]->name);
        const BakedAsset& m = *models[i];
        const render::AssetRange& r = lib.ranges[i];
        EXPECT_EQ(r.joint_count, m.joint_count);
        ASSERT_EQ(r.vertex_count, m.vertices.size());
        for (size_t v = 0; v < m.vertices.size(); ++v)
            ASSERT_EQ(std::memcmp(&all.vertices[r.first_vertex + v], &m.vertices[v], sizeof(BakedVertex)), 0);
        ASSERT_EQ(r.index_count, m.indices.size());
        for (size_t k = 0; k < m.indices.size(); ++k)
            ASSERT_EQ(all.indices[r.first_index + k], m.indices[k] + r.first_vertex);
        ASSERT_EQ(r.submesh_count, m.submeshes.size());
        for (size_t s = 0; s < m.submeshes.size(); ++s) {
            EXPECT_EQ(all.submeshes[r.first_submesh + s].first_index, m.submeshes[s].first_index + r.first_index);
            EXPECT_EQ(all.submeshes[r.first_submesh + s].index_count, m.submeshes[s].index_count);
        }
        // Each level of the library holds the model's level (its coarsest past its own).
        const std::vector<BakedLod> own = lodLevels(m), merged = lodLevels(all);
        ASSERT_EQ(r.lod_errors.size(), own.size());
        for (size_t l = 0; l < merged.size(); ++l) {
            const BakedLod& from = own[std::min(l, own.size() - 1)];
            if (l < own.size()) {
                EXPECT_EQ(r.lod_errors[l], own[l].error);
            }
            EXPECT_GE(merged[l].error, l < own.size() ? own[l].error : 0.0f);
            for (size_t s = 0; s < m.submeshes.size(); ++s) {
                EXPECT_EQ(merged[l].submeshes[r.first_submesh + s].first_index,
                          from.submeshes[s].first_index + r.first_index);
                EXPECT_EQ(merged[l].submeshes[r.first_submesh + s].index_count, from.submeshes[s].index_count);
            }
        }
        // Every texel of every clip, and of the vertex animation.
        ASSERT_EQ(r.clip_count, m.clips.size());
        for (uint32_t c = 0; c < m.clips.size(); ++c) {
            EXPECT_EQ(all.clips[r.first_clip + c].name, m.clips[c].name);
            for (uint32_t f = 0; f < m.clips[c].frame_count; ++f) {
                for (uint32_t j = 0; j < m.joint_count; ++j)
                    for (uint32_t row = 0; row < 3; ++row)
                        ASSERT_EQ(bakedTexel(all, r.first_clip + c, f, j, row), bakedTexel(m, c, f, j, row));
                // Vertex animation beside the asset, the model's vertices from column 0.
                for (uint32_t v = 0; v < m.vertices.size(); v += 7)
                    for (uint32_t normal : {0u, 1u}) {
                        const size_t texel =
                            (size_t(r.first_clip + c) * all.max_frames + f) * lib.vat_row_texels + 2 * v + normal;
                        ASSERT_EQ(glm::make_vec4(&lib.vat_f32[4 * texel]), vatTexel(m, c, f, v, normal != 0));
                    }
            }
        }
    }
}

TEST(AssetLibrary, RefusesWhatItCannotHold) {
    EXPECT_EQ(render::buildAssetLibrary({}).error().message, "a crowd needs at least one model");
    const BakedAsset half = tinyAsset(2049);
    const BakedAsset* two[] = {&half, &half};
    Result<render::AssetLibrary> many_clips = render::buildAssetLibrary(two);
    ASSERT_FALSE(many_clips.ok());
    EXPECT_EQ(many_clips.error().message, "4098 clips in the crowd's models together; a crowd plays at most 4096");
    const BakedAsset tiny = tinyAsset(1);
    std::vector<const BakedAsset*> too_many(THRONG_MAX_ASSETS + 1, &tiny);
    EXPECT_EQ(render::buildAssetLibrary(too_many).error().message,
              "257 models in one crowd; a crowd holds at most 256");
    BakedAsset broken = tinyAsset(1);
    broken.indices[1] = 7;
    const BakedAsset* bad[] = {&tiny, &broken};
    Result<render::AssetLibrary> refused = render::buildAssetLibrary(bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message.rfind("model 2 'tiny': ", 0), 0u) << refused.error().message;
    // 256 models of one clip each are fine; the members' model numbers fit their 8 bits.
    std::vector<const BakedAsset*> most(THRONG_MAX_ASSETS, &tiny);
    Result<render::AssetLibrary> full = render::buildAssetLibrary(most);
    ASSERT_TRUE(full.ok()) << full.error().message;
    EXPECT_EQ(full.value().ranges.back().first_clip, 255u);
}

// Members are dealt models in the proportions asked for.
TEST(AssetLibrary, MembersAreDealtTheirShares) {
    const float shares[] = {60.0f, 30.0f, 10.0f};
    uint32_t dealt[3] = {};
    const uint32_t n = 100000;
    for (uint32_t i = 0; i < n; ++i) ++dealt[render::dealModel(i, shares)];
    for (int m = 0; m < 3; ++m) EXPECT_NEAR(double(dealt[m]) / n, shares[m] / 100.0, 0.01) << "model " << m;
}

namespace {

using Mixed = test::GpuSuite;

// The members of `crowd` whose model is `model`, as a crowd of that model alone.
render::Crowd membersOf(const render::Crowd& crowd, const render::AssetLibrary& lib, uint32_t model,
                        const BakedAsset& asset) {
    render::Crowd out;
    out.bounds = crowd.bounds;
    out.clip_bounds = render::clipCullBounds(asset);
    const uint32_t first = lib.ranges[model].first_clip;
    for (gpu::shader::InstanceRecord r : crowd.instances) {
        if (gpu::shader::throngAssetOf(r.clips) != model) continue;
        r.clips = gpu::shader::throngClips(gpu::shader::throngClipA(r.clips) - first,
                                           gpu::shader::throngClipB(r.clips) - first, 0u);
        out.instances.push_back(r);
    }
    return out;
}

} // namespace

// CrowdLayout::model_size: every model scaled so its bind pose's largest extent is that size
// (members keep their own 0.9 .. 1.1), the layout spaced for the scaled models, the street
// view framed by them; 0 leaves each as made.
TEST(AssetLibrary, ModelsScaledToOneSize) {
    const BakedAsset walker = baked(makeWalker()), fish = baked(makeFish()), strider = baked(makeStrider());
    const BakedAsset* models[] = {&walker, &fish, &strider};
    Result<render::AssetLibrary> built = render::buildAssetLibrary(models);
    ASSERT_TRUE(built.ok()) << built.error().message;
    const render::AssetLibrary& lib = built.value();
    render::CrowdLayout layout;
    layout.count = 3000;
    const render::Crowd native = render::makeCrowd(lib, layout);
    layout.model_size = 1.5f;
    const render::Crowd sized = render::makeCrowd(lib, layout);
    ASSERT_EQ(sized.instances.size(), native.instances.size());
    for (size_t i = 0; i < sized.instances.size(); ++i) {
        const uint32_t m = gpu::shader::throngAssetOf(sized.instances[i].clips);
        ASSERT_EQ(m, gpu::shader::throngAssetOf(native.instances[i].clips)) << "the same models dealt";
        const glm::vec3 e = lib.ranges[m].bind_bounds.max - lib.ranges[m].bind_bounds.min;
        const float largest = std::max({e.x, e.y, e.z}) * sized.instances[i].position_scale.w;
        EXPECT_GE(largest, 0.9f * 1.5f * 0.999f) << "member " << i << " of model " << m;
        EXPECT_LE(largest, 1.1f * 1.5f * 1.001f) << "member " << i << " of model " << m;
        EXPECT_FLOAT_EQ(sized.instances[i].position_scale.w / native.instances[i].position_scale.w,
                        1.5f / std::max({e.x, e.y, e.z}));
    }
    // The layout and the street view's eye grow with the size, as if the models were made at it.
    layout.model_size = 15.0f;
    const render::Crowd tenfold = render::makeCrowd(lib, layout);
    const glm::vec3 field = sized.bounds.max - sized.bounds.min, wide = tenfold.bounds.max - tenfold.bounds.min;
    EXPECT_NEAR(wide.x / field.x, 10.0f, 0.01f);
    EXPECT_NEAR(render::streetPose(tenfold).eye.y / render::streetPose(sized).eye.y, 10.0f, 0.01f);
    EXPECT_LT(sized.member_bounds.max.y - sized.member_bounds.min.y, 1.5f * 1.5f);
    // The shadow map's area: each member reaches as far as its own model's clips, at its scale.
    std::vector<glm::uvec2> model_clips;
    for (const render::AssetRange& r : lib.ranges) model_clips.push_back({r.first_clip, r.clip_count});
    const Bounds area = render::memberArea(sized.instances, sized.clip_bounds, model_clips);
    const Bounds loose = render::memberArea(sized.instances, sized.clip_bounds);
    EXPECT_LE(area.max.x - area.min.x, 1.1f * field.x);
    EXPECT_GE(area.max.x - area.min.x, field.x * 0.9f);
    EXPECT_LE(area.max.x - area.min.x, loose.max.x - loose.min.x);
}

// Three models in one crowd, drawn by the hardware with culling and LOD: the picture of the
// three one-model crowds drawn apart and composed by their depth (the nearest wins), pixel for
// pixel; with palette and bonetex each member posed on the CPU from its own model's source
// animation (three skeletons of different joint counts in one palette layout).
TEST_F(Mixed, ModelsDrawAsTheirOwnCrowdsComposed) {
    const ThreeModels three;
    const auto& models = three.models;
    ASSERT_TRUE(three.library.ok()) << three.library.error().message;
    const render::AssetLibrary& lib = three.library.value();
    Result<render::GpuAsset> on_gpu = render::uploadLibrary(*allocator_, lib);
    ASSERT_TRUE(on_gpu.ok()) << on_gpu.error().message;
    std::vector<render::GpuAsset> alone;
    for (const BakedAsset* m : models) {
        Result<render::GpuAsset> g = render::uploadAsset(*allocator_, *m);
        ASSERT_TRUE(g.ok()) << g.error().message;
        alone.push_back(std::move(g).value());
    }
    render::CrowdLayout layout;
    layout.count = 150;
    const float shares[] = {1.0f, 1.0f, 2.0f};
    const render::Crowd crowd = render::makeCrowd(lib, layout, shares);
    std::map<uint32_t, uint32_t> per_model;
    for (const auto& r : crowd.instances) ++per_model[gpu::shader::throngAssetOf(r.clips)];
    ASSERT_EQ(per_model.size(), 3u);
    EXPECT_GT(per_model[2], per_model[0]);

    const uint32_t w = 320, h = 180;
    for (const render::ViewKind view : {render::ViewKind::Overview, render::ViewKind::Street}) {
        const glm::mat4 vp = render::crowdViewProjection(view, crowd, float(w) / float(h));
        for (const char* technique : {"baked", "static", "vat", "procedural", "palette", "bonetex"})
            for (const bool occlusion : {false, true}) {
                SCOPED_TRACE(std::string(technique) + " " + std::string(toString(view)) +
                             (occlusion ? " occlusion" : ""));
                render::RenderSettings s;
                s.width = w;
                s.height = h;
                s.frames = 3;
                s.cull.occlusion = occlusion;
                s.time = 0.7f;
                s.technique = technique;
                s.raster = Raster::Hardware;
                s.read_depth = true;
                s.baked = &lib.asset;
                s.model_sources = lib.sources; // palette and bonetex pose each member from its own model's
                Result<render::RenderOutput> mixed = render::renderCrowd(*allocator_, on_gpu.value(), crowd, vp, s);
                ASSERT_TRUE(mixed.ok()) << mixed.error().message;
                EXPECT_LT(mixed.value().drawn.triangles, mixed.value().submitted_triangles) << "culling and LOD ran";
                std::vector<render::RenderOutput> parts;
                uint64_t part_triangles = 0;
                for (uint32_t m = 0; m < 3; ++m) {
                    const render::Crowd part = membersOf(crowd, lib, m, *models[m]);
                    s.baked = models[m];
                    s.model_sources = {};
                    Result<render::RenderOutput> out = render::renderCrowd(*allocator_, alone[m], part, vp, s);
                    ASSERT_TRUE(out.ok()) << out.error().message;
                    part_triangles += out.value().drawn.triangles;
                    parts.push_back(std::move(out).value());
                }
                // Occlusion culling hides members behind the other model's only in the crowd of both.
                if (!occlusion) {
                    EXPECT_EQ(mixed.value().drawn.triangles, part_triangles);
                }
                size_t differ = 0, covered[3] = {0, 0, 0};
                for (size_t p = 0; p < size_t(w) * h; ++p) {
                    size_t near = 0; // reversed Z: the nearest has the largest depth
                    for (size_t m = 1; m < 3; ++m)
                        if (parts[m].depth[p] > parts[near].depth[p]) near = m;
                    if (parts[near].depth[p] > 0.0f) ++covered[near];
                    if (std::memcmp(&mixed.value().rgba[4 * p], &parts[near].rgba[4 * p], 4) != 0) ++differ;
                }
                for (size_t m = 0; m < 3; ++m) EXPECT_GT(covered[m], 100u) << "model " << m;
                EXPECT_EQ(differ, 0u) << "pixels of " << w * h;
            }
    }
    on_gpu.value().release();
    for (render::GpuAsset& g : alone) g.release();
}

// What draws a crowd of several models so far, and one line for what does not.
TEST_F(Mixed, RefusesWhatCannotDrawItInOneLine) {
    const BakedAsset walker = baked(makeWalker(), true), fish = baked(makeFish(), true);
    const BakedAsset* models[] = {&walker, &fish};
    Result<render::AssetLibrary> built = render::buildAssetLibrary(models);
    ASSERT_TRUE(built.ok());
    Result<render::GpuAsset> on_gpu = render::uploadLibrary(*allocator_, built.value());
    ASSERT_TRUE(on_gpu.ok());
    render::CrowdLayout layout;
    layout.count = 20;
    const render::Crowd crowd = render::makeCrowd(built.value(), layout);
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Overview, crowd, 1.0f);
    render::RenderSettings s;
    s.width = s.height = 64;
    s.frames = 1;
    s.baked = &built.value().asset;
    s.model_sources = built.value().sources;
    for (const TechniqueInfo& t : techniques()) {
        s.technique = std::string(t.name);
        s.raster = Raster::Hardware;
        Result<render::RenderOutput> out = render::renderCrowd(*allocator_, on_gpu.value(), crowd, vp, s);
        if (!mixedCrowdProblem(t.name).empty()) {
            ASSERT_FALSE(out.ok()) << t.name;
            EXPECT_EQ(out.error().message, mixedCrowdProblem(t.name));
            EXPECT_EQ(out.error().message.find('\n'), std::string::npos);
        } else {
            EXPECT_TRUE(out.ok()) << t.name << ": " << out.error().message;
        }
    }
    // Shadows: the light's culling pass fills each model's sub-region of the light's regions too.
    s.technique = "baked";
    s.raster = Raster::Hardware;
    s.shadows.size = 256;
    s.read_shadow_map = true;
    Result<render::RenderOutput> shadowed = render::renderCrowd(*allocator_, on_gpu.value(), crowd, vp, s);
    ASSERT_TRUE(shadowed.ok()) << shadowed.error().message;
    size_t cast = 0;
    for (float d : shadowed.value().shadow_map) cast += d > 0.0f ? 1 : 0;
    EXPECT_GT(cast, 100u) << "no member cast into the map";
    s.shadows.size = 0;
    s.read_shadow_map = false;
    // The compute rasterizer draws it too (mixed crowds' own tests below); a technique neither
    // draws is refused before the rasterizer is asked.
    s.raster = Raster::Compute;
    Result<render::RenderOutput> compute = render::renderCrowd(*allocator_, on_gpu.value(), crowd, vp, s);
    ASSERT_TRUE(compute.ok()) << compute.error().message;
    EXPECT_EQ(compute.value().raster, Raster::Compute);
    s.technique = "pose";
    Result<render::RenderOutput> pose = render::renderCrowd(*allocator_, on_gpu.value(), crowd, vp, s);
    ASSERT_FALSE(pose.ok());
    EXPECT_EQ(pose.error().message, mixedCrowdProblem("pose"));
    // Layers name one model's clips and joints: palette, which draws the crowd, refuses them here.
    s.technique = "palette";
    s.raster = Raster::Hardware;
    s.layers = {"wave@shoulder"};
    Result<render::RenderOutput> layered = render::renderCrowd(*allocator_, on_gpu.value(), crowd, vp, s);
    ASSERT_FALSE(layered.ok());
    EXPECT_NE(layered.error().message.find("a crowd of several models takes none"), std::string::npos)
        << layered.error().message;
    EXPECT_EQ(layered.error().message.find('\n'), std::string::npos);
    // Without the models' source animations palette cannot pose them: one line.
    s.layers.clear();
    s.model_sources = {};
    Result<render::RenderOutput> unposed = render::renderCrowd(*allocator_, on_gpu.value(), crowd, vp, s);
    ASSERT_FALSE(unposed.ok());
    EXPECT_NE(unposed.error().message.find("source animation"), std::string::npos) << unposed.error().message;
    on_gpu.value().release();
}

// The three models' library, baked and uploaded once for the suite's tests.
class MixedThree : public test::GpuSuite {
  protected:
    static void SetUpTestSuite() {
        GpuSuite::SetUpTestSuite();
        three_ = new ThreeModels;
        if (allocator_ == nullptr || !three_->library.ok()) return;
        if (Result<render::GpuAsset> g = render::uploadLibrary(*allocator_, three_->library.value()); g)
            on_gpu_ = new render::GpuAsset(std::move(g).value());
    }
    static void TearDownTestSuite() {
        if (on_gpu_ != nullptr) on_gpu_->release();
        delete on_gpu_;
        delete three_;
        on_gpu_ = nullptr;
        three_ = nullptr;
        GpuSuite::TearDownTestSuite();
    }
    void SetUp() override {
        GpuSuite::SetUp();
        ASSERT_TRUE(three_->library.ok()) << three_->library.error().message;
        ASSERT_NE(on_gpu_, nullptr) << "the library did not upload";
    }
    static inline ThreeModels* three_ = nullptr;
    static inline render::GpuAsset* on_gpu_ = nullptr;
};

// The same crowd of three models through the compute rasterizer (one visibility buffer, one
// resolve for every model), against the hardware's picture of it (which the test above shows is
// the three one-model crowds composed): at least 99% of the pixels agree, as one model's do
// (raster_test), for every technique that draws the crowd, in both views, occlusion-culled (the
// late phase per model too); with auto (the hardware's share per model), and receiving and
// casting shadows.
TEST_F(MixedThree, ComputeRasterizerDrawsTheCrowdAsTheHardwareDoes) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    const render::AssetLibrary& lib = three_->library.value();
    const render::GpuAsset& on_gpu = *on_gpu_;
    render::CrowdLayout layout;
    layout.count = 150;
    const float shares[] = {1.0f, 1.0f, 2.0f};
    const render::Crowd crowd = render::makeCrowd(lib, layout, shares);
    const uint32_t w = 320, h = 180;
    auto draw = [&](const char* technique, render::ViewKind view, Raster raster, CullSettings cull, uint32_t shadows) {
        render::RenderSettings s;
        s.width = w;
        s.height = h;
        s.frames = 3;
        s.time = 0.7f;
        s.cull = cull;
        s.technique = technique;
        s.raster = raster;
        s.baked = &lib.asset;
        s.model_sources = lib.sources;
        s.shadows.size = shadows;
        const glm::mat4 vp = render::crowdViewProjection(view, crowd, float(w) / float(h));
        Result<render::RenderOutput> out = render::renderCrowd(*allocator_, on_gpu, crowd, vp, s);
        EXPECT_TRUE(out.ok()) << out.error().message;
        return out.ok() ? std::move(out).value() : render::RenderOutput{};
    };
    auto agree = [&](const render::RenderOutput& hardware, const render::RenderOutput& compute, const char* what) {
        ASSERT_EQ(compute.raster, Raster::Compute) << what;
        const test::Agreement a = test::comparePictures(hardware, compute, 24);
        std::printf("%s: %zu of %zu pixels differ (%zu covered)\n", what, a.differ, a.pixels, a.covered);
        EXPECT_GT(a.covered, 500u) << what;
        EXPECT_LE(a.differ, a.pixels / 100) << what;
        EXPECT_EQ(hardware.drawn.triangles, compute.drawn.triangles) << what;
    };
    const CullSettings culled{true, true, 1.0f, true, true};
    for (const render::ViewKind view : {render::ViewKind::Overview, render::ViewKind::Street})
        for (const char* technique : {"baked", "static", "vat", "procedural", "palette", "bonetex"}) {
            const std::string what = std::string(technique) + ", " + std::string(toString(view));
            agree(draw(technique, view, Raster::Hardware, culled, 0), draw(technique, view, Raster::Compute, culled, 0),
                  what.c_str());
        }
    // Auto: at 320 x 180 few members are at LOD 0 and no member's triangles reach the default 16
    // pixels: with finer levels chosen, the members at LOD 0 about 20 to 30 pixels across or more
    // (by their own model's triangles) go to the hardware here.
    CullSettings split = culled;
    split.lod_error_px = 0.1f;
    split.hardware_triangle_px = 0.05f;
    const render::RenderOutput hardware = draw("baked", render::ViewKind::Street, Raster::Hardware, split, 0);
    render::RenderOutput automatic = draw("baked", render::ViewKind::Street, Raster::Auto, split, 0);
    std::printf("auto: %u members by the hardware, %u at LOD 0 in compute\n", automatic.drawn.hardware,
                automatic.drawn.per_lod[0] - automatic.drawn.hardware);
    EXPECT_GT(automatic.drawn.hardware, 0u) << "no member the hardware's";
    EXPECT_LT(automatic.drawn.hardware, automatic.drawn.per_lod[0]) << "no member at LOD 0 in compute";
    automatic.raster = Raster::Compute; // as far as agree() asks
    agree(hardware, automatic, "auto, baked, street");
    // Shadows: cast by the compute rasterizer's shadow pass from each model's sub-region of the
    // light's regions, received by the resolve.
    agree(draw("baked", render::ViewKind::Street, Raster::Hardware, culled, 512),
          draw("baked", render::ViewKind::Street, Raster::Compute, culled, 512), "baked, street, shadows");
}

// The visibility buffer of a crowd of three models names, at every pixel it covers, a member,
// that member's own model and a triangle of that model (at a level the model has) that covers
// the pixel centre and lies at the depth stored, projected on the CPU in double precision.
TEST_F(MixedThree, VisibilityIdsNameMemberModelAndTriangle) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    const render::AssetLibrary& lib = three_->library.value();
    const render::GpuAsset& on_gpu = *on_gpu_;
    render::CrowdLayout layout;
    layout.count = 60;
    const render::Crowd crowd = render::makeCrowd(lib, layout);
    const uint32_t w = 200, h = 120;
    render::CrowdGpu gpu_crowd(*allocator_, on_gpu, crowd.instances, crowd.clip_bounds, 1);
    ASSERT_TRUE(gpu_crowd.mixed());
    render::ComputeRaster raster(*allocator_, "static", lib.asset, on_gpu, gpu_crowd, {w, h}, VK_FORMAT_R8G8B8A8_SRGB,
                                 VK_FORMAT_D32_SFLOAT, 1);
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Street, crowd, float(w) / float(h));
    std::vector<gpu::Pass> passes;
    gpu_crowd.addPasses(passes, 0, vp, {w, h}, CullSettings{true, true, 1.0f, false, false});
    raster.addPasses(passes, 0, render::crowdConstants(vp, 0.0f, on_gpu));
    for (const gpu::Pass& pass : passes) { // each alone: every pass reads what the one before wrote
        gpu::submitAndWait(*context_, [&](VkCommandBuffer cmd) { pass.record(cmd); });
        if (pass.name == "raster") break;
    }
    const std::vector<uint64_t> vis = raster.visibility();
    const render::ClusterChain& chain = raster.clusters();
    ASSERT_EQ(chain.models.size(), 3u);

    auto vertexOf = [&](uint32_t chain_triangle, int k) {
        for (const render::Cluster& c : chain.clusters)
            if (chain_triangle >= c.first_triangle && chain_triangle < c.first_triangle + c.triangle_count)
                return chain.vertices[c.first_vertex + ((chain.triangles[chain_triangle] >> (8 * k)) & 0xffu)];
        return ~0u;
    };
    auto project = [&](uint32_t member, uint32_t vertex) {
        const gpu::shader::InstanceRecord& r = crowd.instances[member];
        const glm::vec4 q(glm::unpackHalf2x16(r.orientation.x), glm::unpackHalf2x16(r.orientation.y));
        const BakedVertex& bv = lib.asset.vertices[vertex];
        const glm::dvec3 p(bv.position[0], bv.position[1], bv.position[2]);
        const glm::dvec3 qv(q.x, q.y, q.z), t = 2.0 * glm::cross(qv, p);
        const glm::dvec3 world =
            (p + double(q.w) * t + glm::cross(qv, t)) * double(r.position_scale.w) + glm::dvec3(r.position_scale);
        const glm::dvec4 c = glm::dmat4(vp) * glm::dvec4(world, 1.0);
        return glm::dvec3((c.x / c.w * 0.5 + 0.5) * w, (c.y / c.w * 0.5 + 0.5) * h, c.w > 0.0 ? c.z / c.w : -1.0);
    };
    size_t checked = 0, per_model[3] = {0, 0, 0};
    for (uint32_t y = 0; y < h; y += 3)
        for (uint32_t x = 0; x < w; x += 3) {
            const test::VisibilityId id = test::decodeVisibility(vis[size_t(y) * w + x]);
            if (!id.covered) continue;
            const uint32_t member = id.member, triangle = id.triangle;
            ASSERT_LT(member, crowd.instances.size());
            const uint32_t model = gpu::shader::throngAssetOf(crowd.instances[member].clips);
            ASSERT_LT(model, 3u);
            const render::ChainModel& cm = chain.models[model];
            ASSERT_LT(triangle, cm.triangle_count)
                << "pixel " << x << "," << y << ": not a triangle of model " << model;
            const uint32_t at = cm.first_triangle + triangle;
            const uint32_t submesh = chain.submeshes[at];
            EXPECT_GE(submesh, lib.ranges[model].first_submesh);
            EXPECT_LT(submesh, lib.ranges[model].first_submesh + lib.ranges[model].submesh_count);
            const glm::dvec3 a = project(member, vertexOf(at, 0)), b = project(member, vertexOf(at, 1)),
                             c = project(member, vertexOf(at, 2));
            auto edge = [](glm::dvec2 u, glm::dvec2 v2, glm::dvec2 p) {
                return (v2.x - u.x) * (p.y - u.y) - (v2.y - u.y) * (p.x - u.x);
            };
            const glm::dvec2 centre(x + 0.5, y + 0.5);
            const double area = edge(a, b, c);
            ASSERT_NE(area, 0.0);
            const double w0 = edge(b, c, centre) / area, w1 = edge(c, a, centre) / area, w2 = edge(a, b, centre) / area;
            EXPECT_TRUE(w0 > -1e-4 && w1 > -1e-4 && w2 > -1e-4)
                << "pixel " << x << "," << y << ": member " << member << " (model " << model << ") triangle "
                << triangle << " does not cover it";
            const double depth = w0 * a.z + w1 * b.z + w2 * c.z;
            const uint32_t expected = 0xffffffu - (std::bit_cast<uint32_t>(float(depth)) >> 8);
            EXPECT_LE(std::abs(int64_t(id.depth_key) - int64_t(expected)), 64) << "pixel " << x << "," << y;
            ++per_model[model];
            ++checked;
        }
    for (uint32_t m = 0; m < 3; ++m) EXPECT_GT(per_model[m], 10u) << "model " << m << " covers too little to show";
    std::printf("%zu pixels checked: %zu, %zu, %zu of the walker, strider and fish\n", checked, per_model[0],
                per_model[1], per_model[2]);
}
