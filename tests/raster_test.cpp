// The compute rasterizer (src/render/compute_raster.h, docs/FAR_FIELD.md) against the hardware
// rasterizer, on lavapipe with validation on: the same crowd, the same camera, the same frame, for
// `baked`, `pose` and `palette` (cross-fading, with a layer; palette in both joint encodings),
// `vat`, `static` and (a school of builtin:fish) `procedural`, in the overview and in the street
// view (members overlapping: depth order), at full detail and with LOD. Pixels may differ where the two rasterizers'
// edge rules and rounding differ (a pixel centre on a shared edge, a triangle a fraction of a pixel across); the rest
// must agree within a small colour tolerance.
#include "../src/gpu/bandwidth.h"
#include "../src/render/compute_raster.h"
#include "../src/render/crowd_frame.h"
#include "../src/render/pose_gpu.h"

#include <glm/gtc/packing.hpp>

#include "pictures.h"
#include "reference_pose.h"
#include "walker_suite.h"

#include <algorithm>
#include <bit>
#include <cstdlib>

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

// Settings that draw `label`: a technique (`pose` and `palette` with kPoseLayers), or
// "palette-quat": palette with its joints encoded as quaternions.
render::RenderSettings drawnBy(std::string_view label) {
    render::RenderSettings s;
    s.technique = label == "palette-quat" ? "palette" : std::string(label);
    if (label == "palette-quat") s.encoding = JointEncoding::Quaternion;
    if (s.technique == "pose" || s.technique == "palette") s.layers = kPoseLayers;
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

TEST_F(ComputeRaster, PictureAgreesWithTheHardwareRasterizer) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    for (const char* technique : {"baked", "pose", "palette", "palette-quat", "vat", "static"}) {
        for (render::ViewKind view : {render::ViewKind::Overview, render::ViewKind::Street}) {
            for (bool lod : {false, true}) {
                const render::Crowd crowd = crowdOf(view == render::ViewKind::Street ? 400 : 120);
                render::RenderSettings s = drawnBy(technique);
                const CullSettings cull{true, lod, 1.0f, false, true};
                const render::RenderOutput hardware = renderAt(crowd, view, 1, 0.8f, cull, s);
                s.raster = Raster::Compute;
                const render::RenderOutput compute = renderAt(crowd, view, 1, 0.8f, cull, s);
                ASSERT_EQ(hardware.rgba.size(), compute.rgba.size());
                if (std::string_view(technique) == "palette-quat") {
                    EXPECT_NE(compute.technique.find("(quat)"), std::string::npos) << compute.technique;
                }
                const Agreement agree = compare(hardware, compute, 24);
                std::printf("%s, %s, LOD %s: %zu of %zu pixels covered, %zu differ (%.2f%%)\n", technique,
                            render::toString(view), lod ? "on" : "off", agree.covered, agree.pixels, agree.differ,
                            100.0 * double(agree.differ) / double(agree.pixels));
                EXPECT_GT(agree.covered, agree.pixels / 50) << "nothing drawn";
                EXPECT_LE(agree.differ, agree.pixels / 100)
                    << technique << ", " << render::toString(view) << ": more than 1% of pixels differ";
                const size_t resolve = passIndex(compute.passes, "resolve");
                EXPECT_TRUE(resolve < compute.passes.size() || !context_->timestamps) << "no resolve pass";
                if (std::string_view(technique) == "pose" && context_->timestamps) { // its palettes first
                    EXPECT_LT(passIndex(compute.passes, "pose"), passIndex(compute.passes, "raster"));
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
            const uint64_t v = vis[size_t(y) * w + x];
            if (v == ~uint64_t(0)) continue;
            const uint32_t member = uint32_t(v >> 16) & 0xffffffu, tri = uint32_t(v & 0xffffu);
            ASSERT_LT(member, crowd.instances.size());
            ASSERT_LT(tri, lod0) << "an unculled frame draws LOD 0 only";
            const glm::dvec2 centre(x + 0.5, y + 0.5);
            const double depth = depthAt(member, tri, centre, 1e-4);
            ASSERT_GE(depth, 0.0) << "pixel " << x << "," << y << ": member " << member << " triangle " << tri
                                  << " does not cover it";
            const uint32_t key = uint32_t(v >> 40), expected = 0xffffffu - (std::bit_cast<uint32_t>(float(depth)) >> 8);
            EXPECT_LE(std::abs(int64_t(key) - int64_t(expected)), 64) << "pixel " << x << "," << y;
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
        const CullSettings cull{true, true, 1.0f, false, true};
        const render::RenderOutput hardware = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
        s.raster = Raster::Auto;
        const render::RenderOutput split = renderAt(crowd, render::ViewKind::Street, 1, 0.8f, cull, s);
        ASSERT_GT(split.drawn.per_lod[0], 0u) << "no member at LOD 0: the hardware part shows nothing";
        ASSERT_LT(split.drawn.per_lod[0], split.drawn.in_frustum)
            << "every member at LOD 0: the compute part shows nothing";
        const Agreement agree = compare(hardware, split, 24);
        std::printf("auto, %s, street: %u members at LOD 0 (hardware), %u coarser (compute); %zu of %zu pixels "
                    "differ\n",
                    technique, split.drawn.per_lod[0], split.drawn.in_frustum - split.drawn.per_lod[0], agree.differ,
                    agree.pixels);
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

// The vertex cache (section 1 of the issue): after the cache pass of an unculled frame (every
// member at LOD 0, member i in slot i), every member's LOD 0 vertices are in the cache, and each
// decoded position equals the double-precision skinning of the baked frames around the member's
// time (tweened, cross-fades blended) within 1e-5 of the walker's size: the float matrices and
// the 21-bit steps of the cache box. Each normal points where the double-precision skinning
// matrix takes it within 1e-3 radians (the octahedral 2 x 16 bits: about 1e-4). Like every
// technique's shaders, the cache applies the blended matrix itself to normals, not its inverse
// transpose as referenceSkin does: for the cross-faded walker the two differ by up to 0.15 rad.
TEST_F(ComputeRaster, VertexCacheHoldsTheReferencePose) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    const Model model = makeWalker();
    render::Crowd crowd = crowdOf(12);
    for (size_t i = 0; i < crowd.instances.size(); i += 2) { // half of them cross-fading
        gpu::shader::InstanceRecord& inst = crowd.instances[i];
        inst.clips = (inst.clips & 0xffffu) | ((((inst.clips & 0xffffu) + 1u) % uint32_t(baked_.clips.size())) << 16);
        inst.blend = 0.35f;
    }
    const float time = 0.61f;
    render::CrowdGpu gpu_crowd(*allocator_, asset_, crowd.instances, crowd.clip_bounds, 1);
    render::ComputeRaster raster(*allocator_, "baked", baked_, asset_, gpu_crowd, {64, 36}, VK_FORMAT_R8G8B8A8_SRGB,
                                 VK_FORMAT_D32_SFLOAT, 1);
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Overview, crowd, 64.0f / 36.0f);
    std::vector<gpu::Pass> passes;
    gpu_crowd.addPasses(passes, 0, vp, {64, 36}, CullSettings{false, false, 0.0f, false, false});
    raster.addPasses(passes, 0, render::crowdConstants(vp, time, asset_));
    auto cache_pass = std::find_if(passes.begin(), passes.end(), [](const gpu::Pass& p) { return p.name == "cache"; });
    ASSERT_NE(cache_pass, passes.end()) << "baked has no cache pass";
    gpu::submitAndWait(*context_, [&](VkCommandBuffer cmd) { cache_pass->record(cmd); });

    const gpu::shader::RasterPlan plan = raster.plan();
    const render::ClusterChain& chain = raster.clusters();
    const uint32_t n = chain.lod_vertex_ranges[0].y;
    ASSERT_EQ(plan.cache[0].y, crowd.instances.size()) << "every member at LOD 0 is cached";
    ASSERT_EQ(plan.cache[0].w, n);
    ASSERT_EQ(plan.totals.z, 0u) << "no member left out";
    const std::vector<glm::uvec2> cache = raster.vertexCache(plan.totals.x);
    const std::vector<uint32_t> normals = raster.cacheNormals(plan.totals.x);
    ASSERT_EQ(cache.size(), size_t(crowd.instances.size()) * n);
    ASSERT_EQ(normals.size(), cache.size());
    const gpu::shader::RasterParams& rp = raster.parameters();
    const double diagonal = bindPoseBounds(model).diagonal();
    double worst = 0.0, worst_angle = 0.0;
    for (size_t m = 0; m < crowd.instances.size(); ++m) {
        const gpu::shader::InstanceRecord& inst = crowd.instances[m];
        const double t = double(time) * inst.speed + inst.time_offset;
        const uint32_t a = inst.clips & 0xffffu, b = inst.clips >> 16;
        const auto ma = tweenedReference(model, baked_.clips[a], model.clips[a], t),
                   mb = tweenedReference(model, baked_.clips[b], model.clips[b], t);
        std::vector<glm::dmat4> blended(ma.size());
        for (size_t j = 0; j < ma.size(); ++j) blended[j] = ma[j] * (1.0 - inst.blend) + mb[j] * double(inst.blend);
        std::vector<glm::dvec3> reference, reference_normals;
        for (const Mesh& mesh : model.meshes) {
            const SkinnedVertices v = referenceSkin(mesh, blended);
            reference.insert(reference.end(), v.positions.begin(), v.positions.end());
            for (size_t i = 0; i < mesh.normals.size();
                 ++i) { // the blended matrix's linear part, as the shaders apply it
                glm::dmat3 sum(0.0);
                for (int j = 0; j < 4; ++j) sum += glm::dmat3(blended[mesh.joints[i][j]]) * double(mesh.weights[i][j]);
                reference_normals.push_back(sum * glm::dvec3(mesh.normals[i]));
            }
        }
        for (uint32_t i = 0; i < n; ++i) {
            const glm::uvec2 w = cache[plan.cache[0].x + m * n + i];
            const glm::dvec3 q(w.x & THRONG_CACHE_STEPS, (w.x >> 21) | ((w.y & 0x3ffu) << 11), w.y >> 10);
            const glm::dvec3 p = glm::dvec3(glm::vec3(rp.cache_origin)) + q * glm::dvec3(glm::vec3(rp.cache_step));
            const uint32_t vertex = chain.lod_vertices[chain.lod_vertex_ranges[0].x + i];
            worst = std::max(worst, glm::length(p - reference[vertex]) / diagonal);
            worst_angle = std::max(worst_angle, angleBetween(decodeOctahedral(normals[plan.cache[0].x + m * n + i]),
                                                             reference_normals[vertex]));
        }
    }
    std::printf("vertex cache: %zu members x %u vertices, largest difference from the double reference %.2e of the "
                "size, normals %.2e rad\n",
                crowd.instances.size(), n, worst, worst_angle);
    EXPECT_LE(worst, 1e-5);
    EXPECT_LE(worst_angle, 1e-3);
}

// What checkPaletteCache found.
struct PaletteCacheCheck {
    double worst = 0.0, worst_angle = 0.0, layer_moves = 0.0;
    double outside = -1.0, past_clips = -1.0; // how far the reference reaches past the cache box, the clips' boxes
    uint32_t carriers = 0;                    // members carrying the layer
};

// The vertex cache of a technique with TechniqueInfo::palettes_in_compute (`technique`, joints in
// `encoding`): half the members cross-fade, the layer (kPoseLayers: the idle's upper body at 0.7)
// is on 60% of them; the technique writes every member's palette (pose: its `pose` pass; palette:
// update() on the CPU), the cache pass copies (or decodes) each cached member's rows into shared
// memory and skins from there. Every decoded position against the double-precision skinning of
// the same blend (referenceBlendedSkinningMatrices), each normal against where the blended
// matrix takes it.
PaletteCacheCheck checkPaletteCache(gpu::Allocator& allocator, const BakedAsset& baked, const render::GpuAsset& asset,
                                    render::Crowd crowd, const char* technique_name, JointEncoding encoding) {
    PaletteCacheCheck r;
    const gpu::Context& context = *allocator.context;
    const Model model = makeWalker();
    for (size_t i = 0; i < crowd.instances.size(); ++i) { // half of them cross-fading
        gpu::shader::InstanceRecord& inst = crowd.instances[i];
        const uint32_t a = inst.clips & 0xffffu;
        inst.clips = a | (i % 2 == 0 ? ((a + 1u) % uint32_t(baked.clips.size())) << 16 : a << 16);
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
    ts.source = &baked.source;
    ts.layers = kPoseLayers;
    ts.encoding = encoding;
    Result<std::unique_ptr<render::Technique>> created = render::createTechnique(technique_name, ts);
    EXPECT_TRUE(created) << created.error().message;
    if (!created) return r;
    render::Technique& technique = *created.value();
    EXPECT_NE(technique.computePalettes(0), VkBuffer(VK_NULL_HANDLE));
    EXPECT_EQ(technique.computePaletteEncoding(), encoding);
    render::ComputeRaster raster(allocator, technique_name, baked, asset, gpu_crowd, {64, 36}, VK_FORMAT_R8G8B8A8_SRGB,
                                 VK_FORMAT_D32_SFLOAT, 1, {}, &technique);
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Overview, crowd, 64.0f / 36.0f);
    const gpu::shader::DrawConstants constants = render::crowdConstants(vp, time, asset);
    technique.update(0, time); // palette: the CPU writes the slot's palettes
    std::vector<gpu::Pass> passes;
    technique.addPreparePasses(passes, 0, constants); // pose: its `pose` pass
    const size_t prepare = passes.size();
    EXPECT_EQ(prepare, std::string_view(technique_name) == "pose" ? 1u : 0u);
    gpu_crowd.addPasses(passes, 0, vp, {64, 36}, CullSettings{false, false, 0.0f, false, false});
    raster.addPasses(passes, 0, constants);
    auto cache_pass = std::find_if(passes.begin(), passes.end(), [](const gpu::Pass& p) { return p.name == "cache"; });
    EXPECT_NE(cache_pass, passes.end()) << technique_name << " has no cache pass";
    if (cache_pass == passes.end()) return r;
    // Separate submissions: the cache pass reads what the prepare passes wrote.
    for (size_t i = 0; i < prepare; ++i)
        gpu::submitAndWait(context, [&](VkCommandBuffer cmd) { passes[i].record(cmd); });
    gpu::submitAndWait(context, [&](VkCommandBuffer cmd) { cache_pass->record(cmd); });

    const gpu::shader::RasterPlan plan = raster.plan();
    const render::ClusterChain& chain = raster.clusters();
    const uint32_t n = chain.lod_vertex_ranges[0].y;
    EXPECT_EQ(plan.cache[0].y, crowd.instances.size()) << "every member at LOD 0 is cached";
    EXPECT_EQ(plan.cache[0].w, n);
    EXPECT_EQ(plan.totals.z, 0u) << "no member left out";
    EXPECT_EQ(raster.parameters().coarse_lods, 0u);
    const std::vector<glm::uvec2> cache = raster.vertexCache(plan.totals.x);
    const std::vector<uint32_t> normals = raster.cacheNormals(plan.totals.x);
    EXPECT_EQ(cache.size(), size_t(crowd.instances.size()) * n);
    EXPECT_EQ(normals.size(), cache.size());
    if (cache.size() != size_t(crowd.instances.size()) * n || normals.size() != cache.size()) return r;
    const gpu::shader::RasterParams& rp = raster.parameters();
    const double diagonal = bindPoseBounds(model).diagonal();
    const glm::dvec3 box_min(glm::vec3(rp.cache_origin)),
        box_max = box_min + glm::dvec3(glm::vec3(rp.cache_step)) * double(THRONG_CACHE_STEPS);
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
    for (uint32_t m = 0; m < crowd.instances.size(); ++m) {
        const gpu::shader::InstanceRecord& inst = crowd.instances[m];
        const double t = double(float(time * inst.speed + inst.time_offset)); // as the technique computes it
        std::vector<ReferenceLayer> over, fade_only;
        if (inst.blend > 0.0f)
            over.push_back(
                {&model.clips[inst.clips >> 16], t, std::vector<double>(model.skeleton.size(), double(inst.blend))});
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
        const Clip* base = &model.clips[inst.clips & 0xffffu];
        const std::vector<glm::dmat4> blended = referenceBlendedSkinningMatrices(model, base, t, over, true),
                                      plain = referenceBlendedSkinningMatrices(model, base, t, fade_only, true);
        std::vector<glm::dvec3> reference, without_layer, reference_normals;
        for (const Mesh& mesh : model.meshes) {
            const SkinnedVertices v = referenceSkin(mesh, blended), p = referenceSkin(mesh, plain);
            reference.insert(reference.end(), v.positions.begin(), v.positions.end());
            without_layer.insert(without_layer.end(), p.positions.begin(), p.positions.end());
            for (size_t i = 0; i < mesh.normals.size(); ++i) { // the blended matrix's linear part, as the shaders
                glm::dmat3 sum(0.0);
                for (int j = 0; j < 4; ++j) sum += glm::dmat3(blended[mesh.joints[i][j]]) * double(mesh.weights[i][j]);
                reference_normals.push_back(sum * glm::dvec3(mesh.normals[i]));
            }
        }
        for (uint32_t i = 0; i < n; ++i) {
            const glm::uvec2 w = cache[plan.cache[0].x + m * n + i];
            const glm::dvec3 q(w.x & THRONG_CACHE_STEPS, (w.x >> 21) | ((w.y & 0x3ffu) << 11), w.y >> 10);
            const glm::dvec3 p = box_min + q * glm::dvec3(glm::vec3(rp.cache_step));
            const uint32_t vertex = chain.lod_vertices[chain.lod_vertex_ranges[0].x + i];
            const glm::dvec3 want = reference[vertex];
            r.worst = std::max(r.worst, glm::length(p - want) / diagonal);
            r.worst_angle = std::max(r.worst_angle, angleBetween(decodeOctahedral(normals[plan.cache[0].x + m * n + i]),
                                                                 reference_normals[vertex]));
            r.layer_moves = std::max(r.layer_moves, glm::length(without_layer[vertex] - want) / diagonal);
            r.outside = std::max(r.outside, beyond(box_min, box_max, want)); // past 0: the cache clamps it
            r.past_clips = std::max(r.past_clips, beyond(clips_box.min, clips_box.max, want));
        }
    }
    std::printf("%s%s vertex cache: %zu members x %u vertices, %u carrying the layer (it moves vertices up to %.3f "
                "of the size); largest difference from the double reference %.2e of the size, normals %.2e rad; "
                "nearest approach to the cache box's faces %.3f of the size (to the clips' own boxes' %.3f)\n",
                technique_name, encoding == JointEncoding::Quaternion ? " (quat)" : "", crowd.instances.size(), n,
                r.carriers, r.layer_moves, r.worst, r.worst_angle, -r.outside, -r.past_clips);
    EXPECT_LT(r.outside, 0.0) << "a pose reaches the cache box's faces";
    EXPECT_GT(r.layer_moves, 0.02) << "the layer did nothing";
    EXPECT_GT(r.carriers, 2u);
    EXPECT_LT(r.carriers, uint32_t(crowd.instances.size()));
    return r;
}

// Technique `pose` in the vertex cache: its `pose` pass writes every member's palette (the
// cross-fade and the layer blended in local space). Every decoded position equals the
// double-precision skinning of the same blend within 1e-5 of the walker's size (the pass's float
// matrices and the 21-bit steps of the cache box, which is culling's grown box: a limb swung past
// the clips' boxes would be clamped), each normal within 1e-3 radians of where the blended matrix
// takes it.
TEST_F(ComputeRaster, PoseVertexCacheHoldsTheReferenceBlend) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    const PaletteCacheCheck r =
        checkPaletteCache(*allocator_, baked_, asset_, crowdOf(12), "pose", JointEncoding::Matrix);
    EXPECT_LE(r.worst, 1e-5);
    EXPECT_LE(r.worst_angle, 1e-3);
}

// Technique `palette` in the vertex cache: the CPU samples every member's palette into the frame
// slot's buffer (the same blend as pose, in float on the CPU), in either encoding: 3x4 matrices,
// copied as pose's are, or quaternion + translation + uniform scale (2 rows a joint), decoded by
// the cache pass as palette.vert decodes them. The same bounds as pose's.
TEST_F(ComputeRaster, PaletteVertexCacheHoldsTheReferenceBlend) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    for (JointEncoding encoding : {JointEncoding::Matrix, JointEncoding::Quaternion}) {
        const PaletteCacheCheck r = checkPaletteCache(*allocator_, baked_, asset_, crowdOf(12), "palette", encoding);
        EXPECT_LE(r.worst, 1e-5) << toString(encoding);
        EXPECT_LE(r.worst_angle, 1e-3) << toString(encoding);
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
    render::Crowd crowd = crowdOf(12);
    for (size_t i = 0; i < crowd.instances.size(); i += 2) { // half of them cross-fading
        gpu::shader::InstanceRecord& inst = crowd.instances[i];
        inst.clips = (inst.clips & 0xffffu) | ((((inst.clips & 0xffffu) + 1u) % uint32_t(baked_.clips.size())) << 16);
        inst.blend = 0.35f;
    }
    const float time = 0.61f;
    EXPECT_EQ(render::computeRasterProblem(*context_, "vat", baked_, crowd.instances.size()), "");
    render::CrowdGpu gpu_crowd(*allocator_, asset_, crowd.instances, crowd.clip_bounds, 1);
    render::ComputeRaster raster(*allocator_, "vat", baked_, asset_, gpu_crowd, {64, 36}, VK_FORMAT_R8G8B8A8_SRGB,
                                 VK_FORMAT_D32_SFLOAT, 1);
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Overview, crowd, 64.0f / 36.0f);
    std::vector<gpu::Pass> passes;
    gpu_crowd.addPasses(passes, 0, vp, {64, 36}, CullSettings{false, false, 0.0f, false, false});
    raster.addPasses(passes, 0, render::crowdConstants(vp, time, asset_));
    auto cache_pass = std::find_if(passes.begin(), passes.end(), [](const gpu::Pass& p) { return p.name == "cache"; });
    ASSERT_NE(cache_pass, passes.end()) << "vat has no cache pass";
    gpu::submitAndWait(*context_, [&](VkCommandBuffer cmd) { cache_pass->record(cmd); });

    const gpu::shader::RasterPlan plan = raster.plan();
    const render::ClusterChain& chain = raster.clusters();
    const uint32_t n = chain.lod_vertex_ranges[0].y;
    ASSERT_EQ(plan.cache[0].y, crowd.instances.size()) << "every member at LOD 0 is cached";
    ASSERT_EQ(plan.cache[0].w, n);
    ASSERT_EQ(plan.totals.z, 0u) << "no member left out";
    EXPECT_EQ(raster.parameters().coarse_lods, 0u);
    const std::vector<glm::uvec2> cache = raster.vertexCache(plan.totals.x);
    const std::vector<uint32_t> normals = raster.cacheNormals(plan.totals.x);
    ASSERT_EQ(cache.size(), size_t(crowd.instances.size()) * n);
    ASSERT_EQ(normals.size(), cache.size());
    const gpu::shader::RasterParams& rp = raster.parameters();
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
        const uint32_t a = inst.clips & 0xffffu, b = inst.clips >> 16;
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
            const glm::uvec2 w = cache[plan.cache[0].x + m * n + i];
            const glm::dvec3 q(w.x & THRONG_CACHE_STEPS, (w.x >> 21) | ((w.y & 0x3ffu) << 11), w.y >> 10);
            const glm::dvec3 p = glm::dvec3(glm::vec3(rp.cache_origin)) + q * glm::dvec3(glm::vec3(rp.cache_step));
            const uint32_t vertex = chain.lod_vertices[chain.lod_vertex_ranges[0].x + i];
            const glm::dvec3 want = texelAt(a, t, vertex, false) * (1.0 - blend) + texelAt(b, t, vertex, false) * blend;
            const glm::dvec3 normal = texelAt(a, t, vertex, true) * (1.0 - blend) + texelAt(b, t, vertex, true) * blend;
            worst = std::max(worst, glm::length(p - want) / diagonal);
            worst_skinned = std::max(worst_skinned, glm::length(p - skinned[vertex]) / diagonal);
            worst_angle =
                std::max(worst_angle, angleBetween(decodeOctahedral(normals[plan.cache[0].x + m * n + i]), normal));
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
// with room for only part of the crowd (the rest skinned per cluster), the street view agrees.
TEST_F(ComputeRaster, PictureIsTheSameWithAndWithoutTheVertexCache) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    const render::Crowd crowd = crowdOf(400);
    const CullSettings cull{true, true, 1.0f, false, true};
    for (const char* technique : {"baked", "pose", "palette", "palette-quat", "vat"}) {
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
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Overview, crowd, 64.0f / 36.0f);
    std::vector<gpu::Pass> passes;
    gpu_crowd.addPasses(passes, 0, vp, {64, 36}, CullSettings{false, false, 0.0f, false, false});
    raster.addPasses(passes, 0, render::crowdConstants(vp, time, asset_));
    auto cache_pass = std::find_if(passes.begin(), passes.end(), [](const gpu::Pass& p) { return p.name == "cache"; });
    ASSERT_NE(cache_pass, passes.end()) << "procedural has no cache pass";
    gpu::submitAndWait(*context_, [&](VkCommandBuffer cmd) { cache_pass->record(cmd); });

    const gpu::shader::RasterPlan plan = raster.plan();
    const render::ClusterChain& chain = raster.clusters();
    const uint32_t n = chain.lod_vertex_ranges[0].y;
    ASSERT_EQ(plan.cache[0].y, crowd.instances.size()) << "every member at LOD 0 is cached";
    ASSERT_EQ(plan.cache[0].w, n);
    ASSERT_EQ(plan.totals.z, 0u) << "no member left out";
    EXPECT_EQ(raster.parameters().coarse_lods, 0u);
    const std::vector<glm::uvec2> cache = raster.vertexCache(plan.totals.x);
    const std::vector<uint32_t> normals = raster.cacheNormals(plan.totals.x);
    ASSERT_EQ(cache.size(), size_t(crowd.instances.size()) * n);
    ASSERT_EQ(normals.size(), cache.size());
    const gpu::shader::RasterParams& rp = raster.parameters();
    const double diagonal = baked_.bind_bounds.diagonal();
    const glm::dvec3 box_min(glm::vec3(rp.cache_origin)),
        box_max = box_min + glm::dvec3(glm::vec3(rp.cache_step)) * double(THRONG_CACHE_STEPS);
    double worst = 0.0, worst_angle = 0.0, moved = 0.0, outside = -1.0;
    for (uint32_t m = 0; m < crowd.instances.size(); ++m) {
        for (uint32_t i = 0; i < n; ++i) {
            const glm::uvec2 w = cache[plan.cache[0].x + m * n + i];
            const glm::dvec3 q(w.x & THRONG_CACHE_STEPS, (w.x >> 21) | ((w.y & 0x3ffu) << 11), w.y >> 10);
            const glm::dvec3 p = box_min + q * glm::dvec3(glm::vec3(rp.cache_step));
            const BakedVertex& v = baked_.vertices[chain.lod_vertices[chain.lod_vertex_ranges[0].x + i]];
            const glm::dvec3 rest(v.position[0], v.position[1], v.position[2]);
            glm::dvec3 normal(v.normal[0], v.normal[1], v.normal[2]);
            const glm::dvec3 want = swumInDouble(swim, crowd.instances[m], double(time), rest, normal);
            worst = std::max(worst, glm::length(p - want) / diagonal);
            worst_angle =
                std::max(worst_angle, angleBetween(decodeOctahedral(normals[plan.cache[0].x + m * n + i]), normal));
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
            std::printf("procedural, %s, LOD %s: %zu of %zu pixels covered, %zu differ (%.2f%%)\n",
                        render::toString(view), lod ? "on" : "off", agree.covered, agree.pixels, agree.differ,
                        100.0 * double(agree.differ) / double(agree.pixels));
            EXPECT_GT(agree.covered, agree.pixels / 50) << "nothing drawn";
            EXPECT_LE(agree.differ, agree.pixels / 100) << render::toString(view) << ": more than 1% of pixels differ";
            EXPECT_GT(compute.vertex_cache.cached_members, 0u);
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
    const render::Crowd crowd = crowdOf(10);
    render::RenderSettings s;
    s.technique = "bonetex";
    s.raster = Raster::Compute;
    s.baked = &baked_;
    s.width = 64;
    s.height = 36;
    const Result<render::RenderOutput> out = render::renderCrowd(
        *allocator_, asset_, crowd, render::crowdViewProjection(render::ViewKind::Overview, crowd, 64.0f / 36.0f), s);
    ASSERT_FALSE(out.ok());
    EXPECT_NE(out.error().message.find("--raster compute"), std::string::npos) << out.error().message;
    EXPECT_EQ(render::computeRasterProblem(*context_, "baked", baked_, (1u << 24) + 1).empty(), false);
    // pose and palette are drawn, with linear skinning only (their palettes are blended as matrices).
    for (const char* technique : {"pose", "palette"}) {
        if (context_->int64_atomics) {
            EXPECT_EQ(render::computeRasterProblem(*context_, technique, baked_, 10), "");
        }
        const std::string dq = render::computeRasterProblem(*context_, technique, baked_, 10, Skinning::DualQuaternion);
        EXPECT_NE(dq.find("blends joints linearly"), std::string::npos) << dq;
        EXPECT_EQ(dq.find('\n'), std::string::npos) << dq;
    }
    // vat reads the vertex animation, which an asset baked without --vat lacks.
    BakedAsset plain = baked_;
    plain.vat_f32.clear();
    plain.vat_f16.clear();
    const std::string no_vat = render::computeRasterProblem(*context_, "vat", plain, 10);
    EXPECT_NE(no_vat.find("bake with --vat"), std::string::npos) << no_vat;
    // palette-ubo's uniform blocks and bonetex's texture are not read.
    for (const char* technique : {"palette-ubo", "bonetex"})
        EXPECT_NE(render::computeRasterProblem(*context_, technique, baked_, 10).find("has no compute rasterizer"),
                  std::string::npos);
}

} // namespace
