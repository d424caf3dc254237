// Looks (issue #25, section 3; throng/looks.h): colours per material slot, chosen per member by
// its key. The choice against the shares over 100,000 members, the refusals, the file round trip,
// and on the GPU (validation on): a crowd whose members all take one key draws the picture of a
// model whose looked materials are painted that key's colours (the CPU's lookColor), for every
// technique, through both rasterizers; looks in kit files. Texture variants (a look of
// textures) likewise, and their impostors by the textures' means.
#include "../src/render/crowd.h"
#include "../src/render/renderer.h"
#include "../src/render/views.h"

#include <throng/attach.h>
#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/format.h>
#include <throng/import.h>
#include <throng/kit.h>
#include <throng/looks.h>

#include "baked_models.h"
#include "gpu_suite.h"
#include "pictures.h"
#include "test_util.h"
#include "textured_card.h"

#include "../src/texture/texture.h"

#include <glm/gtc/packing.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

using namespace throng;

namespace {

BakedAsset bakedKit(bool vat = false) { return test::bakedOrFail(makeKit(), vat); }

// A colour as the looks table stores it (halves).
glm::vec3 stored(glm::vec3 c) {
    const glm::vec2 rg = glm::unpackHalf2x16(glm::packHalf2x16(glm::vec2(c.r, c.g)));
    return {rg.x, rg.y, glm::unpackHalf2x16(glm::packHalf2x16(glm::vec2(c.b, 0.0f))).x};
}

// The pictures' mean colours over blocks of 8 x 8 pixels where both show members (16 pixels
// or more not the background): how many blocks there are and in how many the means differ by
// more than 16 of 255 in a channel. Impostors are compared so: a picture baked with the colours
// blends them across a material's edge where one coloured by its look does not (a texel takes the
// look most of its samples have, and a pixel its nearest texel's), and most pixels of a member a
// few pixels wide are near an edge; at 32 texels a tile a hand is a texel wide and takes the
// trousers' look beside it (10% of the blocks differ), at 64 (below) 2%.
struct Blocks {
    size_t compared = 0, differ = 0;
};
Blocks compareBlocks(const render::RenderOutput& a, const render::RenderOutput& b) {
    Blocks r;
    const uint32_t w = a.width, h = a.height;
    auto background = [&](const std::vector<uint8_t>& p, size_t i) {
        return p[i] == p[0] && p[i + 1] == p[1] && p[i + 2] == p[2];
    };
    for (uint32_t by = 0; by + 8 <= h; by += 8)
        for (uint32_t bx = 0; bx + 8 <= w; bx += 8) {
            double sa[3] = {0, 0, 0}, sb[3] = {0, 0, 0};
            size_t na = 0, nb = 0;
            for (uint32_t y = by; y < by + 8; ++y)
                for (uint32_t x = bx; x < bx + 8; ++x) {
                    const size_t i = (size_t(y) * w + x) * 4;
                    if (!background(a.rgba, i)) {
                        ++na;
                        for (int c = 0; c < 3; ++c) sa[c] += a.rgba[i + c];
                    }
                    if (!background(b.rgba, i)) {
                        ++nb;
                        for (int c = 0; c < 3; ++c) sb[c] += b.rgba[i + c];
                    }
                }
            if (na < 16 || nb < 16) continue;
            ++r.compared;
            bool differ = false;
            for (int c = 0; c < 3; ++c) differ = differ || std::abs(sa[c] / double(na) - sb[c] / double(nb)) > 16.0;
            r.differ += differ;
        }
    return r;
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

// Looks in kit files (throng/kit.h): colours as "#rrggbb" (sRGB) or linear numbers, materials by
// name across the base and the parts; what parseKit and assembleKit refuse, one line each.
TEST(Looks, KitFilesColourMaterialsByName) {
    const auto dir = test::scratchDir("looks-kit");
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    };
    Result<Model> kit = importModel(write("kit.json", R"({"base": "builtin:walker",
        "parts": [{"model": "builtin:hat", "slot": "hat", "share": 0.5, "joint": "head", "offset": [0, 1.8, 0]}],
        "looks": [{"name": "dye", "materials": ["walker"], "colors": ["#ff0000", [0, 0, 0.5]], "shares": [3, 1]}]})"));
    ASSERT_TRUE(kit.ok()) << kit.error().message;
    ASSERT_EQ(kit.value().looks.size(), 1u);
    const Look& look = kit.value().looks[0];
    EXPECT_EQ(look.materials, std::vector<uint32_t>{0});
    EXPECT_EQ(look.colors[0], glm::vec3(1.0f, 0.0f, 0.0f)) << "#ff0000 is linear 1, 0, 0";
    EXPECT_EQ(look.colors[1], glm::vec3(0.0f, 0.0f, 0.5f));
    Result<BakedAsset> baked = bake(kit.value(), BakeOptions{});
    ASSERT_TRUE(baked.ok()) << baked.error().message;
    ASSERT_EQ(baked.value().looks.size(), 1u);
    EXPECT_EQ(baked.value().looks[0].submeshes, std::vector<uint32_t>{0}) << "the walker's one submesh";
    EXPECT_NEAR(std::pow((0x80 / 255.0 + 0.055) / 1.055, 2.4), 0.2158605, 1e-6); // the sRGB curve used below
    Result<KitSpec> half =
        parseKit(R"({"base": "b", "looks": [{"name": "x", "materials": ["m"], "colors": ["#808080"]}]})");
    ASSERT_TRUE(half.ok()) << half.error().message;
    EXPECT_NEAR(half.value().looks[0].colors[0].g, 0.2158605f, 1e-6f);

    const std::pair<std::string, std::string> refused[] = {
        {R"({"base": "builtin:walker", "looks": [{"name": "x", "materials": ["coat"], "colors": ["#ffffff"]}]})",
         "kit: look 'x': no material 'coat' (the kit has walker)"},
        {R"({"base": "b", "looks": [{"name": "x", "materials": ["m"], "colors": ["#12345"]}]})",
         "kit: look 0: colour '#12345' is not #rrggbb"},
        {R"({"base": "b", "looks": [{"name": "x", "materials": ["m"], "colors": [[1, 2]]}]})",
         "kit: look 0: a colour is neither"},
        {R"({"base": "b", "looks": [{"name": "x", "materials": ["m"], "colors": [[1, 2, -3]]}]})",
         "kit: look 'x': colour 0 is not finite and >= 0"},
        {R"({"base": "b", "looks": [{"name": "x", "materials": ["m"], "colors": ["#ffffff"], "shares": [1, 2]}]})",
         "kit: look 'x': 2 shares for 1 colours"},
        {R"({"base": "b", "looks": [{"name": "x", "materials": ["m"], "colors": []}]})",
         "kit: look 'x': 0 colours (1 .. 64)"},
        {R"({"base": "b", "looks": [{"name": "x", "colors": ["#ffffff"]}]})", "kit: look 0: no \"materials\""},
        {R"({"base": "b", "looks": [{"materials": ["m"], "colors": ["#ffffff"]}]})", "kit: look 0: no \"name\""},
        {R"({"base": "b", "looks": [{"name": "x", "materials": ["m"], "colors": ["#ffffff"], "hue": 1}]})",
         "kit: look 0: unknown key 'hue'"},
        {R"({"base": "b", "looks": {}})", "kit: \"looks\" is not a list"},
    };
    for (const auto& [text, expected] : refused) {
        Result<Model> r = importModel(write("bad.json", text));
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_NE(r.error().message.find(expected), std::string::npos) << r.error().message;
        EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
    }
}

class LooksGpu : public test::GpuSuite {
  protected:
    static constexpr uint32_t kWidth = 256, kHeight = 144;
    // One frame of `crowd` (model `a`, on the GPU `g`) at 0.4 s, kWidth x kHeight, through
    // `vp`, with what `s` says of the technique, raster and impostors.
    render::RenderOutput draw(const BakedAsset& a, const render::GpuAsset& g, const render::Crowd& crowd,
                              const glm::mat4& vp, render::RenderSettings s) const {
        s.width = kWidth;
        s.height = kHeight;
        s.frames = 1;
        s.time = 0.4f;
        s.baked = &a;
        Result<render::RenderOutput> out = render::renderCrowd(*allocator_, g, crowd, vp, s);
        EXPECT_TRUE(out.ok()) << s.technique << ": " << out.error().message;
        return out.ok() ? std::move(out).value() : render::RenderOutput{};
    }
    // 40 members of `a`, untinted (a look's colours then show as they are).
    static render::Crowd crowdOf(const BakedAsset& a) {
        render::CrowdLayout layout;
        layout.count = 40;
        render::Crowd crowd = render::makeCrowd(a, layout);
        for (gpu::shader::InstanceRecord& r : crowd.instances) r.color = 0xffffffffu;
        return crowd;
    }
    static glm::mat4 streetView(const render::Crowd& crowd) {
        return render::crowdViewProjection(render::ViewKind::Street, crowd, float(kWidth) / float(kHeight));
    }
    // Small impostors for the tests that draw every member as one.
    static BakeOptions impostorOptions() {
        BakeOptions o;
        o.impostors.enabled = true;
        o.impostors.tile = 64;
        o.impostors.azimuths = 8;
        o.impostors.elevations = 2;
        o.impostors.fps = 5.0f;
        return o;
    }
    // Every member of `crowd` taking key `key`: `a` against `b` (the same crowd painted as `a`
    // draws it) for every mesh technique through both rasterizers, the same pictures (the last
    // bit of rounding aside). Returns `a`'s picture through `baked` on the hardware path.
    render::RenderOutput expectSamePictures(const BakedAsset& a, const render::GpuAsset& a_gpu, const BakedAsset& b,
                                            const render::GpuAsset& b_gpu, render::Crowd& crowd, uint32_t key,
                                            const char* label) const {
        for (gpu::shader::InstanceRecord& r : crowd.instances) r.key = key;
        const glm::mat4 vp = streetView(crowd);
        render::RenderOutput baked;
        for (const char* technique : {"cpu", "palette", "palette-ubo", "bonetex", "baked", "vat", "pose", "static"})
            for (Raster raster : {Raster::Hardware, Raster::Compute}) {
                if (raster == Raster::Compute && !context_->int64_atomics) continue;
                render::RenderSettings s;
                s.technique = technique;
                s.raster = raster;
                const render::RenderOutput pa = draw(a, a_gpu, crowd, vp, s);
                const render::RenderOutput pb = draw(b, b_gpu, crowd, vp, s);
                const test::Agreement agree = test::comparePictures(pa, pb, 2);
                std::printf("%s (key %u) %-12s %-8s %zu of %zu pixels differ (%zu covered)\n", label, key, technique,
                            pa.raster == Raster::Compute ? "compute" : "hardware", agree.differ, agree.pixels,
                            agree.covered);
                EXPECT_GT(agree.covered, 1000u) << technique;
                EXPECT_LE(agree.differ, agree.pixels / 1000) << technique << " key " << key;
                if (std::string(technique) == "baked" && raster == Raster::Hardware) baked = pa;
            }
        return baked;
    }
};

// Every member of key k, drawn with the kit's looks, against the kit without looks whose looked
// submeshes are painted k's colours (the CPU's choice, as the table stores them): the same
// picture (the last bit of rounding aside) for every technique on the hardware path and through
// the compute rasterizer, for keys that choose different colours.
TEST_F(LooksGpu, MembersWearTheColoursTheirKeysChoose) {
    const BakedAsset looked = bakedKit(true);
    Result<render::GpuAsset> looked_gpu = render::uploadAsset(*allocator_, looked);
    ASSERT_TRUE(looked_gpu.ok()) << looked_gpu.error().message;
    render::Crowd crowd = crowdOf(looked);
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
        expectSamePictures(looked, looked_gpu.value(), painted, painted_gpu.value(), crowd, key, "colours");
        painted_gpu.value().release();
    }
    for (size_t l = 0; l < chosen.size(); ++l) EXPECT_EQ(chosen[l].size(), 2u) << "look " << l << ": pick other keys";
    looked_gpu.value().release();
}

// Impostors keep a member's looks: every member of key k drawn as an impostor of the kit with
// looks against the impostors of the kit whose looked materials are painted k's colours (baked
// into its pictures): the same colours block by block (compareBlocks says why not pixel by
// pixel); and two keys that choose other colours give other pictures. (Parts are not in impostor
// pictures.)
TEST_F(LooksGpu, ImpostorsKeepTheirMembersColours) {
    const BakeOptions o = impostorOptions();
    Result<BakedAsset> looked = bake(makeKit(), o);
    ASSERT_TRUE(looked.ok()) << looked.error().message;
    Result<render::GpuAsset> looked_gpu = render::uploadAsset(*allocator_, looked.value());
    ASSERT_TRUE(looked_gpu.ok()) << looked_gpu.error().message;
    render::Crowd crowd = crowdOf(looked.value());
    const glm::mat4 vp = streetView(crowd);
    render::RenderSettings s;
    s.technique = "baked";
    s.cull.impostor_px = 10000.0f; // every member
    std::vector<render::RenderOutput> by_key;
    for (uint32_t key : {3u, 11u}) {
        Model painted = makeKit();
        for (size_t l = 0; l < painted.looks.size(); ++l) {
            const glm::vec3 c = stored(looked.value().looks[l].colors[lookColor(looked.value().looks[l], key)]);
            for (uint32_t m : painted.looks[l].materials) painted.materials[m].base_color *= glm::vec4(c, 1.0f);
        }
        painted.looks.clear();
        Result<BakedAsset> painted_baked = bake(painted, o);
        ASSERT_TRUE(painted_baked.ok()) << painted_baked.error().message;
        Result<render::GpuAsset> painted_gpu = render::uploadAsset(*allocator_, painted_baked.value());
        ASSERT_TRUE(painted_gpu.ok()) << painted_gpu.error().message;
        for (gpu::shader::InstanceRecord& r : crowd.instances) r.key = key;
        by_key.push_back(draw(looked.value(), looked_gpu.value(), crowd, vp, s));
        const render::RenderOutput reference = draw(painted_baked.value(), painted_gpu.value(), crowd, vp, s);
        EXPECT_EQ(by_key.back().drawn.impostors, by_key.back().drawn.in_frustum);
        const Blocks agree = compareBlocks(by_key.back(), reference);
        std::printf("key %u impostors: %zu of %zu blocks differ\n", key, agree.differ, agree.compared);
        EXPECT_GT(agree.compared, 40u);
        EXPECT_LE(agree.differ, agree.compared / 20) << "key " << key;
        painted_gpu.value().release();
    }
    const Blocks keys = compareBlocks(by_key[0], by_key[1]);
    EXPECT_GT(keys.differ, keys.compared / 5) << "keys 3 and 11 dress the crowd alike";
    looked_gpu.value().release();
}

// keyFor (the host's way to dress a member): the key it finds gives the parts and colours asked
// for, none where asked so, and the rest left to the key; unknown names and impossible wishes
// are one line each.
TEST(Looks, KeyForDressesAMemberAsWished) {
    const BakedAsset asset = bakedKit();
    Dress dress;
    dress.parts = {{"hat", "top hat"}, {"face", ""}};
    dress.colors = {{"top", 4}, {"hair", 2}};
    Result<uint32_t> key = keyFor(asset, dress);
    ASSERT_TRUE(key.ok()) << key.error().message;
    for (uint32_t p = 0; p < asset.props.size(); ++p) {
        if (asset.props[p].slot == "hat") {
            EXPECT_EQ(wears(asset, p, key.value()), asset.props[p].name == "top hat");
        }
        if (asset.props[p].slot == "face") {
            EXPECT_FALSE(wears(asset, p, key.value())) << asset.props[p].name;
        }
    }
    EXPECT_EQ(lookColor(asset.looks[1], key.value()), 4u);
    EXPECT_EQ(lookColor(asset.looks[3], key.value()), 2u);
    Result<uint32_t> next = keyFor(asset, dress, key.value() + 1);
    ASSERT_TRUE(next.ok()) << next.error().message;
    EXPECT_GT(next.value(), key.value()) << "the next key that does";

    const std::pair<Dress, std::string> refused[] = {
        {Dress{{{"shoes", "boots"}}, {}}, "no slot 'shoes' (the model's: hair, hat, bag, face)"},
        {Dress{{{"hat", "crown"}}, {}},
         "slot 'hat' has no part 'crown' (its parts: brimmed hat, cap, top hat, helmet)"},
        {Dress{{}, {{"socks", 0}}}, "no look 'socks' (the model's: skin, top, bottom, hair)"},
        {Dress{{}, {{"top", 8}}}, "look 'top' has 8 colours, not colour 8"},
    };
    for (const auto& [wish, expected] : refused) {
        Result<uint32_t> r = keyFor(asset, wish);
        ASSERT_FALSE(r.ok()) << expected;
        EXPECT_NE(r.error().message.find(expected), std::string::npos) << r.error().message;
    }
}

// --- Texture variants (Look::textures) ----------------------------------------------------

namespace {

// A 16 x 16 texture of stripes `a` and `b` (RGBA8, sRGB), `across` vertical or horizontal, as
// a model file carries it (PNG).
Texture stripes(const char* name, glm::u8vec3 a, glm::u8vec3 b, bool across) {
    constexpr uint32_t kSide = 16;
    std::vector<uint8_t> rgba;
    for (uint32_t y = 0; y < kSide; ++y)
        for (uint32_t x = 0; x < kSide; ++x) {
            const glm::u8vec3 c = ((across ? x : y) / 4) % 2 == 0 ? a : b;
            rgba.insert(rgba.end(), {c.r, c.g, c.b, 255});
        }
    return Texture{name, "image/png", "", test::encodePng(kSide, kSide, rgba)};
}

// builtin:kit whose look "top" varies the texture: red-white stripes one way, blue-yellow the
// other, the second also dyed.
Model variedKit() {
    Model m = makeKit();
    const int32_t first = int32_t(m.textures.size());
    m.textures.push_back(stripes("red", {230, 20, 20}, {250, 250, 250}, true));
    m.textures.push_back(stripes("blue", {20, 40, 230}, {240, 220, 30}, false));
    for (Look& l : m.looks)
        if (l.name == "top") {
            l.colors = {glm::vec3(1.0f), glm::vec3(1.0f, 0.6f, 0.8f)};
            l.shares = {};
            l.textures = {first, first + 1};
        }
    return m;
}

// The first key from 1 on whose colour of `look` is `color`.
uint32_t keyChoosing(const BakedLook& look, uint32_t color) {
    uint32_t key = 1;
    while (lookColor(look, key) != color) ++key;
    return key;
}

} // namespace

// A look's textures in models, kit files and .throng files (section LKTX): refused where they
// are not one per colour or name no texture; the same after the round trip.
TEST(TextureVariants, AreCheckedAndStored) {
    Model m = variedKit();
    ASSERT_TRUE(validate(m).ok()) << validate(m).message;
    auto refused = [&](const std::function<void(Model&)>& spoil, const std::string& expected) {
        Model bad = m;
        spoil(bad);
        const Status s = validate(bad);
        ASSERT_FALSE(s.ok()) << expected;
        EXPECT_NE(s.message.find(expected), std::string::npos) << s.message;
    };
    refused([](Model& x) { x.looks[1].textures.pop_back(); }, "look 'top': 1 textures for 2 colours");
    refused([](Model& x) { x.looks[1].textures[1] = 9; }, "look 'top': texture 9 outside the 2 textures");
    refused([](Model& x) { x.looks[1].textures[0] = -1; }, "texture -1 outside");

    const BakedAsset asset = test::bakedOrFail(m);
    ASSERT_EQ(asset.looks[1].textures, (std::vector<int32_t>{0, 1}));
    const std::string path = (test::scratchDir("texture-variants") / "kit.throng").string();
    ASSERT_TRUE(writeThrong(asset, path).ok());
    Result<BakedAsset> back = readThrong(path);
    ASSERT_TRUE(back.ok()) << back.error().message;
    for (size_t l = 0; l < asset.looks.size(); ++l) EXPECT_EQ(back.value().looks[l].textures, asset.looks[l].textures);
    EXPECT_EQ(back.value().textures.size(), 2u);
    std::filesystem::remove(path);

    // Kit files: "textures" lists image files beside the kit, "colors" then optional.
    const auto dir = test::scratchDir("texture-variants-kit");
    auto write = [&](const std::string& name, const std::vector<uint8_t>& bytes) {
        std::ofstream(dir / name, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        return (dir / name).string();
    };
    write("red.png", m.textures[0].encoded);
    write("blue.png", m.textures[1].encoded);
    auto text = [](const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); };
    Result<Model> kit = importModel(write("kit.json", text(R"({"base": "builtin:walker",
        "looks": [{"name": "suit", "materials": ["walker"], "textures": ["red.png", "blue.png"], "shares": [3, 1]}]})")));
    ASSERT_TRUE(kit.ok()) << kit.error().message;
    ASSERT_EQ(kit.value().looks.size(), 1u);
    EXPECT_EQ(kit.value().looks[0].textures, (std::vector<int32_t>{0, 1}));
    EXPECT_EQ(kit.value().looks[0].colors, std::vector<glm::vec3>(2, glm::vec3(1.0f)));
    EXPECT_EQ(kit.value().textures[1].encoded, m.textures[1].encoded);
    write("not-an-image.png", text("hello"));
    const std::pair<std::string, std::string> bad_kits[] = {
        {R"({"base": "builtin:walker", "looks": [{"name": "x", "materials": ["walker"], "textures": ["gone.png"]}]})",
         "kit: look 'x': texture 'gone.png': "},
        {R"({"base": "builtin:walker", "looks": [{"name": "x", "materials": ["walker"], "textures": ["not-an-image.png"]}]})",
         "kit: look 'x': texture 'not-an-image.png': the image does not decode"},
        {R"({"base": "b", "looks": [{"name": "x", "materials": ["m"], "colors": ["#ffffff"], "textures": ["a.png", "b.png"]}]})",
         "kit: look 0: 2 textures for 1 colours"},
        {R"({"base": "b", "looks": [{"name": "x", "materials": ["m"], "textures": [3]}]})",
         "kit: look 0: \"textures\" holds something other than a file name"},
    };
    for (const auto& [json_text, expected] : bad_kits) {
        Result<Model> r = importModel(write("bad.json", text(json_text)));
        ASSERT_FALSE(r.ok()) << json_text;
        EXPECT_NE(r.error().message.find(expected), std::string::npos) << r.error().message;
        EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
    }
}

// Every member of key k, drawn with a look of texture variants, against the kit without looks
// whose looked submeshes are painted k's colours and sample k's texture: the same picture for
// every technique through both rasterizers, for a key of each texture.
TEST_F(LooksGpu, MembersWearTheTexturesTheirKeysChoose) {
    const BakedAsset varied = test::bakedOrFail(variedKit(), true);
    ASSERT_EQ(varied.looks.size(), 4u);
    Result<render::GpuAsset> varied_gpu = render::uploadAsset(*allocator_, varied);
    ASSERT_TRUE(varied_gpu.ok()) << varied_gpu.error().message;
    render::Crowd crowd = crowdOf(varied);
    std::vector<render::RenderOutput> by_key;
    for (uint32_t choice : {0u, 1u}) {
        const uint32_t key = keyChoosing(varied.looks[1], choice);
        BakedAsset painted = varied;
        painted.looks.clear();
        for (const BakedLook& l : varied.looks) {
            const uint32_t c = lookColor(l, key);
            for (uint32_t s : l.submeshes) {
                painted.submeshes[s].base_color *= glm::vec4(stored(l.colors[c]), 1.0f);
                if (!l.textures.empty()) painted.submeshes[s].texture = l.textures[c];
            }
        }
        Result<render::GpuAsset> painted_gpu = render::uploadAsset(*allocator_, painted);
        ASSERT_TRUE(painted_gpu.ok()) << painted_gpu.error().message;
        by_key.push_back(
            expectSamePictures(varied, varied_gpu.value(), painted, painted_gpu.value(), crowd, key, "textures"));
        painted_gpu.value().release();
    }
    const test::Agreement keys = test::comparePictures(by_key[0], by_key[1], 2);
    EXPECT_GT(keys.differ, keys.covered / 10) << "the two textures draw alike";
    varied_gpu.value().release();
}

// Impostors of a look with texture variants draw its submeshes in the colour times the chosen
// texture's mean (the pictures hold them untextured): the same pictures as the impostors of the
// kit whose look has no textures and those colours (the CPU's means), for a key of each
// texture. (How a look's impostor compares with the mesh: ImpostorsKeepTheirMembersColours.)
TEST_F(LooksGpu, ImpostorsDrawTheTexturesMeanColour) {
    const BakeOptions o = impostorOptions();
    const Model model = variedKit();
    Result<BakedAsset> varied = bake(model, o);
    ASSERT_TRUE(varied.ok()) << varied.error().message;
    Result<render::GpuAsset> varied_gpu = render::uploadAsset(*allocator_, varied.value());
    ASSERT_TRUE(varied_gpu.ok()) << varied_gpu.error().message;
    Model flat = model; // the top's colours times its textures' means, untextured
    for (Look& l : flat.looks) {
        for (size_t c = 0; c < l.textures.size(); ++c) {
            Result<texture::Rgba8> d = texture::decodeTexture(varied.value().textures[size_t(l.textures[c])]);
            ASSERT_TRUE(d.ok());
            l.colors[c] *= glm::vec3(texture::meanColor(d.value()));
        }
        l.textures.clear();
    }
    Result<BakedAsset> flat_baked = bake(flat, o);
    ASSERT_TRUE(flat_baked.ok()) << flat_baked.error().message;
    Result<render::GpuAsset> flat_gpu = render::uploadAsset(*allocator_, flat_baked.value());
    ASSERT_TRUE(flat_gpu.ok()) << flat_gpu.error().message;
    render::Crowd crowd = crowdOf(varied.value());
    const glm::mat4 vp = streetView(crowd);
    render::RenderSettings s;
    s.technique = "baked";
    s.cull.impostor_px = 10000.0f; // every member
    std::vector<render::RenderOutput> by_key;
    for (uint32_t choice : {0u, 1u}) {
        const uint32_t key = keyChoosing(varied.value().looks[1], choice);
        for (gpu::shader::InstanceRecord& r : crowd.instances) r.key = key;
        by_key.push_back(draw(varied.value(), varied_gpu.value(), crowd, vp, s));
        const render::RenderOutput reference = draw(flat_baked.value(), flat_gpu.value(), crowd, vp, s);
        EXPECT_EQ(by_key.back().drawn.impostors, by_key.back().drawn.in_frustum);
        const test::Agreement agree = test::comparePictures(by_key.back(), reference, 2);
        std::printf("texture %u (key %u) impostors: %zu of %zu pixels differ (%zu covered)\n", choice, key,
                    agree.differ, agree.pixels, agree.covered);
        EXPECT_GT(agree.covered, 1000u);
        EXPECT_LE(agree.differ, agree.pixels / 1000) << "key " << key;
    }
    const test::Agreement keys = test::comparePictures(by_key[0], by_key[1], 2);
    EXPECT_GT(keys.differ, keys.covered / 20) << "the two textures' means draw alike";
    flat_gpu.value().release();
    varied_gpu.value().release();
}
