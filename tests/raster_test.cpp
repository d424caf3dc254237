// The compute rasterizer (src/render/compute_raster.h, docs/FAR_FIELD.md) against the hardware
// rasterizer, on lavapipe with validation on: the same crowd, the same camera, the same frame, for
// `baked`, `pose` and `palette` (cross-fading, with a layer; palette in both joint encodings; all
// three with linear and dual-quaternion skinning), `vat`, `static` and (a school of builtin:fish)
// `procedural`, and the walker carrying props, in the overview and in the street
// view (members overlapping: depth order), at full detail and with LOD. Pixels may differ where the two rasterizers'
// edge rules and rounding differ (a pixel centre on a shared edge, a triangle a fraction of a pixel across); the rest
// must agree within a small colour tolerance.
#include "../src/gpu/bandwidth.h"
#include "../src/render/compute_raster.h"
#include "../src/render/crowd_frame.h"
#include "../src/render/pose_gpu.h"

#include <throng/attach.h>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/packing.hpp>

#include "pictures.h"
#include "reference_pose.h"
#include "walker_suite.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <optional>
#include <span>

using namespace throng;

namespace {

// The walker baked with its vertex animation too (technique vat).
class ComputeRaster : public test::WalkerSuite {
  protected:
    BakeOptions bakeOptions() const override {
        BakeOptions o;
        o.vat = true;
        return o;
    }
};

// Technique `pose`'s crowds here carry this layer: the idle's upper body at 0.7 over 60% of them.
const std::vector<std::string> kPoseLayers = {"idle@spine,0.7@60%"};

// Settings that draw `label`: a technique (those that take layers with kPoseLayers), or
// "palette-quat": palette with its joints encoded as quaternions; "TECHNIQUE@dq": with
// dual-quaternion skinning.
render::RenderSettings drawnBy(std::string_view label) {
    render::RenderSettings s;
    s.raster = Raster::Hardware; // the reference picture (auto, the default, would be mostly compute)
    if (const size_t at = label.find("@dq"); at != std::string_view::npos) {
        s.skinning = Skinning::DualQuaternion;
        label = label.substr(0, at);
    }
    s.technique = label == "palette-quat" ? "palette" : std::string(label);
    if (label == "palette-quat") s.encoding = JointEncoding::Quaternion;
    if (findTechnique(s.technique)->takes_layers) s.layers = kPoseLayers;
    return s;
}

// The position of pass `name` among `passes`, or passes.size().
size_t passIndex(const std::vector<render::PassTiming>& passes, std::string_view name) {
    size_t i = 0;
    while (i < passes.size() && passes[i].name != name) ++i;
    return i;
}

using test::Agreement;
constexpr auto compare = test::comparePictures;

// The vertex cache's default size, on an H200's numbers (141 GiB heap, 4 GiB storage buffers):
// every member at its finest level within the storage buffer's range without LOD, at most
// kVertexCacheLodBytes with it; a request as it is, in whole vertices.
TEST(VertexCache, DefaultSizeFollowsLod) {
    gpu::Context h200;
    h200.memory.memoryHeapCount = 1;
    h200.memory.memoryHeaps[0] = {141ull << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
    h200.properties.limits.maxStorageBufferRange = 0xffffffffu;
    const uint64_t members = 1000000, vertices = 800, vertex = 12; // position 8 bytes, normal 4
    const uint64_t storage_range = 0xffffffffull / 8 * vertex;     // the positions' buffer full
    EXPECT_EQ(render::vertexCacheBytes(h200, kVertexCacheAuto, members, vertices, false), storage_range);
    EXPECT_EQ(render::vertexCacheBytes(h200, kVertexCacheAuto, members, vertices, true),
              render::kVertexCacheLodBytes / vertex * vertex);
    EXPECT_EQ(render::vertexCacheBytes(h200, kVertexCacheAuto, 1000, vertices, true), 1000 * vertices * vertex);
    EXPECT_EQ(render::vertexCacheBytes(h200, 100ull << 20, members, vertices, true), (100ull << 20) / vertex * vertex);
    EXPECT_EQ(render::vertexCacheBytes(h200, 0, members, vertices, false), 0u);
}

TEST(VertexCache, HoldsLevelsOfAWorkgroupsVerticesBeforeTheCoarseOnes) {
    // The walker's levels: 5,321 vertices at LOD 0 down to a dozen at LOD 7.
    const glm::uvec4 levels[THRONG_MAX_LODS] = {{0, 5321, 0, 0}, {0, 2700, 0, 0}, {0, 1400, 0, 0}, {0, 700, 0, 0},
                                                {0, 330, 0, 0},  {0, 140, 0, 0},  {0, 50, 0, 0},   {0, 12, 0, 0}};
    EXPECT_EQ(render::cachedLevels(levels, 0, true), 6u); // LOD 6 and 7 under THRONG_CACHE_LOCAL_SIZE
    EXPECT_EQ(render::cachedLevels(levels, 0, false), 0u);
    EXPECT_EQ(render::cachedLevels(levels, 3u | (8u << 16), true), 3u); // coarse from LOD 3
    EXPECT_EQ(render::cachedLevels(levels, 7u | (8u << 16), true), 6u);
    const glm::uvec4 small[THRONG_MAX_LODS] = {{0, 100, 0, 0}}; // a model of fewer vertices than a workgroup
    EXPECT_EQ(render::cachedLevels(small, 0, true), 0u);
}

TEST_F(ComputeRaster, PictureAgreesWithTheHardwareRasterizer) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    for (const char* technique : {"baked", "pose", "palette", "palette-quat", "vat", "static", "baked@dq", "pose@dq",
                                  "palette@dq", "palette-ubo", "bonetex", "cpu"}) {
        for (render::ViewKind view : {render::ViewKind::Overview, render::ViewKind::Street}) {
            for (bool lod : {false, true}) {
                const render::Crowd crowd = crowdOf(view == render::ViewKind::Street ? 400 : 120);
                render::RenderSettings s = drawnBy(technique);
                const CullSettings cull{true, lod, 1.0f, false, true};
                // palette-ubo's own draws take every member at LOD 0 (uniform batches of consecutive
                // members); the compute rasterizer culls it and picks levels as palette's draws do,
                // from the same palettes: palette's hardware picture is its reference.
                const bool ubo = std::string_view(technique) == "palette-ubo";
                render::RenderSettings reference = s;
                if (ubo) reference.technique = "palette";
                const render::RenderOutput hardware = renderAt(crowd, view, 1, 0.8f, cull, reference);
                s.raster = Raster::Compute;
                const render::RenderOutput compute = renderAt(crowd, view, 1, 0.8f, cull, s);
                ASSERT_EQ(hardware.rgba.size(), compute.rgba.size());
                if (std::string_view(technique) == "palette-quat") {
                    EXPECT_NE(compute.technique.find("(quat)"), std::string::npos) << compute.technique;
                }
                if (s.skinning == Skinning::DualQuaternion) {
                    EXPECT_NE(compute.technique.find("dual-quaternion"), std::string::npos) << compute.technique;
                }
                const Agreement agree = compare(hardware, compute, 24);
                std::printf("%s, %s, LOD %s: %zu of %zu pixels covered, %zu differ (%.2f%%)\n", technique,
                            toString(view), lod ? "on" : "off", agree.covered, agree.pixels, agree.differ,
                            100.0 * double(agree.differ) / double(agree.pixels));
                EXPECT_GT(agree.covered, agree.pixels / 50) << "nothing drawn";
                EXPECT_LE(agree.differ, agree.pixels / 100)
                    << technique << ", " << toString(view) << ": more than 1% of pixels differ";
                const size_t resolve = passIndex(compute.passes, "resolve");
                EXPECT_TRUE(resolve < compute.passes.size() || !context_->timestamps) << "no resolve pass";
                EXPECT_TRUE(resolve + 1 == passIndex(compute.passes, "composite") || !context_->timestamps)
                    << "no composite after the resolve";
                if (std::string_view(technique) == "pose" && context_->timestamps) { // its palettes first
                    EXPECT_LT(passIndex(compute.passes, "pose"), passIndex(compute.passes, "raster"));
                }
                if (ubo && view == render::ViewKind::Street) { // culled in compute, all of it with auto
                    const render::RenderOutput own = renderAt(crowd, view, 1, 0.8f, cull, drawnBy(technique));
                    EXPECT_EQ(own.drawn.in_frustum, crowd.instances.size()) << "palette-ubo's draws culled";
                    EXPECT_LT(compute.drawn.in_frustum, crowd.instances.size());
                    s.raster = Raster::Auto;
                    const render::RenderOutput automatic = renderAt(crowd, view, 1, 0.8f, cull, s);
                    EXPECT_EQ(automatic.drawn.in_frustum, compute.drawn.in_frustum);
                    EXPECT_EQ(automatic.drawn.hardware, 0u);
                    EXPECT_LE(compare(hardware, automatic, 24).differ, agree.pixels / 100);
                }
            }
        }
    }
}

// The visibility buffer itself, for `static` (the bind pose, so the CPU places every triangle
// exactly): at sampled pixels the id names a member and triangle that cover the pixel centre,
// its depth key is that triangle's depth there, and no triangle of any member covers the centre
// clearly nearer (depth order where members overlap).
TEST_F(ComputeRaster, VisibilityIdsNameTheNearestTriangleAtEachPixel) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    const uint32_t w = 160, h = 90;
    const render::Crowd crowd = crowdOf(40);
    render::CrowdGpu gpu_crowd(*allocator_, asset_, crowd.instances, crowd.clip_bounds, 1);
    render::ComputeRaster raster(*allocator_, "static", baked_, asset_, gpu_crowd, {w, h}, VK_FORMAT_R8G8B8A8_SRGB,
                                 VK_FORMAT_D32_SFLOAT, 1);
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Street, crowd, float(w) / float(h));
    std::vector<gpu::Pass> passes;
    gpu_crowd.addPasses(passes, 0, vp, {w, h}, CullSettings{false, false, 0.0f, false, false});
    raster.addPasses(passes, 0, render::crowdConstants(vp, 0.0f, asset_));
    ASSERT_EQ(passes.front().name, "raster");
    gpu::submitAndWait(*context_, [&](VkCommandBuffer cmd) { passes.front().record(cmd); });
    const std::vector<uint64_t> vis = raster.visibility();

    // Every triangle of LOD 0 (chain triangles 0 .. n - 1) of every member in pixels and depth.
    const render::ClusterChain& chain = raster.clusters();
    const uint32_t lod0 = chain.clusters[chain.lods[0].x + chain.lods[0].y - 1].first_triangle +
                          chain.clusters[chain.lods[0].x + chain.lods[0].y - 1].triangle_count;
    std::vector<glm::uvec3> triangles;
    for (const render::Cluster& c : chain.clusters)
        for (uint32_t t = 0; t < c.triangle_count; ++t) {
            const uint32_t packed = chain.triangles[c.first_triangle + t];
            triangles.push_back({chain.vertices[c.first_vertex + (packed & 0xffu)],
                                 chain.vertices[c.first_vertex + ((packed >> 8) & 0xffu)],
                                 chain.vertices[c.first_vertex + ((packed >> 16) & 0xffu)]});
        }
    auto project = [&](uint32_t member, uint32_t vertex) {
        const gpu::shader::InstanceRecord& r = crowd.instances[member];
        const glm::vec4 q(glm::unpackHalf2x16(r.orientation.x), glm::unpackHalf2x16(r.orientation.y));
        const glm::vec3 p(baked_.vertices[vertex].position[0], baked_.vertices[vertex].position[1],
                          baked_.vertices[vertex].position[2]);
        const glm::vec3 t = 2.0f * glm::cross(glm::vec3(q), p);
        const glm::vec3 world =
            (p + q.w * t + glm::cross(glm::vec3(q), t)) * r.position_scale.w + glm::vec3(r.position_scale);
        const glm::dvec4 c = glm::dmat4(vp) * glm::dvec4(world, 1.0);
        return glm::dvec3((c.x / c.w * 0.5 + 0.5) * w, (c.y / c.w * 0.5 + 0.5) * h, c.w > 0.0 ? c.z / c.w : -1.0);
    };
    // Every member's vertices projected once (the pixel loop below asks for each many times).
    std::vector<std::vector<glm::dvec3>> projected(crowd.instances.size());
    for (uint32_t m = 0; m < projected.size(); ++m)
        for (uint32_t v = 0; v < baked_.vertices.size(); ++v) projected[m].push_back(project(m, v));
    auto screen = [&](uint32_t member, uint32_t vertex) { return projected[member][vertex]; };
    // Depth of the triangle at pixel centre `p`, or -1 when the centre is outside (by more than `slack` of its area).
    auto depthAt = [&](uint32_t member, uint32_t tri, glm::dvec2 p, double slack) {
        const glm::dvec3 a = screen(member, triangles[tri].x), b = screen(member, triangles[tri].y),
                         c = screen(member, triangles[tri].z);
        if (a.z < 0.0 || b.z < 0.0 || c.z < 0.0) return -1.0;
        auto edge = [](glm::dvec2 u, glm::dvec2 v, glm::dvec2 q) {
            return (v.x - u.x) * (q.y - u.y) - (v.y - u.y) * (q.x - u.x);
        };
        const double area = edge(a, b, c);
        if (area == 0.0) return -1.0;
        const double w0 = edge(b, c, p) / area, w1 = edge(c, a, p) / area, w2 = edge(a, b, p) / area;
        if (w0 < -slack || w1 < -slack || w2 < -slack) return -1.0;
        return w0 * a.z + w1 * b.z + w2 * c.z;
    };
    size_t checked = 0;
    for (uint32_t y = 1; y < h; y += 7)
        for (uint32_t x = 1; x < w; x += 7) {
            const test::VisibilityId id = test::decodeVisibility(vis[size_t(y) * w + x]);
            if (!id.covered) continue;
            const uint32_t member = id.member, tri = id.triangle;
            ASSERT_LT(member, crowd.instances.size());
            ASSERT_LT(tri, lod0) << "an unculled frame draws LOD 0 only";
            const glm::dvec2 centre(x + 0.5, y + 0.5);
            const double depth = depthAt(member, tri, centre, 1e-4);
            ASSERT_GE(depth, 0.0) << "pixel " << x << "," << y << ": member " << member << " triangle " << tri
                                  << " does not cover it";
            const uint32_t expected = 0xffffffu - (std::bit_cast<uint32_t>(float(depth)) >> 8);
            EXPECT_LE(std::abs(int64_t(id.depth_key) - int64_t(expected)), 64) << "pixel " << x << "," << y;
            for (uint32_t m = 0; m < crowd.instances.size(); ++m)
                for (uint32_t t = 0; t < lod0; ++t) {
                    const double d = depthAt(m, t, centre, -1e-3); // strictly inside
                    EXPECT_FALSE(d > depth * (1.0 + 1e-3) + 1e-7)
                        << "pixel " << x << "," << y << ": member " << m << " is nearer than member " << member;
                }
            ++checked;
        }
    EXPECT_GT(checked, 20u) << "too few pixels covered to show anything";
}

// Auto: LOD 0 members by the hardware, the rest in compute, one picture; in the street view both
// kinds are in it.
TEST_F(ComputeRaster, AutoSplitAgreesWithTheHardwareRasterizer) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    const render::Crowd crowd = crowdOf(400);
    for (const char* technique : {"baked", "pose", "palette", "vat"}) {
        render::RenderSettings s = drawnBy(technique);
        CullSettings cull{true, true, 1.0f, false, true};
        // At 320 x 180 no walker's triangles reach the default 16 pixels: the members at LOD 0 about
        // 170 pixels across or more go to the hardware here.
        cull.hardware_triangle_px = 1.5f;
        const render::RenderOutput hardware = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
        s.raster = Raster::Auto;
        const render::RenderOutput split = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
        ASSERT_GT(split.drawn.hardware, 0u) << "no member the hardware's: the hardware part shows nothing";
        ASSERT_LT(split.drawn.hardware, split.drawn.per_lod[0]) << "no member at LOD 0 in compute";
        const Agreement agree = compare(hardware, split, 24);
        std::printf("auto, %s, street: %u members by the hardware, %u at LOD 0 and %u coarser in compute; %zu of %zu "
                    "pixels differ\n",
                    technique, split.drawn.hardware, split.drawn.per_lod[0] - split.drawn.hardware,
                    split.drawn.in_frustum - split.drawn.per_lod[0], agree.differ, agree.pixels);
        EXPECT_LE(agree.differ, agree.pixels / 100) << technique;
        if (context_->timestamps) {
            EXPECT_LT(passIndex(split.passes, "draw"), split.passes.size()) << technique;
            EXPECT_LT(passIndex(split.passes, "resolve"), split.passes.size()) << technique;
            if (std::string_view(technique) == "pose") {
                EXPECT_LT(passIndex(split.passes, "pose"), passIndex(split.passes, "raster"));
            }
        }
    }
}

// The baked skinning matrices of `clip` at clip time `t` in double: the two baked frames around
// it (each the exact pose at its frame time) tweened, as framesAt and tweenedJoint do in float.
std::vector<glm::dmat4> tweenedReference(const Model& model, const BakedClip& clip, const Clip& source, double t) {
    const double last = double(clip.frame_count - 1);
    const double local = clip.loop && clip.duration > 0.0f ? std::fmod(t, double(clip.duration))
                                                           : std::clamp(t, 0.0, double(clip.duration));
    const double u = clip.duration > 0.0f ? std::clamp(local / clip.duration * last, 0.0, last) : 0.0;
    const uint32_t f0 = uint32_t(std::floor(u)), f1 = std::min(f0 + 1, clip.frame_count - 1);
    const auto a = referenceSkinningMatrices(model, &source, bakedFrameTime(clip, f0), false);
    const auto b = referenceSkinningMatrices(model, &source, bakedFrameTime(clip, f1), false);
    std::vector<glm::dmat4> m(a.size());
    for (size_t j = 0; j < a.size(); ++j) m[j] = a[j] * (1.0 - (u - f0)) + b[j] * (u - f0);
    return m;
}

// The vertex cache's normal encoding (vertex_cache.glsl's decodeCachedNormal), in double.
glm::dvec3 decodeOctahedral(uint32_t w) {
    const glm::dvec2 e(std::max(double(int16_t(w & 0xffffu)) / 32767.0, -1.0),
                       std::max(double(int16_t(w >> 16)) / 32767.0, -1.0));
    glm::dvec3 n(e, 1.0 - std::abs(e.x) - std::abs(e.y));
    const double t = std::max(-n.z, 0.0);
    n.x += n.x >= 0.0 ? -t : t;
    n.y += n.y >= 0.0 ? -t : t;
    return glm::normalize(n);
}

double angleBetween(glm::dvec3 a, glm::dvec3 b) {
    return std::acos(std::clamp(glm::dot(glm::normalize(a), glm::normalize(b)), -1.0, 1.0));
}

// The vertex cache after the cache pass of an unculled frame (every member at LOD 0, member i in
// slot i), decoded: what each cache test compares with its reference.
struct DecodedCache {
    uint32_t n = 0;                        // LOD 0's vertices per member
    std::vector<uint32_t> vertices;        // their global ids (BakedAsset::vertices), in the cache's order
    std::vector<glm::dvec3> positions;     // member-major: [m * n + i] is member m's vertices[i]
    std::vector<glm::dvec3> normals;       // the same, unit
    glm::dvec3 box_min{0.0}, box_max{0.0}; // the cache box
    size_t prepare_passes = 0;             // the technique's, run before the cache pass
};

// Runs the prepare passes of `drawn` (given: the technique whose palettes `raster` reads; its CPU
// palettes written first by update()) and `raster`'s cache pass for an unculled frame of `crowd`
// (on the GPU: `gpu_crowd`) at `time`, each in its own submission, and reads the cache back.
// Fails the test and returns nothing when there is no cache pass or a member is not cached.
std::optional<DecodedCache> runCachePass(gpu::Allocator& allocator, const render::GpuAsset& asset,
                                         const render::Crowd& crowd, render::CrowdGpu& gpu_crowd,
                                         render::ComputeRaster& raster, float time,
                                         render::Technique* drawn = nullptr) {
    const gpu::Context& context = *allocator.context;
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Overview, crowd, 64.0f / 36.0f);
    const gpu::shader::DrawConstants constants = render::crowdConstants(vp, time, asset);
    std::vector<gpu::Pass> passes;
    if (drawn != nullptr) {
        drawn->update(0, time);                                 // palette: the CPU writes the slot's palettes
        drawn->addPreparePasses(passes, 0, constants, nullptr); // pose: its `pose` pass
    }
    DecodedCache r;
    r.prepare_passes = passes.size();
    gpu_crowd.addPasses(passes, 0, vp, {64, 36}, CullSettings{false, false, 0.0f, false, false});
    raster.addPasses(passes, 0, constants);
    auto cache_pass = std::find_if(passes.begin(), passes.end(), [](const gpu::Pass& p) { return p.name == "cache"; });
    EXPECT_NE(cache_pass, passes.end()) << "no cache pass";
    if (cache_pass == passes.end()) return std::nullopt;
    // Separate submissions: the cache pass reads what the prepare passes wrote.
    for (size_t i = 0; i < r.prepare_passes; ++i)
        gpu::submitAndWait(context, [&](VkCommandBuffer cmd) { passes[i].record(cmd); });
    gpu::submitAndWait(context, [&](VkCommandBuffer cmd) { cache_pass->record(cmd); });

    const gpu::shader::RasterPlan plan = raster.plan();
    const gpu::shader::RasterRegion lod0 = raster.regions()[0]; // LOD 0 of the one model
    const render::ClusterChain& chain = raster.clusters();
    r.n = chain.lod_vertex_ranges[0].y;
    EXPECT_EQ(lod0.cached, crowd.instances.size()) << "every member at LOD 0 is cached";
    EXPECT_EQ(lod0.vertices, r.n);
    EXPECT_EQ(plan.totals.z, 0u) << "no member left out";
    const std::vector<glm::uvec2> cache = raster.vertexCache(plan.totals.x);
    const std::vector<uint32_t> normals = raster.cacheNormals(plan.totals.x);
    const size_t expected = crowd.instances.size() * r.n;
    EXPECT_EQ(cache.size(), expected);
    EXPECT_EQ(normals.size(), cache.size());
    if (lod0.cached != crowd.instances.size() || cache.size() != expected || normals.size() != expected)
        return std::nullopt;
    const gpu::shader::RasterModel& model = raster.models()[0];
    const glm::dvec3 step(glm::vec3(model.cache_step));
    r.box_min = glm::dvec3(glm::vec3(model.cache_origin));
    r.box_max = r.box_min + step * double(THRONG_CACHE_STEPS);
    r.vertices.assign(chain.lod_vertices.begin() + chain.lod_vertex_ranges[0].x,
                      chain.lod_vertices.begin() + chain.lod_vertex_ranges[0].x + r.n);
    for (size_t k = 0; k < expected; ++k) {
        const glm::uvec2 w = cache[lod0.cache_vertex + k];
        const glm::dvec3 q(w.x & THRONG_CACHE_STEPS, (w.x >> 21) | ((w.y & 0x3ffu) << 11), w.y >> 10);
        r.positions.push_back(r.box_min + q * step);
        r.normals.push_back(decodeOctahedral(normals[lod0.cache_vertex + k]));
    }
    return r;
}

// The double-precision reference of a skinned member, every mesh of `model` in order, for the
// joints' skinning matrices `matrices`: positions and normals as the shaders compute them.
// Linear: the blended matrix applied to the normal itself, not its inverse transpose as
// referenceSkin does (for the cross-faded walker the two differ by up to 0.15 rad). Dual
// quaternions: referenceSkinDualQuaternion (the blend's rotation applied to the normal).
// `inverse_transpose`: linear normals as referenceSkin turns them (technique cpu's CPU skinning).
void referenceMember(const Model& model, std::span<const glm::dmat4> matrices, Skinning skinning,
                     std::vector<glm::dvec3>& positions, std::vector<glm::dvec3>& normals,
                     bool inverse_transpose = false) {
    positions.clear();
    normals.clear();
    for (const Mesh& mesh : model.meshes) {
        if (skinning == Skinning::DualQuaternion) {
            const SkinnedVertices v = referenceSkinDualQuaternion(mesh, matrices);
            positions.insert(positions.end(), v.positions.begin(), v.positions.end());
            normals.insert(normals.end(), v.normals.begin(), v.normals.end());
            continue;
        }
        const SkinnedVertices v = referenceSkin(mesh, matrices);
        positions.insert(positions.end(), v.positions.begin(), v.positions.end());
        if (inverse_transpose) { // as technique cpu turns them on the CPU
            normals.insert(normals.end(), v.normals.begin(), v.normals.end());
            continue;
        }
        for (size_t i = 0; i < mesh.normals.size(); ++i) {
            glm::dmat3 sum(0.0);
            for (int j = 0; j < 4; ++j) sum += glm::dmat3(matrices[mesh.joints[i][j]]) * double(mesh.weights[i][j]);
            normals.push_back(sum * glm::dvec3(mesh.normals[i]));
        }
    }
}

// How far the cache is from a reference, and how far the two skinnings' references are apart.
struct CacheError {
    double worst = 0.0, worst_angle = 0.0;
    double other_skinning = 0.0; // the largest difference between the linear and the dual-quaternion reference
};

// `crowd` with every second member cross-fading into the next clip at 0.35.
render::Crowd halfCrossFading(render::Crowd crowd, const BakedAsset& baked) {
    for (size_t i = 0; i < crowd.instances.size(); i += 2) {
        gpu::shader::InstanceRecord& inst = crowd.instances[i];
        inst.clips =
            gpu::shader::throngClips(gpu::shader::throngClipA(inst.clips),
                                     (gpu::shader::throngClipA(inst.clips) + 1u) % uint32_t(baked.clips.size()), 0u);
        inst.blend = 0.35f;
    }
    return crowd;
}

// The vertex cache (section 1 of the issue) of technique `baked`, with `skinning`: after the cache
// pass of an unculled frame, every member's LOD 0 vertices are in the cache, and each decoded
// position equals the double-precision skinning of the baked frames around the member's time
// (tweened, cross-fades blended as matrices, then each vertex's joints blended linearly or as
// dual quaternions) within 1e-5 of the walker's size: the float matrices and the 21-bit steps
// of the cache box. Each normal points where the reference takes it within 1e-3 radians (the
// octahedral 2 x 16 bits: about 1e-4).
TEST_F(ComputeRaster, VertexCacheHoldsTheReferencePose) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    const Model model = makeWalker();
    const render::Crowd crowd = halfCrossFading(crowdOf(12), baked_);
    const float time = 0.61f;
    const double diagonal = bindPoseBounds(model).diagonal();
    for (Skinning skinning : {Skinning::Linear, Skinning::DualQuaternion}) {
        SCOPED_TRACE(toString(skinning));
        render::CrowdGpu gpu_crowd(*allocator_, asset_, crowd.instances, crowd.clip_bounds, 1);
        render::RasterOptions options;
        options.skinning = skinning;
        render::ComputeRaster raster(*allocator_, "baked", baked_, asset_, gpu_crowd, {64, 36}, VK_FORMAT_R8G8B8A8_SRGB,
                                     VK_FORMAT_D32_SFLOAT, 1, options);
        const std::optional<DecodedCache> cache = runCachePass(*allocator_, asset_, crowd, gpu_crowd, raster, time);
        ASSERT_TRUE(cache);
        const Skinning other = skinning == Skinning::Linear ? Skinning::DualQuaternion : Skinning::Linear;
        CacheError e;
        std::vector<glm::dvec3> reference, reference_normals, other_positions, other_normals;
        for (size_t m = 0; m < crowd.instances.size(); ++m) {
            const gpu::shader::InstanceRecord& inst = crowd.instances[m];
            const double t = double(time) * inst.speed + inst.time_offset;
            const uint32_t a = gpu::shader::throngClipA(inst.clips), b = gpu::shader::throngClipB(inst.clips);
            const auto ma = tweenedReference(model, baked_.clips[a], model.clips[a], t),
                       mb = tweenedReference(model, baked_.clips[b], model.clips[b], t);
            std::vector<glm::dmat4> blended(ma.size());
            for (size_t j = 0; j < ma.size(); ++j) blended[j] = ma[j] * (1.0 - inst.blend) + mb[j] * double(inst.blend);
            referenceMember(model, blended, skinning, reference, reference_normals);
            referenceMember(model, blended, other, other_positions, other_normals);
            for (uint32_t i = 0; i < cache->n; ++i) {
                const uint32_t vertex = cache->vertices[i];
                e.worst =
                    std::max(e.worst, glm::length(cache->positions[m * cache->n + i] - reference[vertex]) / diagonal);
                e.worst_angle =
                    std::max(e.worst_angle, angleBetween(cache->normals[m * cache->n + i], reference_normals[vertex]));
                e.other_skinning =
                    std::max(e.other_skinning, glm::length(other_positions[vertex] - reference[vertex]) / diagonal);
            }
        }
        std::printf("baked vertex cache (%s): %zu members x %u vertices, largest difference from the double "
                    "reference %.2e of the size, normals %.2e rad (the other skinning's reference is up to %.2e "
                    "away)\n",
                    toString(skinning), crowd.instances.size(), cache->n, e.worst, e.worst_angle, e.other_skinning);
        EXPECT_LE(e.worst, 1e-5);
        EXPECT_LE(e.worst_angle, 1e-3);
        EXPECT_GT(e.other_skinning, 1e-4) << "the two skinnings' references are too close to tell them apart";
    }
}

// What checkPaletteCache found.
struct PaletteCacheCheck : CacheError {
    double layer_moves = 0.0;
    double outside = -1.0, past_clips = -1.0; // how far the reference reaches past the cache box, the clips' boxes
    uint32_t carriers = 0;                    // members carrying the layer
};

// The vertex cache of a technique with TechniqueInfo::palettes_in_compute (`technique`, joints in
// `encoding`, blended with `skinning`) or vertices_in_compute (cpu): half the members cross-fade,
// the layer (kPoseLayers: the idle's upper body at 0.7) is on 60% of them; the technique writes
// every member's palette (pose: its `pose` pass; palette, palette-ubo, bonetex: update() on the
// CPU, into a storage buffer, padded uniform blocks or a texture uploaded by its `upload` pass),
// the cache pass copies (or decodes) each cached member's rows into shared memory (with dual
// quaternions: then takes each joint apart once) and skins from there; or (cpu) the CPU skins
// every vertex and the cache pass copies them. Every decoded position against the double-precision skinning of the same
// blend (referenceBlendedSkinningMatrices, then referenceMember), each normal against where the
// reference takes it.
PaletteCacheCheck checkPaletteCache(gpu::Allocator& allocator, const BakedAsset& baked, const render::GpuAsset& asset,
                                    render::Crowd crowd, const char* technique_name, JointEncoding encoding,
                                    Skinning skinning = Skinning::Linear) {
    PaletteCacheCheck r;
    const Model model = makeWalker();
    for (size_t i = 0; i < crowd.instances.size(); ++i) { // half of them cross-fading
        gpu::shader::InstanceRecord& inst = crowd.instances[i];
        const uint32_t a = gpu::shader::throngClipA(inst.clips);
        inst.clips = gpu::shader::throngClips(a, i % 2 == 0 ? (a + 1u) % uint32_t(baked.clips.size()) : a, 0u);
        inst.blend = i % 2 == 0 ? 0.35f : 0.0f;
    }
    const Result<std::vector<render::PoseLayerSetup>> layers = render::resolveLayers(baked.source, kPoseLayers);
    EXPECT_TRUE(layers) << layers.error().message;
    if (!layers) return r;
    const float time = 0.61f;
    render::CrowdGpu gpu_crowd(
        allocator, asset, crowd.instances,
        render::techniqueCullBounds(technique_name, crowd.clip_bounds, throng::defaultSwim(), true), 1);
    render::TechniqueSetup ts;
    ts.allocator = &allocator;
    ts.asset = &asset;
    ts.instances = &crowd.instances;
    ts.crowd = &gpu_crowd;
    ts.color_format = VK_FORMAT_R8G8B8A8_SRGB;
    ts.depth_format = VK_FORMAT_D32_SFLOAT;
    ts.frames_in_flight = 1;
    ts.sources = render::poseSources(&baked.source);
    ts.layers = kPoseLayers;
    ts.encoding = encoding;
    ts.skinning = skinning;
    const TechniqueInfo& info = *findTechnique(technique_name);
    const render::BakedAssetMesh mesh = info.needs_cpu_mesh ? render::cpuMesh(baked) : render::BakedAssetMesh{};
    ts.mesh = &mesh;
    Result<std::unique_ptr<render::Technique>> created = render::createTechnique(technique_name, ts);
    EXPECT_TRUE(created) << created.error().message;
    if (!created) return r;
    render::Technique& technique = *created.value();
    if (info.palettes_in_compute) {
        const render::ComputePalettes p = technique.computePalettes(0);
        EXPECT_TRUE(p.buffer != VK_NULL_HANDLE || p.image != VK_NULL_HANDLE) << technique_name;
        EXPECT_EQ(p.encoding, encoding) << technique_name;
    } else {
        EXPECT_NE(technique.computeVertices(0), VkBuffer(VK_NULL_HANDLE)) << technique_name;
    }
    render::RasterOptions options;
    options.skinning = skinning;
    render::ComputeRaster raster(allocator, technique_name, baked, asset, gpu_crowd, {64, 36}, VK_FORMAT_R8G8B8A8_SRGB,
                                 VK_FORMAT_D32_SFLOAT, 1, options, &technique);
    EXPECT_EQ(raster.parameters().coarse_lods, 0u);
    const std::optional<DecodedCache> cache =
        runCachePass(allocator, asset, crowd, gpu_crowd, raster, time, &technique);
    if (!cache) return r;
    // pose: its `pose` pass; bonetex: its `upload` pass.
    const bool prepares = std::string_view(technique_name) == "pose" || std::string_view(technique_name) == "bonetex";
    EXPECT_EQ(cache->prepare_passes, prepares ? 1u : 0u);
    const double diagonal = bindPoseBounds(model).diagonal();
    Bounds clips_box = crowd.clip_bounds.front(); // the clips' own boxes (baked's cache box)
    for (const Bounds& b : crowd.clip_bounds) {
        clips_box.min = glm::min(clips_box.min, b.min);
        clips_box.max = glm::max(clips_box.max, b.max);
    }
    // How far past a box `p` lies, / the size (negative: inside, that far from its nearest face).
    auto beyond = [&](glm::dvec3 lo, glm::dvec3 hi, glm::dvec3 p) {
        const glm::dvec3 past = glm::max(lo - p, p - hi);
        return std::max(past.x, std::max(past.y, past.z)) / diagonal;
    };
    const Skinning other = skinning == Skinning::Linear ? Skinning::DualQuaternion : Skinning::Linear;
    std::vector<glm::dvec3> reference, reference_normals, without_layer, unused, other_positions;
    for (uint32_t m = 0; m < crowd.instances.size(); ++m) {
        const gpu::shader::InstanceRecord& inst = crowd.instances[m];
        const double t = double(float(time * inst.speed + inst.time_offset)); // as the technique computes it
        std::vector<ReferenceLayer> over, fade_only;
        if (inst.blend > 0.0f)
            over.push_back({&model.clips[gpu::shader::throngClipB(inst.clips)], t,
                            std::vector<double>(model.skeleton.size(), double(inst.blend))});
        fade_only = over;
        const uint32_t key = inst.key != 0 ? inst.key : m;
        for (uint32_t l = 0; l < layers.value().size(); ++l) {
            if (!gpu::shader::throngCarries(key, THRONG_LAYER_SALT + l, layers.value()[l].share)) continue;
            ReferenceLayer layer{&model.clips[layers.value()[l].clip], t, {}};
            for (float w : layers.value()[l].mask)
                layer.weights.push_back(double(w) * double(layers.value()[l].weight));
            over.push_back(std::move(layer));
        }
        r.carriers += over.size() > fade_only.size() ? 1 : 0;
        const Clip* base = &model.clips[gpu::shader::throngClipA(inst.clips)];
        const std::vector<glm::dmat4> blended = referenceBlendedSkinningMatrices(model, base, t, over, true),
                                      plain = referenceBlendedSkinningMatrices(model, base, t, fade_only, true);
        referenceMember(model, blended, skinning, reference, reference_normals, info.vertices_in_compute);
        referenceMember(model, plain, skinning, without_layer, unused);
        referenceMember(model, blended, other, other_positions, unused);
        for (uint32_t i = 0; i < cache->n; ++i) {
            const uint32_t vertex = cache->vertices[i];
            const glm::dvec3 p = cache->positions[m * cache->n + i], want = reference[vertex];
            r.worst = std::max(r.worst, glm::length(p - want) / diagonal);
            r.worst_angle =
                std::max(r.worst_angle, angleBetween(cache->normals[m * cache->n + i], reference_normals[vertex]));
            r.other_skinning = std::max(r.other_skinning, glm::length(other_positions[vertex] - want) / diagonal);
            r.layer_moves = std::max(r.layer_moves, glm::length(without_layer[vertex] - want) / diagonal);
            r.outside = std::max(r.outside, beyond(cache->box_min, cache->box_max, want)); // past 0: clamped
            r.past_clips = std::max(r.past_clips, beyond(clips_box.min, clips_box.max, want));
        }
    }
    std::printf("%s%s vertex cache (%s): %zu members x %u vertices, %u carrying the layer (it moves vertices up to "
                "%.3f of the size); largest difference from the double reference %.2e of the size, normals %.2e rad "
                "(the other skinning's reference is up to %.2e away); nearest approach to the cache box's faces "
                "%.3f of the size (to the clips' own boxes' %.3f)\n",
                technique_name, encoding == JointEncoding::Quaternion ? " (quat)" : "", toString(skinning),
                crowd.instances.size(), cache->n, r.carriers, r.layer_moves, r.worst, r.worst_angle, r.other_skinning,
                -r.outside, -r.past_clips);
    EXPECT_LT(r.outside, 0.0) << "a pose reaches the cache box's faces";
    EXPECT_GT(r.layer_moves, 0.02) << "the layer did nothing";
    EXPECT_GT(r.other_skinning, 1e-4) << "the two skinnings' references are too close to tell them apart";
    EXPECT_GT(r.carriers, 2u);
    EXPECT_LT(r.carriers, uint32_t(crowd.instances.size()));
    return r;
}

// Technique `pose` in the vertex cache: its `pose` pass writes every member's palette (the
// cross-fade and the layer blended in local space). Every decoded position equals the
// double-precision skinning of the same blend within 1e-5 of the walker's size (the pass's float
// matrices and the 21-bit steps of the cache box, which is culling's grown box: a limb swung past
// the clips' boxes would be clamped), each normal within 1e-3 radians of where the reference
// takes it; with linear and with dual-quaternion skinning.
TEST_F(ComputeRaster, PoseVertexCacheHoldsTheReferenceBlend) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    for (Skinning skinning : {Skinning::Linear, Skinning::DualQuaternion}) {
        const PaletteCacheCheck r =
            checkPaletteCache(*allocator_, baked_, asset_, crowdOf(12), "pose", JointEncoding::Matrix, skinning);
        EXPECT_LE(r.worst, 1e-5) << toString(skinning);
        EXPECT_LE(r.worst_angle, 1e-3) << toString(skinning);
    }
}

// Technique `palette` in the vertex cache: the CPU samples every member's palette into the frame
// slot's buffer (the same blend as pose, in float on the CPU), in either encoding: 3x4 matrices,
// copied as pose's are, or quaternion + translation + uniform scale (2 rows a joint), decoded by
// the cache pass as palette.vert decodes them; each with linear and dual-quaternion skinning. The
// same bounds as pose's.
TEST_F(ComputeRaster, PaletteVertexCacheHoldsTheReferenceBlend) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    for (JointEncoding encoding : {JointEncoding::Matrix, JointEncoding::Quaternion})
        for (Skinning skinning : {Skinning::Linear, Skinning::DualQuaternion}) {
            const PaletteCacheCheck r =
                checkPaletteCache(*allocator_, baked_, asset_, crowdOf(12), "palette", encoding, skinning);
            EXPECT_LE(r.worst, 1e-5) << toString(encoding) << ", " << toString(skinning);
            EXPECT_LE(r.worst_angle, 1e-3) << toString(encoding) << ", " << toString(skinning);
        }
}

// The CPU-fed techniques in the vertex cache, the same bounds as pose's: palette-ubo (its padded
// 16 KiB uniform blocks read as one storage buffer, batch by batch; both encodings, both
// skinnings), bonetex (its texture of quaternion texels) and cpu (its CPU-skinned vertices, linear).
TEST_F(ComputeRaster, CpuFedVertexCachesHoldTheReferenceBlend) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    struct Case {
        const char* technique;
        JointEncoding encoding;
        Skinning skinning;
    };
    const Case cases[] = {{"palette-ubo", JointEncoding::Matrix, Skinning::Linear},
                          {"palette-ubo", JointEncoding::Quaternion, Skinning::Linear},
                          {"palette-ubo", JointEncoding::Matrix, Skinning::DualQuaternion},
                          {"bonetex", JointEncoding::Quaternion, Skinning::Linear},
                          {"cpu", JointEncoding::Matrix, Skinning::Linear}};
    for (const Case& c : cases) {
        // More members than one palette-ubo block holds (the walker's: 17 as matrices), so the
        // batches' padding is crossed.
        const PaletteCacheCheck r =
            checkPaletteCache(*allocator_, baked_, asset_, crowdOf(40), c.technique, c.encoding, c.skinning);
        EXPECT_LE(r.worst, 1e-5) << c.technique << ", " << toString(c.encoding) << ", " << toString(c.skinning);
        EXPECT_LE(r.worst_angle, 1e-3) << c.technique << ", " << toString(c.encoding) << ", " << toString(c.skinning);
    }
}

// Technique `vat` in the vertex cache: no joints, each cached vertex sampled from the vertex
// animation by its id (every LOD indexes the same vertices, which the VAT holds), the two frames
// around the member's time tweened and clip B cross-faded in, as vat.vert does. Half the members
// cross-fade. Each decoded position against the baked texels themselves, tweened and blended in
// double, and against the double-precision skinning of the same frames (tweenedReference: the
// texels are that skinning rounded to float, and tweening and cross-fading are linear in the
// matrices), both within 1e-5 of the walker's size; each normal within 1e-3 radians of the
// texels' blend.
TEST_F(ComputeRaster, VatVertexCacheHoldsTheBakedVertices) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    ASSERT_TRUE(baked_.hasVat());
    ASSERT_TRUE(asset_.has_vat) << asset_.vat_problem;
    const Model model = makeWalker();
    const render::Crowd crowd = halfCrossFading(crowdOf(12), baked_);
    const float time = 0.61f;
    EXPECT_EQ(render::computeRasterProblem(*context_, "vat", baked_, crowd.instances.size()), "");
    render::CrowdGpu gpu_crowd(*allocator_, asset_, crowd.instances, crowd.clip_bounds, 1);
    render::ComputeRaster raster(*allocator_, "vat", baked_, asset_, gpu_crowd, {64, 36}, VK_FORMAT_R8G8B8A8_SRGB,
                                 VK_FORMAT_D32_SFLOAT, 1);
    EXPECT_EQ(raster.parameters().coarse_lods, 0u);
    const std::optional<DecodedCache> cache = runCachePass(*allocator_, asset_, crowd, gpu_crowd, raster, time);
    ASSERT_TRUE(cache);
    const uint32_t n = cache->n;
    const double diagonal = bindPoseBounds(model).diagonal();
    // Vertex `v`'s texel (position or normal) of `clip` at clip time `t`, the two frames around
    // it tweened in double (framesAt's arithmetic).
    auto texelAt = [&](uint32_t clip, double t, uint32_t v, bool normal) {
        const BakedClip& c = baked_.clips[clip];
        const double last = double(c.frame_count - 1);
        const double local =
            c.loop && c.duration > 0.0f ? std::fmod(t, double(c.duration)) : std::clamp(t, 0.0, double(c.duration));
        const double u = c.duration > 0.0f ? std::clamp(local / c.duration * last, 0.0, last) : 0.0;
        const uint32_t f0 = uint32_t(std::floor(u)), f1 = std::min(f0 + 1, c.frame_count - 1);
        const glm::dvec3 a(glm::vec3(vatTexel(baked_, clip, f0, v, normal))),
            b(glm::vec3(vatTexel(baked_, clip, f1, v, normal)));
        return a * (1.0 - (u - f0)) + b * (u - f0);
    };
    double worst = 0.0, worst_skinned = 0.0, worst_angle = 0.0;
    for (uint32_t m = 0; m < crowd.instances.size(); ++m) {
        const gpu::shader::InstanceRecord& inst = crowd.instances[m];
        const double t = double(float(time * inst.speed + inst.time_offset)); // as the shader computes it
        const uint32_t a = gpu::shader::throngClipA(inst.clips), b = gpu::shader::throngClipB(inst.clips);
        const double blend = inst.blend > 0.0f ? double(inst.blend) : 0.0;
        const auto ma = tweenedReference(model, baked_.clips[a], model.clips[a], t),
                   mb = tweenedReference(model, baked_.clips[b], model.clips[b], t);
        std::vector<glm::dmat4> blended(ma.size());
        for (size_t j = 0; j < ma.size(); ++j) blended[j] = ma[j] * (1.0 - blend) + mb[j] * blend;
        std::vector<glm::dvec3> skinned;
        for (const Mesh& mesh : model.meshes) {
            const SkinnedVertices v = referenceSkin(mesh, blended);
            skinned.insert(skinned.end(), v.positions.begin(), v.positions.end());
        }
        for (uint32_t i = 0; i < n; ++i) {
            const glm::dvec3 p = cache->positions[m * n + i];
            const uint32_t vertex = cache->vertices[i];
            const glm::dvec3 want = texelAt(a, t, vertex, false) * (1.0 - blend) + texelAt(b, t, vertex, false) * blend;
            const glm::dvec3 normal = texelAt(a, t, vertex, true) * (1.0 - blend) + texelAt(b, t, vertex, true) * blend;
            worst = std::max(worst, glm::length(p - want) / diagonal);
            worst_skinned = std::max(worst_skinned, glm::length(p - skinned[vertex]) / diagonal);
            worst_angle = std::max(worst_angle, angleBetween(cache->normals[m * n + i], normal));
        }
    }
    std::printf("vat vertex cache: %zu members x %u vertices, largest difference from the baked texels %.2e of the "
                "size (from the double skinning %.2e), normals %.2e rad\n",
                crowd.instances.size(), n, worst, worst_skinned, worst_angle);
    EXPECT_LE(worst, 1e-5);
    EXPECT_LE(worst_skinned, 1e-5);
    EXPECT_LE(worst_angle, 1e-3);
}

// The cache changes where positions come from, not the picture: with the cache, without it, and
// with room for only part of the crowd (the rest skinned per cluster), the street view agrees;
// with dual quaternions too (the cache pass takes each joint apart once, the per-cluster and
// resolve variants per vertex's joint).
TEST_F(ComputeRaster, PictureIsTheSameWithAndWithoutTheVertexCache) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    const render::Crowd crowd = crowdOf(400);
    const CullSettings cull{true, true, 1.0f, false, true};
    for (const char* technique : {"baked", "pose", "palette", "palette-quat", "vat", "baked@dq", "palette@dq"}) {
        render::RenderSettings s = drawnBy(technique);
        s.raster = Raster::Compute;
        const render::RenderOutput cached = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
        EXPECT_GT(cached.vertex_cache.cached_members, 0u) << technique;
        EXPECT_EQ(cached.vertex_cache.uncached_members, 0u) << technique;
        EXPECT_GT(cached.vertex_cache.cache_pass_bytes, cached.vertex_cache.cached_vertices * 8 - 1) << technique;
        s.vertex_cache_bytes = 0;
        const render::RenderOutput uncached = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
        EXPECT_EQ(uncached.vertex_cache.cached_members, 0u) << technique;
        s.vertex_cache_bytes = cached.vertex_cache.cached_vertices * 8 / 3;
        const render::RenderOutput part = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
        EXPECT_GT(part.vertex_cache.cached_members, 0u) << technique;
        EXPECT_GT(part.vertex_cache.uncached_members, 0u) << technique;
        std::printf("%s cache: %llu members, %llu vertices, %llu bytes in its pass; part: %llu cached, %llu skinned "
                    "per cluster\n",
                    technique, (unsigned long long)cached.vertex_cache.cached_members,
                    (unsigned long long)cached.vertex_cache.cached_vertices,
                    (unsigned long long)cached.vertex_cache.cache_pass_bytes,
                    (unsigned long long)part.vertex_cache.cached_members,
                    (unsigned long long)part.vertex_cache.uncached_members);
        for (const render::RenderOutput* other : {&uncached, &part}) {
            const Agreement agree = compare(cached, *other, 8);
            std::printf("%s: %s, %zu of %zu pixels differ from the cached picture\n", technique,
                        other == &uncached ? "no cache" : "part cached", agree.differ, agree.pixels);
            EXPECT_LE(agree.differ, agree.pixels / 1000)
                << technique << ": " << agree.differ << " of " << agree.pixels << " pixels differ";
        }
    }
}

// builtin:twist (a cylinder whose upper joint turns 180 degrees and back), where the two
// skinnings differ most: at 180 degrees linear blending collapses the middle (the candy wrapper),
// dual quaternions keep it round.
class ComputeRasterTwist : public ComputeRaster {
  protected:
    Model suiteModel() const override { return makeTwist(); }
    BakeOptions bakeOptions() const override {
        BakeOptions o;
        o.lods = 1;
        return o;
    }
};

// Each technique that blends joints, with dual quaternions through the compute rasterizer against
// the hardware's; and the compute picture with linear skinning far from it, so the agreement is
// the dual quaternions' and not a picture the two skinnings share.
TEST_F(ComputeRasterTwist, DualQuaternionPictureAgreesWithTheHardwareRasterizer) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    render::Crowd crowd = crowdOf(9);
    for (gpu::shader::InstanceRecord& r : crowd.instances) { // every member at 180 degrees
        r.speed = 1.0f;
        r.time_offset = 0.0f;
        r.blend = 0.0f;
    }
    const CullSettings cull{true, false, 1.0f, false, true};
    for (const char* technique : {"baked", "pose", "palette"}) {
        render::RenderSettings s;
        s.technique = technique;
        s.raster = Raster::Hardware; // the reference
        s.skinning = Skinning::DualQuaternion;
        const render::RenderOutput hardware = renderAt(crowd, render::ViewKind::Overview, 1, 2.0f, cull, s);
        s.raster = Raster::Compute;
        const render::RenderOutput compute = renderAt(crowd, render::ViewKind::Overview, 1, 2.0f, cull, s);
        s.skinning = Skinning::Linear;
        const render::RenderOutput linear = renderAt(crowd, render::ViewKind::Overview, 1, 2.0f, cull, s);
        const Agreement agree = compare(hardware, compute, 24), apart = compare(hardware, linear, 24);
        std::printf("twist, %s, dual quaternions: %zu of %zu pixels covered, %zu differ in compute (%.2f%%); "
                    "compute with linear skinning differs in %zu\n",
                    technique, agree.covered, agree.pixels, agree.differ,
                    100.0 * double(agree.differ) / double(agree.pixels), apart.differ);
        EXPECT_GT(agree.covered, agree.pixels / 50) << "nothing drawn";
        EXPECT_LE(agree.differ, agree.pixels / 100) << technique;
        EXPECT_GT(apart.differ, 10 * agree.differ + 50) << technique << ": the skinnings look alike";
    }
}

// The walker (with its vertex animation) carrying builtin:sword in the right hand on half the
// members and builtin:hat on three quarters, as attach_test's crowds.
class ComputeRasterProps : public ComputeRaster {
  protected:
    void prepare(BakedAsset& asset) const override {
        Attachment sword;
        sword.joint = "hand_r";
        sword.prop = makeSword();
        sword.offset = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -0.05f, 0.02f));
        sword.share = 0.5f;
        Attachment hat;
        hat.joint = "head";
        hat.prop = makeHat();
        hat.offset = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, 0.2f, 0.0f));
        hat.share = 0.75f;
        const Attachment props[] = {sword, hat};
        const Status s = attachProps(asset, props);
        ASSERT_TRUE(s.ok()) << s.message;
    }
};

// Props through the compute rasterizer: a prop's clusters only on the members that carry it, in
// its own colours (no member tint), as the hardware path draws them (member.glsl). Each
// technique's picture against the hardware's, in the overview and the street view, at full detail
// and with LOD; the pixels that differ must be few beside the props' own footprint (what the
// hardware picture gains from the props), which drawing them on every member or tinted would
// reach.
TEST_F(ComputeRasterProps, PropsAgreeWithTheHardwareRasterizer) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    ASSERT_EQ(baked_.props.size(), 2u);
    // The same walker without props, for the props' footprint.
    Result<BakedAsset> bare = bake(makeWalker(), bakeOptions());
    ASSERT_TRUE(bare.ok());
    Result<render::GpuAsset> bare_gpu = render::uploadAsset(*allocator_, bare.value());
    ASSERT_TRUE(bare_gpu.ok()) << bare_gpu.error().message;
    for (render::ViewKind view : {render::ViewKind::Overview, render::ViewKind::Street}) {
        const render::Crowd crowd = crowdOf(view == render::ViewKind::Street ? 400 : 120);
        for (size_t p = 0; p < baked_.props.size(); ++p) { // some members carry each, some do not
            const uint32_t share = uint32_t(std::lround(baked_.props[p].share * 256.0f));
            size_t carriers = 0;
            for (size_t m = 0; m < crowd.instances.size(); ++m) {
                const uint32_t key = crowd.instances[m].key != 0 ? crowd.instances[m].key : uint32_t(m);
                carriers += gpu::shader::throngCarries(key, uint32_t(p + 1), share) ? 1 : 0;
            }
            EXPECT_GT(carriers, 0u);
            EXPECT_LT(carriers, crowd.instances.size());
        }
        for (bool lod : {false, true}) {
            const CullSettings cull{true, lod, 1.0f, false, true};
            render::RenderSettings plain = drawnBy("baked");
            plain.width = 320;
            plain.height = 180;
            plain.frames = 1;
            plain.time = 0.8f;
            plain.cull = cull;
            plain.baked = &bare.value();
            Result<render::RenderOutput> without = render::renderCrowd(
                *allocator_, bare_gpu.value(), crowd, render::crowdViewProjection(view, crowd, 320.0f / 180.0f), plain);
            ASSERT_TRUE(without.ok()) << without.error().message;
            size_t footprint = 0; // baked's (the bare walker is drawn by baked), the yardstick for all
            for (const char* technique : {"baked", "pose", "palette", "vat", "static", "baked@dq"}) {
                render::RenderSettings s = drawnBy(technique);
                const render::RenderOutput hardware = renderAt(crowd, view, 1, 0.8f, cull, s);
                s.raster = Raster::Compute;
                const render::RenderOutput compute = renderAt(crowd, view, 1, 0.8f, cull, s);
                ASSERT_EQ(hardware.rgba.size(), compute.rgba.size());
                const Agreement agree = compare(hardware, compute, 24);
                if (std::string_view(technique) == "baked") footprint = compare(hardware, without.value(), 24).differ;
                std::printf("props, %s, %s, LOD %s: the props change %zu of %zu pixels of baked's hardware picture; "
                            "%zu differ in compute (%.2f%%)\n",
                            technique, toString(view), lod ? "on" : "off", footprint, agree.pixels, agree.differ,
                            100.0 * double(agree.differ) / double(agree.pixels));
                EXPECT_GT(footprint, agree.pixels / 500) << "the props show too little to tell";
                EXPECT_LE(agree.differ, agree.pixels / 100) << technique << ", " << toString(view);
                EXPECT_LE(agree.differ * 10, footprint) << technique << ", " << toString(view);
            }
        }
    }
    bare_gpu.value().release();
}

// builtin:fish baked, for technique procedural: schools of it in a volume, swum by kTestSwim.
class ComputeRasterFish : public ComputeRaster {
  protected:
    Model suiteModel() const override { return makeFish(); }
    BakeOptions bakeOptions() const override { return {}; }
    render::Crowd schoolOf(uint32_t count) const {
        render::CrowdLayout co;
        co.count = count;
        co.volume = true;
        return render::makeCrowd(baked_, co);
    }
    // Not defaultSwim(): a swim that reaches the shaders only if the raster is given it.
    static SwimParams testSwim() { return {0.1f, 0.3f, 0.25f, 0.5f, 3.1415927f, 2.0f, 0.6f, -0.6f}; }
    render::RenderSettings swimming() const {
        render::RenderSettings s;
        s.technique = "procedural";
        s.raster = Raster::Hardware; // the reference
        s.swim = testSwim();
        return s;
    }
};

// The swim of rest position `p` (normal `n`) of member `inst` at `time`, in double: procedural.vert's
// motions (swim.glsl) evaluated independently.
glm::dvec3 swumInDouble(const SwimParams& w, const gpu::shader::InstanceRecord& inst, double time, glm::dvec3 p,
                        glm::dvec3& n) {
    const double pi = 3.14159265358979323846;
    const double phase = 2.0 * pi * (time * double(inst.speed) * double(w.beats_per_second) + double(inst.time_offset));
    const double t = std::clamp((p.z - double(w.mask_tail)) / (double(w.mask_head) - double(w.mask_tail)), 0.0, 1.0);
    const double mask = 1.0 - t * t * (3.0 - 2.0 * t);
    const double travelling = std::sin(phase - double(w.frequency) * p.z);
    auto rotateZ = [](glm::dvec3 v, double a) {
        return glm::dvec3(std::cos(a) * v.x - std::sin(a) * v.y, std::sin(a) * v.x + std::cos(a) * v.y, v.z);
    };
    auto rotateY = [](glm::dvec3 v, double a) {
        return glm::dvec3(std::cos(a) * v.x + std::sin(a) * v.z, v.y, -std::sin(a) * v.x + std::cos(a) * v.z);
    };
    const double roll = double(w.twist) * travelling * mask, yaw = double(w.pivot) * std::sin(phase);
    p = rotateZ(p, roll);
    n = rotateY(rotateZ(n, roll), yaw);
    p.x += double(w.wave) * travelling * mask;
    p = rotateY(p, yaw);
    p.x += double(w.side) * std::sin(phase);
    return p;
}

// Technique `procedural` in the vertex cache: no joints, each cached vertex of the rest mesh swum
// (swim.glsl, the function procedural.vert calls) at the member's phase. Every decoded position
// against the swim evaluated in double on the CPU within 1e-5 of the fish's size (the float
// trigonometry and the 21-bit steps of the cache box, which is culling's box for the swim: no
// vertex reaches its faces), each normal within 1e-3 radians. The swim is not the default one, so
// the raster must have been given it.
TEST_F(ComputeRasterFish, ProceduralVertexCacheHoldsTheSwim) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    const render::Crowd crowd = schoolOf(12);
    const SwimParams swim = testSwim();
    const float time = 0.61f;
    EXPECT_EQ(render::computeRasterProblem(*context_, "procedural", baked_, crowd.instances.size()), "");
    render::CrowdGpu gpu_crowd(*allocator_, asset_, crowd.instances,
                               render::techniqueCullBounds("procedural", crowd.clip_bounds, swim), 1);
    render::RasterOptions options;
    options.swim = swim;
    render::ComputeRaster raster(*allocator_, "procedural", baked_, asset_, gpu_crowd, {64, 36},
                                 VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_D32_SFLOAT, 1, options);
    EXPECT_EQ(raster.parameters().coarse_lods, 0u);
    const std::optional<DecodedCache> cache = runCachePass(*allocator_, asset_, crowd, gpu_crowd, raster, time);
    ASSERT_TRUE(cache);
    const uint32_t n = cache->n;
    const double diagonal = baked_.bind_bounds.diagonal();
    const glm::dvec3 box_min = cache->box_min, box_max = cache->box_max;
    double worst = 0.0, worst_angle = 0.0, moved = 0.0, outside = -1.0;
    for (uint32_t m = 0; m < crowd.instances.size(); ++m) {
        for (uint32_t i = 0; i < n; ++i) {
            const glm::dvec3 p = cache->positions[m * n + i];
            const BakedVertex& v = baked_.vertices[cache->vertices[i]];
            const glm::dvec3 rest(v.position[0], v.position[1], v.position[2]);
            glm::dvec3 normal(v.normal[0], v.normal[1], v.normal[2]);
            const glm::dvec3 want = swumInDouble(swim, crowd.instances[m], double(time), rest, normal);
            worst = std::max(worst, glm::length(p - want) / diagonal);
            worst_angle = std::max(worst_angle, angleBetween(cache->normals[m * n + i], normal));
            moved = std::max(moved, glm::length(want - rest) / diagonal);
            const glm::dvec3 past = glm::max(box_min - want, want - box_max);
            outside = std::max(outside, std::max(past.x, std::max(past.y, past.z)) / diagonal);
        }
    }
    std::printf("procedural vertex cache: %zu members x %u vertices (the swim moves them up to %.3f of the size); "
                "largest difference from the double swim %.2e of the size, normals %.2e rad; nearest approach to "
                "the cache box's faces %.3f of the size\n",
                crowd.instances.size(), n, moved, worst, worst_angle, -outside);
    EXPECT_LE(worst, 1e-5);
    EXPECT_LE(worst_angle, 1e-3);
    EXPECT_GT(moved, 0.05) << "the swim did nothing";
    EXPECT_LT(outside, 0.0) << "a vertex reaches the cache box's faces";
}

// The swimming school through the compute rasterizer against the hardware's, in the overview and
// the street view, with and without LOD; with `auto`; and with no or a partial cache.
TEST_F(ComputeRasterFish, ProceduralPictureAgreesWithTheHardwareRasterizer) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    for (render::ViewKind view : {render::ViewKind::Overview, render::ViewKind::Street}) {
        for (bool lod : {false, true}) {
            const render::Crowd crowd = schoolOf(view == render::ViewKind::Street ? 400 : 120);
            render::RenderSettings s = swimming();
            const CullSettings cull{true, lod, 1.0f, false, true};
            const render::RenderOutput hardware = renderAt(crowd, view, 1, 0.8f, cull, s);
            s.raster = Raster::Compute;
            const render::RenderOutput compute = renderAt(crowd, view, 1, 0.8f, cull, s);
            ASSERT_EQ(hardware.rgba.size(), compute.rgba.size());
            const Agreement agree = compare(hardware, compute, 24);
            std::printf("procedural, %s, LOD %s: %zu of %zu pixels covered, %zu differ (%.2f%%)\n", toString(view),
                        lod ? "on" : "off", agree.covered, agree.pixels, agree.differ,
                        100.0 * double(agree.differ) / double(agree.pixels));
            EXPECT_GT(agree.covered, agree.pixels / 50) << "nothing drawn";
            EXPECT_LE(agree.differ, agree.pixels / 100) << toString(view) << ": more than 1% of pixels differ";
            // In the overview with LOD the fish are at levels of fewer vertices than the cache
            // pass's workgroup (render::cachedLevels): skinned per cluster.
            if (!lod || view == render::ViewKind::Street) {
                EXPECT_GT(compute.vertex_cache.cached_members, 0u);
            }
        }
    }
    const render::Crowd crowd = schoolOf(400);
    const CullSettings cull{true, true, 1.0f, false, true};
    render::RenderSettings s = swimming();
    const render::RenderOutput hardware = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
    s.raster = Raster::Auto;
    const render::RenderOutput split = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
    EXPECT_GT(split.drawn.per_lod[0], 0u) << "no member at LOD 0: the hardware part shows nothing";
    EXPECT_LT(split.drawn.per_lod[0], split.drawn.in_frustum)
        << "every member at LOD 0: the compute part shows nothing";
    const Agreement agree = compare(hardware, split, 24);
    std::printf("auto, procedural, street: %u members at LOD 0 (hardware), %u coarser (compute); %zu of %zu pixels "
                "differ\n",
                split.drawn.per_lod[0], split.drawn.in_frustum - split.drawn.per_lod[0], agree.differ, agree.pixels);
    EXPECT_LE(agree.differ, agree.pixels / 100);

    s.raster = Raster::Compute;
    const render::RenderOutput cached = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
    EXPECT_GT(cached.vertex_cache.cached_members, 0u);
    EXPECT_EQ(cached.vertex_cache.uncached_members, 0u);
    s.vertex_cache_bytes = 0;
    const render::RenderOutput uncached = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
    EXPECT_EQ(uncached.vertex_cache.cached_members, 0u);
    s.vertex_cache_bytes = cached.vertex_cache.cached_vertices * 8 / 3;
    const render::RenderOutput part = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
    EXPECT_GT(part.vertex_cache.cached_members, 0u);
    EXPECT_GT(part.vertex_cache.uncached_members, 0u);
    for (const render::RenderOutput* other : {&uncached, &part}) {
        const Agreement same = compare(cached, *other, 8);
        std::printf("procedural: %s, %zu of %zu pixels differ from the cached picture\n",
                    other == &uncached ? "no cache" : "part cached", same.differ, same.pixels);
        EXPECT_LE(same.differ, same.pixels / 1000);
    }
}

// What bench measures the vertex cache against: a compute copy's rate, read and written bytes.
TEST_F(ComputeRaster, BandwidthProbeMeasuresACopy) {
    if (!context_->timestamps) GTEST_SKIP() << "no timestamps: nothing to measure with";
    const double gbps = gpu::measureCopyBandwidth(*allocator_, 16 << 20, 2);
    std::printf("compute copy: %.1f GB/s\n", gbps);
    EXPECT_GT(gbps, 0.01);
    EXPECT_LT(gbps, 1e5);
}

TEST_F(ComputeRaster, RefusesWhatItCannotDraw) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    // Every technique has a compute path (PictureAgreesWithTheHardwareRasterizer draws each).
    for (const TechniqueInfo& t : techniques()) {
        EXPECT_TRUE(t.compute_raster) << t.name;
        EXPECT_EQ(render::computeRasterProblem(*context_, t.name, baked_, 10), "") << t.name;
    }
    EXPECT_NE(render::computeRasterProblem(*context_, "nonesuch", baked_, 10).find("has no compute rasterizer"),
              std::string::npos);
    EXPECT_EQ(render::computeRasterProblem(*context_, "baked", baked_, (1u << 24) + 1).empty(), false);
    // vat reads the vertex animation, which an asset baked without --vat lacks.
    BakedAsset plain = baked_;
    plain.vat_f32.clear();
    plain.vat_f16.clear();
    const std::string no_vat = render::computeRasterProblem(*context_, "vat", plain, 10);
    EXPECT_NE(no_vat.find("bake with --vat"), std::string::npos) << no_vat;
    // cpu's vertices in several buffers (storage buffers of three members' vertices here): the
    // compute rasterizer reads one.
    const render::Crowd crowd = crowdOf(10);
    render::RenderSettings s;
    s.technique = "cpu";
    s.raster = Raster::Compute;
    s.baked = &baked_;
    s.width = 64;
    s.height = 36;
    s.hooks.storage_buffer_limit = 3 * uint64_t(baked_.vertices.size()) * 24;
    const Result<render::RenderOutput> out = render::renderCrowd(
        *allocator_, asset_, crowd, render::crowdViewProjection(render::ViewKind::Overview, crowd, 64.0f / 36.0f), s);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error().message.find("--raster compute"), std::string::npos) << out.error().message;
    EXPECT_NE(out.error().message.find("several buffers"), std::string::npos) << out.error().message;
}

} // namespace
