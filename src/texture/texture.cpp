// Colour textures on the CPU; see texture.h.
#include "texture.h"

#include <stb/stb_image.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>

namespace throng::texture {

double srgbToLinear(double c) {
    c = std::clamp(c, 0.0, 1.0);
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double linearToSrgb(double c) {
    c = std::clamp(c, 0.0, 1.0);
    return c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
}

namespace {

const std::array<double, 256>& decodeTable() {
    static const std::array<double, 256> table = [] {
        std::array<double, 256> t{};
        for (int i = 0; i < 256; ++i) t[size_t(i)] = srgbToLinear(i / 255.0);
        return t;
    }();
    return table;
}

uint8_t toByte(double v) { return uint8_t(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); }

// Texel (x, y) of `level` in linear light, the coordinates wrapped (REPEAT).
glm::dvec4 texel(const Rgba8& level, int64_t x, int64_t y) {
    const int64_t w = level.width, h = level.height;
    x = ((x % w) + w) % w;
    y = ((y % h) + h) % h;
    const uint8_t* t = &level.texels[(size_t(y) * level.width + size_t(x)) * 4];
    const std::array<double, 256>& lin = decodeTable();
    return {lin[t[0]], lin[t[1]], lin[t[2]], t[3] / 255.0};
}

glm::dvec4 sampleLevel(const Rgba8& level, glm::dvec2 uv) {
    const double x = uv.x * level.width - 0.5, y = uv.y * level.height - 0.5;
    const double fx = std::floor(x), fy = std::floor(y);
    const double sx = x - fx, sy = y - fy;
    const int64_t ix = int64_t(fx), iy = int64_t(fy);
    return (texel(level, ix, iy) * (1.0 - sx) + texel(level, ix + 1, iy) * sx) * (1.0 - sy) +
           (texel(level, ix, iy + 1) * (1.0 - sx) + texel(level, ix + 1, iy + 1) * sx) * sy;
}

} // namespace

Result<Rgba8> decodeTexture(const BakedTexture& texture, uint32_t max_side) {
    max_side = std::min(max_side, kMaxSide);
    if (texture.encoded.empty()) return Error{"no image data (the source names a file that was not found)"};
    if (texture.encoded.size() >= size_t(INT32_MAX)) return Error{"the encoded image is larger than 2 GiB"};
    // The header first: a few hundred bytes may claim 65536 x 65536 texels (16 GiB decoded).
    int w = 0, h = 0, n = 0;
    if (stbi_info_from_memory(texture.encoded.data(), int(texture.encoded.size()), &w, &h, &n) == 0)
        return Error{std::string("the image does not decode (") + stbi_failure_reason() + ")"};
    if (w <= 0 || h <= 0 || uint32_t(w) > max_side || uint32_t(h) > max_side || uint64_t(w) * uint64_t(h) > kMaxTexels)
        return Error{"the image claims " + std::to_string(w) + " x " + std::to_string(h) + " texels (at most " +
                     std::to_string(max_side) + " a side and " + std::to_string(kMaxTexels) + " in all)"};
    const std::unique_ptr<stbi_uc, void (*)(void*)> decoded(
        stbi_load_from_memory(texture.encoded.data(), int(texture.encoded.size()), &w, &h, &n, 4), stbi_image_free);
    if (decoded == nullptr || w <= 0 || h <= 0 || uint32_t(w) > max_side || uint32_t(h) > max_side)
        return Error{std::string("the image does not decode (") + stbi_failure_reason() + ")"};
    Rgba8 out;
    out.width = uint32_t(w);
    out.height = uint32_t(h);
    out.texels.assign(decoded.get(), decoded.get() + size_t(w) * size_t(h) * 4);
    return out;
}

std::vector<Rgba8> buildMips(Rgba8 level0) {
    std::vector<Rgba8> chain;
    chain.push_back(std::move(level0));
    const std::array<double, 256>& lin = decodeTable();
    while (chain.back().width > 1 || chain.back().height > 1) {
        const Rgba8& up = chain.back();
        Rgba8 next;
        next.width = std::max(up.width / 2, 1u);
        next.height = std::max(up.height / 2, 1u);
        next.texels.resize(size_t(next.width) * next.height * 4);
        const uint32_t sx = up.width > 1 ? 2 : 1, sy = up.height > 1 ? 2 : 1; // texels averaged per axis
        for (uint32_t y = 0; y < next.height; ++y)
            for (uint32_t x = 0; x < next.width; ++x) {
                double sum[4] = {0.0, 0.0, 0.0, 0.0};
                for (uint32_t dy = 0; dy < sy; ++dy)
                    for (uint32_t dx = 0; dx < sx; ++dx) {
                        const uint8_t* t = &up.texels[(size_t(y * sy + dy) * up.width + x * sx + dx) * 4];
                        for (int c = 0; c < 3; ++c) sum[c] += lin[t[c]];
                        sum[3] += t[3] / 255.0;
                    }
                const double count = double(sx * sy);
                uint8_t* out = &next.texels[(size_t(y) * next.width + x) * 4];
                for (int c = 0; c < 3; ++c) out[c] = toByte(linearToSrgb(sum[c] / count));
                out[3] = toByte(sum[3] / count);
            }
        chain.push_back(std::move(next));
    }
    return chain;
}

glm::dvec4 sampleTrilinear(const std::vector<Rgba8>& mips, glm::dvec2 uv, double lod) {
    if (mips.empty()) return glm::dvec4(1.0);
    if (!std::isfinite(uv.x) || !std::isfinite(uv.y)) uv = glm::dvec2(0.0); // a broken vertex: any texel
    uv -= glm::floor(uv); // REPEAT, before the texel arithmetic (far coordinates lose no precision)
    lod = std::clamp(std::isfinite(lod) ? lod : 0.0, 0.0, double(mips.size() - 1));
    const size_t l0 = size_t(std::floor(lod));
    const size_t l1 = std::min(l0 + 1, mips.size() - 1);
    const double s = lod - double(l0);
    const glm::dvec4 a = sampleLevel(mips[l0], uv);
    return s > 0.0 ? a * (1.0 - s) + sampleLevel(mips[l1], uv) * s : a;
}

Rgba8 resample(const Rgba8& image, uint32_t width, uint32_t height) {
    width = std::max(width, 1u);
    height = std::max(height, 1u);
    if (image.width == width && image.height == height) return image;
    const std::vector<Rgba8> mips = buildMips(image);
    const double shrink = std::max(double(image.width) / width, double(image.height) / height);
    const double lod = shrink > 1.0 ? std::log2(shrink) : 0.0;
    Rgba8 out;
    out.width = width;
    out.height = height;
    out.texels.resize(size_t(width) * height * 4);
    for (uint32_t y = 0; y < height; ++y)
        for (uint32_t x = 0; x < width; ++x) {
            const glm::dvec4 c = sampleTrilinear(mips, {(x + 0.5) / width, (y + 0.5) / height}, lod);
            uint8_t* t = &out.texels[(size_t(y) * width + x) * 4];
            for (int i = 0; i < 3; ++i) t[i] = toByte(linearToSrgb(c[i]));
            t[3] = toByte(c[3]);
        }
    return out;
}

glm::dvec3 meanColor(const Rgba8& image) {
    const std::array<double, 256>& lin = decodeTable();
    glm::dvec3 sum(0.0);
    const size_t texels = size_t(image.width) * image.height;
    for (size_t i = 0; i < texels && i * 4 + 3 < image.texels.size(); ++i)
        sum += glm::dvec3(lin[image.texels[i * 4]], lin[image.texels[i * 4 + 1]], lin[image.texels[i * 4 + 2]]);
    return texels == 0 ? glm::dvec3(1.0) : sum / double(texels);
}

} // namespace throng::texture
