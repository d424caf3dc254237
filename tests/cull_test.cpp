// GPU culling and LOD (src/render/crowd_gpu.h, cull.comp, draws.comp) against the CPU, on a
// headless context with validation on:
//  - for random cameras, every member with a skinned vertex inside the view volume (the CPU
//    skins every vertex of every member: brute force) is in the GPU's visible list;
//  - the GPU's choice per member (frustum, LOD) equals the same test done on the CPU, except
//    for members within a hair of a decision boundary; the indirect draws are the CPU's;
//  - with culling and LOD error 0 the picture is the picture without them;
//  - occlusion culling: every level of the depth pyramid is the CPU's reduction of the level
//    below; over several frames it hides members and changes no pixel;
//  - coarse skinning moves no vertex by more than its bound, at any time between frames, and
//    the levels drawn with it change the picture by little.
#include "../src/render/coarse_skinning.h"
#include "../src/render/crowd_pose.h"
#include "../src/render/depth_pyramid.h"
#include "../src/render/renderer.h"
#include "../src/render/views.h"

#include <throng/bake.h>
#include <throng/builtin.h>

#include "walker_suite.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/packing.hpp>

#include <random>
#include <set>

using namespace throng;

namespace {

class Cull : public test::WalkerSuite {
  protected:
    // The GPU's culling and LOD decisions and indirect draws (`pipelines`' shaders) against the CPU's.
    void expectCpuDecisions(std::shared_ptr<const render::CullPipelines> pipelines);
};

glm::vec4 orientation(const gpu::shader::InstanceRecord& r) {
    const glm::vec2 xy = glm::unpackHalf2x16(r.orientation.x), zw = glm::unpackHalf2x16(r.orientation.y);
    return glm::vec4(xy, zw);
}

glm::vec3 rotate(const glm::vec4& q, const glm::vec3& v) {
    const glm::vec3 t = 2.0f * glm::cross(glm::vec3(q), v);
    return v + q.w * t + glm::cross(glm::vec3(q), t);
}

glm::vec3 place(const gpu::shader::InstanceRecord& r, const glm::vec3& p) {
    return rotate(orientation(r), p) * r.position_scale.w + glm::vec3(r.position_scale);
}

// Members with at least one skinned vertex inside the view volume (0 <= z <= w, |x|, |y| <= w).
std::set<uint32_t> membersSeenByCpu(const BakedAsset& baked, const render::Crowd& crowd, float time,
                                    const glm::mat4& vp) {
    const render::BakedAssetMesh mesh = render::cpuMesh(baked);
    const size_t joints = baked.source.palette.size();
    std::vector<render::MatrixRows> rows(crowd.instances.size() * joints);
    render::sampleCrowdPoses(render::poseSources(&baked.source), crowd.instances, time, rows);
    std::set<uint32_t> seen;
    for (uint32_t m = 0; m < crowd.instances.size(); ++m) {
        for (size_t v = 0; v < mesh.positions.size(); ++v) {
            glm::vec3 p(0.0f);
            for (int i = 0; i < 4; ++i) {
                if (mesh.weights[v][i] == 0.0f) continue;
                const render::MatrixRows& j = rows[m * joints + mesh.joints[v][i]];
                const glm::vec4 h(mesh.positions[v], 1.0f);
                p += mesh.weights[v][i] *
                     glm::vec3(glm::dot(j.rows[0], h), glm::dot(j.rows[1], h), glm::dot(j.rows[2], h));
            }
            const glm::vec4 c = vp * glm::vec4(place(crowd.instances[m], p), 1.0f);
            if (c.w > 0.0f && std::fabs(c.x) <= c.w && std::fabs(c.y) <= c.w && c.z >= 0.0f && c.z <= c.w) {
                seen.insert(m);
                break;
            }
        }
    }
    return seen;
}

// The culling pass once, on its own, and what it left.
render::CrowdGpu::Snapshot cullOnce(gpu::Allocator& a, render::CrowdGpu& crowd, const glm::mat4& vp, uint32_t height,
                                    const CullSettings& settings) {
    std::vector<gpu::Pass> passes;
    crowd.addPasses(passes, 0, vp, VkExtent2D{height * 16 / 9, height}, settings);
    gpu::submitAndWait(*a.context, [&](VkCommandBuffer cmd) {
        for (const gpu::Pass& p : passes) p.record(cmd);
    });
    return crowd.snapshot();
}

// The CPU's version of cull.comp's decision for one member: -1 culled, else the LOD; `margin`
// is how far the deciding quantities were from flipping (relative).
int cpuDecision(const gpu::shader::InstanceRecord& r, const std::vector<Bounds>& boxes,
                const std::vector<render::LodRanges>& lods, const glm::mat4& vp, uint32_t height, const CullSettings& s,
                double& margin) {
    const uint32_t a = gpu::shader::throngClipA(r.clips), b = gpu::shader::throngClipB(r.clips);
    const glm::vec3 lo = glm::min(boxes[a].min, boxes[b].min), hi = glm::max(boxes[a].max, boxes[b].max);
    const float scale = r.position_scale.w;
    const glm::vec3 center = place(r, 0.5f * (lo + hi));
    const float radius = 0.5f * glm::length(hi - lo) * std::fabs(scale);
    margin = 1e30;
    if (s.cull)
        for (const glm::vec4& plane : render::frustumPlanes(vp)) {
            const float d = glm::dot(glm::vec3(plane), center) + plane.w + radius;
            margin = std::min(margin, std::fabs(double(d)) / std::max(double(radius), 1e-6));
            if (d < 0.0f) return -1;
        }
    const glm::vec4 depth_row(vp[0][3], vp[1][3], vp[2][3], vp[3][3]);
    const float depth = glm::dot(depth_row, glm::vec4(center, 1.0f)) - radius;
    int lod = 0;
    if (depth > 0.0f && s.lod) {
        const float pixels_per_unit = glm::length(glm::vec3(vp[0][1], vp[1][1], vp[2][1])) * 0.5f * float(height);
        const float per_error = std::fabs(scale) * pixels_per_unit / depth;
        for (size_t l = 1; l < lods.size(); ++l) {
            const float px = lods[l].error * per_error;
            margin = std::min(margin, std::fabs(double(px) - s.lod_error_px) / std::max(double(s.lod_error_px), 1e-6));
            if (px <= s.lod_error_px) lod = int(l);
        }
    }
    return lod;
}

// A camera somewhere around the crowd looking at a random point of it, 30-90 degrees of view.
glm::mat4 randomCamera(std::mt19937& rng, const Bounds& b, float aspect) {
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    const glm::vec3 size = b.max - b.min, center = 0.5f * (b.min + b.max);
    const glm::vec3 eye = center + glm::vec3((u(rng) - 0.5f) * 1.6f * size.x, 0.2f + u(rng) * 0.6f * size.x,
                                             (u(rng) - 0.5f) * 1.6f * size.z);
    const glm::vec3 target = b.min + glm::vec3(u(rng), u(rng), u(rng)) * size;
    const float fov = glm::radians(30.0f + 60.0f * u(rng));
    glm::mat4 proj = glm::perspectiveRH_ZO(fov, aspect, 4.0f * glm::length(size), 0.05f);
    proj[1][1] *= -1.0f;
    return proj * glm::lookAtRH(eye, target, glm::vec3(0, 1, 0));
}

// InstanceRecord::clips (shared.h): clip A in 12 bits, clip B in 12, the member's asset in 8,
// each read back as packed, whatever the others hold; a crowd's members play clips of their asset.
TEST(MemberClips, TwoClipsAndTheAssetInOneWord) {
    for (const uint32_t a : {0u, 1u, 77u, THRONG_MAX_CLIPS - 1})
        for (const uint32_t b : {0u, 5u, THRONG_MAX_CLIPS - 1})
            for (const uint32_t asset : {0u, 3u, THRONG_MAX_ASSETS - 1}) {
                const uint32_t clips = gpu::shader::throngClips(a, b, asset);
                EXPECT_EQ(gpu::shader::throngClipA(clips), a);
                EXPECT_EQ(gpu::shader::throngClipB(clips), b);
                EXPECT_EQ(gpu::shader::throngAssetOf(clips), asset);
            }
    Result<BakedAsset> baked = bake(makeWalker(), BakeOptions{});
    ASSERT_TRUE(baked.ok()) << baked.error().message;
    const BakedAsset& walker = baked.value();
    render::CrowdLayout co;
    co.count = 500;
    const render::Crowd crowd = render::makeCrowd(walker, co);
    size_t fading = 0;
    for (const gpu::shader::InstanceRecord& r : crowd.instances) {
        EXPECT_LT(gpu::shader::throngClipA(r.clips), walker.clips.size());
        EXPECT_LT(gpu::shader::throngClipB(r.clips), walker.clips.size());
        EXPECT_EQ(gpu::shader::throngAssetOf(r.clips), 0u);
        fading += gpu::shader::throngClipA(r.clips) != gpu::shader::throngClipB(r.clips);
    }
    EXPECT_GT(fading, 0u); // some members cross-fade two clips
}

TEST_F(Cull, GpuKeepsEveryMemberTheCpuSeesForRandomCameras) {
    if (!context_->indirect_count) GTEST_SKIP() << "the device lacks drawIndirectCount: no GPU culling";
    const render::Crowd crowd = crowdOf(150);
    const float time = 0.8f;
    render::CrowdGpu gpu_crowd(*allocator_, asset_, crowd.instances, crowd.clip_bounds, 1);
    std::mt19937 rng(7);
    size_t culled_somewhere = 0, seen_total = 0;
    for (int camera = 0; camera < 12; ++camera) {
        const glm::mat4 vp = randomCamera(rng, crowd.bounds, 16.0f / 9.0f);
        const std::set<uint32_t> cpu = membersSeenByCpu(baked_, crowd, time, vp);
        const render::CrowdGpu::Snapshot snap = cullOnce(*allocator_, gpu_crowd, vp, 720, {true, false, 1.0f});
        std::set<uint32_t> gpu;
        for (const auto& lod : snap.members) gpu.insert(lod.begin(), lod.end());
        EXPECT_EQ(gpu.size(), snap.in_frustum);
        for (uint32_t m : cpu)
            EXPECT_TRUE(gpu.count(m)) << "camera " << camera << ": member " << m << " is on screen but was culled";
        culled_somewhere += crowd.instances.size() - gpu.size();
        seen_total += cpu.size();
    }
    EXPECT_GT(culled_somewhere, 0u) << "no camera culled anything: the test shows nothing";
    EXPECT_GT(seen_total, 0u) << "no camera saw anything: the test shows nothing";
}

// Both variants of the culling shaders: counts by one atomic per member, and per subgroup
// (cull_common.glsl: countOne) where the device can.
TEST_F(Cull, GpuDecisionsAndIndirectDrawsAreTheCpus) {
    if (!context_->indirect_count) GTEST_SKIP() << "the device lacks drawIndirectCount: no GPU culling";
    if (!context_->subgroup_counts) std::printf("(the device lacks subgroup ballot or arithmetic: one variant)\n");
    for (const bool subgroups : {false, true})
        if (!subgroups || context_->subgroup_counts) {
            SCOPED_TRACE(subgroups ? "counts per subgroup" : "counts per member");
            expectCpuDecisions(render::createCullPipelines(*context_, subgroups));
        }
}

void Cull::expectCpuDecisions(std::shared_ptr<const render::CullPipelines> pipelines) {
    const render::Crowd crowd = crowdOf(2000);
    render::CrowdGpu gpu_crowd(*allocator_, asset_, crowd.instances, crowd.clip_bounds, 1, std::move(pipelines));
    const std::vector<render::LodRanges>& lods = gpu_crowd.lods();
    std::printf("LODs: %zu\n", lods.size());
    std::mt19937 rng(11);
    for (int camera = 0; camera < 6; ++camera) {
        const glm::mat4 vp = camera == 0 ? render::crowdViewProjection(render::ViewKind::Street, crowd, 16.0f / 9.0f)
                                         : randomCamera(rng, crowd.bounds, 16.0f / 9.0f);
        const CullSettings settings{true, true, camera % 2 ? 1.0f : 4.0f};
        const render::CrowdGpu::Snapshot snap = cullOnce(*allocator_, gpu_crowd, vp, 720, settings);
        std::vector<int> gpu_lod(crowd.instances.size(), -1);
        for (size_t l = 0; l < snap.members.size(); ++l)
            for (uint32_t m : snap.members[l]) {
                ASSERT_LT(m, crowd.instances.size());
                EXPECT_EQ(gpu_lod[m], -1) << "member " << m << " listed twice";
                gpu_lod[m] = int(l);
            }
        size_t ambiguous = 0;
        for (uint32_t m = 0; m < crowd.instances.size(); ++m) {
            double margin = 0.0;
            const int cpu = cpuDecision(crowd.instances[m], crowd.clip_bounds, lods, vp, 720, settings, margin);
            if (margin < 1e-4) {
                ++ambiguous;
                continue;
            }
            EXPECT_EQ(gpu_lod[m], cpu) << "camera " << camera << " member " << m;
        }
        EXPECT_LT(ambiguous, crowd.instances.size() / 100);
        // The draws: per submesh, one per LOD with members, in LOD order, each from its region.
        size_t d = 0;
        for (size_t s = 0; s < asset_.submeshes.size(); ++s) {
            uint32_t expected = 0;
            for (size_t l = 0; l < lods.size(); ++l) {
                if (snap.members[l].empty() || lods[l].ranges[s].y == 0) continue;
                ASSERT_LT(d, snap.draws.size());
                const gpu::shader::DrawCommand& c = snap.draws[d++];
                EXPECT_EQ(c.index_count, lods[l].ranges[s].y);
                EXPECT_EQ(c.first_index, lods[l].ranges[s].x);
                EXPECT_EQ(c.instance_count, snap.members[l].size());
                EXPECT_EQ(c.first_instance, uint32_t(l) * crowd.instances.size());
                EXPECT_EQ(c.vertex_offset, 0);
                ++expected;
            }
            EXPECT_EQ(snap.draw_counts[s], expected) << "submesh " << s;
        }
        EXPECT_EQ(d, snap.draws.size());
    }
}

TEST_F(Cull, CullingAndLodAtErrorZeroChangeNoPixel) {
    const render::Crowd crowd = crowdOf(64);
    render::RenderSettings hardware; // the culling's doing alone (auto draws some members in compute)
    hardware.raster = Raster::Hardware;
    for (render::ViewKind view : {render::ViewKind::Overview, render::ViewKind::Street}) {
        const render::RenderOutput all = renderAt(crowd, view, 1, 0.6f, {false, false, 0.0f}, hardware);
        const render::RenderOutput culled = renderAt(crowd, view, 1, 0.6f, {true, true, 0.0f}, hardware);
        ASSERT_EQ(all.rgba.size(), culled.rgba.size());
        size_t differ = 0;
        for (size_t i = 0; i < all.rgba.size(); ++i) differ += all.rgba[i] != culled.rgba[i];
        EXPECT_EQ(differ, 0u) << toString(view);
        EXPECT_EQ(all.drawn.in_frustum, crowd.instances.size());
        if (context_->indirect_count) {
            EXPECT_LE(culled.drawn.in_frustum, crowd.instances.size());
            EXPECT_EQ(culled.drawn.per_lod[0] + culled.drawn.occluded, culled.drawn.in_frustum)
                << "error 0 draws everything at LOD 0";
            if (view == render::ViewKind::Street) {
                EXPECT_LT(culled.drawn.in_frustum, crowd.instances.size()) << "the street view culls nothing";
            }
        }
    }
}

// A depth image of odd size filled with random depths, its pyramid built on the GPU, and every
// level compared with the CPU's reduction of the level below (the minimum: reversed Z keeps the
// farthest), exactly.
TEST_F(Cull, PyramidLevelsAreTheFarthestDepthOfTheLevelBelow) {
    if (!context_->depth_pyramid) GTEST_SKIP() << "the device cannot build a depth pyramid: no occlusion culling";
    const uint32_t w = 75, h = 23;
    gpu::OwnedImage depth(*allocator_,
                          gpu::createImage(*allocator_, VK_FORMAT_D32_SFLOAT, w, h, 1,
                                           VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                               VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                           VK_IMAGE_ASPECT_DEPTH_BIT));
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::vector<float> texels(size_t(w) * h);
    for (float& t : texels) t = u(rng);
    gpu::OwnedBuffer staging = gpu::ownBuffer(*allocator_, texels.size() * sizeof(float),
                                              VK_BUFFER_USAGE_TRANSFER_SRC_BIT, gpu::MemoryUse::Upload);
    std::memcpy(staging->mapped(), texels.data(), texels.size() * sizeof(float));
    render::DepthPyramid pyramid(*allocator_, depth->image, depth->view, {w, h});
    EXPECT_EQ(pyramid.levels(), 8u); // 75 -> 38 -> 19 -> 10 -> 5 -> 3 -> 2 -> 1
    gpu::submitAndWait(*context_, [&](VkCommandBuffer cmd) {
        gpu::transitionImage(cmd, depth->image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                             VK_IMAGE_ASPECT_DEPTH_BIT);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        region.imageExtent = {w, h, 1};
        vkCmdCopyBufferToImage(cmd, staging->buffer, depth->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        gpu::transitionImage(cmd, depth->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                             VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT);
        pyramid.record(cmd);
    });
    std::vector<float> below = texels;
    uint32_t bw = w, bh = h;
    for (uint32_t level = 0; level < pyramid.levels(); ++level) {
        const std::vector<float> got = pyramid.download(level);
        const uint32_t lw = level == 0 ? w : (bw + 1) / 2, lh = level == 0 ? h : (bh + 1) / 2;
        ASSERT_EQ(got.size(), size_t(lw) * lh) << "level " << level;
        std::vector<float> expected(got.size());
        for (uint32_t y = 0; y < lh; ++y)
            for (uint32_t x = 0; x < lw; ++x) {
                if (level == 0) {
                    expected[y * lw + x] = below[y * bw + x];
                    continue;
                }
                float m = 2.0f;
                for (uint32_t dy = 0; dy < 2; ++dy)
                    for (uint32_t dx = 0; dx < 2; ++dx)
                        m = std::min(m, below[std::min(2 * y + dy, bh - 1) * bw + std::min(2 * x + dx, bw - 1)]);
                expected[y * lw + x] = m;
            }
        for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], expected[i]) << "level " << level << " texel " << i;
        below = got;
        bw = lw;
        bh = lh;
    }
    EXPECT_EQ(bw, 1u);
    EXPECT_EQ(bh, 1u);
    EXPECT_EQ(below[0], *std::min_element(texels.begin(), texels.end()));
}

// The street view of a dense crowd, several frames (the early phase draws what the frame before
// drew): occlusion culling hides members, and the last frame's picture is, pixel for pixel, the
// picture without it. Through the hardware rasterizer (the compute rasterizer does not cull by
// occlusion yet: docs/ONE_RENDERER.md, part 3).
TEST_F(Cull, OcclusionHidesMembersAndChangesNoPixel) {
    if (!context_->depth_pyramid) GTEST_SKIP() << "the device cannot build a depth pyramid: no occlusion culling";
    const render::Crowd crowd = crowdOf(300);
    // Through the hardware (the pyramid from the depth image), the compute rasterizer (from its
    // visibility buffer) and auto (both: the hardware's share here the members about 100 pixels
    // across, so that each draws some), each against itself without occlusion culling.
    for (Raster raster : {Raster::Hardware, Raster::Compute, Raster::Auto}) {
        if (raster != Raster::Hardware && !context_->int64_atomics) continue; // no compute rasterizer
        const char* how = raster == Raster::Hardware ? "hardware" : raster == Raster::Compute ? "compute" : "auto";
        SCOPED_TRACE(how);
        render::RenderSettings s;
        s.raster = raster;
        CullSettings without{true, false, 0.0f, false}, with{true, false, 0.0f, true};
        without.hardware_triangle_px = with.hardware_triangle_px = 0.5f;
        const render::RenderOutput frustum = renderAt(crowd, render::ViewKind::Street, 3, 0.9f, without, s);
        const render::RenderOutput occluded = renderAt(crowd, render::ViewKind::Street, 3, 0.9f, with, s);
        ASSERT_EQ(frustum.rgba.size(), occluded.rgba.size());
        size_t differ = 0, background = 0;
        for (size_t i = 0; i < frustum.rgba.size(); ++i) differ += frustum.rgba[i] != occluded.rgba[i];
        for (size_t i = 0; i < frustum.rgba.size(); i += 4)
            background += frustum.rgba[i] == occluded.rgba[0] && frustum.rgba[i + 1] == occluded.rgba[1];
        EXPECT_EQ(differ, 0u);
        EXPECT_LT(background, frustum.rgba.size() / 4) << "nothing drawn";
        EXPECT_EQ(frustum.drawn.occluded, 0u);
        EXPECT_EQ(occluded.drawn.in_frustum, frustum.drawn.in_frustum);
        EXPECT_GT(occluded.drawn.occluded, 0u) << "occlusion culling hid nothing in a street";
        EXPECT_EQ(occluded.drawn.per_lod[0] + occluded.drawn.occluded, occluded.drawn.in_frustum);
        if (raster == Raster::Auto) {
            EXPECT_GT(occluded.drawn.hardware, 0u) << "the hardware drew nothing";
            EXPECT_LT(occluded.drawn.hardware, occluded.drawn.per_lod[0]) << "the compute rasterizer drew nothing";
        }
        std::printf("street, %zu members, %s: %u in the frustum, %u hidden by occlusion (%u by the hardware)\n",
                    crowd.instances.size(), how, occluded.drawn.in_frustum, occluded.drawn.occluded,
                    occluded.drawn.hardware);
        std::vector<std::string> names;
        for (const render::PassTiming& p : occluded.passes) names.push_back(p.name);
        auto has = [&](const char* name) { return std::find(names.begin(), names.end(), name) != names.end(); };
        if (context_->timestamps) {
            EXPECT_TRUE(has("pyramid") && has("cull-late"));
            EXPECT_EQ(has("draw-late"), raster != Raster::Compute);
            EXPECT_EQ(has("raster-late"), raster != Raster::Hardware);
        }
    }
}

// Coarse skinning (the heaviest joint at the nearest frame) against full skinning (every joint,
// tweened between the bracketing frames), in double, at random vertices, clips and times: never
// farther apart than coarseSkinningError() says.
TEST_F(Cull, CoarseSkinningStaysWithinItsBound) {
    const render::CoarseError bound = render::coarseSkinningError(baked_);
    EXPECT_TRUE(bound.exact);
    EXPECT_GT(bound.error, 0.0f);
    EXPECT_LT(bound.error, 0.5f * glm::length(baked_.bind_bounds.max - baked_.bind_bounds.min)) << "a useless bound";
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    double worst = 0.0;
    auto joint = [&](uint32_t clip, uint32_t frame, uint32_t j, const glm::dvec4& p) {
        glm::dvec3 r;
        for (uint32_t row = 0; row < 3; ++row)
            r[row] = glm::dot(glm::dvec4(bakedTexel(baked_, clip, frame, j, row)), p);
        return r;
    };
    for (int sample = 0; sample < 20000; ++sample) {
        const uint32_t clip = uint32_t(u(rng) * double(baked_.clips.size())) % uint32_t(baked_.clips.size());
        const BakedVertex& v =
            baked_.vertices[size_t(u(rng) * double(baked_.vertices.size())) % baked_.vertices.size()];
        const uint32_t last = baked_.clips[clip].frame_count - 1;
        const double at = u(rng) * double(last);
        const uint32_t first = std::min(uint32_t(at), last), second = std::min(first + 1, last);
        const double t = at - double(first);
        const glm::dvec4 p(v.position[0], v.position[1], v.position[2], 1.0);
        glm::dvec3 full(0.0);
        int heaviest = 0;
        for (int i = 0; i < 4; ++i) {
            if (v.weights[i] > v.weights[heaviest]) heaviest = i;
            full += double(v.weights[i]) *
                    ((1.0 - t) * joint(clip, first, v.joints[i], p) + t * joint(clip, second, v.joints[i], p));
        }
        const glm::dvec3 coarse = joint(clip, t < 0.5 ? first : second, v.joints[heaviest], p);
        worst = std::max(worst, glm::length(full - coarse));
    }
    EXPECT_LE(worst, double(bound.error) * (1.0 + 1e-5) + 1e-6);
    EXPECT_GT(worst, 0.2 * double(bound.error)) << "the bound is far from what happens";
    const uint32_t first_coarse = asset_.first_coarse_lod;
    std::printf("coarse skinning: bound %.4f (worst seen %.4f), from LOD %u of %zu\n", bound.error, worst, first_coarse,
                asset_.lods.size());
    ASSERT_GE(first_coarse, 1u);
    if (first_coarse < asset_.lods.size()) {
        EXPECT_GE(asset_.lods[first_coarse].error, bound.error);
    }
    EXPECT_LT(asset_.lods[first_coarse - 1].error, bound.error);
}

// The street view at one pixel of LOD error with and without coarse skinning: the far levels
// drawn coarsely change few pixels.
TEST_F(Cull, CoarseSkinningChangesLittleOfThePicture) {
    if (!context_->indirect_count) GTEST_SKIP() << "the device lacks drawIndirectCount: no GPU LOD";
    const render::Crowd crowd = crowdOf(3000);
    const render::RenderOutput full =
        renderAt(crowd, render::ViewKind::Street, 1, 0.7f, {true, true, 1.0f, false, false});
    const render::RenderOutput coarse =
        renderAt(crowd, render::ViewKind::Street, 1, 0.7f, {true, true, 1.0f, false, true});
    ASSERT_EQ(full.rgba.size(), coarse.rgba.size());
    uint32_t coarse_members = 0;
    for (size_t l = asset_.first_coarse_lod; l < asset_.lods.size(); ++l) coarse_members += coarse.drawn.per_lod[l];
    EXPECT_GT(coarse_members, 0u) << "no member at a coarse level: the test shows nothing";
    size_t differ = 0;
    for (size_t i = 0; i < full.rgba.size(); i += 4)
        differ += full.rgba[i] != coarse.rgba[i] || full.rgba[i + 1] != coarse.rgba[i + 1] ||
                  full.rgba[i + 2] != coarse.rgba[i + 2];
    std::printf("coarse skinning: %u members coarse, %zu of %zu pixels differ\n", coarse_members, differ,
                full.rgba.size() / 4);
    EXPECT_LT(differ, full.rgba.size() / 4 / 100) << "more than 1% of the picture changed";
}

} // namespace
