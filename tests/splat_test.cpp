// Splats (issue #26 section 3, docs/IN_MOTION.md; src/render/splats.h): the CPU's silhouette
// tables against shapes whose silhouettes and light are known in closed form, and on lavapipe
// with validation on, a crowd of members smaller than a pixel drawn as splats against the same
// crowd drawn as triangles: the same coverage and mean colour within stated tolerances, and no
// seam where the threshold splits a crowd.
#include "../src/render/derived_cache.h"
#include "../src/render/splats.h"

#include "test_util.h"
#include "walker_suite.h"

#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/headless.h>
#include <throng/import.h>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/matrix_transform.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>

using namespace throng;

namespace {

// A hand-made one-submesh asset of flat or smooth triangles (no joints: the bind pose).
struct Shape {
    BakedAsset asset;
    render::AssetRange range;
};

void addVertex(BakedAsset& a, glm::vec3 p, glm::vec3 n) {
    BakedVertex v{};
    v.position[0] = p.x, v.position[1] = p.y, v.position[2] = p.z;
    v.normal[0] = n.x, v.normal[1] = n.y, v.normal[2] = n.z;
    v.color[0] = v.color[1] = v.color[2] = v.color[3] = 255;
    v.weights[0] = 1.0f;
    a.vertices.push_back(v);
}

void finish(Shape& s) {
    s.asset.submeshes.push_back(BakedSubmesh{0, uint32_t(s.asset.indices.size()), glm::vec4(1.0f), -1});
    s.range.vertex_count = uint32_t(s.asset.vertices.size());
    s.range.index_count = uint32_t(s.asset.indices.size());
    s.range.submesh_count = 1;
}

// A box of half extents `half` about the origin, each face its own four vertices.
Shape box(glm::vec3 half) {
    Shape s;
    for (int axis = 0; axis < 3; ++axis)
        for (float sign : {-1.0f, 1.0f}) {
            glm::vec3 n(0.0f);
            n[axis] = sign;
            const glm::vec3 u = glm::vec3(n.y != 0.0f || n.z != 0.0f ? 1.0f : 0.0f, n.x != 0.0f ? 1.0f : 0.0f, 0.0f);
            const glm::vec3 w = glm::cross(n, u);
            const uint32_t base = uint32_t(s.asset.vertices.size());
            for (int k = 0; k < 4; ++k) {
                const float a = k == 1 || k == 2 ? 1.0f : -1.0f, b = k >= 2 ? 1.0f : -1.0f;
                addVertex(s.asset, (n + a * u + b * w) * half, n);
            }
            for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) s.asset.indices.push_back(base + i);
        }
    finish(s);
    return s;
}

// A unit sphere of `rings` x 2 rings segments, smooth.
Shape sphere(int rings) {
    Shape s;
    const int segments = 2 * rings;
    for (int r = 0; r <= rings; ++r)
        for (int g = 0; g <= segments; ++g) {
            const double theta = glm::pi<double>() * r / rings, phi = 2.0 * glm::pi<double>() * g / segments;
            const glm::vec3 p(float(std::sin(theta) * std::cos(phi)), float(std::cos(theta)),
                              float(std::sin(theta) * std::sin(phi)));
            addVertex(s.asset, p, p);
        }
    for (int r = 0; r < rings; ++r)
        for (int g = 0; g < segments; ++g) {
            const uint32_t i = uint32_t(r * (segments + 1) + g), j = i + uint32_t(segments + 1);
            for (uint32_t k : {i, j, i + 1, i + 1, j, j + 1}) s.asset.indices.push_back(k);
        }
    finish(s);
    return s;
}

struct TableView {
    double area;
    glm::dvec3 mean;
    glm::dmat3 second;
};
TableView tableView(const gpu::shader::SplatModel& m, uint32_t elevation, uint32_t azimuth) {
    const glm::vec4* v = &m.views[4 * (elevation * THRONG_SPLAT_AZIMUTHS + azimuth)];
    TableView t;
    t.area = v[0].x;
    t.mean = glm::dvec3(v[0].y, v[0].z, v[0].w);
    t.second = glm::dmat3(v[1].x, v[1].w, v[2].x, v[1].w, v[1].y, v[2].y, v[2].x, v[2].y, v[1].z);
    return t;
}

// The mean of max(n . l, 0) over a unit sphere's disc seen from `d` at phase angle alpha between
// d and l: 2/3 of Lambert's phase function (sin a + (pi - a) cos a) / pi.
double lambertSphere(double alpha) {
    return 2.0 / 3.0 * (std::sin(alpha) + (glm::pi<double>() - alpha) * std::cos(alpha)) / glm::pi<double>();
}

} // namespace

// What a renderer derives on the CPU is kept for the process (derived_cache.h): the same asset
// again gets the same tables and bound without computing them; the asset changed in place (one
// vertex moved) is computed anew.
TEST(SplatTable, DerivedDataIsComputedOncePerContent) {
    Result<BakedAsset> baked = bake(makeWalker(), BakeOptions{});
    ASSERT_TRUE(baked.ok()) << baked.error().message;
    BakedAsset asset = std::move(baked).value();
    const std::vector<render::AssetRange> ranges = {render::wholeAsset(asset)};
    const std::vector<uint32_t> props(asset.submeshes.size(), 0u);
    const render::SplatTables direct = render::splatTables(asset, ranges, props, {});
    const render::DerivedCacheCounts before = render::derivedCacheCounts();
    const render::SplatTables first = render::cachedSplatTables(asset, ranges, props, {});
    const render::SplatTables again = render::cachedSplatTables(asset, ranges, props, {});
    const render::CoarseError coarse = render::cachedCoarseSkinningError(asset);
    EXPECT_EQ(render::cachedCoarseSkinningError(asset).error, coarse.error);
    EXPECT_EQ(render::coarseSkinningError(asset).error, coarse.error);
    const render::DerivedCacheCounts after = render::derivedCacheCounts();
    EXPECT_LE(after.splat_tables - before.splat_tables, 1u); // 0: an earlier test computed them
    EXPECT_LE(after.coarse_errors - before.coarse_errors, 1u);
    ASSERT_EQ(first.models.size(), 1u);
    for (const render::SplatTables* t : {&first, &again}) {
        EXPECT_EQ(std::memcmp(t->models.data(), direct.models.data(), sizeof(direct.models[0])), 0);
        ASSERT_EQ(t->means.size(), direct.means.size());
        for (size_t m = 0; m < direct.means.size(); ++m) {
            EXPECT_EQ(t->means[m].color, direct.means[m].color);
            EXPECT_EQ(t->means[m].area, direct.means[m].area);
        }
    }
    asset.vertices[0].position[1] += 0.5f; // in place: the same address, other content
    (void)render::cachedSplatTables(asset, ranges, props, {});
    (void)render::cachedCoarseSkinningError(asset);
    EXPECT_EQ(render::derivedCacheCounts().splat_tables, after.splat_tables + 1);
    EXPECT_EQ(render::derivedCacheCounts().coarse_errors, after.coarse_errors + 1);
}

// A box's silhouettes from its faces' directions are its faces, its visible normals the face's.
TEST(SplatTable, BoxSilhouettesAreItsFaces) {
    const Shape s = box(glm::vec3(1.0f, 0.5f, 0.25f));
    const gpu::shader::SplatModel m = render::splatModel(s.asset, s.range, {}, {});
    EXPECT_NEAR(m.center.x, 0.0f, 1e-6f);
    EXPECT_NEAR(m.center.w, float(0.5 * std::sqrt(4.0 + 1.0 + 0.25)), 1e-5f);
    const uint32_t horizon = (THRONG_SPLAT_ELEVATIONS - 1) / 2;
    const TableView front = tableView(m, horizon, 0);                        // from +Z
    const TableView side = tableView(m, horizon, THRONG_SPLAT_AZIMUTHS / 4); // from +X
    const TableView top = tableView(m, THRONG_SPLAT_ELEVATIONS - 1, 0);      // from +Y
    EXPECT_NEAR(front.area, 2.0 * 1.0, 0.03 * 2.0);
    EXPECT_NEAR(side.area, 0.5 * 1.0, 0.03 * 0.5);
    EXPECT_NEAR(top.area, 2.0 * 0.5, 0.03 * 1.0);
    EXPECT_NEAR(front.mean.z, 1.0, 1e-9);
    EXPECT_NEAR(side.mean.x, 1.0, 1e-9);
    EXPECT_NEAR(top.mean.y, 1.0, 1e-9);
    EXPECT_NEAR(front.second[2][2], 1.0, 1e-9);
    // Lit head-on the face is fully lit; from behind, dark.
    EXPECT_NEAR(render::splatDiffuse(front.mean, front.second, {0, 0, 1}), 1.0, 0.1);
    // From behind, about dark: the expansion's second order leaves 1/16 for a single normal.
    EXPECT_LT(render::splatDiffuse(front.mean, front.second, {0, 0, -1}), 0.07);
}

// A sphere shows a disc of area pi from everywhere, and the moments light it as Lambert's law
// does, from the front to behind.
TEST(SplatTable, SphereIsLitAsLambertsPhaseFunction) {
    const Shape s = sphere(32);
    const gpu::shader::SplatModel m = render::splatModel(s.asset, s.range, {}, {});
    double worst = 0.0;
    for (uint32_t e = 0; e < THRONG_SPLAT_ELEVATIONS; ++e)
        for (uint32_t a = 0; a < THRONG_SPLAT_AZIMUTHS; ++a) {
            const TableView v = tableView(m, e, a);
            EXPECT_NEAR(v.area, glm::pi<double>(), 0.02 * glm::pi<double>()) << "view " << e << ", " << a;
            const glm::dvec3 d = glm::normalize(v.mean); // the direction it was seen from
            EXPECT_NEAR(glm::length(v.mean), 2.0 / 3.0, 0.01);
            const glm::dvec3 other = std::abs(d.y) > 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
            const glm::dvec3 across = glm::normalize(glm::cross(d, other));
            for (double alpha = 0.0; alpha <= glm::pi<double>(); alpha += glm::pi<double>() / 12.0) {
                const glm::dvec3 l = std::cos(alpha) * d + std::sin(alpha) * across;
                worst = std::max(worst, std::abs(render::splatDiffuse(v.mean, v.second, l) - lambertSphere(alpha)));
            }
        }
    std::printf("sphere: the moments' light against Lambert's, largest difference %.4f\n", worst);
    EXPECT_LT(worst, 0.02);
}

// Where a splat is seen from: the camera of a view-projection, the pixels a unit covers there.
TEST(SplatTable, TheEyeAndScaleOfAViewProjection) {
    const glm::vec3 eye(3.0f, 4.5f, -7.0f);
    const glm::mat4 view = glm::lookAtRH(eye, glm::vec3(0.5f, 0.0f, 2.0f), glm::vec3(0, 1, 0));
    const glm::mat4 projection = glm::perspectiveRH_ZO(0.9f, 16.0f / 9.0f, 500.0f, 0.1f); // reversed Z
    const glm::vec3 found = render::eyeOf(projection * view);
    EXPECT_LT(glm::length(found - eye), 1e-4f);
    // A unit at view depth 1: 1 / tan(fov / 2) half-heights of the picture.
    EXPECT_NEAR(render::pixelsPerUnit(projection * view, 1080.0f), 540.0f / std::tan(0.45f), 1e-2f);
}

namespace {

class Splats : public test::WalkerSuite {
  protected:
    render::RenderOutput draw(const render::Crowd& crowd, render::ViewKind view, float splat_px, uint32_t width = 320,
                              uint32_t height = 180, bool lod = true) const {
        render::RenderSettings s;
        s.raster = Raster::Compute;
        CullSettings cull;
        cull.lod = lod;
        cull.occlusion = false;
        cull.splat_px = splat_px;
        s.width = width;
        s.height = height;
        s.frames = 1;
        s.time = 0.5f;
        s.cull = cull;
        s.baked = &baked_;
        const glm::mat4 vp = render::crowdViewProjection(view, crowd, float(width) / float(height));
        Result<render::RenderOutput> out = render::renderCrowd(*allocator_, asset_, crowd, vp, s);
        EXPECT_TRUE(out.ok()) << out.error().message;
        return out.ok() ? std::move(out).value() : render::RenderOutput{};
    }
};

// Pixels that are not the background (the first pixel's colour), and their mean colour: linear
// RGB (the pictures' sRGB decoded, as a splat averages light) encoded back to sRGB 0..255.
struct Coverage {
    size_t pixels = 0;
    glm::dvec3 mean{0.0};
};
double toLinear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }
double toSrgb(double c) { return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055; }
Coverage coverage(const render::RenderOutput& o, uint32_t width, uint32_t row0, uint32_t row1) {
    Coverage c;
    const uint8_t* bg = o.rgba.data();
    for (uint32_t y = row0; y < row1; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            const uint8_t* p = &o.rgba[(size_t(y) * width + x) * 4];
            if (p[0] == bg[0] && p[1] == bg[1] && p[2] == bg[2]) continue;
            ++c.pixels;
            for (int k = 0; k < 3; ++k) c.mean[k] += toLinear(p[k] / 255.0);
        }
    if (c.pixels > 0)
        for (int k = 0; k < 3; ++k) c.mean[k] = 255.0 * toSrgb(c.mean[k] / double(c.pixels));
    return c;
}

} // namespace

// The overview of 20,000 walkers at 320x180 (each about a pixel tall), drawn at full detail (the
// reference: slow on lavapipe, so one test draws it once for both checks), with LOD, every member
// as a splat, and split by the threshold.
//
// Every member a splat: the crowd covers as many pixels as its triangles at full detail do and in
// the same mean colour, each within a stated tolerance (measured: -3.9% and within 4.6/255 on
// lavapipe). (Its coarsest levels, which LOD draws there, cover less: their simplified
// silhouettes are thinner; printed.)
//
// Split where members are 1.5 pixels across (the near ones triangles, the far ones splats): each
// band of rows covers and colours as the triangles at full detail do, within what LOD alone makes
// there (or 10% and 8/255): no seam at the switching distance.
TEST_F(Splats, OverviewAgreesWithFullDetailWithoutASeam) {
    const render::Crowd crowd = crowdOf(20000);
    const render::RenderOutput full = draw(crowd, render::ViewKind::Overview, 0.0f, 320, 180, false);
    const render::RenderOutput lod = draw(crowd, render::ViewKind::Overview, 0.0f);
    const render::RenderOutput splats = draw(crowd, render::ViewKind::Overview, CullSettings::kMaxSplatPx);
    EXPECT_EQ(lod.drawn.splats, 0u);
    EXPECT_EQ(splats.drawn.splats, splats.drawn.in_frustum) << "every member a splat";
    EXPECT_LT(splats.triangles, lod.triangles / 100);
    const Coverage f = coverage(full, 320, 0, 180), l = coverage(lod, 320, 0, 180), s = coverage(splats, 320, 0, 180);
    std::printf("overview of 20,000 at 320x180: full detail covers %zu px, mean (%.1f %.1f %.1f); LOD %zu px "
                "(%.1f %.1f %.1f); splats %zu px (%+.1f%%), (%.1f %.1f %.1f)\n",
                f.pixels, f.mean.r, f.mean.g, f.mean.b, l.pixels, l.mean.r, l.mean.g, l.mean.b, s.pixels,
                100.0 * (double(s.pixels) - double(f.pixels)) / double(f.pixels), s.mean.r, s.mean.g, s.mean.b);
    ASSERT_GT(f.pixels, 2000u) << "the crowd is not in the picture";
    EXPECT_LT(std::abs(double(s.pixels) - double(f.pixels)), 0.10 * double(f.pixels));
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(s.mean[c], f.mean[c], 8.0) << "channel " << c;

    const render::RenderOutput mixed = draw(crowd, render::ViewKind::Overview, 1.5f);
    ASSERT_GT(mixed.drawn.splats, 0u);
    uint32_t meshes = 0;
    for (uint32_t n : mixed.drawn.per_lod) meshes += n;
    ASSERT_GT(meshes, 0u) << "the threshold does not split the crowd";
    std::printf("split at 1.5 px: %u splats, %u meshes; per band of rows, against full detail:\n", mixed.drawn.splats,
                meshes);
    double worst_cover = 0.0, worst_colour = 0.0, lod_cover = 0.0, lod_colour = 0.0;
    for (uint32_t row = 0; row + 15 <= 180; row += 15) {
        const Coverage fb = coverage(full, 320, row, row + 15), lb = coverage(lod, 320, row, row + 15),
                       mb = coverage(mixed, 320, row, row + 15);
        if (fb.pixels < 100) continue;
        auto cover = [&](const Coverage& c) { return (double(c.pixels) - double(fb.pixels)) / double(fb.pixels); };
        std::printf("  rows %3u..%3u: full %5zu px; LOD %+.1f%%, colour %.1f; with splats %+.1f%%, colour %.1f\n", row,
                    row + 15, fb.pixels, 100.0 * cover(lb), glm::length(lb.mean - fb.mean), 100.0 * cover(mb),
                    glm::length(mb.mean - fb.mean));
        worst_cover = std::max(worst_cover, std::abs(cover(mb)));
        worst_colour = std::max(worst_colour, glm::length(mb.mean - fb.mean));
        lod_cover = std::max(lod_cover, std::abs(cover(lb)));
        lod_colour = std::max(lod_colour, glm::length(lb.mean - fb.mean));
    }
    EXPECT_LE(worst_cover, std::max(lod_cover, 0.1));
    EXPECT_LE(worst_colour, std::max(lod_colour, 8.0));
}

// A crowd of three models (builtin:walker, builtin:kit with its looks and worn parts, and Cesium
// Man with its texture; every member a splat) against the same crowd at full detail: coverage
// within 10%, mean colour within 8/255 per channel.
TEST(SplatMixed, ModelsLooksPartsAndTexturesAgreeWithFullDetail) {
    THRONG_ASSET(cesium_path, "CesiumMan/CesiumMan.glb");
    Result<Model> cesium = importModel(cesium_path);
    ASSERT_TRUE(cesium.ok()) << cesium.error().message;
    std::vector<BakedAsset> baked;
    for (Model m : {makeWalker(), makeKit(), std::move(cesium).value()}) {
        Result<BakedAsset> b = bake(m, BakeOptions{});
        ASSERT_TRUE(b.ok()) << b.error().message;
        baked.push_back(std::move(b).value());
    }
    const BakedAsset* models[] = {&baked[0], &baked[1], &baked[2]};
    std::vector<std::string> names;
    for (const BakedAsset* m : models) names.push_back(m->name);
    CrowdJob job;
    job.members = 5000;
    job.model_size = 1.8f;
    job.raster = Raster::Compute;
    job.width = 320;
    job.height = 180;
    job.frames = 1;
    HeadlessDeviceOptions o;
    o.validation = true;
    Result<std::unique_ptr<HeadlessDevice>> device = HeadlessDevice::create(o);
    ASSERT_TRUE(device.ok()) << device.error().message;
    auto draw = [&](float splat_px, bool lod) {
        job.cull.splat_px = splat_px;
        job.cull.lod = lod;
        Result<CrowdJobResult> r = renderCrowd(*device.value(), models, job);
        EXPECT_TRUE(r.ok()) << r.error().message;
        return r.ok() ? std::move(r).value() : CrowdJobResult{};
    };
    const CrowdJobResult full = draw(0.0f, false), splats = draw(CullSettings::kMaxSplatPx, true);
    EXPECT_EQ(splats.drawn.splats, splats.drawn.in_frustum);
    render::RenderOutput f, s;
    f.rgba = full.rgba;
    s.rgba = splats.rgba;
    const Coverage cf = coverage(f, 320, 0, 180), cs = coverage(s, 320, 0, 180);
    std::printf("three models, 5,000 at 320x180: full detail %zu px (%.1f %.1f %.1f), splats %zu px (%+.1f%%) "
                "(%.1f %.1f %.1f)\n",
                cf.pixels, cf.mean.r, cf.mean.g, cf.mean.b, cs.pixels,
                100.0 * (double(cs.pixels) - double(cf.pixels)) / double(cf.pixels), cs.mean.r, cs.mean.g, cs.mean.b);
    ASSERT_GT(cf.pixels, 1000u) << "the crowd is not in the picture";
    EXPECT_LT(std::abs(double(cs.pixels) - double(cf.pixels)), 0.10 * double(cf.pixels));
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(cs.mean[c], cf.mean[c], 8.0) << "channel " << c;
    EXPECT_EQ(HeadlessDevice::release(std::move(device).value()), 0u) << "validation errors";
}
