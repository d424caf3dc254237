// Shadows (src/render/shadows.h), on lavapipe with validation on: the dark pixels on the ground
// are where the CPU projection of the member's skinned triangles along the light says, through
// each technique's own skinning; a member the camera culls still casts into the picture (the
// light's view has its own culling); the passes are reported; bad settings are refused.
#include "../src/render/shadows.h"

#include "pictures.h"
#include "reference_pose.h"
#include "walker_suite.h"

#include <glm/gtc/matrix_transform.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace throng;

namespace {

constexpr uint32_t kWidth = 480, kHeight = 270;

class Shadows : public test::WalkerSuite {
  protected:
    BakeOptions bakeOptions() const override { // with the vertex animation, for technique vat
        BakeOptions o;
        o.vat = true;
        return o;
    }
    // One member at the origin playing the walk at crowd time `time`, in a crowd box a few
    // units wide (the shadow map's area), seen through `vp`.
    render::Crowd oneMember() const {
        render::Crowd crowd = crowdOf(1);
        crowd.instances = {render::singleInstance(0, 0.0f)};
        crowd.bounds.min = glm::vec3(-2.0f, crowd.bounds.min.y, -2.0f);
        crowd.bounds.max = glm::vec3(2.0f, crowd.bounds.max.y, 2.0f);
        return crowd;
    }
    // One frame at kTime through `technique` and `raster`, with a shadow map of `shadows` texels
    // a side (0: none), read back when there is one.
    render::RenderSettings settings(const std::string& technique, uint32_t shadows, Raster raster) const {
        render::RenderSettings s;
        s.raster = raster;
        s.technique = technique;
        s.baked = &baked_;
        s.width = kWidth;
        s.height = kHeight;
        s.frames = 1;
        s.time = kTime;
        s.shadows.size = shadows;
        s.read_shadow_map = shadows > 0;
        return s;
    }
    render::RenderOutput render(const render::Crowd& crowd, const glm::mat4& vp, const std::string& technique,
                                uint32_t shadows, const glm::vec3& light = render::kDefaultLight,
                                Raster raster = Raster::Hardware) const {
        render::RenderSettings s = settings(technique, shadows, raster);
        s.light_direction = light;
        Result<render::RenderOutput> out = render::renderCrowd(*allocator_, asset_, crowd, vp, s);
        EXPECT_TRUE(out.ok()) << out.error().message;
        return out.ok() ? std::move(out).value() : render::RenderOutput{};
    }
    static constexpr float kTime = 0.4f; // on a baked frame (30 per second)
};

glm::mat4 camera(const glm::vec3& eye, const glm::vec3& target, float fov_degrees) {
    return test::cameraAt(eye, target, fov_degrees, float(kWidth) / float(kHeight));
}

struct Grid {
    uint32_t width = kWidth, height = kHeight;
};

// The pixels (row-major) of `grid` covered by the model's triangles whose vertices land at `pixel`.
std::vector<uint8_t> rasterize(const Model& model, const std::vector<glm::dvec2>& pixel, Grid grid) {
    std::vector<uint8_t> mask(size_t(grid.width) * grid.height, 0);
    size_t base = 0;
    for (const Mesh& mesh : model.meshes) {
        for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
            const glm::dvec2 a = pixel[base + mesh.indices[t]], b = pixel[base + mesh.indices[t + 1]],
                             c = pixel[base + mesh.indices[t + 2]];
            const double area = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
            if (std::abs(area) < 1e-12) continue;
            const int x0 = std::max(0, int(std::floor(std::min({a.x, b.x, c.x}))));
            const int x1 = std::min(int(grid.width) - 1, int(std::ceil(std::max({a.x, b.x, c.x}))));
            const int y0 = std::max(0, int(std::floor(std::min({a.y, b.y, c.y}))));
            const int y1 = std::min(int(grid.height) - 1, int(std::ceil(std::max({a.y, b.y, c.y}))));
            for (int y = y0; y <= y1; ++y)
                for (int x = x0; x <= x1; ++x) {
                    const glm::dvec2 p(x + 0.5, y + 0.5);
                    const double w0 = (b.x - p.x) * (c.y - p.y) - (b.y - p.y) * (c.x - p.x);
                    const double w1 = (c.x - p.x) * (a.y - p.y) - (c.y - p.y) * (a.x - p.x);
                    const double w2 = (a.x - p.x) * (b.y - p.y) - (a.y - p.y) * (b.x - p.x);
                    const bool inside = area > 0 ? (w0 >= 0 && w1 >= 0 && w2 >= 0) : (w0 <= 0 && w1 <= 0 && w2 <= 0);
                    if (inside) mask[size_t(y) * grid.width + x] = 1;
                }
        }
        base += mesh.positions.size();
    }
    return mask;
}

// Where world points land in a `grid`-sized image through `vp` (Vulkan: y down).
std::vector<glm::dvec2> project(const std::vector<glm::dvec3>& points, const glm::mat4& vp, Grid grid) {
    std::vector<glm::dvec2> out;
    for (const glm::dvec3& p : points) {
        const glm::dvec4 c = glm::dmat4(vp) * glm::dvec4(p, 1.0);
        out.emplace_back((c.x / c.w * 0.5 + 0.5) * grid.width, (c.y / c.w * 0.5 + 0.5) * grid.height);
    }
    return out;
}

// The member's triangles projected along `light` onto the ground plane y = `ground`, then
// through `vp`: its shadow as the CPU says.
std::vector<uint8_t> projectedShadow(const Model& model, const std::vector<glm::dvec3>& positions,
                                     const glm::dvec3& light, double ground, const glm::mat4& vp) {
    std::vector<glm::dvec3> on_ground;
    for (const glm::dvec3& p : positions) on_ground.push_back(p + light * ((ground - p.y) / light.y));
    return rasterize(model, project(on_ground, vp, {}), {});
}

// `mask` grown (radius > 0) or shrunk (radius < 0) by |radius| pixels (a square neighbourhood).
std::vector<uint8_t> morph(const std::vector<uint8_t>& mask, int radius, Grid grid = {}) {
    const int r = std::abs(radius);
    const uint8_t want = radius > 0 ? 1 : 0;
    const int width = int(grid.width), height = int(grid.height);
    std::vector<uint8_t> out(mask);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            bool hit = false;
            for (int dy = -r; dy <= r && !hit; ++dy)
                for (int dx = -r; dx <= r && !hit; ++dx) {
                    const int u = x + dx, v = y + dy;
                    const bool outside = u < 0 || v < 0 || u >= width || v >= height;
                    const uint8_t m = outside ? 0 : mask[size_t(v) * grid.width + u];
                    hit = m == want;
                }
            out[size_t(y) * grid.width + x] = hit ? want : uint8_t(1 - want);
        }
    return out;
}

struct ShadowMatch {
    size_t dark = 0;         // ground pixels in shadow
    size_t dark_outside = 0; // ...more than 3 pixels outside the projection
    size_t inner = 0;        // visible ground pixels 3 pixels inside the projection
    size_t inner_lit = 0;    // ...that are lit
};

// Ground pixels of `lit` (not the member: `plain`, the same frame without shadows, has the clear
// colour there; grey, as the ground is) darker than halfway between the ground's lit and
// shadowed values, against the projection `mask`.
ShadowMatch compare(const render::RenderOutput& lit, const render::RenderOutput& plain,
                    const std::vector<uint8_t>& mask) {
    const std::vector<uint8_t> grown = morph(mask, 3), shrunk = morph(mask, -3);
    ShadowMatch m;
    for (size_t i = 0; i < size_t(kWidth) * kHeight; ++i) {
        const uint8_t* p = &lit.rgba[i * 4];
        const uint8_t* q = &plain.rgba[i * 4];
        const bool member = q[0] != plain.rgba[0] || q[1] != plain.rgba[1] || q[2] != plain.rgba[2];
        const bool grey = std::abs(int(p[0]) - int(p[1])) <= 2 && std::abs(int(p[1]) - int(p[2])) <= 2;
        if (member || !grey) continue;
        const bool dark = p[0] < 150; // lit ground ~180, shadowed ~118 (sRGB)
        m.dark += dark;
        m.dark_outside += dark && !grown[i];
        m.inner += shrunk[i];
        m.inner_lit += shrunk[i] && !dark;
    }
    return m;
}

TEST_F(Shadows, FallWhereTheCpuProjectionSays) {
    const render::Crowd crowd = oneMember();
    const Model model = makeWalker();
    const std::vector<glm::dvec3> pose = test::referenceModelSpace(model, crowd.instances[0], kTime, true);
    const double ground = crowd.bounds.min.y;
    // The default sun (steep, behind the camera's right), then a low one from the left (--light -60,35).
    struct Sun {
        glm::vec3 light;
        glm::vec3 target; // what the camera looks at: the middle of the shadow
        const char* name;
    };
    const Sun suns[] = {{render::kDefaultLight, {-0.35f, 0.3f, -0.45f}, "default sun"},
                        {render::lightFromAngles(-60.0f, 35.0f), {1.1f, 0.3f, -0.65f}, "low sun"}};
    for (const Sun& sun : suns) {
        const glm::dvec3 light = glm::normalize(glm::dvec3(sun.light));
        const glm::mat4 vp = camera(sun.target + glm::vec3(1.0f, 3.0f, 2.0f), sun.target, 40.0f);
        const std::vector<uint8_t> mask = projectedShadow(model, pose, light, ground, vp);
        // Cast and received through the hardware, and through the compute rasterizer (its shadow
        // pass and its resolve).
        for (const char* technique : {"baked", "palette", "cpu"})
            for (Raster raster : {Raster::Hardware, Raster::Compute}) {
                const char* how = raster == Raster::Compute ? "compute" : "hardware";
                SCOPED_TRACE(std::string(technique) + ", " + sun.name + ", " + how);
                const render::RenderOutput plain = render(crowd, vp, technique, 0, sun.light, raster);
                const render::RenderOutput lit = render(crowd, vp, technique, 1024, sun.light, raster);
                ASSERT_FALSE(lit.rgba.empty());
                const ShadowMatch m = compare(lit, plain, mask);
                std::printf(
                    "%s (%s), %s: %zu shadow pixels, %zu more than 3 px outside the CPU's projection; %zu of %zu "
                    "pixels 3 px inside it lit\n",
                    technique, how, sun.name, m.dark, m.dark_outside, m.inner_lit, m.inner);
                EXPECT_GT(m.dark, 500u);
                EXPECT_GT(m.inner, 200u);
                EXPECT_LE(m.dark_outside, m.dark / 200) << "shadow where the projection has none";
                EXPECT_LE(m.inner_lit, m.inner / 100) << "light where the projection has shadow";
            }
    }
}

TEST_F(Shadows, MembersOutsideTheCameraStillCast) {
    // The camera looks up at the sky: its culling drops the member, the light's keeps it, and
    // the shadow map holds its triangles where the CPU projects them through the light's matrix.
    const render::Crowd crowd = oneMember();
    const Model model = makeWalker();
    const std::vector<glm::dvec3> pose = test::referenceModelSpace(model, crowd.instances[0], kTime, true);
    const glm::mat4 vp = camera(glm::vec3(0.0f, 1.0f, 6.0f), glm::vec3(0.0f, 8.0f, 12.0f), 45.0f);
    for (Raster raster : {Raster::Hardware, Raster::Compute}) {
        SCOPED_TRACE(raster == Raster::Compute ? "compute" : "hardware");
        render::RenderSettings s = settings("baked", 256, raster);
        s.cull.lod = false; // the full mesh in the map (its coarser levels differ by up to 2 texels by design)
        Result<render::RenderOutput> out = render::renderCrowd(*allocator_, asset_, crowd, vp, s);
        ASSERT_TRUE(out.ok()) << out.error().message;
        EXPECT_EQ(out.value().drawn.in_frustum, 0u) << "the member was meant to be outside the camera";
        const std::vector<float>& map = out.value().shadow_map;
        const Grid grid{256, 256};
        ASSERT_EQ(map.size(), size_t(256) * 256);
        const std::vector<uint8_t> mask = rasterize(model, project(pose, out.value().shadow_light, grid), grid);
        const std::vector<uint8_t> grown = morph(mask, 1, grid), shrunk = morph(mask, -1, grid);
        size_t covered = 0, stray = 0, inner = 0, missing = 0;
        for (size_t i = 0; i < map.size(); ++i) {
            const bool hit = map[i] > 0.0f; // cleared to 0 (reversed Z: nothing)
            covered += hit;
            stray += hit && !grown[i];
            inner += shrunk[i];
            missing += shrunk[i] && !hit;
        }
        std::printf("member outside the camera: %zu texels in the shadow map, %zu outside the CPU's projection; %zu of "
                    "%zu inside it empty\n",
                    covered, stray, missing, inner);
        EXPECT_GT(covered, 100u);
        EXPECT_EQ(stray, 0u);
        EXPECT_EQ(missing, 0u);
    }
}

// The map the compute rasterizer's shadow pass writes (every level; with auto the levels past
// LOD 0, the hardware's LOD 0 on top) against the technique's own depth draw, texel by texel, for
// every technique that draws this crowd, with levels of detail and a light's view that culls.
TEST_F(Shadows, ComputeMapsAgreeWithTheHardwares) {
    // One member a giant: large in the map, at LOD 0 there (with auto, the hardware's), the rest
    // a few texels tall at coarser levels (the compute rasterizer's).
    render::Crowd crowd = crowdOf(40);
    crowd.instances[0].position_scale.w *= 6.0f;
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Street, crowd, float(kWidth) / kHeight);
    auto map = [&](const std::string& technique, Raster raster, std::vector<std::string>* passes = nullptr) {
        Result<render::RenderOutput> out =
            render::renderCrowd(*allocator_, asset_, crowd, vp, settings(technique, 1024, raster));
        EXPECT_TRUE(out.ok()) << out.error().message;
        if (!out.ok()) return std::vector<float>{};
        if (passes != nullptr)
            for (const render::PassTiming& p : out.value().passes) passes->push_back(p.name);
        return out.value().shadow_map;
    };
    for (const char* technique : {"baked", "pose", "palette", "vat", "procedural", "static", "cpu"}) {
        const std::vector<float> hardware = map(technique, Raster::Hardware);
        std::vector<float> compute;
        for (Raster raster : {Raster::Compute, Raster::Auto}) {
            const char* how = raster == Raster::Compute ? "compute" : "auto";
            SCOPED_TRACE(std::string(technique) + ", " + how);
            std::vector<std::string> passes;
            const std::vector<float> other = map(technique, raster, &passes);
            ASSERT_EQ(other.size(), hardware.size());
            // Compute draws the map in its own `shadow` pass; auto adds the hardware's finer levels.
            EXPECT_NE(std::find(passes.begin(), passes.end(), "shadow"), passes.end());
            EXPECT_EQ(std::find(passes.begin(), passes.end(), "shadow-near") != passes.end(), raster == Raster::Auto);
            size_t covered = 0, edge = 0, deeper = 0;
            double worst = 0.0;
            for (size_t i = 0; i < other.size(); ++i) {
                const bool a = hardware[i] > 0.0f, b = other[i] > 0.0f;
                covered += a;
                if (a != b) {
                    ++edge; // a silhouette texel one rule counts and the other does not
                } else if (a) {
                    const double d = std::abs(double(hardware[i]) - double(other[i]));
                    worst = std::max(worst, d);
                    deeper += d > 1e-3; // another triangle in front: an edge between two of them
                }
            }
            size_t from_compute = 0;
            if (raster == Raster::Compute)
                compute = other;
            else
                for (size_t i = 0; i < other.size(); ++i) from_compute += other[i] != compute[i];
            std::printf("%s, %s: %zu texels cast, %zu on one side only, %zu apart by more than 1e-3 in depth; "
                        "worst elsewhere %.2g; %zu differ from compute\n",
                        technique, how, covered, edge, deeper, worst, from_compute);
            EXPECT_GT(covered, 500u);
            EXPECT_LE(edge, covered / 50) << "more than 2% of the shadow's texels differ in coverage";
            EXPECT_LE(deeper, covered / 100);
            // The giant is the hardware's with auto: its texels are the depth draw's, not compute's.
            if (raster == Raster::Auto) {
                EXPECT_GT(from_compute, 1000u) << "the hardware drew no level on top";
            }
        }
    }
}

TEST_F(Shadows, PassesAreReportedAndLimitsRefused) {
    const render::Crowd crowd = crowdOf(20);
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Overview, crowd, float(kWidth) / kHeight);
    const render::RenderOutput out = render(crowd, vp, "baked", 256);
    std::vector<std::string> names;
    for (const render::PassTiming& p : out.passes) names.push_back(p.name);
    for (const char* want : {"shadow-cull", "shadow", "ground", "cull", "draw"})
        EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
    // The light's view drew every member into the map, the camera's culling counted its own.
    EXPECT_EQ(out.drawn.in_frustum, 20u);

    render::RenderSettings s;
    s.baked = &baked_;
    s.width = 64;
    s.height = 36;
    for (uint32_t size : {8u, 100000u}) {
        s.shadows.size = size;
        Result<render::RenderOutput> bad = render::renderCrowd(*allocator_, asset_, crowd, vp, s);
        ASSERT_FALSE(bad.ok());
        EXPECT_NE(bad.error().message.find("shadow map size"), std::string::npos) << bad.error().message;
    }
}

} // namespace
