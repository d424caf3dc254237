// An asset's colour textures on the GPU; see gpu_textures.h.
#include "gpu_textures.h"

#include "../texture/texture.h"

#include <algorithm>
#include <optional>
#include <string>

namespace throng::render {

namespace {

constexpr uint8_t kWhite[4] = {255, 255, 255, 255};

// Layers of one size, each with its chain (texture::buildMips), as one sRGB image array: level
// 0 of every layer, then level 1 of every layer, ... (gpu::uploadImage's order).
gpu::Image layeredImage(gpu::Allocator& a, const std::vector<std::vector<texture::Rgba8>>& layers) {
    std::vector<uint8_t> texels;
    const size_t levels = layers[0].size();
    for (size_t l = 0; l < levels; ++l)
        for (const std::vector<texture::Rgba8>& chain : layers)
            texels.insert(texels.end(), chain[l].texels.begin(), chain[l].texels.end());
    gpu::Image img =
        gpu::createImage(a, VK_FORMAT_R8G8B8A8_SRGB, layers[0][0].width, layers[0][0].height, uint32_t(layers.size()),
                         VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_IMAGE_ASPECT_COLOR_BIT,
                         VK_IMAGE_VIEW_TYPE_2D_ARRAY, uint32_t(levels));
    try {
        gpu::uploadImage(a, img, texels.data(), texels.size());
    } catch (...) {
        gpu::destroyImage(a, img);
        throw;
    }
    return img;
}

texture::Rgba8 whiteTexel() { return {1, 1, std::vector<uint8_t>(kWhite, kWhite + 4)}; }

} // namespace

gpu::Image pixelImage(gpu::Allocator& a, const uint8_t* pixel, VkImageViewType view) {
    gpu::Image img =
        gpu::createImage(a, VK_FORMAT_R8G8B8A8_SRGB, 1, 1, 1,
                         VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_IMAGE_ASPECT_COLOR_BIT, view);
    try {
        gpu::uploadImage(a, img, pixel, 4);
    } catch (...) {
        gpu::destroyImage(a, img);
        throw;
    }
    return img;
}

std::vector<glm::vec3> uploadTextures(gpu::Allocator& a, const BakedAsset& asset, GpuAssetData& g) {
    const uint32_t max_side = a.context->properties.limits.maxImageDimension2D;
    g.no_texture = pixelImage(a, kWhite, VK_IMAGE_VIEW_TYPE_2D_ARRAY);

    // Which textures a submesh samples as its own (not through a look's variants).
    std::vector<bool> varied(asset.submeshes.size(), false), own(asset.textures.size(), false);
    for (const BakedLook& l : asset.looks)
        for (uint32_t s : l.submeshes)
            if (!l.textures.empty() && s < varied.size()) varied[s] = true;
    for (size_t s = 0; s < asset.submeshes.size(); ++s) {
        const int32_t t = asset.submeshes[s].texture;
        if (!varied[s] && t >= 0 && size_t(t) < own.size()) own[size_t(t)] = true;
    }
    std::vector<bool> in_variants(asset.textures.size(), false);
    for (const BakedLook& l : asset.looks)
        for (int32_t t : l.textures)
            if (t >= 0 && size_t(t) < in_variants.size()) in_variants[size_t(t)] = true;

    // Decoded once: the textures that are drawn, either way.
    std::vector<std::optional<texture::Rgba8>> decoded(asset.textures.size());
    std::vector<glm::vec3> means(asset.textures.size(), glm::vec3(1.0f));
    for (size_t t = 0; t < asset.textures.size(); ++t) {
        if (!own[t] && !in_variants[t]) continue;
        Result<texture::Rgba8> d = texture::decodeTexture(asset.textures[t], max_side);
        if (!d) {
            if (!asset.textures[t].encoded.empty()) // no bytes: the importer or bake said so (textureNotFound)
                g.warnings.push_back("texture " + std::to_string(t) + " could not be decoded (" + d.error().message +
                                     "); white used");
            continue;
        }
        means[t] = glm::vec3(texture::meanColor(d.value()));
        decoded[t] = std::move(d).value();
    }
    for (size_t t = 0; t < asset.textures.size(); ++t)
        g.textures.push_back(own[t] && decoded[t] ? layeredImage(a, {texture::buildMips(*decoded[t])})
                                                  : pixelImage(a, kWhite, VK_IMAGE_VIEW_TYPE_2D_ARRAY));

    g.submesh_textures.assign(asset.submeshes.size(), THRONG_NO_TEXTURE);
    for (size_t s = 0; s < asset.submeshes.size(); ++s) {
        const int32_t t = asset.submeshes[s].texture;
        if (!varied[s] && t >= 0 && size_t(t) < asset.textures.size()) g.submesh_textures[s] = uint32_t(t);
    }
    for (const BakedLook& l : asset.looks) {
        if (l.textures.empty()) continue;
        uint32_t width = 1, height = 1;
        for (int32_t t : l.textures)
            if (const std::optional<texture::Rgba8>& d = decoded[size_t(t)]) {
                width = std::max(width, d->width);
                height = std::max(height, d->height);
            }
        std::vector<std::vector<texture::Rgba8>> layers;
        for (int32_t t : l.textures) {
            const std::optional<texture::Rgba8>& d = decoded[size_t(t)];
            layers.push_back(texture::buildMips(texture::resample(d ? *d : whiteTexel(), width, height)));
        }
        g.textures.push_back(layeredImage(a, layers));
        for (uint32_t s : l.submeshes)
            if (s < g.submesh_textures.size()) g.submesh_textures[s] = uint32_t(g.textures.size() - 1);
    }
    return means;
}

} // namespace throng::render
