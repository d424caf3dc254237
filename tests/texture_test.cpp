// Colour textures on the CPU (src/texture/texture.h): decoding with limits, the mip chain in
// linear light, trilinear sampling with REPEAT, against values worked out by hand.
#include "../src/texture/texture.h"

#include <gtest/gtest.h>

#include "textured_card.h"

#include <cmath>

using namespace throng;

namespace {

BakedTexture pngOf(uint32_t w, uint32_t h, const std::vector<uint8_t>& rgba) {
    BakedTexture t;
    t.mime_type = "image/png";
    t.encoded = test::encodePng(w, h, rgba);
    return t;
}

TEST(Texture, DecodesWhatWasEncoded) {
    const std::vector<uint8_t> rgba = {255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 10, 20, 30, 40};
    Result<texture::Rgba8> r = texture::decodeTexture(pngOf(2, 2, rgba));
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r.value().width, 2u);
    EXPECT_EQ(r.value().height, 2u);
    EXPECT_EQ(r.value().texels, rgba);
}

TEST(Texture, RefusesWhatItCannotOrShouldNotDecode) {
    EXPECT_FALSE(texture::decodeTexture(BakedTexture{}).ok()) << "no bytes";
    BakedTexture garbage;
    garbage.encoded = {1, 2, 3, 4, 5, 6, 7, 8};
    Result<texture::Rgba8> g = texture::decodeTexture(garbage);
    ASSERT_FALSE(g.ok());
    EXPECT_NE(g.error().message.find("does not decode"), std::string::npos) << g.error().message;
    // A side past the device's limit (the caller's max_side) is refused from the header alone.
    const BakedTexture wide = pngOf(64, 1, std::vector<uint8_t>(64 * 4, 200));
    Result<texture::Rgba8> w = texture::decodeTexture(wide, 32);
    ASSERT_FALSE(w.ok());
    EXPECT_NE(w.error().message.find("64 x 1"), std::string::npos) << w.error().message;
    EXPECT_TRUE(texture::decodeTexture(wide, 64).ok());
    // A header that claims 65535 x 65535 texels with no body behind it.
    BakedTexture liar = pngOf(1, 1, {1, 2, 3, 4});
    liar.encoded[16] = liar.encoded[17] = liar.encoded[20] = liar.encoded[21] = 0;
    liar.encoded[18] = liar.encoded[19] = liar.encoded[22] = liar.encoded[23] = 0xff;
    EXPECT_FALSE(texture::decodeTexture(liar).ok());
}

TEST(Texture, MipsAverageInLinearLight) {
    // 4 x 2: level 1 is 2 x 1, level 2 is 1 x 1.
    texture::Rgba8 l0;
    l0.width = 4;
    l0.height = 2;
    l0.texels = {255, 0, 0, 255, 0, 0, 0, 255, 10, 10, 10, 0,   10, 10, 10, 0, //
                 255, 0, 0, 255, 0, 0, 0, 255, 10, 10, 10, 255, 10, 10, 10, 255};
    const std::vector<texture::Rgba8> mips = texture::buildMips(l0);
    ASSERT_EQ(mips.size(), 3u);
    EXPECT_EQ(mips[1].width, 2u);
    EXPECT_EQ(mips[1].height, 1u);
    EXPECT_EQ(mips[2].width, 1u);
    EXPECT_EQ(mips[2].height, 1u);
    // Red and black averaged in linear light: 0.5 linear is 188 in sRGB (not 128).
    EXPECT_EQ(mips[1].texels[0], 188);
    EXPECT_EQ(mips[1].texels[1], 0);
    EXPECT_EQ(mips[1].texels[3], 255);
    EXPECT_EQ(mips[1].texels[4], 10);
    EXPECT_EQ(mips[1].texels[7], 128); // alpha linearly: (0 + 0 + 255 + 255) / 4 = 127.5
    // Level 2 from level 1 (188, 0, 0) and (10, 10, 10): linear means.
    const double red = 0.5 * (texture::srgbToLinear(188 / 255.0) + texture::srgbToLinear(10 / 255.0));
    EXPECT_EQ(mips[2].texels[0], std::lround(texture::linearToSrgb(red) * 255.0));
    // An odd side leaves its last texel out, as a linear blit does: 3 x 1 -> 1 x 1 from the first two.
    texture::Rgba8 odd;
    odd.width = 3;
    odd.height = 1;
    odd.texels = {0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255};
    const std::vector<texture::Rgba8> o = texture::buildMips(odd);
    ASSERT_EQ(o.size(), 2u);
    EXPECT_EQ(o[1].texels[0], 0);
}

TEST(Texture, SamplesTrilinearlyWithRepeat) {
    texture::Rgba8 l0;
    l0.width = 2;
    l0.height = 2;
    l0.texels = {255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255};
    const std::vector<texture::Rgba8> mips = texture::buildMips(l0);
    // Texel centres give the texel.
    EXPECT_NEAR(texture::sampleTrilinear(mips, {0.25, 0.25}, 0.0).r, 1.0, 1e-12);
    EXPECT_NEAR(texture::sampleTrilinear(mips, {0.75, 0.25}, 0.0).r, 0.0, 1e-12);
    // Halfway between two texels: the mean of their linear values.
    EXPECT_NEAR(texture::sampleTrilinear(mips, {0.5, 0.25}, 0.0).r, 0.5, 1e-12);
    // REPEAT: u = 1.25 is u = 0.25, and u = 0 lies between the last and the first column.
    EXPECT_NEAR(texture::sampleTrilinear(mips, {1.25, 0.25}, 0.0).r, 1.0, 1e-12);
    EXPECT_NEAR(texture::sampleTrilinear(mips, {-0.75, 0.25}, 0.0).r, 1.0, 1e-12);
    EXPECT_NEAR(texture::sampleTrilinear(mips, {0.0, 0.25}, 0.0).r, 0.5, 1e-12);
    // Level 1 is the linear mean of all four; lod 0.5 blends the two levels.
    const double mean = texture::srgbToLinear(std::lround(texture::linearToSrgb(0.5) * 255.0) / 255.0);
    EXPECT_NEAR(texture::sampleTrilinear(mips, {0.25, 0.25}, 1.0).r, mean, 1e-12);
    EXPECT_NEAR(texture::sampleTrilinear(mips, {0.25, 0.25}, 0.5).r, 0.5 * (1.0 + mean), 1e-12);
    EXPECT_NEAR(texture::sampleTrilinear(mips, {0.25, 0.25}, 9.0).r, mean, 1e-12) << "clamped to the chain";
    // A broken coordinate samples something, never out of bounds.
    const glm::dvec4 broken = texture::sampleTrilinear(mips, {std::nan(""), 1e30}, 0.0);
    EXPECT_TRUE(std::isfinite(broken.r));
}

} // namespace

namespace {

// Resampling (texture variants of several sizes share one array image): a shrink by two is the
// chain's next level exactly (its texel centres fall on that level's), the same size is the
// image itself, a growth keeps a uniform image uniform; the mean colour in linear light.
TEST(Texture, ResamplesToTheSizeOfItsArray) {
    texture::Rgba8 image{4, 4, {}};
    for (uint32_t i = 0; i < 16; ++i)
        image.texels.insert(image.texels.end(), {uint8_t(i * 16), uint8_t(255 - i * 8), 40, 255});
    const std::vector<texture::Rgba8> mips = texture::buildMips(image);
    EXPECT_EQ(texture::resample(image, 2, 2).texels, mips[1].texels);
    EXPECT_EQ(texture::resample(image, 4, 4).texels, image.texels);
    const texture::Rgba8 grown = texture::resample(texture::Rgba8{1, 1, {200, 100, 50, 255}}, 3, 5);
    ASSERT_EQ(grown.texels.size(), 3u * 5u * 4u);
    for (size_t i = 0; i < grown.texels.size(); i += 4)
        EXPECT_EQ(std::vector<uint8_t>(grown.texels.begin() + long(i), grown.texels.begin() + long(i) + 4),
                  (std::vector<uint8_t>{200, 100, 50, 255}));
    const texture::Rgba8 two{2, 1, {255, 0, 0, 255, 0, 0, 255, 255}};
    const glm::dvec3 mean = texture::meanColor(two);
    EXPECT_DOUBLE_EQ(mean.r, 0.5);
    EXPECT_DOUBLE_EQ(mean.g, 0.0);
    EXPECT_DOUBLE_EQ(mean.b, 0.5);
    EXPECT_NEAR(texture::meanColor(texture::Rgba8{1, 1, {128, 128, 128, 255}}).r, texture::srgbToLinear(128 / 255.0),
                1e-6);
}

} // namespace
