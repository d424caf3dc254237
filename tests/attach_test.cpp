// Props that follow a joint (throng/attach.h): what attachProps adds to an asset and what it
// refuses, the text form of --attach, and on lavapipe with validation on, through the capture
// shaders, every prop vertex each technique drew against the double-precision CPU joint
// transform x offset, on exactly the members the seeded share picks.
#include <throng/anim.h>
#include <throng/attach.h>
#include <throng/bake.h>
#include <throng/builtin.h>

#include "baked_models.h"
#include "gpu_suite.h"
#include "test_util.h"

#include "../src/render/crowd.h"
#include "../src/render/renderer.h"
#include "../src/render/views.h"

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/packing.hpp>
#include <glm/gtc/quaternion.hpp>

#include <array>
#include <cmath>
#include <cstdio>

using namespace throng;

namespace {

BakedAsset bakedWalker(bool vat = false) { return test::bakedOrFail(makeWalker(), vat); }

Attachment sword(float share = 1.0f) {
    Attachment a;
    a.joint = "hand_r";
    a.prop = makeSword();
    a.offset = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, -0.05f, 0.02f)) *
               glm::mat4_cast(glm::angleAxis(0.4f, glm::normalize(glm::vec3(1.0f, 0.2f, 0.0f))));
    a.share = share;
    return a;
}

Attachment hat(float share) {
    Attachment a;
    a.joint = "head";
    a.prop = makeHat();
    a.offset = glm::translate(glm::mat4(1.0f), glm::vec3(0.0f, 0.2f, 0.0f));
    a.share = share;
    return a;
}

size_t propVertices(const Model& m) {
    size_t n = 0;
    for (const Mesh& mesh : m.meshes) n += mesh.positions.size();
    return n;
}

TEST(Attach, AddsThePropAsGeometrySkinnedToTheJoint) {
    BakedAsset asset = bakedWalker();
    const BakedAsset before = asset;
    const Attachment a[] = {sword(), hat(0.5f)};
    ASSERT_TRUE(attachProps(asset, a).ok());
    ASSERT_EQ(asset.props.size(), 2u);
    const size_t sword_vertices = propVertices(a[0].prop), hat_vertices = propVertices(a[1].prop);
    EXPECT_EQ(asset.vertices.size(), before.vertices.size() + sword_vertices + hat_vertices);
    EXPECT_EQ(asset.submeshes.size(), before.submeshes.size() + 2);
    EXPECT_EQ(asset.props[0].first_vertex, before.vertices.size());
    EXPECT_EQ(asset.props[1].share, 0.5f);
    // Every level keeps the model's ranges and draws each prop whole.
    ASSERT_EQ(asset.lods.size(), before.lods.size());
    for (size_t l = 0; l < asset.lods.size(); ++l) {
        ASSERT_EQ(asset.lods[l].submeshes.size(), asset.submeshes.size());
        for (size_t s = 0; s < before.submeshes.size(); ++s)
            EXPECT_EQ(asset.lods[l].submeshes[s], before.lods[l].submeshes[s]);
        // Each prop whole while the level's error is under a quarter of its size, then none.
        for (size_t p = 0; p < 2; ++p) {
            const size_t s = before.submeshes.size() + p;
            const float prop_size = bindPoseBounds(a[p].prop).diagonal(); // offsets here do not scale
            const bool whole = asset.lods[l].error * 4.0f <= prop_size;
            if (std::abs(asset.lods[l].error * 4.0f - prop_size) < 1e-3f) continue; // on the edge: either
            EXPECT_EQ(asset.lods[l].submeshes[s].index_count, whole ? asset.submeshes[s].index_count : 0u)
                << "level " << l << " prop " << p;
        }
    }
    // Rigid on the joint, and the prop in the joint's bind frame times the offset.
    uint32_t hand = 0;
    for (uint32_t p = 0; p < asset.source.palette.size(); ++p)
        if (asset.source.skeleton.names[asset.source.palette[p].joint] == "hand_r") hand = p;
    const glm::dmat4 place =
        glm::inverse(glm::dmat4(asset.source.palette[hand].inverse_bind)) * glm::dmat4(a[0].offset);
    const glm::vec3 first = a[0].prop.meshes[0].positions[0];
    const BakedVertex& v = asset.vertices[asset.props[0].first_vertex];
    EXPECT_EQ(v.joints[0], hand);
    EXPECT_EQ(v.weights[0], 1.0f);
    const glm::dvec3 expected = glm::dvec3(place * glm::dvec4(glm::dvec3(first), 1.0));
    EXPECT_NEAR(v.position[0], expected.x, 1e-6);
    EXPECT_NEAR(v.position[1], expected.y, 1e-6);
    EXPECT_NEAR(v.position[2], expected.z, 1e-6);
    // The bounds hold the prop: the sword reaches past the walker's own box.
    EXPECT_GT(clipBounds(asset.clips[0]).diagonal(), clipBounds(before.clips[0]).diagonal() + 0.3f);
    EXPECT_GT(asset.bind_bounds.diagonal(), before.bind_bounds.diagonal() + 0.2f);
    EXPECT_TRUE(isPropSubmesh(asset, uint32_t(before.submeshes.size())));
    EXPECT_FALSE(isPropSubmesh(asset, 0));
    EXPECT_EQ(propDrawBits(asset, uint32_t(before.submeshes.size()) + 1),
              THRONG_DRAW_UNTINTED | gpu::shader::throngWear(2, 0, 128) << THRONG_DRAW_WEAR_SHIFT);
}

TEST(Attach, RefusesWhatItCannotAttachAndLeavesTheAssetAlone) {
    BakedAsset asset = bakedWalker();
    const size_t vertices = asset.vertices.size();
    Attachment bad = sword();
    bad.joint = "tail";
    Status s = attachProps(asset, std::span(&bad, 1));
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message.find("no skinning joint of that name"), std::string::npos) << s.message;
    EXPECT_NE(s.message.find("hand_r"), std::string::npos) << s.message; // lists the joints
    bad = sword(1.5f);
    EXPECT_FALSE(attachProps(asset, std::span(&bad, 1)).ok());
    bad = sword();
    bad.offset[3][0] = std::nanf("");
    EXPECT_FALSE(attachProps(asset, std::span(&bad, 1)).ok());
    bad = sword();
    bad.prop.meshes.clear();
    bad.prop.materials.clear();
    EXPECT_FALSE(attachProps(asset, std::span(&bad, 1)).ok());
    // Two good ones then a bad one: nothing of the good ones stays.
    const Attachment mixed[] = {sword(), hat(1.0f), bad};
    EXPECT_FALSE(attachProps(asset, mixed).ok());
    EXPECT_EQ(asset.vertices.size(), vertices);
    EXPECT_TRUE(asset.props.empty());
    std::vector<Attachment> many(kMaxProps + 1, hat(1.0f));
    s = attachProps(asset, many);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message.find("at most"), std::string::npos) << s.message;
    BakedAsset bare = asset;
    bare.source = AnimationSource{};
    const Attachment one[] = {sword()};
    s = attachProps(bare, one);
    EXPECT_FALSE(s.ok());
    EXPECT_NE(s.message.find("no skeleton"), std::string::npos) << s.message;
}

// Parts of a kit slot (issue #25): a member wears one part of a slot at most, each part on its
// share of 100,000 members within 1% (the CPU's wears() is the shaders' throngWears), a prop
// outside the slot independently of it; a slot whose shares pass 100% is refused in one line.
TEST(Attach, SlotPartsAreExclusiveAndFollowTheirShares) {
    BakedAsset asset = bakedWalker();
    Attachment parts[] = {hat(0.5f), hat(0.3f), hat(0.125f), sword(0.25f)};
    for (int p = 0; p < 3; ++p) parts[p].slot = "hats";
    ASSERT_TRUE(attachProps(asset, parts).ok());
    const double expected[] = {0.5, 0.3, 0.125, 0.25};
    std::array<uint32_t, 4> count{};
    uint32_t none = 0, sword_with_hat = 0;
    constexpr uint32_t kMembers = 100000;
    for (uint32_t key = 1; key <= kMembers; ++key) {
        uint32_t hats = 0;
        for (uint32_t p = 0; p < 4; ++p)
            if (wears(asset, p, key)) {
                ++count[p];
                hats += p < 3;
            }
        ASSERT_LE(hats, 1u) << "key " << key << " wears two parts of one slot";
        none += hats == 0;
        sword_with_hat += hats == 1 && wears(asset, 3, key);
    }
    for (uint32_t p = 0; p < 4; ++p) EXPECT_NEAR(double(count[p]) / kMembers, expected[p], 0.01) << "part " << p;
    EXPECT_NEAR(double(none) / kMembers, 0.075, 0.01) << "no hat";
    EXPECT_NEAR(double(sword_with_hat) / kMembers, 0.925 * 0.25, 0.01) << "the sword is independent of the hats";
    // The slot's parts share one salt and take adjacent intervals.
    EXPECT_EQ(propWear(asset, 0), gpu::shader::throngWear(1, 0, 128));
    EXPECT_EQ(propWear(asset, 1), gpu::shader::throngWear(1, 128, 205));
    EXPECT_EQ(propWear(asset, 2), gpu::shader::throngWear(1, 205, 237));
    EXPECT_EQ(propWear(asset, 3), gpu::shader::throngWear(4, 0, 64));

    Attachment more = hat(0.2f);
    more.slot = "hats";
    const Status s = attachProps(asset, std::span(&more, 1));
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.message, "slot 'hats': its parts' shares add up to 113%, past 100% (a member wears one part of a "
                         "slot at most)");
    EXPECT_EQ(asset.props.size(), 4u);
}

TEST(Attach, ParsesTheTextForm) {
    Result<AttachmentSpec> a = parseAttachment("hand_r=builtin:sword");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a.value().joint, "hand_r");
    EXPECT_EQ(a.value().model, "builtin:sword");
    EXPECT_EQ(a.value().offset, glm::mat4(1.0f));
    EXPECT_EQ(a.value().share, 1.0f);
    a = parseAttachment("head=hats/top.glb,0,0.2,0,0,90,0,2@25%");
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a.value().model, "hats/top.glb");
    EXPECT_FLOAT_EQ(a.value().share, 0.25f);
    // Translation, then the rotation (90 degrees about y takes +x to -z), then the scale.
    const glm::vec4 x = a.value().offset * glm::vec4(1.0f, 0.0f, 0.0f, 1.0f);
    EXPECT_NEAR(x.x, 0.0f, 1e-6f);
    EXPECT_NEAR(x.y, 0.2f, 1e-6f);
    EXPECT_NEAR(x.z, -2.0f, 1e-6f);
    for (const char* bad :
         {"builtin:sword", "=builtin:sword", "hand_r=", "hand_r=builtin:sword,1,2", "hand_r=builtin:sword,1,2,x",
          "hand_r=builtin:sword@150%", "hand_r=builtin:sword,0,0,0,0,0,0,0", "hand_r=builtin:sword,1e300,0,0"})
        EXPECT_FALSE(parseAttachment(bad).ok()) << bad;
}

TEST(Attach, TheShareIsSeededPerMember) {
    size_t carried = 0;
    const uint32_t share = 64; // a quarter
    for (uint32_t key = 0; key < 20000; ++key) carried += gpu::shader::throngCarries(key, 1, share) ? 1 : 0;
    EXPECT_NEAR(double(carried) / 20000.0, 0.25, 0.02);
    for (uint32_t key = 0; key < 100; ++key) {
        EXPECT_TRUE(gpu::shader::throngCarries(key, 3, 256));
        EXPECT_FALSE(gpu::shader::throngCarries(key, 3, 0));
    }
}

TEST(Attach, TheCliRefusesBadAttachments) {
    test::CliRun r = test::runThrong("render builtin:walker --attach nonsense -o out.png");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("JOINT=MODEL"), std::string::npos) << r.err;
    r = test::runThrong("render builtin:walker --instances 2 --size 32x18 --attach tail=builtin:sword -o " +
                        (test::scratchDir("cli") / "out.png").string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("no skinning joint"), std::string::npos) << r.err;
    r = test::runThrong("render builtin:walker --instances 2 --size 32x18 --attach hand_r=builtin:nothing -o " +
                        (test::scratchDir("cli") / "out.png").string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("builtin:nothing"), std::string::npos) << r.err;
}

// The GPU: every technique that skins by joints draws each prop vertex where the CPU's joint
// transform x offset puts it, on the members the share picks, and nowhere on the others.
class AttachGpu : public test::GpuSuite {};

TEST_F(AttachGpu, PropsFollowTheJointInEveryTechnique) {
    if (!context_->vertex_stores) GTEST_SKIP() << "the device lacks vertexPipelineStoresAndAtomics (capture shaders)";
    const Model model = makeWalker();
    BakedAsset asset = bakedWalker(true);
    const Attachment props[] = {sword(0.5f), hat(0.75f)};
    ASSERT_TRUE(attachProps(asset, props).ok());
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, asset);
    ASSERT_TRUE(g.ok()) << g.error().message;

    // Members on baked frames (30 a second; both clips' frames fall on 1/30 s), turned, scaled,
    // some cross-fading, half with a key of their own.
    const float time = 0.4f;
    render::Crowd crowd;
    crowd.clip_bounds = render::clipCullBounds(asset);
    for (uint32_t i = 0; i < 24; ++i) {
        gpu::shader::InstanceRecord r =
            render::singleInstance(i % 2, float(i % 7) / 30.0f, (i + 1) % 2, i % 5 == 0 ? 0.5f : 0.0f);
        r.position_scale = glm::vec4(float(i % 6) * 1.2f - 3.0f, 0.0f, float(i / 6) * 1.2f - 2.0f, 0.9f + 0.01f * i);
        r.orientation = render::packQuaternion(glm::angleAxis(0.7f * float(i), glm::vec3(0.0f, 1.0f, 0.0f)));
        r.key = i % 2 == 0 ? 0u : 1000u + 7u * i;
        crowd.instances.push_back(r);
    }
    crowd.bounds = {glm::vec3(-4.0f, 0.0f, -3.0f), glm::vec3(4.0f, 2.2f, 3.0f)};
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Overview, crowd, 1.0f);
    const double size = bindPoseBounds(model).diagonal();

    for (const char* technique : {"baked", "palette", "cpu", "bonetex", "vat"}) {
        SCOPED_TRACE(technique);
        render::RenderSettings s;
        s.technique = technique;
        s.baked = &asset;
        s.width = 64;
        s.height = 64;
        s.frames = 1;
        s.time = time;
        s.capture = true;
        Result<render::RenderOutput> out = render::renderCrowd(*allocator_, g.value(), crowd, vp, s);
        ASSERT_TRUE(out.ok()) << out.error().message;
        const std::vector<glm::vec4>& world = out.value().positions;
        ASSERT_EQ(world.size(), crowd.instances.size() * asset.vertices.size());
        // The techniques that pose from the source (cpu, palette, bonetex) blend a cross-fade per
        // joint in local space; baked and vat blend skinning matrices.
        const bool local_fade = render::techniqueTakesLayers(technique);
        double worst = 0.0;
        size_t carriers = 0, checked = 0, stray = 0;
        for (size_t m = 0; m < crowd.instances.size(); ++m) {
            const gpu::shader::InstanceRecord& inst = crowd.instances[m];
            // The joint's model transform at the member's time: the reference skinning matrix
            // (a cross-fade blends them) times the joint's bind pose.
            const double t = double(time) * inst.speed + inst.time_offset;
            const auto a =
                referenceSkinningMatrices(model, &model.clips[gpu::shader::throngClipA(inst.clips)], t, true);
            const auto b =
                referenceSkinningMatrices(model, &model.clips[gpu::shader::throngClipB(inst.clips)], t, true);
            const ReferenceLayer fade{&model.clips[gpu::shader::throngClipB(inst.clips)], t,
                                      std::vector<double>(model.skeleton.size(), double(inst.blend))};
            const auto exact = referenceBlendedSkinningMatrices(
                model, &model.clips[gpu::shader::throngClipA(inst.clips)], t, {&fade, 1}, true);
            const glm::vec2 xy = glm::unpackHalf2x16(inst.orientation.x), zw = glm::unpackHalf2x16(inst.orientation.y);
            const glm::dquat q(zw.y, xy.x, xy.y, zw.x);
            for (size_t p = 0; p < asset.props.size(); ++p) {
                const BakedProp& prop = asset.props[p];
                const uint32_t share = uint32_t(std::lround(prop.share * 256.0f));
                const bool carries =
                    gpu::shader::throngCarries(inst.key != 0 ? inst.key : uint32_t(m), uint32_t(p + 1), share);
                carriers += carries;
                const glm::dmat4 skin = local_fade
                                            ? exact[prop.joint]
                                            : a[prop.joint] * (1.0 - inst.blend) + b[prop.joint] * double(inst.blend);
                const glm::dmat4 joint = skin * glm::inverse(glm::dmat4(asset.source.palette[prop.joint].inverse_bind));
                const Model& source = props[p].prop;
                size_t v = 0;
                for (const Mesh& mesh : source.meshes)
                    for (const glm::vec3& local : mesh.positions) {
                        const glm::vec4 got = world[m * asset.vertices.size() + prop.first_vertex + v++];
                        if (!carries) {
                            stray += std::isnan(got.x) ? 0 : 1;
                            continue;
                        }
                        const glm::dvec3 model_space =
                            glm::dvec3(joint * glm::dmat4(props[p].offset) * glm::dvec4(glm::dvec3(local), 1.0));
                        const glm::dvec3 expected =
                            q * model_space * double(inst.position_scale.w) + glm::dvec3(inst.position_scale);
                        worst = std::max(worst, glm::length(glm::dvec3(got) - expected) / size);
                        ++checked;
                    }
            }
        }
        std::printf("%s: %zu prop vertices on %zu carriers, largest error %.2e of the size (cross-fades of %s); %zu "
                    "drawn on members without the prop\n",
                    technique, checked, carriers, worst, local_fade ? "local joints" : "skinning matrices", stray);
        EXPECT_GT(carriers, 10u);
        EXPECT_LT(carriers, 2 * crowd.instances.size());
        EXPECT_GT(checked, 100u);
        EXPECT_LE(worst, 1e-5);
        EXPECT_EQ(stray, 0u);
    }
    g.value().release();
}

} // namespace
