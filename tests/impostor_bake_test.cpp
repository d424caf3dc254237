// Animated impostors at bake time (src/bake/impostor.cpp, BakedImpostors in baked.h): every
// picture holds the model (some coverage, inside its tile, not touching the tile's border: the
// sphere frames every pose), pictures of a walking clip change from frame to frame, the views
// differ, the report names the atlas size, and the section survives a .throng round trip; a
// damaged section is refused with one line.
#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/format.h>

#include <gtest/gtest.h>

#include "test_util.h"
#include "textured_card.h"

#include <chrono>
#include <fstream>
#include <iterator>

using namespace throng;

namespace {

// Covered texels (alpha >= 128) of tile (view, frame) of clip `clip`.
size_t coverage(const BakedImpostors& im, uint32_t clip, uint32_t frame, uint32_t view,
                bool* touches_border = nullptr) {
    size_t n = 0;
    for (uint32_t y = 0; y < im.tile; ++y)
        for (uint32_t x = 0; x < im.tile; ++x) {
            const size_t at =
                ((size_t(clip) * im.height() + frame * im.tile + y) * im.width() + view * im.tile + x) * 4;
            if (im.color[at + 3] < 128) continue;
            ++n;
            if (touches_border && (x == 0 || y == 0 || x + 1 == im.tile || y + 1 == im.tile)) *touches_border = true;
        }
    return n;
}

TEST(ImpostorBake, WalkerPicturesHoldTheModelFromEveryView) {
    BakeOptions o;
    o.impostors.enabled = true;
    BakeReport report;
    const auto start = std::chrono::steady_clock::now();
    Result<BakedAsset> r = bake(makeWalker(), o, &report);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const BakedImpostors& im = r.value().impostors;
    ASSERT_FALSE(im.empty());
    EXPECT_EQ(im.views(), 24u);
    EXPECT_EQ(report.impostor_width, 24u * 32u);
    EXPECT_EQ(report.impostor_height, im.max_frames * 32u);
    EXPECT_EQ(report.impostor_bytes, 2 * im.bytesPerImage());
    std::printf("walker impostors: %u x %u texels x %zu clips, %zu bytes, baked with the animation in %.2f s\n",
                report.impostor_width, report.impostor_height, im.frames.size(), report.impostor_bytes, seconds);
    for (uint32_t c = 0; c < im.frames.size(); ++c)
        for (uint32_t f = 0; f < im.frames[c]; ++f)
            for (uint32_t v = 0; v < im.views(); ++v) {
                bool border = false;
                const size_t n = coverage(im, c, f, v, &border);
                EXPECT_GT(n, size_t(im.tile)) << "clip " << c << " frame " << f << " view " << v << ": nearly empty";
                EXPECT_LT(n, size_t(im.tile) * im.tile / 2)
                    << "clip " << c << " frame " << f << " view " << v << ": the sphere frames too tight";
                EXPECT_FALSE(border) << "clip " << c << " frame " << f << " view " << v
                                     << ": the model reaches the tile's border";
            }
    // The walk moves its legs: the side view's first and middle pictures differ.
    const uint32_t walk = 0, side = 2; // azimuth 90 degrees, horizon
    EXPECT_NE(coverage(im, walk, 0, side), coverage(im, walk, im.frames[walk] / 2, side) + 1000);
    size_t differ = 0;
    for (uint32_t y = 0; y < im.tile; ++y)
        for (uint32_t x = 0; x < im.tile; ++x) {
            const size_t a = ((size_t(walk) * im.height() + y) * im.width() + side * im.tile + x) * 4 + 3;
            const size_t b = a + size_t(im.frames[walk] / 2) * im.tile * im.width() * 4;
            differ += (im.color[a] >= 128) != (im.color[b] >= 128);
        }
    EXPECT_GT(differ, 10u) << "the walk's pictures do not move";
    // Front and side views differ in width: the walker is narrower seen from the side.
    EXPECT_NE(coverage(im, walk, 0, 0), coverage(im, walk, 0, side));

    const std::string path = (test::scratchDir("impostor_bake") / "walker.throng").string();
    ASSERT_TRUE(writeThrong(r.value(), path).ok());
    Result<BakedAsset> back = readThrong(path);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back.value().impostors.color, im.color);
    EXPECT_EQ(back.value().impostors.normal, im.normal);
    EXPECT_EQ(back.value().impostors.frames, im.frames);
    EXPECT_EQ(back.value().impostors.radius, im.radius);
}

// Impostors baked with dual-quaternion skinning (ImpostorOptions::skinning), as a crowd skinned
// that way draws: builtin:twist turned 180 degrees collapses in its middle when blended linearly
// (the candy wrapper), not as dual quaternions, so its side view covers more texels there; the
// untwisted first picture is the same either way. The skinning goes through the file (section
// IMSK, written only when not linear) and is refused without pictures.
TEST(ImpostorBake, DualQuaternionPicturesKeepATwistsVolume) {
    BakeOptions o;
    o.impostors.enabled = true;
    o.impostors.fps = 4.0f;
    Result<BakedAsset> linear = bake(makeTwist(), o);
    o.impostors.skinning = Skinning::DualQuaternion;
    Result<BakedAsset> dual = bake(makeTwist(), o);
    ASSERT_TRUE(linear.ok() && dual.ok());
    const BakedImpostors& l = linear.value().impostors;
    const BakedImpostors& d = dual.value().impostors;
    EXPECT_EQ(l.skinning, Skinning::Linear);
    EXPECT_EQ(d.skinning, Skinning::DualQuaternion);
    ASSERT_EQ(l.frames, d.frames);
    const uint32_t twist = 0, side = 2, half = l.frames[twist] / 2; // the clip's middle: 180 degrees
    EXPECT_EQ(coverage(l, twist, 0, side), coverage(d, twist, 0, side));
    const size_t collapsed = coverage(l, twist, half, side), kept = coverage(d, twist, half, side);
    std::printf("twist at 180 degrees, side view: %zu texels linear, %zu as dual quaternions (untwisted: %zu)\n",
                collapsed, kept, coverage(l, twist, 0, side));
    EXPECT_GT(kept, collapsed + collapsed / 20) << "dual quaternions kept no more of the twisted middle";
    EXPECT_GE(kept + kept / 50, coverage(d, twist, 0, side)) << "dual quaternions lost the twisted middle too";

    const std::filesystem::path dir = test::scratchDir("impostor_bake");
    ASSERT_TRUE(writeThrong(dual.value(), (dir / "twist_dq.throng").string()).ok());
    ASSERT_TRUE(writeThrong(linear.value(), (dir / "twist.throng").string()).ok());
    Result<BakedAsset> back = readThrong((dir / "twist_dq.throng").string());
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back.value().impostors.skinning, Skinning::DualQuaternion);
    EXPECT_EQ(back.value().impostors.color, d.color);
    EXPECT_EQ(readThrong((dir / "twist.throng").string()).value().impostors.skinning, Skinning::Linear);
    auto names = [&](const char* file, const std::string& section) { // in the section table
        std::ifstream in(dir / file, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        return bytes.find(section) != std::string::npos;
    };
    EXPECT_TRUE(names("twist_dq.throng", "IMSK"));
    EXPECT_FALSE(names("twist.throng", "IMSK")) << "a linear bake writes the file it wrote before";

    BakedAsset none = linear.value();
    none.impostors = BakedImpostors{};
    none.impostors.skinning = Skinning::DualQuaternion;
    EXPECT_NE(validate(none).message.find("no pictures"), std::string::npos) << validate(none).message;
    o.impostors.skinning = static_cast<Skinning>(7); // what only a program can set
    EXPECT_NE(bake(makeTwist(), o).error().message.find("skinning 7"), std::string::npos);
}

// The pictures carry the model's texture: a card whose texture is red in its left half and blue
// in its right (u), seen from the front (view 0 looks along -z at it, +x to the right), shows
// red and blue where the texture puts them, in the texture's own colours, not the white of its
// vertices.
TEST(ImpostorBake, PicturesCarryTheTexture) {
    std::vector<uint8_t> rgba(8 * 8 * 4);
    for (uint32_t y = 0; y < 8; ++y)
        for (uint32_t x = 0; x < 8; ++x) {
            uint8_t* t = &rgba[(y * 8 + x) * 4];
            t[0] = x < 4 ? 200 : 20;
            t[1] = 40;
            t[2] = x < 4 ? 20 : 200;
            t[3] = 255;
        }
    BakeOptions o;
    o.impostors.enabled = true;
    o.impostors.tile = 64;
    Result<BakedAsset> r = bake(test::makeTexturedCard(8, 8, rgba), o);
    ASSERT_TRUE(r.ok()) << r.error().message;
    const BakedImpostors& im = r.value().impostors;
    ASSERT_GT(coverage(im, 0, 0, 0), 0u);
    // Model x to tile x in view 0 (the card's centre row, y = 0).
    auto at = [&](double model_x) {
        const double tx = ((model_x - im.center.x) / im.radius + 1.0) * 0.5 * im.tile;
        const double ty = (1.0 - (0.0 - im.center.y) / im.radius) * 0.5 * im.tile;
        return &im.color[(size_t(ty) * im.width() + size_t(tx)) * 4];
    };
    // u = x + 1 across the card: x in (-1, -0.5) and (0, 0.5) red, (-0.5, 0) and (0.5, 1) blue
    // (the texture twice across); away from the halves' borders, where the bilinear filter blends.
    for (double x : {-0.8, 0.2}) {
        const uint8_t* t = at(x);
        EXPECT_NEAR(t[0], 200, 2) << x;
        EXPECT_NEAR(t[1], 40, 2) << x;
        EXPECT_NEAR(t[2], 20, 2) << x;
        EXPECT_EQ(t[3], 255) << x;
    }
    for (double x : {-0.2, 0.8}) {
        const uint8_t* t = at(x);
        EXPECT_NEAR(t[0], 20, 2) << x;
        EXPECT_NEAR(t[2], 200, 2) << x;
    }
}

TEST(ImpostorBake, RefusesBadOptionsAndDamagedData) {
    BakeOptions o;
    o.impostors.enabled = true;
    o.impostors.tile = 0;
    Result<BakedAsset> r = bake(makeWalker(), o);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("impostors:"), std::string::npos) << r.error().message;
    o.impostors.tile = 256;
    o.impostors.azimuths = 64;
    r = bake(makeWalker(), o);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("wider than"), std::string::npos) << r.error().message;

    o.impostors = ImpostorOptions{};
    o.impostors.enabled = true;
    o.impostors.tile = 8;
    Result<BakedAsset> ok = bake(makeWalker(), o);
    ASSERT_TRUE(ok.ok());
    BakedAsset bad = ok.value();
    bad.impostors.normal.pop_back();
    EXPECT_FALSE(validate(bad).ok());
    bad = ok.value();
    bad.impostors.frames.push_back(3);
    const Status s = validate(bad);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message.find("impostors:"), std::string::npos) << s.message;
}

} // namespace
