// Colour textures on the CPU (issue #24, part 2): a model's encoded image decoded to RGBA8 with
// limits a hostile header cannot get past, its mip chain, and trilinear sampling in double.
//
// One chain serves three readers, so that they agree: the GPU upload (render/gpu_asset.cpp: every
// level, which the hardware path and the compute rasterizer's resolve sample), the impostor bake
// (bake/impostor.cpp: the texture at the level a picture's texel covers) and the tests'
// references.
//
// Texels are sRGB-encoded (as glTF's base-colour textures are, and as the GPU's R8G8B8A8_SRGB
// images read them); every filter here works in linear light: decoded, averaged or interpolated,
// and (for the chain) encoded again, alpha linearly.
#pragma once

#include <throng/baked.h>
#include <throng/result.h>

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace throng::texture {

// The largest side and texel count decodeTexture accepts: 64 Mi texels (256 MiB of RGBA8) is
// far beyond what a crowd member wears.
constexpr uint32_t kMaxSide = 16384;
constexpr uint64_t kMaxTexels = uint64_t(1) << 26;

struct Rgba8 {
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> texels; // width * height * 4, top row first, sRGB RGB, linear alpha
};

// Errors (one line): no bytes (the source only named a file), a header that does not decode or
// claims more than `max_side` a side (at most kMaxSide) or kMaxTexels texels, a body that does not
// decode. Nothing larger than the header's claim is ever allocated.
Result<Rgba8> decodeTexture(const BakedTexture& texture, uint32_t max_side = kMaxSide);

// Level 0 and each next level half as wide and high (rounded down, at least 1) down to 1 x 1.
// A texel of level l + 1 is the mean of the 2 x 2 texels of level l it covers (on an odd side the
// last column or row of level l is left out, as a linear blit does), in linear light.
std::vector<Rgba8> buildMips(Rgba8 level0);

// The texel (linear RGB, alpha) at `uv` of the chain `mips`, as an sRGB image with
// VK_SAMPLER_ADDRESS_MODE_REPEAT, linear filtering and linear mip blending samples it at level of
// detail `lod` (clamped to the chain): texel centres at (i + 0.5) / width.
glm::dvec4 sampleTrilinear(const std::vector<Rgba8>& mips, glm::dvec2 uv, double lod);

// `image` resampled to `width` x `height` (each at least 1): each new texel is sampleTrilinear of
// image's chain at its centre, at the level the shrink calls for (0 where it grows). Texture
// variants that share an array image (render/gpu_asset.cpp) are made one size so.
Rgba8 resample(const Rgba8& image, uint32_t width, uint32_t height);

// The mean of every texel's colour (linear RGB), in double.
glm::dvec3 meanColor(const Rgba8& image);

// sRGB transfer, one channel in [0, 1].
double srgbToLinear(double c);
double linearToSrgb(double c);

} // namespace throng::texture
