// Looks (issue #25, section 3; throng/looks.h): colours per material slot, chosen per member by
// its key. The choice against the shares over 100,000 members, the refusals, the file round trip,
// and on the GPU (validation on): a crowd whose members all take one key draws the picture of a
// model whose looked materials are painted that key's colours (the CPU's lookColor), for every
// technique, through both rasterizers.
#include "../src/render/crowd.h"
#include "../src/render/renderer.h"
#include "../src/render/views.h"

#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/format.h>
#include <throng/looks.h>

#include "gpu_suite.h"
#include "pictures.h"
#include "test_util.h"

#include <glm/gtc/packing.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>

using namespace throng;

namespace {

BakedAsset bakedKit(bool vat = false) {
    BakeOptions o;
    o.vat = vat;
    Result<BakedAsset> r = bake(makeKit(), o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : BakedAsset{};
}

// A colour as the looks table stores it (halves).
glm::vec3 stored(glm::vec3 c) {
    const glm::vec2 rg = glm::unpackHalf2x16(glm::packHalf2x16(glm::vec2(c.r, c.g)));
    return {rg.x, rg.y, glm::unpackHalf2x16(glm::packHalf2x16(glm::vec2(c.b, 0.0f))).x};
}

} // namespace

// builtin:kit's four looks: over 100,000 members each colour goes to its share (as requested,
// within 1%), the looks choose independently of each other and of the parts.
TEST(Looks, ColoursFollowTheirShares) {
    const BakedAsset asset = bakedKit();
    ASSERT_EQ(asset.looks.size(), 4u);
    const uint32_t members = 100000;
    for (const BakedLook& look : asset.looks) {
        EXPECT_FALSE(look.submeshes.empty()) << look.name;
        std::vector<uint32_t> count(look.colors.size(), 0);
        for (uint32_t key = 1; key <= members; ++key) ++count[lookColor(look, key)];
        double total = 0.0;
        for (size_t c = 0; c < look.colors.size(); ++c) total += look.shares.empty() ? 1.0 : look.shares[c];
        for (size_t c = 0; c < look.colors.size(); ++c) {
            const double wanted = (look.shares.empty() ? 1.0 : look.shares[c]) / total;
            EXPECT_NEAR(double(count[c]) / members, wanted, 0.01) << look.name << " colour " << c;
        }
    }
    // Independence: the skin and top choices together as the product of their shares.
    const BakedLook &skin = asset.looks[0], &top = asset.looks[1];
    uint32_t both = 0, skin0 = 0, top0 = 0;
    for (uint32_t key = 1; key <= members; ++key) {
        const bool s = lookColor(skin, key) == 0, t = lookColor(top, key) == 0;
        skin0 += s;
        top0 += t;
        both += s && t;
    }
    EXPECT_NEAR(double(both) / members, double(skin0) / members * double(top0) / members, 0.01);
}

// What validate(Model) refuses in a look, one line each.
TEST(Looks, RefusesBadLooks) {
    auto refused = [](const std::function<void(Model&)>& spoil, const std::string& expected) {
        Model m = makeKit();
        spoil(m);
        const Status s = validate(m);
        ASSERT_FALSE(s.ok()) << expected;
        EXPECT_NE(s.message.find(expected), std::string::npos) << s.message;
        EXPECT_EQ(s.message.find('\n'), std::string::npos) << s.message;
    };
    refused([](Model& m) { m.looks[0].materials = {99}; }, "material 99 outside the model's 6");
    refused([](Model& m) { m.looks[1].materials = {0}; }, "is in another look too");
    refused([](Model& m) { m.looks[0].materials.clear(); }, "colours no material");
    refused([](Model& m) { m.looks[2].colors.clear(); }, "0 colours (1 .. 64)");
    refused([](Model& m) { m.looks[2].colors.resize(65, glm::vec3(1.0f)); }, "65 colours");
    refused([](Model& m) { m.looks[0].colors[1].g = -1.0f; }, "colour 1 is not finite and >= 0");
    refused([](Model& m) { m.looks[0].colors[2].b = std::nanf(""); }, "colour 2 is not finite");
    refused([](Model& m) { m.looks[1].shares.pop_back(); }, "7 shares for 8 colours");
    refused([](Model& m) { m.looks[2].shares = {0.0f, 0.0f, 0.0f, 0.0f}; }, "its shares add up to 0");
    refused([](Model& m) { m.looks[3].shares[0] = std::nanf(""); }, "a share is not finite");
    refused([](Model& m) { m.looks[3].name = "two\nlines"; }, "not on one line");
    refused([](Model& m) { m.looks.resize(65, m.looks[0]); }, "65 looks, more than 64");
}

// A baked kit's looks through a .throng file (section LOOK): the same looks, the same choices;
// an asset whose looks overlap is not written.
TEST(Looks, RoundTripThroughTheFile) {
    const BakedAsset asset = bakedKit();
    const std::string path = (test::scratchDir("looks") / "kit.throng").string();
    ASSERT_TRUE(writeThrong(asset, path).ok());
    Result<BakedAsset> back = readThrong(path);
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_EQ(back.value().looks.size(), asset.looks.size());
    for (size_t l = 0; l < asset.looks.size(); ++l) {
        const BakedLook &a = asset.looks[l], &b = back.value().looks[l];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.submeshes, b.submeshes);
        EXPECT_EQ(a.colors, b.colors);
        EXPECT_EQ(a.shares, b.shares);
        EXPECT_EQ(a.number, b.number);
        for (uint32_t key : {1u, 7u, 12345u}) EXPECT_EQ(lookColor(a, key), lookColor(b, key));
    }
    std::filesystem::remove(path);
    BakedAsset bad = asset;
    bad.looks[1].submeshes = bad.looks[0].submeshes;
    const Status s = writeThrong(bad, path);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message.find("is in another look too"), std::string::npos) << s.message;
    EXPECT_FALSE(std::filesystem::exists(path));
}

class LooksGpu : public test::GpuSuite {};

// Every member of key k, drawn with the kit's looks, against the kit without looks whose looked
// submeshes are painted k's colours (the CPU's choice, as the table stores them): the same
// picture (the last bit of rounding aside) for every technique on the hardware path and through
// the compute rasterizer, for keys that choose different colours.
TEST_F(LooksGpu, MembersWearTheColoursTheirKeysChoose) {
    const BakedAsset looked = bakedKit(true);
    Result<render::GpuAsset> looked_gpu = render::uploadAsset(*allocator_, looked);
    ASSERT_TRUE(looked_gpu.ok()) << looked_gpu.error().message;
    render::CrowdLayout layout;
    layout.count = 40;
    render::Crowd crowd = render::makeCrowd(looked, layout);
    for (gpu::shader::InstanceRecord& r : crowd.instances) r.color = 0xffffffffu;
    const uint32_t w = 256, h = 144;
    const glm::mat4 vp = render::crowdViewProjection(render::ViewKind::Street, crowd, float(w) / float(h));
    std::vector<std::set<uint32_t>> chosen(looked.looks.size());
    for (uint32_t key : {3u, 11u}) {
        BakedAsset painted = looked;
        painted.looks.clear();
        for (size_t l = 0; l < looked.looks.size(); ++l) {
            const uint32_t c = lookColor(looked.looks[l], key);
            chosen[l].insert(c);
            for (uint32_t s : looked.looks[l].submeshes)
                painted.submeshes[s].base_color *= glm::vec4(stored(looked.looks[l].colors[c]), 1.0f);
        }
        Result<render::GpuAsset> painted_gpu = render::uploadAsset(*allocator_, painted);
        ASSERT_TRUE(painted_gpu.ok()) << painted_gpu.error().message;
        for (gpu::shader::InstanceRecord& r : crowd.instances) r.key = key;
        const bool compute = context_->int64_atomics;
        for (const char* technique : {"cpu", "palette", "palette-ubo", "bonetex", "baked", "vat", "pose", "static"})
            for (Raster raster : {Raster::Hardware, Raster::Compute}) {
                if (raster == Raster::Compute && !compute) continue;
                auto draw = [&](const BakedAsset& a, const render::GpuAsset& g) {
                    render::RenderSettings s;
                    s.width = w;
                    s.height = h;
                    s.frames = 1;
                    s.time = 0.4f;
                    s.technique = technique;
                    s.raster = raster;
                    s.baked = &a;
                    Result<render::RenderOutput> out = render::renderCrowd(*allocator_, g, crowd, vp, s);
                    EXPECT_TRUE(out.ok()) << technique << ": " << out.error().message;
                    return out.ok() ? std::move(out).value() : render::RenderOutput{};
                };
                const render::RenderOutput a = draw(looked, looked_gpu.value());
                const render::RenderOutput b = draw(painted, painted_gpu.value());
                const test::Agreement agree = test::comparePictures(a, b, 2);
                std::printf("key %u %-12s %-8s %zu of %zu pixels differ (%zu covered)\n", key, technique,
                            a.raster == Raster::Compute ? "compute" : "hardware", agree.differ, agree.pixels,
                            agree.covered);
                EXPECT_GT(agree.covered, 1000u) << technique;
                EXPECT_LE(agree.differ, agree.pixels / 1000) << technique << " key " << key;
            }
        painted_gpu.value().release();
    }
    for (size_t l = 0; l < chosen.size(); ++l) EXPECT_EQ(chosen[l].size(), 2u) << "look " << l << ": pick other keys";
    looked_gpu.value().release();
}
