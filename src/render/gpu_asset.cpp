// Uploads a BakedAsset: buffers, the animation image array, decoded colour textures.
#include "gpu_asset.h"
#include "derived_cache.h"

#include <throng/attach.h>
#include <throng/looks.h>

#include "coarse_skinning.h"
#include "gpu_textures.h"

#include "../shaders/shared.h"

#include <algorithm>
#include <limits>
#include <memory>

namespace throng::render {

namespace {

VkSampler createSampler(const gpu::Context& ctx, VkFilter filter) {
    VkSamplerCreateInfo ci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    ci.magFilter = ci.minFilter = filter;
    // Colour textures blend their mip levels (texture::buildMips; the resolve picks the level
    // from analytic derivatives, the hardware path from its quads'); the animation is fetched.
    ci.mipmapMode = filter == VK_FILTER_NEAREST ? VK_SAMPLER_MIPMAP_MODE_NEAREST : VK_SAMPLER_MIPMAP_MODE_LINEAR;
    const VkSamplerAddressMode mode =
        filter == VK_FILTER_NEAREST ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE : VK_SAMPLER_ADDRESS_MODE_REPEAT;
    ci.addressModeU = ci.addressModeV = ci.addressModeW = mode;
    ci.maxLod = filter == VK_FILTER_NEAREST ? 0.0f : VK_LOD_CLAMP_NONE;
    VkSampler s = VK_NULL_HANDLE;
    VK_CHECK(vkCreateSampler(ctx.device, &ci, gpu::hostCallbacks(ctx.device), &s));
    return s;
}

// Vertex animation texels (null: none), `width` texels a row, `frames` rows a clip.
struct VatTexels {
    const void* texels = nullptr;
    bool half = false;
    uint64_t width = 0;
    uint32_t frames = 0, clips = 0;
};

// The vertex animation image, or a zero placeholder so every technique's bindings stay valid.
// Too large for an image is not an error here: only technique vat needs it, and says so.
void uploadVat(gpu::Allocator& a, const VatTexels& v, GpuAsset& g) {
    const VkPhysicalDeviceLimits& lim = a.context->properties.limits;
    const VkFormat format = v.half ? VK_FORMAT_R16G16B16A16_SFLOAT : VK_FORMAT_R32G32B32A32_SFLOAT;
    const VkDeviceSize texel_bytes = v.half ? 8 : 16;
    g.has_vat = false;
    g.vat_problem.clear();
    if (v.texels != nullptr) {
        if (v.width <= lim.maxImageDimension2D && v.frames <= lim.maxImageDimension2D &&
            v.clips <= lim.maxImageArrayLayers)
            g.has_vat = true;
        else
            g.vat_problem = "the vertex animation (" + std::to_string(v.width) + " x " + std::to_string(v.frames) +
                            " texels x " + std::to_string(v.clips) + " clips) exceeds this device's image limits (" +
                            std::to_string(lim.maxImageDimension2D) + " x " + std::to_string(lim.maxImageArrayLayers) +
                            " layers)";
    }
    const std::vector<uint8_t> zero(16, 0);
    g.vat = gpu::createImage(a, format, g.has_vat ? uint32_t(v.width) : 1, g.has_vat ? v.frames : 1,
                             g.has_vat ? v.clips : 1, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                             VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_VIEW_TYPE_2D_ARRAY);
    gpu::uploadImage(a, g.vat, g.has_vat ? v.texels : zero.data(),
                     g.has_vat ? v.width * v.frames * v.clips * texel_bytes : texel_bytes);
}

// uploadAsset(), with the part boxes (part_culling.h) of the models `models` (empty: the asset is
// one), so that a library's are skinned once, by its own models' ranges.
Result<GpuAsset> uploadModels(gpu::Allocator& a, const BakedAsset& asset, AnimationStorage storage,
                              std::span<const AssetRange> models);

} // namespace

Result<GpuAsset> uploadAsset(gpu::Allocator& a, const BakedAsset& asset, AnimationStorage storage) {
    return uploadModels(a, asset, storage, {});
}

namespace {

Result<GpuAsset> uploadModels(gpu::Allocator& a, const BakedAsset& asset, AnimationStorage storage,
                              std::span<const AssetRange> models) {
    const gpu::Context& ctx = *a.context;
    const VkPhysicalDeviceLimits& lim = ctx.properties.limits;
    const uint32_t width = asset.texelsPerRow();
    const bool fits_image = width <= lim.maxImageDimension2D && asset.max_frames <= lim.maxImageDimension2D &&
                            asset.clips.size() <= lim.maxImageArrayLayers;
    const bool fits_buffer = asset.texelCount() <= lim.maxTexelBufferElements;
    const VkDeviceSize texel_bytes = asset.precision == Precision::Float16 ? 8 : 16;
    const bool fits_words = uint64_t(asset.texelCount()) * texel_bytes <= lim.maxStorageBufferRange;
    const std::string sizes = "the animation (" + std::to_string(width) + " x " + std::to_string(asset.max_frames) +
                              " texels x " + std::to_string(asset.clips.size()) + " clips)";
    const std::string image_limits = "this device's image limits (" + std::to_string(lim.maxImageDimension2D) + " x " +
                                     std::to_string(lim.maxImageArrayLayers) + " layers)";
    const std::string buffer_limit =
        "its texel buffer limit (" + std::to_string(lim.maxTexelBufferElements) + " texels)";
    const std::string words_limit =
        "its storage buffer range (" + std::to_string(lim.maxStorageBufferRange) + " bytes)";
    if (storage == AnimationStorage::Image && !fits_image) return Error{sizes + " exceeds " + image_limits};
    if (storage == AnimationStorage::TexelBuffer && !fits_buffer) return Error{sizes + " exceeds " + buffer_limit};
    if (storage == AnimationStorage::StorageBuffer && !fits_words) return Error{sizes + " exceeds " + words_limit};
    if (!fits_image && !fits_buffer && !fits_words)
        return Error{sizes + " exceeds " + image_limits + ", " + buffer_limit + " and " + words_limit};
    if (Status s = validate(asset); !s) return Error{s.message};
    GpuAsset g(a);
    try { // out of memory halfway: `g` frees what exists
        g.animation_storage = storage != AnimationStorage::Auto ? storage
                              : fits_image                      ? AnimationStorage::Image
                              : fits_buffer                     ? AnimationStorage::TexelBuffer
                                                                : AnimationStorage::StorageBuffer;
        g.animation_half = asset.precision == Precision::Float16;
        g.vertex_count = uint32_t(asset.vertices.size());
        g.lods = lodLevels(asset);
        g.first_coarse_lod = uint32_t(g.lods.size());
        if (g.lods.size() > 1) { // only a chain has levels to skin coarsely
            g.coarse_error = cachedCoarseSkinningError(asset).error;
            std::vector<float> errors;
            for (const GpuLod& l : g.lods) errors.push_back(l.error);
            g.first_coarse_lod = firstCoarseLod(errors, g.coarse_error);
        }
        g.index_count = uint32_t(g.lods[0].triangleCount() * 3);
        g.clip_count = uint32_t(asset.clips.size());
        g.joint_count = asset.joint_count;
        g.submeshes = asset.submeshes;
        for (uint32_t s = 0; s < asset.submeshes.size(); ++s) g.submesh_props.push_back(propDrawBits(asset, s));
        g.bind_bounds = asset.bind_bounds;
        g.ranges.push_back(wholeAsset(asset, g.coarse_error)); // the coarse error found above
        g.part_boxes = partBoxes(asset, models.empty() ? std::span<const AssetRange>(g.ranges) : models);
        const VkBufferUsageFlags dst = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
        g.vertices = gpu::createBuffer(a, asset.vertices.size() * sizeof(BakedVertex),
                                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | dst, gpu::MemoryUse::Device);
        gpu::uploadBuffer(a, g.vertices, asset.vertices.data(), g.vertices.size);
        g.indices = gpu::createBuffer(a, asset.indices.size() * 4, VK_BUFFER_USAGE_INDEX_BUFFER_BIT | dst,
                                      gpu::MemoryUse::Device);
        gpu::uploadBuffer(a, g.indices, asset.indices.data(), g.indices.size);

        std::vector<gpu::shader::ClipRecord> clips;
        for (uint32_t c = 0; c < asset.clips.size(); ++c) {
            const BakedClip& clip = asset.clips[c];
            clips.push_back({clip.duration, float(clip.frame_count - 1), clip.loop ? 1u : 0u,
                             c * asset.max_frames * width, width, 0u, 0u, 0u});
        }
        g.clips = gpu::createBuffer(a, clips.size() * sizeof(clips[0]), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | dst,
                                    gpu::MemoryUse::Device);
        gpu::uploadBuffer(a, g.clips, clips.data(), g.clips.size);

        // The storage not in use holds one zero texel, so every binding the shaders declare is valid.
        const bool half = asset.precision == Precision::Float16;
        const VkFormat format = half ? VK_FORMAT_R16G16B16A16_SFLOAT : VK_FORMAT_R32G32B32A32_SFLOAT;
        const void* texels = half ? static_cast<const void*>(asset.animation_f16.data())
                                  : static_cast<const void*>(asset.animation_f32.data());
        const std::vector<uint8_t> zero(16, 0);
        const bool in_buffer = g.animation_storage != AnimationStorage::Image;
        g.animation = gpu::createImage(a, format, in_buffer ? 1 : width, in_buffer ? 1 : asset.max_frames,
                                       in_buffer ? 1 : uint32_t(asset.clips.size()),
                                       VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                       VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_VIEW_TYPE_2D_ARRAY);
        gpu::uploadImage(a, g.animation, in_buffer ? zero.data() : texels,
                         in_buffer ? texel_bytes : asset.texelCount() * texel_bytes);
        const VkDeviceSize buffer_bytes = in_buffer ? asset.texelCount() * texel_bytes : texel_bytes;
        g.animation_texels = gpu::createBuffer(
            a, buffer_bytes, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | dst,
            gpu::MemoryUse::Device);
        gpu::uploadBuffer(a, g.animation_texels, in_buffer ? texels : zero.data(), buffer_bytes);
        VkBufferViewCreateInfo bvi{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
        bvi.buffer = g.animation_texels.buffer;
        bvi.format = format;
        bvi.range = std::min<VkDeviceSize>(buffer_bytes, VkDeviceSize(lim.maxTexelBufferElements) *
                                                             texel_bytes); // the words path reads past it
        VK_CHECK(vkCreateBufferView(ctx.device, &bvi, gpu::hostCallbacks(ctx.device), &g.animation_view));

        VatTexels vat;
        if (asset.hasVat())
            vat = {half ? static_cast<const void*>(asset.vat_f16.data())
                        : static_cast<const void*>(asset.vat_f32.data()),
                   half, asset.vatTexelsPerRow(), asset.max_frames, uint32_t(asset.clips.size())};
        uploadVat(a, vat, g);

        const uint8_t white[4] = {255, 255, 255, 255};
        g.white = pixelImage(a, white, VK_IMAGE_VIEW_TYPE_2D);
        // The looks table names the textures' means (impostors draw them for texture variants).
        g.texture_means = uploadTextures(a, asset, g);
        const LookTable looks = lookTable(asset, g.texture_means);
        g.submesh_looks = looks.submesh_records;
        g.looks = gpu::createBuffer(a, looks.words.size() * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | dst,
                                    gpu::MemoryUse::Device);
        gpu::uploadBuffer(a, g.looks, looks.words.data(), g.looks.size);
        g.point = createSampler(ctx, VK_FILTER_NEAREST);
        g.linear = createSampler(ctx, VK_FILTER_LINEAR);
    } catch (const gpu::GpuError& e) {
        return e.error();
    }
    return g;
}

} // namespace

Result<GpuAsset> uploadLibrary(gpu::Allocator& a, const AssetLibrary& library, AnimationStorage storage) {
    Result<GpuAsset> uploaded = uploadModels(a, library.asset, storage, library.ranges);
    if (!uploaded) return uploaded;
    GpuAsset g = std::move(uploaded).value();
    g.ranges = library.ranges;
    g.warnings.insert(g.warnings.end(), library.notes.begin(), library.notes.end());
    if (library.ranges.size() > 1) {
        try { // out of memory: `g` frees what exists
            // Each clip's model's first vertex (its vertex animation's column 0).
            std::vector<gpu::shader::ClipRecord> clips(library.asset.clips.size());
            gpu::downloadBuffer(a, g.clips, clips.data(), clips.size() * sizeof(clips[0]));
            for (const AssetRange& r : library.ranges)
                for (uint32_t c = r.first_clip; c < r.first_clip + r.clip_count; ++c)
                    clips[c].first_vertex = r.first_vertex;
            gpu::uploadBuffer(a, g.clips, clips.data(), clips.size() * sizeof(clips[0]));
            // The vertex animation kept beside the asset, each model's from column 0.
            if (library.vat_row_texels > 0) {
                const bool half = library.asset.precision == Precision::Float16;
                gpu::destroyImage(a, g.vat); // the placeholder
                uploadVat(a,
                          {half ? static_cast<const void*>(library.vat_f16.data())
                                : static_cast<const void*>(library.vat_f32.data()),
                           half, library.vat_row_texels, library.asset.max_frames,
                           uint32_t(library.asset.clips.size())},
                          g);
            }
        } catch (const gpu::GpuError& e) {
            return e.error();
        }
    }
    // Each draw skins its model's levels coarsely from the model's own first coarse level
    // (recordMeshPass); the asset's is the first any model has.
    if (g.ranges.size() > 1) {
        g.first_coarse_lod = uint32_t(g.lods.size());
        for (const AssetRange& r : g.ranges)
            if (r.first_coarse_lod < r.lod_errors.size())
                g.first_coarse_lod = std::min(g.first_coarse_lod, r.first_coarse_lod);
    }
    return g;
}

AnimationSpecialization::AnimationSpecialization(const GpuAsset& asset, bool dual_quaternion) {
    values.dual_quaternion = dual_quaternion ? VK_TRUE : VK_FALSE;
    values.path = asset.animation_storage == AnimationStorage::TexelBuffer     ? THRONG_ANIMATION_PATH_TEXEL_BUFFER
                  : asset.animation_storage == AnimationStorage::StorageBuffer ? THRONG_ANIMATION_PATH_WORDS
                                                                               : THRONG_ANIMATION_PATH_IMAGE;
    values.half = asset.animation_half ? VK_TRUE : VK_FALSE;
}

void GpuAsset::release() {
    if (allocator_ != nullptr) {
        gpu::Allocator& a = *allocator_;
        const VkDevice device = a.context->device;
        gpu::destroyBuffer(a, vertices);
        gpu::destroyBuffer(a, indices);
        gpu::destroyBuffer(a, clips);
        gpu::destroyBuffer(a, looks);
        gpu::destroyImage(a, animation);
        gpu::destroyImage(a, vat);
        if (animation_view != VK_NULL_HANDLE) vkDestroyBufferView(device, animation_view, gpu::hostCallbacks(device));
        gpu::destroyBuffer(a, animation_texels);
        gpu::destroyImage(a, white);
        gpu::destroyImage(a, no_texture);
        for (gpu::Image& t : textures) gpu::destroyImage(a, t);
        if (point != VK_NULL_HANDLE) vkDestroySampler(device, point, gpu::hostCallbacks(device));
        if (linear != VK_NULL_HANDLE) vkDestroySampler(device, linear, gpu::hostCallbacks(device));
    }
    static_cast<GpuAssetData&>(*this) = GpuAssetData{};
    allocator_ = nullptr;
}

} // namespace throng::render
