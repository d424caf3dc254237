// Technique `pose` (issue #13, part 5): every member's pose blended on the GPU in local space,
// the cross-fade exact and layers (`--layer CLIP@JOINT[,WEIGHT][@SHARE%]`) under joint masks.
// The capture shaders' world positions against the double reference of the same blend
// (referenceBlendedSkinningMatrices), validation on; the layer texts; the refusals.
#include "../src/render/pose_gpu.h"
#include "../src/render/renderer.h"
#include <throng/anim.h>
#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/import.h>

#include "gpu_suite.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <glm/gtc/packing.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

namespace throng {
namespace {

TEST(PoseLayerText, ParsesClipJointWeightAndShare) {
    Result<LayerSpec> a = parseLayer("idle@spine");
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_EQ(a.value().clip, "idle");
    EXPECT_EQ(a.value().joint, "spine");
    EXPECT_EQ(a.value().weight, 1.0f);
    EXPECT_EQ(a.value().share, 1.0f);
    Result<LayerSpec> b = parseLayer("wave@me@upper_arm_l,0.25@40%");
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b.value().clip, "wave@me");
    EXPECT_EQ(b.value().joint, "upper_arm_l");
    EXPECT_FLOAT_EQ(b.value().weight, 0.25f);
    EXPECT_FLOAT_EQ(b.value().share, 0.4f);
    for (const char* bad : {"idle", "@spine", "idle@", "idle@spine,", "idle@spine,1.5", "idle@spine,nan",
                            "idle@spine@101%", "idle@spine@x%", "idle@spine,0.5@%", "spine%", "idle@spine@ 50%",
                            "idle@spine,-0", "idle@spine,1e-1", "idle@spine@0x10%", "idle@spine,0.5.1"}) {
        Result<LayerSpec> r = parseLayer(bad);
        ASSERT_FALSE(r) << bad;
        EXPECT_EQ(r.error().message.rfind("--layer '", 0), 0u) << r.error().message;
        EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
    }
}

TEST(PoseLayerText, ResolvesAgainstTheModelOrSaysWhatItHas) {
    const BakedAsset asset = bake(makeWalker(), {}).value();
    const std::vector<std::string> good = {"idle@spine,0.5@50%"};
    Result<std::vector<render::PoseLayerSetup>> r = render::resolveLayers(asset.source, good);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r.value().size(), 1u);
    EXPECT_EQ(r.value()[0].clip, 1u);
    EXPECT_EQ(r.value()[0].share, 128u);
    EXPECT_EQ(r.value()[0].mask, subtreeMask(asset.source.skeleton, 1));
    const std::vector<std::string> clip = {"swim@spine"};
    Result<std::vector<render::PoseLayerSetup>> c = render::resolveLayers(asset.source, clip);
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("no clip 'swim' (clips: walk, idle)"), std::string::npos) << c.error().message;
    const std::vector<std::string> joint = {"idle@tail"};
    Result<std::vector<render::PoseLayerSetup>> j = render::resolveLayers(asset.source, joint);
    ASSERT_FALSE(j);
    EXPECT_NE(j.error().message.find("no joint 'tail' (joints: hips, spine"), std::string::npos) << j.error().message;
    const std::vector<std::string> many(THRONG_MAX_LAYERS + 1, "idle@spine");
    EXPECT_FALSE(render::resolveLayers(asset.source, many));
}

// The pass walks the skeleton depth first (a stack of model matrices, not one per node): a
// skeleton stored breadth first comes out in depth-first order with each node's depth, and each
// node carries its palette entries (one node twice, one node none).
TEST(PosePacking, DepthFirstWithEachNodesPaletteEntries) {
    AnimationSource source;
    source.skeleton.parents = {-1, 0, 0, 1, 2, -1, 5};
    source.skeleton.names = {"a", "b", "c", "d", "e", "f", "g"};
    source.skeleton.rest.resize(7);
    source.palette = {{3, glm::mat4(1.0f)}, {0, glm::mat4(2.0f)}, {3, glm::mat4(3.0f)}, {6, glm::mat4(4.0f)}};
    // entry k's inverse bind is (k + 1) x identity
    const render::PoseData d = render::packPose(source, {});
    EXPECT_EQ(render::skeletonDepth(source.skeleton), 3u);
    EXPECT_EQ(d.depth, 3u);
    const std::vector<std::pair<uint32_t, uint32_t>> want = {{0, 0}, {1, 1}, {3, 2}, {2, 1}, {4, 2}, {5, 0}, {6, 1}};
    ASSERT_EQ(d.steps.size(), want.size());
    std::vector<uint32_t> entries;
    for (size_t i = 0; i < want.size(); ++i) {
        const gpu::shader::PoseStep& step = d.steps[i];
        EXPECT_EQ(std::make_pair(step.node, step.depth), want[i]) << "step " << i;
        EXPECT_EQ(step.first_joint, entries.size()) << "step " << i;
        for (uint32_t j = step.first_joint; j < step.first_joint + step.joints; ++j) {
            EXPECT_EQ(d.joints[j].node, step.node);
            // The inverse bind travels with its entry.
            EXPECT_EQ(d.joints[j].inverse_bind[0].x, float(d.joints[j].entry + 1));
            entries.push_back(d.joints[j].entry);
        }
    }
    EXPECT_EQ(entries, (std::vector<uint32_t>{1, 0, 2, 3}));
}

// Culling's boxes for pose: each clip's grown (local-space cross-fades swing limbs on arcs), and
// with layers every clip's box holds every other's (the wave's raised arm on a walking member).
TEST(PoseCull, BoxesHoldTheLayersClips) {
    const BakedAsset asset = bake(makeWaver(), {}).value();
    render::CrowdLayout co;
    co.count = 8;
    const render::Crowd crowd = render::makeCrowd(asset, co);
    ASSERT_EQ(crowd.clip_bounds.size(), 3u);
    auto holds = [](const Bounds& outer, const Bounds& inner) {
        return glm::all(glm::lessThanEqual(outer.min, inner.min)) &&
               glm::all(glm::greaterThanEqual(outer.max, inner.max));
    };
    const std::vector<Bounds> plain =
        render::techniqueCullBounds("pose", crowd.clip_bounds, throng::defaultSwim(), false);
    const std::vector<Bounds> layered =
        render::techniqueCullBounds("pose", crowd.clip_bounds, throng::defaultSwim(), true);
    EXPECT_FALSE(holds(crowd.clip_bounds[0], crowd.clip_bounds[2])); // the walk's box lacks the raised arm
    for (size_t c = 0; c < 3; ++c) {
        EXPECT_TRUE(holds(plain[c], crowd.clip_bounds[c])) << c;
        EXPECT_FALSE(holds(crowd.clip_bounds[c], plain[c])) << c; // grown
        for (size_t other = 0; other < 3; ++other) EXPECT_TRUE(holds(layered[c], crowd.clip_bounds[other])) << c;
    }
    EXPECT_EQ(render::techniqueCullBounds("baked", crowd.clip_bounds, throng::defaultSwim(), true).front().max,
              crowd.clip_bounds.front().max);
}

class PoseGpu : public test::GpuSuite {};

// World positions of member `inst` at crowd time `time` by the double reference: clip A, the
// cross-fade to clip B as a layer of weight `blend`, then each layer the member carries.
std::vector<glm::dvec3> referenceWorld(const Model& model, const gpu::shader::InstanceRecord& inst, uint32_t index,
                                       float time, std::span<const render::PoseLayerSetup> layers) {
    const double t = double(float(time * inst.speed + inst.time_offset));
    std::vector<ReferenceLayer> over;
    const size_t nodes = model.skeleton.size();
    if (inst.blend > 0.0f)
        over.push_back(
            {&model.clips[gpu::shader::throngClipB(inst.clips)], t, std::vector<double>(nodes, double(inst.blend))});
    for (uint32_t l = 0; l < layers.size(); ++l) {
        const uint32_t key = inst.key != 0 ? inst.key : index;
        if (!gpu::shader::throngCarries(key, THRONG_LAYER_SALT + l, layers[l].share)) continue;
        ReferenceLayer layer{&model.clips[layers[l].clip], t, {}};
        for (float m : layers[l].mask) layer.weights.push_back(double(m) * double(layers[l].weight));
        over.push_back(std::move(layer));
    }
    const std::vector<glm::dmat4> m =
        referenceBlendedSkinningMatrices(model, &model.clips[gpu::shader::throngClipA(inst.clips)], t, over, true);
    std::vector<glm::dvec3> out;
    const glm::vec2 xy = glm::unpackHalf2x16(inst.orientation.x), zw = glm::unpackHalf2x16(inst.orientation.y);
    const glm::dvec3 qv(xy.x, xy.y, zw.x);
    const double qw = zw.y;
    for (const Mesh& mesh : model.meshes)
        for (glm::dvec3 p : referenceSkin(mesh, m).positions) {
            const glm::dvec3 r = 2.0 * glm::cross(qv, p);
            out.push_back((p + qw * r + glm::cross(qv, r)) * double(inst.position_scale.w) +
                          glm::dvec3(inst.position_scale));
        }
    return out;
}

struct Measured {
    double worst = 0.0;       // captured against the reference, / the bind pose's diagonal
    double layer_moves = 0.0; // how far the layers move a vertex (the reference without them), / diagonal
    uint32_t carriers = 0;    // members carrying a layer
};

// `model` baked, drawn by `technique` with `layers` (texts) at three times, captured.
Measured drawAndCompare(gpu::Allocator& a, const Model& model, const std::vector<std::string>& layer_texts,
                        uint32_t members, const char* technique = "pose") {
    Measured out;
    BakeOptions options;
    options.lods = 1;
    Result<BakedAsset> baked = bake(model, options);
    EXPECT_TRUE(baked) << baked.error().message;
    if (!baked) return out;
    const BakedAsset& asset = baked.value();
    Result<std::vector<render::PoseLayerSetup>> layers = render::resolveLayers(asset.source, layer_texts);
    EXPECT_TRUE(layers) << layers.error().message;
    Result<render::GpuAsset> g = render::uploadAsset(a, asset);
    EXPECT_TRUE(g.ok());
    render::CrowdLayout co;
    co.count = members;
    co.cross_fade_share = 0.5f;
    const render::Crowd crowd = render::makeCrowd(asset, co);
    const glm::mat4 vp = render::frameBounds(crowd.bounds, 1.0f);
    const double diagonal = bindPoseBounds(model).diagonal();
    std::vector<bool> referenced(asset.vertices.size(), false);
    for (uint32_t i : asset.indices) referenced[i] = true;
    for (uint32_t i = 0; i < crowd.instances.size(); ++i)
        for (uint32_t l = 0; l < layers.value().size(); ++l)
            if (gpu::shader::throngCarries(i, THRONG_LAYER_SALT + l, layers.value()[l].share)) {
                ++out.carriers;
                break;
            }
    for (float time : {0.0f, 0.37f, 2.9f}) {
        render::RenderSettings s;
        s.technique = technique;
        s.layers = layer_texts;
        s.baked = &asset;
        s.width = s.height = 48;
        s.frames = 1;
        s.time = time;
        s.capture = true;
        Result<render::RenderOutput> r = render::renderCrowd(a, g.value(), crowd, vp, s);
        EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
        if (!r.ok()) break;
        const std::vector<glm::vec4>& p = r.value().positions;
        for (uint32_t i = 0; i < crowd.instances.size(); ++i) {
            const std::vector<glm::dvec3> want = referenceWorld(model, crowd.instances[i], i, time, layers.value());
            const std::vector<glm::dvec3> plain = referenceWorld(model, crowd.instances[i], i, time, {});
            for (size_t v = 0; v < want.size(); ++v) {
                if (!referenced[v]) continue;
                const glm::dvec3 got(p[i * asset.vertices.size() + v]);
                out.worst = std::max(out.worst, glm::length(got - want[v]) / diagonal);
                out.layer_moves = std::max(out.layer_moves, glm::length(plain[v] - want[v]) / diagonal);
            }
        }
    }
    g.value().release();
    return out;
}

// The walker walking and idling, half its members cross-fading, with the idle's upper body over
// 60% of them and the walk's left arm over half: every vertex where the double reference of the
// same blend puts it, within 1e-5 of the size.
TEST_F(PoseGpu, CrossFadesAndLayersMatchTheDoubleReference) {
    if (!context_->vertex_stores) GTEST_SKIP() << "the device lacks vertexPipelineStoresAndAtomics (capture shaders)";
    const Model walker = makeWalker();
    const Measured plain = drawAndCompare(*allocator_, walker, {}, 16);
    std::printf("pose, walker, cross-fades only: worst %.2e of the size\n", plain.worst);
    EXPECT_LT(plain.worst, 1e-5);
    const Measured layered = drawAndCompare(*allocator_, walker, {"idle@spine,0.7@60%", "walk@upper_arm_l,1@50%"}, 16);
    std::printf("pose, walker, two layers on %u of 16 members: worst %.2e of the size (the layers move vertices "
                "by up to %.3f of it)\n",
                layered.carriers, layered.worst, layered.layer_moves);
    EXPECT_LT(layered.worst, 1e-5);
    EXPECT_GT(layered.layer_moves, 0.02); // the layers did something
    EXPECT_GT(layered.carriers, 4u);
    EXPECT_LT(layered.carriers, 16u);
    // The techniques that pose members on the CPU blend the same way (crowd_pose.h).
    for (const char* technique : {"cpu", "palette", "palette-ubo", "bonetex"}) {
        const Measured cpu =
            drawAndCompare(*allocator_, walker, {"idle@spine,0.7@60%", "walk@upper_arm_l,1@50%"}, 16, technique);
        std::printf("%s, walker, two layers: worst %.2e of the size\n", technique, cpu.worst);
        EXPECT_LT(cpu.worst, 1e-5) << technique;
    }
}

// The pass's own key search and interpolation: the walker with the idle's keys unevenly spaced
// (the even-spacing guess misses, the binary search finds them) and the walk's tracks turned
// into STEP and CUBICSPLINE (zero tangents) by turns; cross-fading, with a layer.
TEST_F(PoseGpu, EveryInterpolationAndUnevenKeys) {
    if (!context_->vertex_stores) GTEST_SKIP() << "the device lacks vertexPipelineStoresAndAtomics (capture shaders)";
    Model walker = makeWalker();
    for (Track& track : walker.clips[1].tracks) {
        const size_t n = track.times.size();
        for (size_t k = 0; k < n; ++k)
            track.times[k] = walker.clips[1].duration * float(std::pow(double(k) / double(n - 1), 1.7));
    }
    uint32_t steps = 0, cubics = 0;
    for (size_t i = 0; i < walker.clips[0].tracks.size(); ++i) {
        Track& track = walker.clips[0].tracks[i];
        if (i % 3 == 1) {
            track.interpolation = Interpolation::Step;
            ++steps;
        } else if (i % 3 == 2) {
            std::vector<glm::vec4> cubic;
            for (const glm::vec4& v : track.values) cubic.insert(cubic.end(), {glm::vec4(0.0f), v, glm::vec4(0.0f)});
            track.values = std::move(cubic);
            track.interpolation = Interpolation::CubicSpline;
            ++cubics;
        }
    }
    ASSERT_TRUE(validate(walker).ok()) << validate(walker).message;
    ASSERT_GT(steps, 3u);
    ASSERT_GT(cubics, 3u);
    const Measured m = drawAndCompare(*allocator_, walker, {"idle@spine,0.6@70%"}, 16);
    std::printf("pose, walker with step, cubic and uneven keys: worst %.2e of the size\n", m.worst);
    EXPECT_LT(m.worst, 1e-5);
}

// Skeletons of more nodes than pose_nodes.comp's workgroup holds take pose.comp (a thread per
// member, depth first): the walker with 300 more nodes (a chain under its head, leaves under its
// hips), the same blend within the same bound.
TEST_F(PoseGpu, LargeSkeletonsTakeThePerMemberPass) {
    if (!context_->vertex_stores) GTEST_SKIP() << "the device lacks vertexPipelineStoresAndAtomics (capture shaders)";
    Model walker = makeWalker();
    Skeleton& s = walker.skeleton;
    const int32_t head = int32_t(std::find(s.names.begin(), s.names.end(), "head") - s.names.begin());
    ASSERT_LT(head, int32_t(s.size()));
    for (int i = 0; i < 300; ++i) {
        s.parents.push_back(i < 40 ? (i == 0 ? head : int32_t(s.size()) - 1) : 0);
        s.names.push_back("extra" + std::to_string(i));
        s.rest.emplace_back();
    }
    ASSERT_GT(s.size(), uint32_t(THRONG_POSE_GROUP_NODES));
    ASSERT_TRUE(validate(walker).ok()) << validate(walker).message;
    const Measured m = drawAndCompare(*allocator_, walker, {"idle@spine,0.7@60%"}, 16);
    std::printf("pose, walker with %u nodes (per member): worst %.2e of the size\n", s.size(), m.worst);
    EXPECT_LT(m.worst, 1e-5);
    EXPECT_GT(m.layer_moves, 0.02);
}

// A real model: the Fox's three clips cross-fade exactly (the quaternion palettes approximate
// them to 2.4e-2 of its size), with its Survey clip over the head and neck.
TEST_F(PoseGpu, TheFoxCrossFadesExactly) {
    if (!context_->vertex_stores) GTEST_SKIP() << "the device lacks vertexPipelineStoresAndAtomics (capture shaders)";
    THRONG_ASSET(path, "Fox/Fox.glb");
    Result<Model> fox = importModel(path);
    ASSERT_TRUE(fox) << fox.error().message;
    const Measured m = drawAndCompare(*allocator_, fox.value(), {"Survey@b_Neck_04,0.8@50%"}, 8);
    std::printf("pose, Fox, cross-fades and a layer on %u of 8: worst %.2e of the size (layer moves %.3f)\n",
                m.carriers, m.worst, m.layer_moves);
    EXPECT_LT(m.worst, 1e-5);
    EXPECT_GT(m.layer_moves, 1e-3);
}

TEST_F(PoseGpu, LayersAreRefusedWhereTheyCannotBeDrawn) {
    const BakedAsset asset = bake(makeWalker(), {}).value();
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, asset);
    ASSERT_TRUE(g.ok());
    render::CrowdLayout co;
    co.count = 2;
    const render::Crowd crowd = render::makeCrowd(asset, co);
    const glm::mat4 vp = render::frameBounds(crowd.bounds, 1.0f);
    auto render = [&](const char* technique, const std::string& layer) {
        render::RenderSettings s;
        s.technique = technique;
        s.layers = {layer};
        s.baked = &asset;
        s.width = s.height = 32;
        s.frames = 1;
        return render::renderCrowd(*allocator_, g.value(), crowd, vp, s);
    };
    for (const char* technique : {"baked", "vat", "static", "procedural"}) {
        Result<render::RenderOutput> r = render(technique, "idle@spine");
        ASSERT_FALSE(r.ok()) << technique;
        EXPECT_NE(r.error().message.find("layers (--layer) are blended by the techniques that pose members"),
                  std::string::npos)
            << r.error().message;
    }
    Result<render::RenderOutput> bad = render("pose", "idle@nowhere");
    ASSERT_FALSE(bad.ok());
    EXPECT_NE(bad.error().message.find("no joint 'nowhere'"), std::string::npos) << bad.error().message;
    Result<render::RenderOutput> good = render("pose", "idle@spine");
    EXPECT_TRUE(good.ok()) << (good.ok() ? "" : good.error().message);
    g.value().release();
}

// The pass keeps the path from the root per thread (THRONG_POSE_MAX_DEPTH levels): a deeper
// skeleton is one line, not a pipeline the driver may refuse.
TEST_F(PoseGpu, ASkeletonDeeperThanThePassHoldsIsRefused) {
    BakedAsset asset = bake(makeWalker(), {}).value();
    Skeleton& s = asset.source.skeleton;
    for (int i = 0; i < THRONG_POSE_MAX_DEPTH; ++i) {
        s.parents.push_back(int32_t(s.size()) - 1);
        s.names.push_back("chain" + std::to_string(i));
        s.rest.emplace_back();
    }
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, asset);
    ASSERT_TRUE(g.ok());
    render::CrowdLayout co;
    co.count = 2;
    const render::Crowd crowd = render::makeCrowd(asset, co);
    render::RenderSettings settings;
    settings.technique = "pose";
    settings.baked = &asset;
    settings.width = settings.height = 32;
    settings.frames = 1;
    Result<render::RenderOutput> r =
        render::renderCrowd(*allocator_, g.value(), crowd, render::frameBounds(crowd.bounds, 1.0f), settings);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("levels deep, more than the 256 its pass holds"), std::string::npos)
        << r.error().message;
    g.value().release();
}

// The command line end to end: a picture with a layer, the bench's pose series and its pass,
// and one line for what cannot be done (no file written).
TEST(PoseCli, RenderBenchAndRefusals) {
    const std::filesystem::path dir = test::scratchDir("pose_cli");
    const std::string png = (dir / "wave.png").string();
    const test::CliRun r = test::runThrong("render builtin:waver --technique pose --layer wave@shoulder_r@60% "
                                           "--instances 9 --size 96x64 --frames 1 --validate --out " +
                                           png);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("(pose, overview view, raster auto, layer wave@shoulder_r@60%)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" pose "), std::string::npos) << r.out; // the pass's GPU time
    EXPECT_TRUE(std::filesystem::exists(png));

    const std::string json = (dir / "bench.json").string();
    const test::CliRun b =
        test::runThrong("bench builtin:waver --techniques baked,pose,pose@dq --layer wave@shoulder_r --instances 4 "
                        "--frames 1 --warmup 0 --size 32x32 --validate --json " +
                        json);
    ASSERT_EQ(b.exit_code, 0) << b.err;
    std::ifstream in(json);
    const nlohmann::json report = nlohmann::json::parse(in);
    ASSERT_EQ(report["results"].size(), 3u);
    EXPECT_FALSE(report["results"][0].contains("error")) << report["results"][0].dump(); // baked: without the layer
    EXPECT_FALSE(report["results"][0]["gpu_ms"].contains("pose"));
    EXPECT_EQ(report["results"][1]["variant"], "pose (1 layer)");
    EXPECT_TRUE(report["results"][1]["gpu_ms"].contains("pose")) << report["results"][1].dump();
    EXPECT_EQ(report["results"][2]["variant"], "pose (1 layer) (dual-quaternion)");

    const std::string none = (dir / "none.png").string();
    const test::CliRun baked =
        test::runThrong("render builtin:waver --technique baked --layer wave@shoulder_r --size 32x32 --out " + none);
    EXPECT_EQ(baked.exit_code, 2) << baked.err; // options that do not go together: a usage error
    EXPECT_EQ(baked.err.find('\n'), baked.err.size() - 1) << baked.err;
    EXPECT_NE(baked.err.find("layers (--layer) are blended by the techniques that pose members"), std::string::npos)
        << baked.err;
    const test::CliRun joint =
        test::runThrong("render builtin:waver --technique pose --layer wave@elbow --size 32x32 --out " + none);
    EXPECT_EQ(joint.exit_code, 1) << joint.err;
    EXPECT_NE(joint.err.find("no joint 'elbow' (joints: hips, spine"), std::string::npos) << joint.err;
    const test::CliRun text = test::runThrong("render builtin:waver --technique pose --layer wave --out " + none);
    EXPECT_EQ(text.exit_code, 2) << text.err;
    EXPECT_NE(text.err.find("no @JOINT"), std::string::npos) << text.err;
    EXPECT_FALSE(std::filesystem::exists(none));
}

} // namespace
} // namespace throng
