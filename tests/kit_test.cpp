// Kits (issue #25, docs/MIXED_CROWDS.md): a model's parts in slots (Model::parts, builtin:kit).
// The parts' choice against its shares over 100,000 members, the refusals of bad parts, and on
// the GPU (validation on): the hardware and the compute rasterizer draw the same kit crowd, and
// every pixel the visibility buffer gives a part belongs to a member that wears it (the CPU's
// wears(), the shaders' throngWears).
#include "../src/render/compute_raster.h"
#include "../src/render/crowd.h"
#include "../src/render/crowd_renderer.h"
#include "../src/render/part_culling.h"
#include "../src/render/renderer.h"
#include "../src/render/views.h"

#include <throng/attach.h>
#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/format.h>
#include <throng/import.h>
#include <throng/kit.h>

#include "baked_models.h"
#include "gltf_builder.h"
#include "gpu_suite.h"
#include "pictures.h"
#include "test_util.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

using namespace throng;

namespace {

BakedAsset bakedKit(bool vat = false) { return test::bakedOrFail(makeKit(), vat); }

// The prop (part) submesh `submesh` belongs to, or -1 (the body).
int partOf(const BakedAsset& asset, uint32_t submesh) {
    for (uint32_t p = 0; p < asset.props.size(); ++p)
        if (submesh >= asset.props[p].first_submesh &&
            submesh - asset.props[p].first_submesh < asset.props[p].submesh_count)
            return int(p);
    return -1;
}

} // namespace

// builtin:kit bakes its 16 parts in four slots; over 100,000 members each part is worn by its
// share within 1% and nobody wears two parts of one slot.
TEST(Kit, PartsFollowTheirSharesOneASlot) {
    const Model model = makeKit();
    ASSERT_TRUE(validate(model).ok()) << validate(model).message;
    const BakedAsset asset = bakedKit();
    ASSERT_EQ(asset.props.size(), 16u);
    std::map<std::string, double> slot_share;
    for (const BakedProp& p : asset.props) {
        EXPECT_EQ(p.submesh_count, 1u) << p.name;
        EXPECT_GT(p.vertex_count, 0u) << p.name;
        slot_share[p.slot] += double(p.share);
    }
    EXPECT_EQ(slot_share.size(), 4u);
    constexpr uint32_t kMembers = 100000;
    std::vector<uint32_t> worn(asset.props.size(), 0);
    std::map<std::string, uint32_t> none;
    for (uint32_t key = 0; key < kMembers; ++key) {
        std::map<std::string, uint32_t> in_slot;
        for (uint32_t p = 0; p < asset.props.size(); ++p)
            if (wears(asset, p, key)) {
                ++worn[p];
                ++in_slot[asset.props[p].slot];
            }
        for (const auto& [slot, share] : slot_share) {
            ASSERT_LE(in_slot[slot], 1u) << "key " << key << " wears two parts of slot " << slot;
            none[slot] += in_slot[slot] == 0;
        }
    }
    for (uint32_t p = 0; p < asset.props.size(); ++p)
        EXPECT_NEAR(double(worn[p]) / kMembers, double(asset.props[p].share), 0.01) << asset.props[p].name;
    for (const auto& [slot, share] : slot_share)
        EXPECT_NEAR(double(none[slot]) / kMembers, 1.0 - share, 0.01) << "none of slot " << slot;
}

// Parts outside the meshes, on a mesh twice, with a share out of range, or a slot past 100%:
// one line each.
TEST(Kit, RefusesBadParts) {
    auto refused = [](void (*change)(Model&), const char* expected) {
        Model m = makeKit();
        change(m);
        const Status s = validate(m);
        ASSERT_FALSE(s.ok()) << expected;
        EXPECT_NE(s.message.find(expected), std::string::npos) << s.message;
        EXPECT_EQ(s.message.find('\n'), std::string::npos) << s.message;
        EXPECT_FALSE(bake(m, BakeOptions{}).ok());
    };
    refused([](Model& m) { m.parts[0].first_mesh = 99; }, "outside the model's 17");
    refused([](Model& m) { m.parts[1].first_mesh = m.parts[0].first_mesh; }, "is in another part too");
    refused([](Model& m) { m.parts[2].share = std::nanf(""); }, "outside 0..1");
    refused([](Model& m) { m.parts[0].share = 0.9f; }, "slot 'hair': its parts' shares add up to 115%, past 100%");
    refused([](Model& m) { m.parts[3].slot = std::string(80, 's'); }, "not on one line");
}

// A baked kit written to a .throng file (section PART) reads back with its parts; an asset whose
// parts are inconsistent is not written, and nothing is left on disk.
TEST(Kit, PartsRoundTripThroughTheFile) {
    const BakedAsset asset = bakedKit();
    const std::string path = (test::scratchDir("kit") / "kit.throng").string();
    ASSERT_TRUE(writeThrong(asset, path).ok());
    Result<BakedAsset> back = readThrong(path);
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_EQ(back.value().props.size(), asset.props.size());
    for (size_t p = 0; p < asset.props.size(); ++p) {
        const BakedProp &a = asset.props[p], &b = back.value().props[p];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.slot, b.slot);
        EXPECT_EQ(a.share, b.share);
        EXPECT_EQ(a.first_submesh, b.first_submesh);
        EXPECT_EQ(a.submesh_count, b.submesh_count);
        EXPECT_EQ(a.first_vertex, b.first_vertex);
        EXPECT_EQ(a.vertex_count, b.vertex_count);
        EXPECT_EQ(a.offset, b.offset);
        for (uint32_t key : {1u, 7u, 12345u})
            EXPECT_EQ(wears(asset, uint32_t(p), key), wears(back.value(), uint32_t(p), key));
    }
    std::filesystem::remove(path);
    BakedAsset bad = asset;
    bad.props[1].first_submesh = bad.props[0].first_submesh;
    const Status s = writeThrong(bad, path);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message.find("is another prop's too"), std::string::npos) << s.message;
    EXPECT_FALSE(std::filesystem::exists(path));
}

// Kit files (throng/kit.h): what parseKit refuses, one line naming the part and the field.
TEST(KitFile, RefusesBadText) {
    const std::pair<const char*, const char*> cases[] = {
        {"[1,2", "kit: not JSON"},
        {"[]", "kit: expected an object"},
        {R"({"parts": []})", "kit: no \"base\""},
        {R"({"base": "builtin:walker", "colour": 1})", "kit: unknown key 'colour'"},
        {R"({"base": "builtin:walker", "parts": [{"slot": "hat"}]})", "kit: part 0: no \"model\""},
        {R"({"base": "builtin:walker", "parts": [{"model": "builtin:hat", "share": 2}]})",
         "kit: part 0: \"share\" is not a number from 0 to 1"},
        {R"({"base": "builtin:walker", "parts": [{"model": "builtin:hat", "offset": [1, 2]}]})",
         "kit: part 0: \"offset\" takes 3, 6 or 7 numbers"},
        {R"({"base": "builtin:walker", "parts": [{"model": "builtin:hat", "offset": [0, 0, 0, 0, 0, 0, -1]}]})",
         "kit: part 0: \"offset\"'s scale must be positive"},
        {R"({"base": "builtin:walker", "parts": [{"model": "builtin:hat", "hue": 3}]})",
         "kit: part 0: unknown key 'hue'"},
        {R"({"base": "builtin:walker", "parts": [{"model": "a", "slot": "s", "share": 0.7},
                                                {"model": "b", "slot": "s", "share": 0.7}]})",
         "kit: slot 's': its parts' shares add up to 140%, past 100%"},
    };
    for (const auto& [text, expected] : cases) {
        Result<KitSpec> k = parseKit(text);
        ASSERT_FALSE(k.ok()) << text;
        EXPECT_NE(k.error().message.find(expected), std::string::npos) << k.error().message;
        EXPECT_EQ(k.error().message.find('\n'), std::string::npos) << k.error().message;
    }
    Result<KitSpec> good = parseKit(
        R"({"base": "builtin:walker", "parts": [{"model": "builtin:hat", "slot": "hat", "share": 0.25, "joint": "head",
            "offset": [0, 0.2, 0, 0, 90, 0, 1.5]}]})");
    ASSERT_TRUE(good.ok()) << good.error().message;
    EXPECT_EQ(good.value().parts[0].name, "builtin:hat");
    EXPECT_EQ(good.value().parts[0].share, 0.25f);
    EXPECT_NEAR(good.value().parts[0].offset[3][1], 0.2f, 1e-6f);
}

// A kit file assembled from glTF files (tests/gltf_builder.h's two-joint rig): a part skinned to
// the same skeleton keeps its weights on the base's joints; a part bound elsewhere, a part whose
// joint the base lacks and a rigid part on a missing joint are refused naming the joint; the kit
// bakes with its parts and every command takes the file (importModel).
TEST(KitFile, AssemblesPartsOnTheBaseSkeleton) {
    const auto dir = test::scratchDir("kit-file");
    test::makeRig().writeGlb((dir / "rig.glb").string());
    test::GltfBuilder moved = test::makeRig();
    const std::vector<float> ibm = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,     0, 1,
                                    1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1.5f, 0, 1};
    moved.json["skins"][0]["inverseBindMatrices"] = moved.addAccessor(ibm, test::kFloat, 2, "MAT4");
    moved.writeGlb((dir / "moved.glb").string());
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    };
    Result<Model> kit = importModel(write("kit.json", R"({"base": "rig.glb", "parts": [
        {"name": "twin", "model": "rig.glb", "slot": "body", "share": 0.5},
        {"name": "cap", "model": "builtin:hat", "slot": "hat", "share": 0.25, "joint": "bone", "offset": [0, 1, 0]}]})"));
    ASSERT_TRUE(kit.ok()) << kit.error().message;
    const Model& m = kit.value();
    ASSERT_EQ(m.parts.size(), 2u);
    ASSERT_EQ(m.meshes.size(), 3u);
    EXPECT_EQ(m.parts[0].first_mesh, 1u);
    EXPECT_EQ(m.meshes[1].joints, m.meshes[0].joints) << "the twin's weights on the base's joints";
    EXPECT_EQ(m.meshes[1].positions, m.meshes[0].positions);
    for (const glm::u16vec4& j : m.meshes[2].joints) EXPECT_EQ(j[0], 1) << "the cap rides on 'bone'";
    EXPECT_NEAR(m.meshes[2].positions[0].y, 2.0f, 1e-5f) << "at the bone's bind position plus the offset";
    Result<BakedAsset> baked = bake(m, BakeOptions{});
    ASSERT_TRUE(baked.ok()) << baked.error().message;
    EXPECT_EQ(baked.value().props.size(), 2u);
    EXPECT_EQ(baked.value().props[1].slot, "hat");

    const std::pair<std::string, std::string> refused[] = {
        {R"({"base": "rig.glb", "parts": [{"model": "moved.glb"}]})",
         "kit: part 'moved.glb': joint 'bone' is bound elsewhere than the base's (0.5"},
        {R"({"base": "rig.glb", "parts": [{"model": "builtin:twist"}]})",
         "kit: part 'builtin:twist': joint 'base' is not a skinning joint of the base (joints: root, bone)"},
        {R"({"base": "rig.glb", "parts": [{"model": "builtin:hat", "joint": "head"}]})",
         "kit: part 'builtin:hat': no skinning joint 'head' in the base (joints: root, bone)"},
        {R"({"base": "missing.glb"})", "kit: base 'missing.glb'"},
        {R"({"base": "rig.glb", "parts": [{"model": "kit.json"}]})", "a kit in a kit"},
        {R"({"base": "rig.glb", "parts": [{"model": "bad.json"}]})", "is a kit file, not a model (a kit in a kit)"},
        {R"({"base": "bad.json"})", "is a kit file, not a model (a kit in a kit)"},
    };
    for (const auto& [text, expected] : refused) {
        Result<Model> r = importModel(write("bad.json", text));
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_NE(r.error().message.find(expected), std::string::npos) << r.error().message;
        EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
    }
}

class KitGpu : public test::GpuSuite {
  protected:
    static void SetUpTestSuite() {
        GpuSuite::SetUpTestSuite();
        asset_ = new BakedAsset(bakedKit(true));
        if (allocator_ == nullptr) return;
        if (Result<render::GpuAsset> g = render::uploadAsset(*allocator_, *asset_); g)
            on_gpu_ = new render::GpuAsset(std::move(g).value());
    }
    static void TearDownTestSuite() {
        if (on_gpu_ != nullptr) on_gpu_->release();
        delete on_gpu_;
        delete asset_;
        on_gpu_ = nullptr;
        asset_ = nullptr;
        GpuSuite::TearDownTestSuite();
    }
    void SetUp() override {
        GpuSuite::SetUp();
        ASSERT_NE(on_gpu_, nullptr) << "the kit did not upload";
    }
    static inline BakedAsset* asset_ = nullptr;
    static inline render::GpuAsset* on_gpu_ = nullptr;
    static constexpr uint32_t kWidth = 320, kHeight = 180;
    // The last of `frames` frames (at `time`) of `crowd` in the street view, kWidth x kHeight,
    // with `s`'s technique, raster and culling.
    render::RenderOutput draw(const render::Crowd& crowd, render::RenderSettings s, uint32_t frames, float time) const {
        s.width = kWidth;
        s.height = kHeight;
        s.frames = frames;
        s.time = time;
        s.baked = asset_;
        const glm::mat4 vp =
            render::crowdViewProjection(render::ViewKind::Street, crowd, float(kWidth) / float(kHeight));
        Result<render::RenderOutput> out = render::renderCrowd(*allocator_, *on_gpu_, crowd, vp, s);
        EXPECT_TRUE(out.ok()) << out.error().message;
        return out.ok() ? std::move(out).value() : render::RenderOutput{};
    }
};

// The kit crowd through the compute rasterizer against the hardware's picture (each draws a part
// only on the members that wear it: the vertex shader, the per-cluster raster): at least 99% of
// the pixels agree and the same triangles are drawn, for baked, static and vat, street view.
TEST_F(KitGpu, BothRasterizersDrawTheSameParts) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    render::CrowdLayout layout;
    layout.count = 80;
    const render::Crowd crowd = render::makeCrowd(*asset_, layout);
    for (const char* technique : {"baked", "static", "vat"}) {
        auto drawn = [&](Raster raster) {
            render::RenderSettings s;
            s.technique = technique;
            s.raster = raster;
            return draw(crowd, s, 2, 0.4f);
        };
        const render::RenderOutput hardware = drawn(Raster::Hardware), compute = drawn(Raster::Compute);
        ASSERT_EQ(compute.raster, Raster::Compute) << technique;
        const test::Agreement a = test::comparePictures(hardware, compute, 24);
        std::printf("%s: %zu of %zu pixels differ (%zu covered)\n", technique, a.differ, a.pixels, a.covered);
        EXPECT_GT(a.covered, 2000u) << technique;
        EXPECT_LE(a.differ, a.pixels / 100) << technique;
        EXPECT_EQ(hardware.drawn.triangles, compute.drawn.triangles) << technique;
    }
}

// The visibility buffer of a kit crowd decoded on the CPU: every covered pixel names a member and
// a triangle of the body or of a part that member wears; most of the parts show; the raster
// launches per member the body's clusters and a slot's largest part's, not every part's.
TEST_F(KitGpu, VisibilityIdsNameOnlyWornParts) {
    if (!context_->int64_atomics) GTEST_SKIP() << "the device lacks 64-bit buffer atomics: no compute rasterizer";
    render::CrowdLayout layout;
    layout.count = 80;
    const render::Crowd crowd = render::makeCrowd(*asset_, layout);
    const uint32_t w = 320, h = 180;
    render::CrowdGpu gpu_crowd(*allocator_, *on_gpu_, crowd.instances, crowd.clip_bounds, 1);
    render::ComputeRaster raster(*allocator_, "static", *asset_, *on_gpu_, gpu_crowd, {w, h}, VK_FORMAT_R8G8B8A8_SRGB,
                                 VK_FORMAT_D32_SFLOAT, 1);
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Street, crowd, float(w) / float(h));
    std::vector<gpu::Pass> passes;
    gpu_crowd.addPasses(passes, 0, vp, {w, h}, CullSettings{true, true, 1.0f, false, false});
    raster.addPasses(passes, 0, render::crowdConstants(vp, 0.0f, *on_gpu_));
    for (const gpu::Pass& pass : passes) {
        gpu::submitAndWait(*context_, [&](VkCommandBuffer cmd) { pass.record(cmd); });
        if (pass.name == "raster") break;
    }
    const std::vector<uint64_t> vis = raster.visibility();
    const render::ClusterChain& chain = raster.clusters();
    size_t body = 0, parts = 0;
    std::set<int> seen;
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            const test::VisibilityId id = test::decodeVisibility(vis[size_t(y) * w + x]);
            if (!id.covered) continue;
            ASSERT_LT(id.member, crowd.instances.size());
            ASSERT_LT(id.triangle, chain.models[0].triangle_count);
            const int part = partOf(*asset_, chain.submeshes[chain.models[0].first_triangle + id.triangle]);
            if (part < 0) {
                ++body;
                continue;
            }
            const uint32_t key = crowd.instances[id.member].key != 0 ? crowd.instances[id.member].key : id.member;
            ASSERT_TRUE(wears(*asset_, uint32_t(part), key)) << "pixel " << x << "," << y << ": member " << id.member
                                                             << " does not wear " << asset_->props[part].name;
            ++parts;
            seen.insert(part);
        }
    std::printf("%zu pixels of bodies, %zu of %zu different parts\n", body, parts, seen.size());
    // The raster's work per member: the body's clusters, then per slot as many as its largest
    // part has (a member wears one part of a slot at most), not every part's.
    const gpu::shader::RasterModel& model = raster.models()[0];
    for (uint32_t l = 0; l < chain.models[0].level_count; ++l) {
        const glm::uvec4 level = model.lod_clusters[l], work = model.lod_vertices[l];
        std::printf("LOD %u: %u clusters, %u work items a member\n", l, level.y, work.z);
        if (l == 0) {
            EXPECT_GT(work.z, 0u);
            EXPECT_LT(work.z, level.y) << "every part's clusters launched";
        }
    }
    EXPECT_GT(body, 1000u);
    EXPECT_GT(parts, 300u);
    EXPECT_GE(seen.size(), 12u) << "most parts show on 80 members";
}

// Culling by what a member wears (render/part_culling.h): for every clip and frame of the kit,
// each vertex skinned in double with the stored matrices lies in its box (the body's own, or its
// part's), and the body's own box is well inside the clip's whole box (the top hat, the drum and
// the pack are not in it).
TEST(Kit, PartBoxesHoldTheirVerticesAndNoMore) {
    const BakedAsset asset = bakedKit();
    const render::PartBoxes boxes = render::partBoxes(asset, {});
    ASSERT_EQ(boxes.wear.size(), asset.props.size());
    ASSERT_EQ(boxes.own.size(), asset.clips.size());
    ASSERT_EQ(boxes.parts.size(), asset.clips.size() * asset.props.size());
    std::vector<int> part_of(asset.vertices.size(), -1);
    for (uint32_t p = 0; p < asset.props.size(); ++p)
        for (uint32_t v = 0; v < asset.props[p].vertex_count; ++v) part_of[asset.props[p].first_vertex + v] = int(p);
    const std::vector<Bounds> whole = render::clipCullBounds(asset);
    size_t outside = 0, checked = 0;
    for (uint32_t c = 0; c < asset.clips.size(); ++c) {
        for (uint32_t f = 0; f < asset.clips[c].frame_count; ++f)
            for (uint32_t v = 0; v < asset.vertices.size(); ++v) {
                const BakedVertex& x = asset.vertices[v];
                glm::dvec3 at(0.0);
                for (int i = 0; i < 4; ++i)
                    for (uint32_t r = 0; r < 3; ++r)
                        at[r] += double(x.weights[i]) *
                                 glm::dot(glm::dvec4(bakedTexel(asset, c, f, x.joints[i], r)),
                                          glm::dvec4(x.position[0], x.position[1], x.position[2], 1.0));
                const Bounds& b =
                    part_of[v] < 0 ? boxes.own[c] : boxes.parts[c * asset.props.size() + size_t(part_of[v])];
                ++checked;
                outside +=
                    glm::any(glm::lessThan(at, glm::dvec3(b.min))) || glm::any(glm::greaterThan(at, glm::dvec3(b.max)));
            }
        EXPECT_LT(boxes.own[c].max.y, whole[c].max.y - 0.1f) << "clip " << c << ": the hats are in the body's box";
        EXPECT_GT(boxes.own[c].max.y, 0.5f * whole[c].max.y) << "clip " << c;
    }
    EXPECT_EQ(outside, 0u) << "of " << checked;
    EXPECT_TRUE(render::partBoxes(test::bakedOrFail(makeWalker()), {}).empty()) << "a model without parts";
}

// The kit's street view culled by what each member wears against the same without culling: the
// same picture (no member hidden that shows a part), through both rasterizers; the frustum keeps
// no more members than with boxes holding every part. (How many occlusion hides is printed, not
// checked: with two-phase occlusion a frame's count depends on what the frames before drew, and
// at a few hundred members it moves either way; docs/BENCHMARKS.md has the street view's.)
TEST_F(KitGpu, CullingByWornPartsChangesNoPixel) {
    if (!context_->depth_pyramid) GTEST_SKIP() << "the device cannot build a depth pyramid: no occlusion culling";
    render::CrowdLayout layout;
    layout.count = 300;
    const render::Crowd crowd = render::makeCrowd(*asset_, layout);
    for (Raster raster : {Raster::Hardware, Raster::Compute}) {
        if (raster == Raster::Compute && !context_->int64_atomics) continue;
        auto drawn = [&](bool cull) {
            render::RenderSettings s;
            s.technique = "baked";
            s.raster = raster;
            s.cull = CullSettings{cull, false, 0.0f, cull};
            return draw(crowd, s, 3, 0.9f);
        };
        const render::RenderOutput all = drawn(false), culled = drawn(true);
        // What the members draw unculled: the body's triangles and each part's at its share.
        double worn = 0.0;
        for (uint32_t sm = 0; sm < asset_->submeshes.size(); ++sm) {
            const int part = partOf(*asset_, sm);
            worn +=
                (part < 0 ? 1.0 : double(asset_->props[size_t(part)].share)) * (asset_->submeshes[sm].index_count / 3);
        }
        EXPECT_NEAR(double(all.drawn.triangles), worn * double(crowd.instances.size()), 1e-3 * worn * 300.0);
        EXPECT_LT(all.drawn.triangles, all.submitted_triangles) << "every part counted on every member";
        const render::PartBoxes kept = on_gpu_->part_boxes;
        on_gpu_->part_boxes = {};
        const render::RenderOutput whole = drawn(true);
        on_gpu_->part_boxes = kept;
        ASSERT_EQ(all.rgba.size(), culled.rgba.size());
        size_t differ = 0;
        for (size_t i = 0; i < all.rgba.size(); ++i) differ += all.rgba[i] != culled.rgba[i];
        std::printf("%s: %u in the frustum, %u hidden by worn parts' boxes, %u by whole boxes (%u in the frustum)\n",
                    raster == Raster::Compute ? "compute" : "hardware", culled.drawn.in_frustum, culled.drawn.occluded,
                    whole.drawn.occluded, whole.drawn.in_frustum);
        EXPECT_EQ(differ, 0u);
        EXPECT_LE(culled.drawn.in_frustum, whole.drawn.in_frustum);
    }
}
