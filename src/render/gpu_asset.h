// A BakedAsset on the GPU: immutable mesh, animation image, clip table and textures.
#pragma once

#include "asset_library.h"
#include "part_culling.h"

#include "../gpu/resources.h"
#include "../shaders/shared.h"

#include <throng/baked.h>
#include <throng/options.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace throng::render {

using throng::AnimationStorage; // throng/options.h: where the animation texels live on the GPU

// One level of detail on the GPU: its error in model units and, per submesh (the order of
// GpuAsset::submeshes), a range of GpuAsset::indices. The same data as BakedLod (baked.h): every
// level shares the vertex buffer and every technique's per-vertex data.
using GpuLod = BakedLod;

// What a GpuAsset holds (plain data; GpuAsset owns it).
struct GpuAssetData {
    gpu::Buffer vertices; // BakedVertex[]
    gpu::Buffer indices;  // uint32: every LOD's indices (LOD 0's first)
    gpu::Buffer clips;    // shader::ClipRecord[]
    gpu::Image
        animation; // RGBA32F or RGBA16F, (3 * joints) x max_frames x clips (1x1x1 placeholder on the buffer path)
    gpu::Buffer animation_texels; // the same texels for the texel-buffer and storage-buffer paths (1-texel placeholder
                                  // on the image path)
    VkBufferView animation_view = VK_NULL_HANDLE;                 // animation_texels as a uniform texel buffer
    AnimationStorage animation_storage = AnimationStorage::Image; // the one in use: Image, TexelBuffer or StorageBuffer
    bool animation_half = false;                                  // texels are IEEE halves
    // Vertex animation (technique vat): RGBA32F or RGBA16F, (2 * vertices) x max_frames x clips,
    // when the asset has it and it fits the image limits; else a 1x1x1 placeholder, has_vat is
    // false and, when the asset had the data, vat_problem says why it is not usable.
    gpu::Image vat;
    bool has_vat = false;
    std::string vat_problem;
    // RGBA8 sRGB image arrays (gpu_textures.h): one per BakedTexture (white 1x1 when it would not
    // decode or only looks' variants use it), then one per look with texture variants.
    std::vector<gpu::Image> textures;
    std::vector<uint32_t> submesh_textures; // per submesh: its index in `textures`, or THRONG_NO_TEXTURE
    gpu::Image no_texture;                  // 1x1 white, one layer: bound where a submesh samples no texture
    gpu::Image white;                       // 1x1 white, a 2D view: the placeholder of other sampled bindings
    VkSampler point = VK_NULL_HANDLE;       // the animation image: texelFetch only, but a sampler is required
    VkSampler linear = VK_NULL_HANDLE;      // colour textures
    std::vector<BakedSubmesh> submeshes;    // LOD 0
    std::vector<uint32_t> submesh_props;    // per submesh: the prop bits its draws carry (propDrawBits; 0: the model's)
    gpu::Buffer looks;                      // uint[]: the looks table (throng/looks.h lookTable)
    std::vector<uint32_t> submesh_looks;    // per submesh: its look's record in `looks` (0: none)
    std::vector<GpuLod> lods;               // at least one; lods[0] has the ranges of `submeshes` (lodLevels(asset))
    // Per BakedTexture: its mean colour (linear RGB; white where it did not decode).
    std::vector<glm::vec3> texture_means;
    uint32_t vertex_count = 0;
    uint32_t index_count = 0; // indices LOD 0 draws (the triangles of the mesh x 3); `indices` may hold more
    uint32_t clip_count = 0;
    uint32_t joint_count = 0; // palette entries
    // The first LOD technique `baked` skins coarsely (coarse_skinning.h); lods.size() when none.
    uint32_t first_coarse_lod = 0;
    float coarse_error = 0.0f; // model units; what coarse skinning may move a vertex
    Bounds bind_bounds;
    // The models it holds (asset_library.h): one, the whole asset (uploadAsset), or a library's
    // (uploadLibrary), each a range of the arrays above.
    std::vector<AssetRange> ranges;
    // Where models have kit parts or props: the boxes culling unites per member (part_culling.h;
    // CPU data, for CrowdGpu).
    PartBoxes part_boxes;
    std::vector<std::string> warnings;
};

// A model on the GPU, owning its buffers, images, views and samplers: they are freed when it goes
// (or by release(), earlier), with the allocator they came from, which must outlive them.
// Move-only.
class GpuAsset : public GpuAssetData {
  public:
    GpuAsset() = default;
    explicit GpuAsset(gpu::Allocator& allocator) : allocator_(&allocator) {}
    GpuAsset(GpuAsset&& other) noexcept
        : GpuAssetData(std::move(other)), allocator_(std::exchange(other.allocator_, nullptr)) {}
    GpuAsset& operator=(GpuAsset&& other) noexcept {
        if (this != &other) {
            release();
            GpuAssetData::operator=(std::move(other));
            allocator_ = std::exchange(other.allocator_, nullptr);
        }
        return *this;
    }
    GpuAsset(const GpuAsset&) = delete;
    GpuAsset& operator=(const GpuAsset&) = delete;
    ~GpuAsset() { release(); }
    // Frees everything now; the asset is empty after it.
    void release();

  private:
    gpu::Allocator* allocator_ = nullptr;
};

// The texture submesh `s` samples: its index into asset.textures (its material's, or its look's
// variants), or THRONG_NO_TEXTURE (drawn untextured, with its colour), as every draw binds it.
inline uint32_t submeshTexture(const GpuAsset& asset, size_t s) {
    return s < asset.submesh_textures.size() ? asset.submesh_textures[s] : THRONG_NO_TEXTURE;
}

// Errors: the animation exceeds the image limits, maxTexelBufferElements and
// maxStorageBufferRange (or the limit of the storage `storage` forces), with sizes and limits
// named; a GPU failure (out of memory, a lost device: gpu::GpuError's one line), after freeing
// everything it made.
Result<GpuAsset> uploadAsset(gpu::Allocator& allocator, const BakedAsset& asset,
                             AnimationStorage storage = AnimationStorage::Auto);

// A crowd of several models (AssetLibrary) on the GPU: uploadAsset() of library.asset, with the
// library's ranges; its first coarse level is the first any model has (each model's draws use
// the model's own, AssetRange::first_coarse_lod). The library's notes join the warnings.
// Errors: uploadAsset()'s.
Result<GpuAsset> uploadLibrary(gpu::Allocator& allocator, const AssetLibrary& library,
                               AnimationStorage storage = AnimationStorage::Auto);

// The specialization constants THRONG_SPEC_ANIMATION_PATH and THRONG_SPEC_ANIMATION_HALF for
// pipelines that skin from `asset`.
struct AnimationSpecialization {
    struct Values {
        int32_t path = 0;
        VkBool32 half = VK_FALSE;
        VkBool32 dual_quaternion = VK_FALSE; // blend joints as dual quaternions (dual_quaternion.glsl)
    } values;
    VkSpecializationMapEntry entries[3] = {
        {THRONG_SPEC_ANIMATION_PATH, offsetof(Values, path), sizeof(int32_t)},
        {THRONG_SPEC_ANIMATION_HALF, offsetof(Values, half), sizeof(VkBool32)},
        {THRONG_SPEC_DUAL_QUATERNION, offsetof(Values, dual_quaternion), sizeof(VkBool32)}};
    VkSpecializationInfo info{3, entries, sizeof(Values), &values};
    explicit AnimationSpecialization(const GpuAsset& asset, bool dual_quaternion = false);
    AnimationSpecialization(const AnimationSpecialization&) = delete; // info points into this object
    AnimationSpecialization& operator=(const AnimationSpecialization&) = delete;
};

} // namespace throng::render
