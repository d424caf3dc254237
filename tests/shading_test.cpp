// The compute rasterizer's resolve shades what the hardware path shades (issue #24, part 2;
// resolve_body.glsl), on lavapipe with validation on:
// - a card with a checker texture, every pixel against a CPU reference worked out in double
//   (its UV, its mip level from the UV's screen derivatives, the texture's mip chain sampled
//   trilinearly, the light), magnified, minified and at a grazing angle, for both rasterizers;
// - every shared model (CesiumMan and Fox textured) and every technique the compute rasterizer
//   draws, compute against hardware;
// - shadows received: the street view with a shadow map, compute against hardware, and the
//   members' own pixels darkened where other members shade them.
#include "../src/render/compute_raster.h"
#include "../src/texture/texture.h"

#include <throng/import.h>

#include <glm/gtc/packing.hpp>

#include "gpu_suite.h"
#include "pictures.h"
#include "test_util.h"
#include "textured_card.h"
#include "walker_suite.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace throng;

namespace {

constexpr uint32_t kWidth = 320, kHeight = 180;

// A 64 x 64 checker of 8 x 8 cells, each its own colour, on the test card.
Model makeCheckerCard() {
    std::vector<uint8_t> rgba(64 * 64 * 4);
    for (uint32_t y = 0; y < 64; ++y)
        for (uint32_t x = 0; x < 64; ++x) {
            const uint32_t i = x / 8, j = y / 8;
            uint8_t* t = &rgba[(y * 64 + x) * 4];
            t[0] = uint8_t(i * 32 + 16);
            t[1] = uint8_t(j * 32 + 16);
            t[2] = uint8_t((i + j) % 2 ? 230 : 30);
            t[3] = 255;
        }
    return test::makeTexturedCard(64, 64, rgba);
}

glm::mat4 camera(const glm::vec3& eye, const glm::vec3& target, float fov_degrees) {
    return test::cameraAt(eye, target, fov_degrees, float(kWidth) / float(kHeight));
}

using test::Agreement;
constexpr auto compare = test::comparePictures;

class CheckerCard : public test::WalkerSuite {
  protected:
    Model suiteModel() const override { return makeCheckerCard(); }
};

// The card's pixels as the CPU shades them through `vp`: for each pixel centre well inside the
// card (its four neighbours' centres too), the sRGB colour; -1 elsewhere.
std::vector<glm::ivec3> referenceCard(const BakedAsset& baked, const std::vector<texture::Rgba8>& mips,
                                      const glm::mat4& vp) {
    std::vector<glm::dvec2> screen;
    std::vector<double> inv_w;
    for (const BakedVertex& v : baked.vertices) {
        const glm::dvec4 c = glm::dmat4(vp) * glm::dvec4(v.position[0], v.position[1], v.position[2], 1.0);
        screen.emplace_back((c.x / c.w * 0.5 + 0.5) * kWidth, (c.y / c.w * 0.5 + 0.5) * kHeight);
        inv_w.push_back(1.0 / c.w);
    }
    struct Hit {
        uint32_t tri = ~0u;
        glm::dvec3 b{0.0};
        double area = 0.0;
    };
    auto barycentrics = [&](uint32_t t, glm::dvec2 p) {
        const glm::dvec2 a = screen[baked.indices[t]], b = screen[baked.indices[t + 1]],
                         c = screen[baked.indices[t + 2]];
        auto edge = [](glm::dvec2 u, glm::dvec2 v, glm::dvec2 q) {
            return (v.x - u.x) * (q.y - u.y) - (v.y - u.y) * (q.x - u.x);
        };
        const double area = edge(a, b, c);
        return std::pair{glm::dvec3(edge(b, c, p), edge(c, a, p), edge(a, b, p)) / area, area};
    };
    auto find = [&](glm::dvec2 p) {
        Hit h;
        for (uint32_t t = 0; t + 2 < baked.submeshes[0].index_count; t += 3) {
            const auto [b, area] = barycentrics(t, p);
            if (area != 0.0 && b.x >= 0.0 && b.y >= 0.0 && b.z >= 0.0) return Hit{t, b, area};
        }
        return h;
    };
    auto perspective = [&](uint32_t t, glm::dvec3 b) {
        const glm::dvec3 pb =
            b * glm::dvec3(inv_w[baked.indices[t]], inv_w[baked.indices[t + 1]], inv_w[baked.indices[t + 2]]);
        return pb / (pb.x + pb.y + pb.z);
    };
    auto uvAt = [&](uint32_t t, glm::dvec3 pb) {
        glm::dvec2 uv(0.0);
        for (int k = 0; k < 3; ++k)
            uv += pb[k] *
                  glm::dvec2(baked.vertices[baked.indices[t + k]].uv[0], baked.vertices[baked.indices[t + k]].uv[1]);
        return uv;
    };
    const glm::dvec3 light = glm::normalize(glm::dvec3(render::kDefaultLight));
    std::vector<glm::ivec3> out(size_t(kWidth) * kHeight, glm::ivec3(-1));
    for (uint32_t y = 0; y < kHeight; ++y)
        for (uint32_t x = 0; x < kWidth; ++x) {
            const glm::dvec2 c(x + 0.5, y + 0.5);
            const Hit h = find(c);
            if (h.tri == ~0u) continue;
            bool inside = true;
            for (glm::dvec2 d : {glm::dvec2(1, 0), glm::dvec2(-1, 0), glm::dvec2(0, 1), glm::dvec2(0, -1)})
                inside = inside && find(c + d).tri != ~0u;
            if (!inside) continue; // the silhouette: edge rules may differ
            // The UV and its screen derivatives on the triangle's plane, as resolve_body.glsl
            // takes them; the level of detail as Vulkan defines it (log2 of the longer one in texels).
            const glm::dvec2 uv = uvAt(h.tri, perspective(h.tri, h.b));
            const glm::dvec2 dx = uvAt(h.tri, perspective(h.tri, barycentrics(h.tri, c + glm::dvec2(1, 0)).first)) - uv;
            const glm::dvec2 dy = uvAt(h.tri, perspective(h.tri, barycentrics(h.tri, c + glm::dvec2(0, 1)).first)) - uv;
            const glm::dvec2 size(mips[0].width, mips[0].height);
            const double rho = std::max(glm::length(dx * size), glm::length(dy * size));
            const glm::dvec4 texel = texture::sampleTrilinear(mips, uv, std::log2(rho));
            // The card faces +z: front where the triangle turns counter-clockwise on screen (y
            // down: negative area).
            const glm::dvec3 n = h.area < 0.0 ? glm::dvec3(0, 0, 1) : glm::dvec3(0, 0, -1);
            const double lit = 0.35 + 0.65 * std::max(glm::dot(n, -light), 0.0);
            glm::ivec3 rgb;
            for (int k = 0; k < 3; ++k) rgb[k] = int(std::lround(texture::linearToSrgb(texel[k] * lit) * 255.0));
            out[size_t(y) * kWidth + x] = rgb;
        }
    return out;
}

struct TexelMatch {
    size_t checked = 0, within = 0;
    int worst = 0;
};

TexelMatch matchReference(const render::RenderOutput& img, const std::vector<glm::ivec3>& ref, int tolerance) {
    TexelMatch m;
    for (size_t i = 0; i < ref.size(); ++i) {
        if (ref[i].x < 0) continue;
        int d = 0;
        for (int k = 0; k < 3; ++k) d = std::max(d, std::abs(int(img.rgba[i * 4 + k]) - ref[i][k]));
        ++m.checked;
        m.within += d <= tolerance;
        m.worst = std::max(m.worst, d);
    }
    return m;
}

TEST_F(CheckerCard, TexelsMatchTheCpuReferenceThroughBothRasterizers) {
    ASSERT_EQ(asset_.textures.size(), 1u);
    ASSERT_GT(asset_.textures[0].mips, 1u) << "the texture has its mip chain on the GPU";
    Result<texture::Rgba8> decoded = texture::decodeTexture(baked_.textures[0]);
    ASSERT_TRUE(decoded.ok());
    const std::vector<texture::Rgba8> mips = texture::buildMips(std::move(decoded).value());
    render::Crowd crowd = crowdOf(1);
    crowd.instances = {render::singleInstance(0, 0.0f)};
    // At the grazing angle the level of detail changes fast across the card and the device may
    // approximate it (Vulkan allows approximations of the derivatives' lengths, llvmpipe takes
    // one per 2 x 2 quad): mip blends there differ from the exact level by a few steps of 255.
    struct View {
        const char* name;
        glm::mat4 vp;
        int tolerance;
    };
    const View views[] = {{"near (magnified)", camera({0.3f, 0.2f, 1.6f}, {0.0f, 0.0f, 0.0f}, 60.0f), 3},
                          {"far (minified)", camera({0.5f, 0.3f, 9.0f}, {0.0f, 0.0f, 0.0f}, 30.0f), 3},
                          {"grazing", camera({3.2f, 0.4f, 0.9f}, {0.0f, 0.0f, 0.0f}, 45.0f), 8}};
    const CullSettings none{false, false, 0.0f, false, false};
    for (const View& v : views) {
        const std::vector<glm::ivec3> ref = referenceCard(baked_, mips, v.vp);
        for (Raster raster : {Raster::Hardware, Raster::Compute}) {
            if (raster == Raster::Compute && !context_->int64_atomics) continue;
            render::RenderSettings s;
            s.technique = "static";
            s.raster = raster;
            s.width = kWidth;
            s.height = kHeight;
            s.frames = 1;
            s.cull = none;
            s.baked = &baked_;
            Result<render::RenderOutput> out = render::renderCrowd(*allocator_, asset_, crowd, v.vp, s);
            ASSERT_TRUE(out.ok()) << out.error().message;
            const TexelMatch m = matchReference(out.value(), ref, v.tolerance);
            std::printf("%s, %s: %zu pixels checked, %zu within %d of the reference (%.2f%%), worst %d\n", v.name,
                        toString(raster), m.checked, m.within, v.tolerance,
                        100.0 * double(m.within) / double(m.checked), m.worst);
            EXPECT_GT(m.checked, size_t(kWidth) * kHeight / 20) << v.name << ": the card is too small to tell";
            EXPECT_GE(double(m.within), 0.99 * double(m.checked)) << v.name << ", " << toString(raster);
        }
    }
}

// Every shared model through every technique but procedural (which swims fish: raster_test's
// school), the textured CesiumMan and Fox among them, a street crowd at full detail: the compute
// rasterizer's picture against the hardware's.
class SharedModels : public test::GpuSuite {};

TEST_F(SharedModels, ComputeShadesAsTheHardwareDoes) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    for (const char* relative : test::kSharedModels) {
        const std::string path = test::assetPath(relative);
        if (!std::filesystem::exists(path)) {
            if (test::kRequireAssets) FAIL() << "required test model missing: " << path;
            GTEST_SKIP() << "test model not found (set THRONG_ASSETS_DIR): " << path;
        }
        Result<Model> model = importModel(path);
        ASSERT_TRUE(model.ok()) << model.error().message;
        BakeOptions bo;
        bo.vat = true;
        Result<BakedAsset> baked = bake(model.value(), bo);
        ASSERT_TRUE(baked.ok()) << baked.error().message;
        Result<render::GpuAsset> asset = render::uploadAsset(*allocator_, baked.value());
        ASSERT_TRUE(asset.ok()) << asset.error().message;
        render::CrowdLayout layout;
        layout.count = 24;
        const render::Crowd crowd = render::makeCrowd(baked.value(), layout);
        const glm::mat4 vp =
            render::crowdViewProjection(render::ViewKind::Street, crowd, float(kWidth) / float(kHeight));
        for (const TechniqueInfo& info : techniques()) {
            if (info.swims) continue; // procedural swims fish (a model of its own: raster_test's fish)
            const std::string technique(info.name);
            render::RenderSettings s;
            s.technique = technique;
            s.raster = Raster::Hardware; // the reference (auto, the default, would be mostly compute)
            s.width = kWidth;
            s.height = kHeight;
            s.frames = 1;
            s.time = 0.4f;
            s.cull = CullSettings{true, false, 1.0f, false, false};
            s.baked = &baked.value();
            Result<render::RenderOutput> hardware = render::renderCrowd(*allocator_, asset.value(), crowd, vp, s);
            s.raster = Raster::Compute;
            if (!hardware.ok()) { // what the technique cannot draw at all (palette-ubo: 840 joints)
                std::printf("%s, %s: %s\n", relative, technique.c_str(), hardware.error().message.c_str());
                EXPECT_FALSE(render::renderCrowd(*allocator_, asset.value(), crowd, vp, s).ok());
                continue;
            }
            Result<render::RenderOutput> compute = render::renderCrowd(*allocator_, asset.value(), crowd, vp, s);
            ASSERT_TRUE(compute.ok()) << relative << ", " << technique << ": " << compute.error().message;
            const Agreement close = compare(hardware.value(), compute.value(), 8);
            const Agreement loose = compare(hardware.value(), compute.value(), 24);
            std::printf("%s, %s (%zu textures): %zu pixels covered, %.2f%% differ by more than 8, %.2f%% by more "
                        "than 24\n",
                        relative, technique.c_str(), baked.value().textures.size(), close.covered,
                        100.0 * double(close.differ) / double(close.pixels),
                        100.0 * double(loose.differ) / double(loose.pixels));
            EXPECT_GT(close.covered, close.pixels / 100) << relative << ", " << technique << ": nothing drawn";
            EXPECT_LE(close.differ, close.pixels / 100) << relative << ", " << technique;
        }
        asset.value().release();
    }
}

// Shadows received: the walkers of the street view in the light of a low sun, with a shadow
// map, drawn by the compute rasterizer as the hardware draws them; the members' own pixels
// (not only the ground's) darker where others shade them.
class ShadowsReceived : public test::WalkerSuite {};

TEST_F(ShadowsReceived, ComputeMembersReceiveAsHardwareMembersDo) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    const render::Crowd crowd = crowdOf(200);
    const glm::vec3 low_sun = glm::normalize(glm::vec3(0.8f, -0.45f, 0.4f));
    for (const char* technique : {"baked", "pose"}) {
        render::RenderSettings s;
        s.technique = technique;
        s.raster = Raster::Hardware; // the reference
        s.light_direction = low_sun;
        s.shadows.size = 1024;
        s.shadows.ground = false; // the members' pixels only: the sky stays where no member is
        const CullSettings cull{true, false, 1.0f, false, false};
        const render::RenderOutput hardware = renderAt(crowd, render::ViewKind::Street, 1, 0.4f, cull, s);
        s.raster = Raster::Compute;
        const render::RenderOutput compute = renderAt(crowd, render::ViewKind::Street, 1, 0.4f, cull, s);
        s.shadows.size = 0;
        const render::RenderOutput unshadowed = renderAt(crowd, render::ViewKind::Street, 1, 0.4f, cull, s);
        ASSERT_EQ(compute.rgba.size(), unshadowed.rgba.size());
        const Agreement agree = compare(hardware, compute, 8);
        size_t members = 0, darker = 0;
        for (size_t i = 0; i + 3 < compute.rgba.size(); i += 4) {
            const uint8_t* q = &unshadowed.rgba[i];
            if (q[0] == unshadowed.rgba[0] && q[1] == unshadowed.rgba[1] && q[2] == unshadowed.rgba[2]) continue;
            ++members;
            darker += int(compute.rgba[i]) + int(compute.rgba[i + 1]) + int(compute.rgba[i + 2]) + 30 <
                      int(q[0]) + int(q[1]) + int(q[2]);
        }
        std::printf("%s: %.2f%% of pixels differ from the hardware's by more than 8; %zu of %zu member pixels "
                    "(%.1f%%) in shadow\n",
                    technique, 100.0 * double(agree.differ) / double(std::max<size_t>(agree.pixels, 1)), darker,
                    members, 100.0 * double(darker) / double(std::max<size_t>(members, 1)));
        EXPECT_LE(agree.differ, agree.pixels / 100) << technique;
        EXPECT_GT(members, agree.pixels / 10) << technique << ": too few members in the picture";
        // Measured 3.9% (the hardware's picture the same): without shadows received, none.
        EXPECT_GT(darker, members / 100) << technique << ": members drawn in compute receive no shadows";
    }
}

} // namespace
