// The compute rasterizer; see compute_raster.h.
#include "compute_raster.h"
#include "derived_cache.h"

#include <throng/attach.h>

#include "frame_resources.h"

#include "crowd.h"
#include "shadows.h"
#include "splats.h"
#include "technique_baked.h"
#include "views.h"

#include "../gpu/pipeline.h"
#include "../gpu/shader_blobs.h"

#include <glm/gtc/packing.hpp>

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <span>

namespace throng::render {

using gpu::shader::RasterModel;
using gpu::shader::RasterParams;
using gpu::shader::RasterPlan;
using gpu::shader::RasterRegion;

namespace {

constexpr VkShaderStageFlags kRasterStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
constexpr uint64_t kMaxChainTriangles = 1u << 16; // the id's triangle field
constexpr uint64_t kMaxMembers = 1u << 24;        // the id's member field

template <class T> gpu::OwnedBuffer uploadStorage(gpu::Allocator& a, const std::vector<T>& data) {
    const VkDeviceSize bytes = std::max<VkDeviceSize>(data.size() * sizeof(T), 16);
    gpu::OwnedBuffer b = gpu::ownBuffer(a, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                        gpu::MemoryUse::Device);
    if (!data.empty()) gpu::uploadBuffer(a, *b, data.data(), data.size() * sizeof(T));
    return b;
}

// A unit vector as the shaders' encodeCachedNormal (vertex_cache.glsl) stores it: folded onto the
// octahedron, 2 x snorm16 (x in the low half).
uint32_t encodeOctahedral(glm::vec3 n) {
    n /= std::max(std::abs(n.x) + std::abs(n.y) + std::abs(n.z), 1e-20f);
    glm::vec2 e(n.x, n.y);
    if (n.z < 0.0f)
        e = (1.0f - glm::abs(glm::vec2(n.y, n.x))) * glm::vec2(n.x >= 0.0f ? 1.0f : -1.0f, n.y >= 0.0f ? 1.0f : -1.0f);
    auto snorm = [](float v) {
        return uint32_t(uint16_t(int16_t(std::lround(std::clamp(v, -1.0f, 1.0f) * 32767.0f))));
    };
    return snorm(e.x) | snorm(e.y) << 16;
}

constexpr uint64_t kCachedPositionBytes = sizeof(glm::uvec2);
constexpr uint64_t kCachedNormalBytes = sizeof(uint32_t);
constexpr uint64_t kCachedVertexBytes = kCachedPositionBytes + kCachedNormalBytes;

// Each LOD's vertex list as the cache pass reads it (THRONG_CACHE_VERTEX_WORDS a vertex): bind
// pose position, octahedral normal, joints, weights, and the wear selector of the part or prop
// the vertex is of (propWear; 0: the model's own), so that the pass skins no vertex of a part
// the member does not wear (the raster and the resolve read none of those).
std::vector<uint32_t> cacheVertexWords(const BakedAsset& asset, const std::vector<uint32_t>& lod_vertices) {
    std::vector<uint32_t> prop_wear;
    for (uint32_t p = 0; p < asset.props.size(); ++p) prop_wear.push_back(propWear(asset, p));
    const std::vector<int32_t> prop_of = propOfVertices(asset);
    std::vector<uint32_t> words;
    words.reserve(lod_vertices.size() * THRONG_CACHE_VERTEX_WORDS);
    for (uint32_t id : lod_vertices) {
        const BakedVertex& v = asset.vertices[id];
        for (int k = 0; k < 3; ++k) words.push_back(std::bit_cast<uint32_t>(v.position[k]));
        words.push_back(encodeOctahedral(glm::vec3(v.normal[0], v.normal[1], v.normal[2])));
        words.push_back(uint32_t(v.joints[0]) | uint32_t(v.joints[1]) << 16);
        words.push_back(uint32_t(v.joints[2]) | uint32_t(v.joints[3]) << 16);
        for (int k = 0; k < 4; ++k) words.push_back(std::bit_cast<uint32_t>(v.weights[k]));
        words.push_back(prop_of[id] < 0 ? 0u : prop_wear[size_t(prop_of[id])]);
    }
    return words;
}

// Where the compute rasterizer takes a member's vertices from: one set of shader variants each
// (raster_skin.glsl).
enum class Source {
    BindPose, // `static`
    Baked,    // the baked animation, skinned (`baked`)
    Palettes, // the technique's palettes, skinned (TechniqueInfo::palettes_in_compute)
    Vertices, // the vertices the technique's CPU skinned, per vertex (TechniqueInfo::vertices_in_compute)
    Vat,      // the vertex animation, sampled per vertex (TechniqueInfo::vat_in_compute)
    Swim,     // the rest mesh, swum per vertex (TechniqueInfo::swim_in_compute)
};

Source sourceOf(const TechniqueInfo* info) {
    if (info == nullptr || !info->skinned_in_compute) return Source::BindPose;
    if (info->palettes_in_compute) return Source::Palettes;
    if (info->vertices_in_compute) return Source::Vertices;
    if (info->vat_in_compute) return Source::Vat;
    if (info->swim_in_compute) return Source::Swim;
    return Source::Baked;
}

// Each source's cache pass, per-cluster raster and resolve, and the resolves every source shares
// (the cached members', the coarse-skinned levels'), each receiving shadows or not.
struct SourceShaders {
    std::span<const uint32_t> cache, raster, raster_depth, resolve, resolve_cached, resolve_coarse;
};

SourceShaders shadersOf(Source source, bool shadowed) {
    namespace s = gpu::shaders;
    // Per source: cache pass, per-cluster raster (and its depth-only form for the shadow pass),
    // resolve, resolve receiving shadows.
    struct Row {
        std::span<const uint32_t> cache, raster, raster_depth, resolve, resolve_shadowed;
    };
    Row r;
    switch (source) {
    case Source::Baked:
        r = {s::raster_cache_comp_spv, s::raster_baked_comp_spv, s::raster_baked_depth_comp_spv,
             s::resolve_baked_comp_spv, s::resolve_baked_shadowed_comp_spv};
        break;
    case Source::Palettes:
        r = {s::raster_cache_palette_comp_spv, s::raster_palette_comp_spv, s::raster_palette_depth_comp_spv,
             s::resolve_palette_comp_spv, s::resolve_palette_shadowed_comp_spv};
        break;
    case Source::Vat:
        r = {s::raster_cache_vat_comp_spv, s::raster_vat_comp_spv, s::raster_vat_depth_comp_spv,
             s::resolve_vat_comp_spv, s::resolve_vat_shadowed_comp_spv};
        break;
    case Source::Vertices:
        r = {s::raster_cache_vertices_comp_spv, s::raster_vertices_comp_spv, s::raster_vertices_depth_comp_spv,
             s::resolve_vertices_comp_spv, s::resolve_vertices_shadowed_comp_spv};
        break;
    case Source::Swim:
        r = {s::raster_cache_procedural_comp_spv, s::raster_procedural_comp_spv, s::raster_procedural_depth_comp_spv,
             s::resolve_procedural_comp_spv, s::resolve_procedural_shadowed_comp_spv};
        break;
    case Source::BindPose:
        r = {{},
             s::raster_static_comp_spv,
             s::raster_static_depth_comp_spv,
             s::resolve_static_comp_spv,
             s::resolve_static_shadowed_comp_spv};
        break;
    }
    return {r.cache,
            r.raster,
            r.raster_depth,
            shadowed ? r.resolve_shadowed : r.resolve,
            shadowed ? s::resolve_cached_shadowed_comp_spv : s::resolve_cached_comp_spv,
            shadowed ? s::resolve_coarse_shadowed_comp_spv : s::resolve_coarse_comp_spv};
}

// Per model of the crowd (asset.ranges: one for a plain asset), what the rasterizer reads
// (RasterModel): its levels' clusters and vertex lists in `chain`, its sub-region of the visible
// list, its coarse and cached levels, and its cache box: the union of the boxes culling tests
// for its clips (techniqueCullBounds, with layers: for `pose` and `palette`, whose cross-fades are
// blended in local space and whose layers play other clips, every clip's box grown; `baked` and
// `vat` the clips' own, which hold every frame of every vertex; `procedural` the reach of its
// swim), so that no pose is clamped.
std::vector<RasterModel> rasterModels(std::string_view technique, const BakedAsset& baked, const GpuAsset& asset,
                                      const ClusterChain& chain, const CrowdGpu& crowd, const SwimParams& swim,
                                      bool has_cache) {
    std::vector<RasterModel> out;
    const std::vector<Bounds> clip_bounds = clipCullBounds(baked, asset.ranges); // each clip with its model's bind pose
    const uint32_t levels = uint32_t(crowd.lods().size());
    for (size_t m = 0; m < chain.models.size(); ++m) {
        const ChainModel& cm = chain.models[m];
        const AssetRange& range = asset.ranges[m];
        const gpu::shader::CullAsset& cull = crowd.models()[m];
        RasterModel r{};
        for (uint32_t l = 0; l < cm.level_count && l < THRONG_MAX_LODS; ++l) {
            const glm::uvec2 clusters = chain.lods[cm.first_level + l];
            uint32_t triangles = 0;
            for (uint32_t c = clusters.x; c < clusters.x + clusters.y; ++c)
                triangles += chain.clusters[c].triangle_count;
            const uint32_t first_triangle = clusters.y > 0 ? chain.clusters[clusters.x].first_triangle : 0;
            r.lod_clusters[l] = glm::uvec4(clusters.x, clusters.y, first_triangle, triangles);
            const glm::uvec2 vertices = chain.lod_vertex_ranges[cm.first_level + l];
            r.lod_vertices[l] = glm::uvec4(vertices.x, vertices.y, 0, 0);
        }
        r.first_triangle = cm.first_triangle;
        r.first_slot = cull.first_slot;
        r.capacity = cull.capacity;
        r.joint_count = std::max<uint32_t>(chain.models.size() > 1 ? range.joint_count : baked.joint_count, 1);
        r.coarse_lods = std::min(range.first_coarse_lod, 0xffffu) | levels << 16;
        r.cache_lods = cachedLevels(r.lod_vertices, r.coarse_lods, has_cache);
        r.cache_lods_full = cachedLevels(r.lod_vertices, 0, has_cache);
        Bounds box{glm::vec3(std::numeric_limits<float>::max()), glm::vec3(-std::numeric_limits<float>::max())};
        const std::span<const Bounds> own(clip_bounds.data() + range.first_clip, range.clip_count);
        for (const Bounds& b : techniqueCullBounds(technique, {own.begin(), own.end()}, swim, true)) {
            box.min = glm::min(box.min, b.min);
            box.max = glm::max(box.max, b.max);
        }
        if (range.clip_count == 0) box = range.bind_bounds;
        r.cache_origin = glm::vec4(box.min, 0.0f);
        r.cache_step = glm::vec4(glm::max(box.max - box.min, glm::vec3(1e-6f)) / float(THRONG_CACHE_STEPS), 0.0f);
        out.push_back(r);
    }
    return out;
}

// The raster's work per member where a model has props or kit parts (THRONG_BINDING_RASTER_SLOTS
// in shared.h): for each (model, LOD) whose level holds the body's clusters first and each
// part's together, the body's clusters and then per slot (the parts sharing a salt) as many items
// as its largest part has clusters; sets RasterModel::lod_vertices[l].z (the items) and .w (the
// first slot record), and returns the records. A level laid out otherwise keeps a workgroup per
// cluster (.z = 0).
std::vector<glm::uvec4> rasterSlots(const BakedAsset& baked, const ClusterChain& chain,
                                    std::vector<RasterModel>& models) {
    std::vector<glm::uvec4> records;
    if (baked.props.empty()) return records;
    for (size_t m = 0; m < chain.models.size() && m < models.size(); ++m) {
        const ChainModel& cm = chain.models[m];
        for (uint32_t l = 0; l < cm.level_count && l < THRONG_MAX_LODS; ++l) {
            const glm::uvec2 level = chain.lods[cm.first_level + l];
            // Each cluster's prop (-1: the body): the body first, each prop's clusters together.
            uint32_t body = 0;
            std::vector<std::pair<int32_t, glm::uvec2>> parts; // prop, (first cluster in the level, count)
            bool laid_out = true;
            for (uint32_t c = 0; c < level.y && laid_out; ++c) {
                const int32_t prop = propOfSubmesh(baked, chain.submeshes[chain.clusters[level.x + c].first_triangle]);
                if (prop < 0) {
                    laid_out = parts.empty();
                    ++body;
                } else if (!parts.empty() && parts.back().first == prop) {
                    ++parts.back().second.y;
                } else {
                    for (const auto& seen : parts) laid_out = laid_out && seen.first != prop;
                    parts.push_back({prop, glm::uvec2(c, 1)});
                }
            }
            if (!laid_out || parts.empty()) continue;
            // Slots by salt, in the order of their first part here.
            std::vector<std::pair<uint32_t, std::vector<size_t>>> slots;
            for (size_t i = 0; i < parts.size(); ++i) {
                const uint32_t salt = propWear(baked, uint32_t(parts[i].first)) & 0x7fu;
                auto it = std::find_if(slots.begin(), slots.end(), [&](const auto& x) { return x.first == salt; });
                if (it == slots.end()) it = slots.insert(slots.end(), {salt, {}});
                it->second.push_back(i);
            }
            const uint32_t first_record = uint32_t(records.size());
            uint32_t items = body, part_record = first_record + uint32_t(slots.size());
            for (const auto& [salt, members] : slots) {
                uint32_t most = 0;
                for (size_t i : members) most = std::max(most, parts[i].second.y);
                records.push_back(glm::uvec4(items, part_record, uint32_t(members.size()), most));
                items += most;
                part_record += uint32_t(members.size());
            }
            for (const auto& [salt, members] : slots)
                for (size_t i : members)
                    records.push_back(glm::uvec4(propWear(baked, uint32_t(parts[i].first)), parts[i].second.x,
                                                 parts[i].second.y, 0u));
            models[m].lod_vertices[l].z = items;
            models[m].lod_vertices[l].w = first_record;
        }
    }
    return records;
}

} // namespace

uint64_t vertexCacheBytes(const gpu::Context& ctx, uint64_t requested, uint64_t members, uint64_t finest_vertices,
                          bool lod) {
    uint64_t bytes = requested;
    if (requested == kVertexCacheAuto) {
        VkDeviceSize heap = 0;
        for (uint32_t h = 0; h < ctx.memory.memoryHeapCount; ++h)
            if (ctx.memory.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
                heap = std::max(heap, ctx.memory.memoryHeaps[h].size);
        bytes = std::min(members * finest_vertices * kCachedVertexBytes, heap / 4);
        if (lod) bytes = std::min(bytes, kVertexCacheLodBytes);
    }
    const uint64_t vertices = std::min<uint64_t>(bytes / kCachedVertexBytes,
                                                 ctx.properties.limits.maxStorageBufferRange / kCachedPositionBytes);
    return vertices * kCachedVertexBytes;
}

bool techniqueRastersInCompute(std::string_view technique) {
    const TechniqueInfo* info = findTechnique(technique);
    return info != nullptr && info->compute_raster;
}

std::string computeRasterProblem(const gpu::Context& ctx, std::string_view technique, const BakedAsset& asset,
                                 uint64_t members, std::span<const AssetRange> ranges) {
    if (!techniqueRastersInCompute(technique)) {
        size_t have = 0;
        for (const TechniqueInfo& t : techniques()) have += t.compute_raster ? 1 : 0;
        return "technique " + std::string(technique) + " has no compute rasterizer (" +
               techniquesWith(&TechniqueInfo::compute_raster) + (have == 1 ? " has)" : " have)");
    }
    // A library's vertex animation lies beside its asset (AssetLibrary::vat_*): the technique,
    // made first, checked it.
    if (const TechniqueInfo* info = findTechnique(technique);
        info->vat_in_compute && ranges.size() <= 1 && !asset.hasVat())
        return "technique " + std::string(technique) + " needs vertex animation data: bake with --vat";
    if (!ctx.indirect_count) // its culling, plan and composite draw count on the GPU
        return "'" + ctx.device_name + "' lacks drawIndirectCount (the compute rasterizer counts its work on the GPU)";
    if (!ctx.int64_atomics)
        return "'" + ctx.device_name + "' lacks 64-bit buffer atomics (shaderInt64, shaderBufferInt64Atomics)";
    // The visibility buffer names a triangle of the member's model: each model's levels count alone.
    const std::vector<AssetRange> whole =
        ranges.empty() ? std::vector<AssetRange>{wholeAsset(asset)} : std::vector<AssetRange>{};
    for (const AssetRange& r : ranges.empty() ? std::span<const AssetRange>(whole) : ranges) {
        uint64_t triangles = 0;
        const size_t levels = std::min<size_t>(asset.lods.size(), std::max<size_t>(r.lod_errors.size(), 1));
        for (size_t l = 0; l < levels; ++l)
            for (uint32_t sm = r.first_submesh; sm < r.first_submesh + r.submesh_count; ++sm)
                triangles += asset.lods[l].submeshes[sm].index_count / 3;
        if (asset.lods.empty())
            for (uint32_t sm = r.first_submesh; sm < r.first_submesh + r.submesh_count; ++sm)
                triangles += asset.submeshes[sm].index_count / 3;
        if (triangles >= kMaxChainTriangles)
            return (ranges.size() > 1 ? "model " + r.name + "'s" : std::string("the model's")) +
                   " levels of detail have " + std::to_string(triangles) +
                   " triangles; the visibility buffer names at most 65,535 a model";
    }
    if (members > kMaxMembers)
        return std::to_string(members) + " members; the visibility buffer names at most 16,777,216";
    return {};
}

std::string computeSourceProblem(const gpu::Context& ctx, std::string_view technique, const Technique& drawn) {
    const TechniqueInfo* info = findTechnique(technique);
    if (info == nullptr) return {};
    const uint64_t range = ctx.properties.limits.maxStorageBufferRange;
    if (info->vertices_in_compute && drawn.computeVertices(0) == VK_NULL_HANDLE)
        return "technique " + std::string(technique) +
               "'s skinned vertices span several buffers (more than one storage buffer of " + ctx.device_name +
               " holds) and the compute rasterizer reads one: fewer members, or --raster hardware";
    if (info->palettes_in_compute) {
        const ComputePalettes p = drawn.computePalettes(0);
        if (p.buffer != VK_NULL_HANDLE && p.bytes > range)
            return "technique " + std::string(technique) + "'s palettes take " + std::to_string(p.bytes) +
                   " bytes, more than one storage buffer of " + ctx.device_name + " holds (" + std::to_string(range) +
                   "): fewer members, or --raster hardware";
    }
    return {};
}

ComputeRaster::ComputeRaster(gpu::Allocator& a, std::string_view technique, const BakedAsset& baked,
                             const GpuAsset& asset, const CrowdGpu& crowd, VkExtent2D extent, VkFormat color_format,
                             VkFormat depth_format, uint32_t slots, const RasterOptions& options,
                             const Technique* drawn)
    : allocator_(&a), crowd_(&crowd), extent_(extent), chain_(buildClusters(baked, asset.ranges)) {
    const gpu::Context& ctx = *a.context;
    const TechniqueInfo* info = findTechnique(technique);
    const Source source = sourceOf(info);
    const bool skinned = source != Source::BindPose;
    // Skinned from the technique's palettes (pose, palette, palette-ubo, bonetex) rather than from
    // the baked animation.
    const bool palettes = source == Source::Palettes;
    assert((!palettes && source != Source::Vertices) || drawn != nullptr);
    const ComputePalettes palette_source = palettes ? drawn->computePalettes(0) : ComputePalettes{};
    // No joints: the cache pass computes each vertex as the per-cluster variants do, from its id.
    const bool per_vertex = source == Source::Vat || source == Source::Swim || source == Source::Vertices;
    skinned_ = skinned;
    coarse_ = source == Source::Baked && info->coarse_skinning;

    std::vector<glm::uvec4> clusters, resolve, triangle_slots;
    for (const Cluster& c : chain_.clusters) {
        clusters.push_back({c.first_vertex, c.vertex_count, c.first_triangle, c.triangle_count});
        for (uint32_t t = 0; t < c.triangle_count; ++t) {
            const uint32_t packed = chain_.triangles[c.first_triangle + t];
            glm::uvec4 r, at(0u);
            for (int k = 0; k < 3; ++k) {
                const uint32_t local = c.first_vertex + ((packed >> (8 * k)) & 0xffu);
                r[k] = chain_.vertices[local];
                at[k] = chain_.vertex_slots[local];
            }
            r.w = chain_.submeshes[c.first_triangle + t];
            resolve.push_back(r);
            triangle_slots.push_back(at);
        }
    }
    // What the resolve shades each submesh with: its colour, texture and look (as recordMeshPass binds them).
    std::vector<gpu::shader::SubmeshShading> shading;
    for (const BakedSubmesh& s : asset.submeshes) {
        gpu::shader::SubmeshShading sh{};
        sh.base_color = s.base_color;
        sh.texture = submeshTexture(asset, shading.size());
        sh.look = shading.size() < asset.submesh_looks.size() ? asset.submesh_looks[shading.size()] : 0u;
        shading.push_back(sh);
    }
    textures_ = std::max<uint32_t>(uint32_t(asset.textures.size()), 1u);
    // The resolve's dispatches: one per texture a submesh samples (not per texture the asset
    // has: looks' variants leave their textures' own images unsampled), the first also shading
    // the untextured submeshes.
    resolve_textures_.clear();
    for (const gpu::shader::SubmeshShading& sh : shading)
        if (sh.texture != THRONG_NO_TEXTURE && sh.texture < textures_) resolve_textures_.push_back(sh.texture);
    std::sort(resolve_textures_.begin(), resolve_textures_.end());
    resolve_textures_.erase(std::unique(resolve_textures_.begin(), resolve_textures_.end()), resolve_textures_.end());
    if (resolve_textures_.empty()) resolve_textures_.push_back(0);
    std::vector<uint32_t> props = asset.submesh_props; // per submesh (0: the model's)
    props.resize(asset.submeshes.size(), 0u);
    // What a splat averages and draws (splats.h): each submesh's mean colour and area, each
    // model's silhouette table.
    const std::vector<AssetRange> whole =
        asset.ranges.empty() ? std::vector<AssetRange>{wholeAsset(baked)} : std::vector<AssetRange>{};
    const std::span<const AssetRange> ranges = asset.ranges.empty() ? std::span<const AssetRange>(whole) : asset.ranges;
    const SplatTables tables = cachedSplatTables(baked, ranges, props, asset.texture_means);
    for (size_t s = 0; s < shading.size() && s < tables.means.size(); ++s) {
        const SubmeshMean& m = tables.means[s];
        shading[s].mean_rg = glm::packHalf2x16(glm::vec2(m.color.r, m.color.g));
        shading[s].mean_b_area = glm::packHalf2x16(glm::vec2(m.color.b, m.area));
    }
    splats_ = uploadStorage(a, tables.models);
    clusters_ = uploadStorage(a, clusters);
    cluster_vertices_ = uploadStorage(a, chain_.vertices);
    cluster_triangles_ = uploadStorage(a, chain_.triangles);
    resolve_triangles_ = uploadStorage(a, resolve);
    triangle_slots_ = uploadStorage(a, triangle_slots);
    submesh_shading_ = uploadStorage(a, shading);
    submesh_props_ = uploadStorage(a, props);
    visibility_ = gpu::ownBuffer(a, VkDeviceSize(extent.width) * extent.height * sizeof(uint64_t),
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                                 gpu::MemoryUse::Device);
    resolved_ =
        gpu::ownBuffer(a, VkDeviceSize(extent.width) * extent.height * sizeof(glm::uvec4),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Device);
    const glm::uvec2 across = gpu::shader::throngResolveTiles(glm::uvec2(extent.width, extent.height));
    const VkDeviceSize tiles = VkDeviceSize(across.x) * across.y;
    resolve_tiles_ = gpu::ownBuffer(a, (THRONG_RESOLVE_TILES_FLAGS + 2 * tiles) * sizeof(uint32_t),
                                    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                        VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                                    gpu::MemoryUse::Device);
    motion_vectors_ = options.previous_records != VK_NULL_HANDLE;
    velocity_ = gpu::ownBuffer(a, motion_vectors_ ? VkDeviceSize(extent.width) * extent.height * sizeof(uint32_t) : 16,
                               VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryUse::Device);
    base_.velocity = motion_vectors_ ? 1u : 0u;
    for (uint32_t s = 0; s < slots; ++s)
        params_.push_back(
            gpu::ownBuffer(a, sizeof(RasterParams), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryUse::Upload));

    // The shadow pass's depth, where one storage buffer holds the map (castsShadows()).
    if (options.shadows != nullptr) {
        const uint64_t side = options.shadows->settings().size, bytes = side * side * sizeof(float);
        if (bytes <= ctx.properties.limits.maxStorageBufferRange) {
            shadows_ = options.shadows;
            shadow_depth_ = gpu::ownBuffer(a, bytes,
                                           VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                               VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                           gpu::MemoryUse::Device);
            for (uint32_t s = 0; s < slots; ++s)
                shadow_params_.push_back(gpu::ownBuffer(a, sizeof(RasterParams), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                        gpu::MemoryUse::Upload));
        }
    }

    base_.viewport = glm::vec2(float(extent.width), float(extent.height));
    base_.lod_stride = crowd.members();
    base_.members = crowd.members();
    base_.vertex_count = asset.vertex_count;
    base_.palette_batch = palette_source.batch_members;
    base_.palette_batch_stride = palette_source.batch_stride;
    base_.palette_image_width = std::max(palette_source.image_width, 1u);
    base_.identity_base = crowd.identityBase();

    // The vertex cache (the animated techniques: `static` reads its bind pose as it is; not for
    // skeletons larger than the cache pass's shared-memory palette, which the per-vertex sources
    // do not use) and where each member was cached.
    uint64_t largest_lod = 0;
    for (const glm::uvec2& r : chain_.lod_vertex_ranges) largest_lod = std::max<uint64_t>(largest_lod, r.y);
    const uint64_t joints = std::max<uint32_t>(baked.joint_count, 1);
    const bool cacheable = skinned && (per_vertex || joints <= THRONG_CACHE_MAX_JOINTS);
    const uint64_t cache_bytes =
        cacheable ? vertexCacheBytes(ctx, options.vertex_cache_bytes, crowd.members(), largest_lod, options.lod) : 0;
    const uint64_t cache_vertices = std::min<uint64_t>(cache_bytes / kCachedVertexBytes, 0xffffffffu);
    base_.joint_count = uint32_t(joints);
    base_.cache_capacity = uint32_t(cache_vertices);
    models_ = rasterModels(technique, baked, asset, chain_, crowd, options.swim, skinned && cache_vertices > 0);
    raster_slots_ = uploadStorage(a, rasterSlots(baked, chain_, models_));
    base_.models = uint32_t(models_.size());
    models_buffer_ = uploadStorage(a, models_);
    plan_ = gpu::ownBuffer(a, sizeof(RasterPlan) + THRONG_MAX_LODS * models_.size() * sizeof(RasterRegion),
                           VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                               VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                           gpu::MemoryUse::Device);
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    vertex_cache_ = gpu::ownBuffer(a, std::max<VkDeviceSize>(cache_vertices * kCachedPositionBytes, 16), storage,
                                   gpu::MemoryUse::Device);
    cache_normals_ = gpu::ownBuffer(a, std::max<VkDeviceSize>(cache_vertices * kCachedNormalBytes, 16), storage,
                                    gpu::MemoryUse::Device);
    member_slots_ =
        uploadStorage(a, std::vector<uint32_t>(cacheable ? crowd.members() : 0, ~0u)); // no member cached yet
    // The cache pass's LOD vertex lists: what the skeletal sources skin (cacheVertexWords), the
    // vertex ids for the per-vertex ones (every LOD indexes the same vertices: BakedAsset::lods).
    lod_vertices_ = uploadStorage(a, !cacheable   ? std::vector<uint32_t>{}
                                     : per_vertex ? chain_.lod_vertices
                                                  : cacheVertexWords(baked, chain_.lod_vertices));
    vertex_slots_ = uploadStorage(a, chain_.vertex_slots);

    std::vector<VkDescriptorSetLayoutBinding> bindings;
    for (const VkDescriptorSetLayoutBinding& b : animationLayoutBindings(kRasterStages))
        bindings.push_back(b); // instances, clips, animation
    for (uint32_t b : {THRONG_BINDING_VERTICES,           THRONG_BINDING_VISIBLE,
                       THRONG_BINDING_RASTER_PARAMS,      THRONG_BINDING_CLUSTERS,
                       THRONG_BINDING_CLUSTER_VERTICES,   THRONG_BINDING_CLUSTER_TRIANGLES,
                       THRONG_BINDING_VISIBILITY,         THRONG_BINDING_CULL_COUNTS,
                       THRONG_BINDING_RESOLVE_TRIANGLES,  THRONG_BINDING_SUBMESH_SHADING,
                       THRONG_BINDING_RASTER_PLAN,        THRONG_BINDING_VERTEX_CACHE,
                       THRONG_BINDING_MEMBER_SLOTS,       THRONG_BINDING_LOD_VERTICES,
                       THRONG_BINDING_VERTEX_SLOTS,       THRONG_BINDING_CACHE_NORMALS,
                       THRONG_BINDING_TRIANGLE_SLOTS,     THRONG_BINDING_SUBMESH_PROPS,
                       THRONG_BINDING_RESOLVED,           THRONG_BINDING_RESOLVE_TILES,
                       THRONG_BINDING_RASTER_MODELS,      THRONG_BINDING_LOOKS,
                       THRONG_BINDING_RASTER_SLOTS,       THRONG_BINDING_SPLATS,
                       THRONG_BINDING_PREVIOUS_INSTANCES, THRONG_BINDING_VELOCITY}) {
        // The composite's vertex shader places its tiles (composite.vert).
        const bool composite = b == THRONG_BINDING_RASTER_PARAMS || b == THRONG_BINDING_RESOLVE_TILES;
        const VkShaderStageFlags stages = composite ? kRasterStages | VK_SHADER_STAGE_VERTEX_BIT : kRasterStages;
        bindings.push_back({b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr});
    }
    bindings.push_back({THRONG_BINDING_TEXTURE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, kRasterStages, nullptr});
    if (options.shadows != nullptr) options.shadows->addBindings(bindings, kRasterStages);
    if (palettes) { // a buffer or an image (the other a placeholder)
        bindings.push_back({THRONG_BINDING_PALETTE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kRasterStages, nullptr});
        bindings.push_back(
            {THRONG_BINDING_PREVIOUS_PALETTE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kRasterStages, nullptr});
        bindings.push_back(
            {THRONG_BINDING_BONES, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, kRasterStages, nullptr});
        bindings.push_back(
            {THRONG_BINDING_PREVIOUS_BONES, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, kRasterStages, nullptr});
    }
    if (source == Source::Vertices) {
        bindings.push_back({THRONG_BINDING_SKINNED, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kRasterStages, nullptr});
        bindings.push_back(
            {THRONG_BINDING_PREVIOUS_SKINNED, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, kRasterStages, nullptr});
    }
    if (source == Source::Vat)
        bindings.push_back({THRONG_BINDING_VAT, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, kRasterStages, nullptr});
    if (source == Source::Swim) {
        bindings.push_back({THRONG_BINDING_SWIM, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, kRasterStages, nullptr});
        const gpu::shader::SwimParams params = toShader(options.swim);
        swim_ = gpu::ownBuffer(a, sizeof params, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               gpu::MemoryUse::Device);
        gpu::uploadBuffer(a, *swim_, &params, sizeof params);
    }
    set_layout_ = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, bindings));
    layout_ = gpu::Unique<VkPipelineLayout>(ctx.device, gpu::createPipelineLayout(ctx, set_layout_, 16, kRasterStages));
    // One variant per source (raster_skin.glsl): the baked animation's read through the
    // specialization of its storage; the palettes' through their encoding's (technique palette's
    // quaternions: 2 rows a joint); both with the crowd's skinning (THRONG_SPEC_DUAL_QUATERNION, as
    // the techniques' vertex shaders); the others need none.
    const SourceShaders shaders = shadersOf(source, options.shadows != nullptr);
    const bool dual_quaternion = options.skinning == Skinning::DualQuaternion;
    assert(!dual_quaternion || source == Source::Baked || palettes); // skinningProblem refused the others
    const AnimationSpecialization specialization(asset, dual_quaternion);
    const bool baked_skin = source == Source::Baked;
    const VkBool32 palette_values[3] = {palette_source.encoding == JointEncoding::Quaternion ? VK_TRUE : VK_FALSE,
                                        dual_quaternion ? VK_TRUE : VK_FALSE,
                                        palette_source.image != VK_NULL_HANDLE ? VK_TRUE : VK_FALSE};
    const VkSpecializationMapEntry palette_entries[3] = {
        {THRONG_SPEC_PALETTE_QUATERNION, 0, sizeof(VkBool32)},
        {THRONG_SPEC_DUAL_QUATERNION, sizeof(VkBool32), sizeof(VkBool32)},
        {THRONG_SPEC_PALETTE_IMAGE, 2 * sizeof(VkBool32), sizeof(VkBool32)}};
    const VkSpecializationInfo palette_specialization{3, palette_entries, sizeof palette_values, palette_values};
    const VkSpecializationInfo* skin_specialization = baked_skin ? &specialization.info
                                                      : palettes ? &palette_specialization
                                                                 : nullptr;
    plan_pipeline_ = gpu::Unique<VkPipeline>(
        ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::raster_plan_comp_spv, layout_));
    splat_pipeline_ = gpu::Unique<VkPipeline>(
        ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::raster_splat_comp_spv, layout_));
    if (cacheable) {
        cache_pipeline_ = gpu::Unique<VkPipeline>(
            ctx.device, gpu::createComputePipeline(ctx, shaders.cache, layout_, skin_specialization));
        raster_cached_pipeline_ = gpu::Unique<VkPipeline>(
            ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::raster_cached_comp_spv, layout_));
    }
    if (coarse_)
        raster_coarse_pipeline_ =
            gpu::Unique<VkPipeline>(ctx.device, gpu::createComputePipeline(ctx, gpu::shaders::raster_coarse_comp_spv,
                                                                           layout_, &specialization.info));
    raster_pipeline_ = gpu::Unique<VkPipeline>(
        ctx.device, gpu::createComputePipeline(ctx, shaders.raster, layout_, skin_specialization));
    if (castsShadows())
        shadow_pipeline_ = gpu::Unique<VkPipeline>(
            ctx.device, gpu::createComputePipeline(ctx, shaders.raster_depth, layout_, skin_specialization));
    resolve_pipeline_ = gpu::Unique<VkPipeline>(
        ctx.device, gpu::createComputePipeline(ctx, shaders.resolve, layout_, skin_specialization));
    if (coarse_)
        resolve_coarse_pipeline_ = gpu::Unique<VkPipeline>(
            ctx.device, gpu::createComputePipeline(ctx, shaders.resolve_coarse, layout_, skin_specialization));
    if (cacheable)
        resolve_cached_pipeline_ =
            gpu::Unique<VkPipeline>(ctx.device, gpu::createComputePipeline(ctx, shaders.resolve_cached, layout_));
    gpu::GraphicsPipelineDesc desc;
    desc.vertex_spirv = gpu::shaders::composite_vert_spv;
    desc.fragment_spirv = motion_vectors_ ? std::span<const uint32_t>(gpu::shaders::composite_velocity_frag_spv)
                                          : std::span<const uint32_t>(gpu::shaders::composite_frag_spv);
    desc.layout = layout_;
    desc.color_format = color_format;
    desc.velocity_format = options.velocity_format;
    desc.depth_format = depth_format;
    composite_pipeline_ = gpu::Unique<VkPipeline>(ctx.device, gpu::createGraphicsPipeline(ctx, desc));

    // A set per (slot, texture): the resolve's draw for texture t binds set t of its slot; the
    // compute passes bind set 0.
    const uint32_t camera_sets = slots * textures_, sets = camera_sets + uint32_t(shadow_params_.size());
    const VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 36 * sets},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 5 * sets}, // animation, vat, texture, shadow map, bones
        {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, sets},
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, sets}}; // the swim
    pool_ = gpu::createDescriptorPool(ctx, sets, sizes);
    sets_ = gpu::allocateSets(ctx, pool_, set_layout_, camera_sets);
    if (castsShadows()) shadow_sets_ = gpu::allocateSets(ctx, pool_, set_layout_, slots);
    // The shadow pass's set of slot s is the camera's with the light's parameters and the map's
    // depth in place of the visibility buffer.
    for (uint32_t set = 0; set < sets; ++set) {
        const bool shadow = set >= camera_sets;
        const uint32_t s = shadow ? set - camera_sets : set / textures_, t = shadow ? 0 : set % textures_;
        const VkDescriptorSet target = shadow ? shadow_sets_[s] : sets_[set];
        writeAnimationBindings(ctx.device, target, crowd.instances(), asset);
        const gpu::Image& texture = asset.textures.empty() ? asset.no_texture : asset.textures[t];
        const gpu::DescriptorWrite texture_write[] = {
            gpu::DescriptorWrite::sampled(THRONG_BINDING_TEXTURE, asset.linear, texture.view)};
        gpu::writeDescriptors(ctx.device, target, texture_write);
        if (options.shadows != nullptr) gpu::writeDescriptors(ctx.device, target, options.shadows->writes());
        const gpu::DescriptorWrite writes[] = {
            gpu::DescriptorWrite::storage(THRONG_BINDING_VERTICES, asset.vertices.buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_VISIBLE, crowd.visible()),
            gpu::DescriptorWrite::storage(THRONG_BINDING_RASTER_PARAMS,
                                          shadow ? shadow_params_[s]->buffer : params_[s]->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_CLUSTERS, clusters_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_CLUSTER_VERTICES, cluster_vertices_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_CLUSTER_TRIANGLES, cluster_triangles_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_VISIBILITY,
                                          shadow ? shadow_depth_->buffer : visibility_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_CULL_COUNTS, crowd.countsBuffer()),
            gpu::DescriptorWrite::storage(THRONG_BINDING_RESOLVE_TRIANGLES, resolve_triangles_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_SUBMESH_SHADING, submesh_shading_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_SUBMESH_PROPS, submesh_props_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_LOOKS, asset.looks.buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_RASTER_SLOTS, raster_slots_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_RASTER_PLAN, plan_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_VERTEX_CACHE, vertex_cache_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_MEMBER_SLOTS, member_slots_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_CACHE_NORMALS, cache_normals_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_TRIANGLE_SLOTS, triangle_slots_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_LOD_VERTICES, lod_vertices_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_VERTEX_SLOTS, vertex_slots_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_RESOLVED, resolved_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_RESOLVE_TILES, resolve_tiles_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_RASTER_MODELS, models_buffer_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_SPLATS, splats_->buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_PREVIOUS_INSTANCES,
                                          motion_vectors_ ? options.previous_records : crowd.instances()),
            gpu::DescriptorWrite::storage(THRONG_BINDING_VELOCITY, velocity_->buffer)};
        gpu::writeDescriptors(ctx.device, target, writes);
        if (palettes) { // the slot's own where the technique keeps one per slot; a placeholder for the other kind
            const ComputePalettes p = drawn->computePalettes(s);
            // The last frame's where the technique keeps them and vectors are on, else this frame's.
            const VkBuffer current = p.buffer != VK_NULL_HANDLE ? p.buffer : crowd.instances();
            const VkImageView image = p.image != VK_NULL_HANDLE ? p.image : asset.white.view;
            const bool last = motion_vectors_;
            const gpu::DescriptorWrite palette[] = {
                gpu::DescriptorWrite::storage(THRONG_BINDING_PALETTE, current),
                gpu::DescriptorWrite::storage(THRONG_BINDING_PREVIOUS_PALETTE,
                                              last && p.previous != VK_NULL_HANDLE ? p.previous : current),
                gpu::DescriptorWrite::sampled(THRONG_BINDING_BONES, asset.point, image),
                gpu::DescriptorWrite::sampled(THRONG_BINDING_PREVIOUS_BONES, asset.point,
                                              last && p.previous_image != VK_NULL_HANDLE ? p.previous_image : image)};
            gpu::writeDescriptors(ctx.device, target, palette);
        }
        if (source == Source::Vertices) {
            const VkBuffer now = drawn->computeVertices(s), then = drawn->computePreviousVertices(s);
            const gpu::DescriptorWrite vertices[] = {
                gpu::DescriptorWrite::storage(THRONG_BINDING_SKINNED, now),
                gpu::DescriptorWrite::storage(THRONG_BINDING_PREVIOUS_SKINNED,
                                              motion_vectors_ && then != VK_NULL_HANDLE ? then : now)};
            gpu::writeDescriptors(ctx.device, target, vertices);
        }
        if (source == Source::Vat) { // the asset's vertex animation (a placeholder where it has none)
            const gpu::DescriptorWrite vat[] = {
                gpu::DescriptorWrite::sampled(THRONG_BINDING_VAT, asset.point, asset.vat.view)};
            gpu::writeDescriptors(ctx.device, target, vat);
        }
        if (source == Source::Swim) {
            const gpu::DescriptorWrite swim[] = {gpu::DescriptorWrite::uniform(THRONG_BINDING_SWIM, swim_->buffer)};
            gpu::writeDescriptors(ctx.device, target, swim);
        }
    }
}

uint32_t cachedLevels(const glm::uvec4 (&lod_vertices)[THRONG_MAX_LODS], uint32_t coarse_lods, bool has_cache) {
    if (!has_cache) return 0;
    const uint32_t coarse_first = coarse_lods & 0xffffu, coarse_end = coarse_lods >> 16;
    uint32_t levels = coarse_first < coarse_end ? coarse_first : uint32_t(THRONG_MAX_LODS);
    for (uint32_t l = 0; l < levels; ++l)
        if (lod_vertices[l].y < THRONG_CACHE_LOCAL_SIZE) levels = l;
    return levels;
}

void ComputeRaster::addPasses(std::vector<gpu::Pass>& passes, uint32_t slot,
                              const gpu::shader::DrawConstants& constants, bool late_follows,
                              const PreviousFrame* previous) {
    RasterParams p = base_;
    p.velocity = motion_vectors_ && previous != nullptr ? 1u : 0u;
    if (previous != nullptr) {
        p.previous_view_projection = previous->view_projection;
        p.previous_time = previous->time;
    }
    p.view_projection = constants.view_projection;
    p.light_direction = constants.light_direction;
    p.time = constants.time;
    p.coarse_lods = coarse_ ? constants.coarse_lods : 0u; // the bind pose and the palettes have no coarse levels
    p.culled = crowd_->culled() ? 1u : 0u;
    p.frame_slot = slot;
    p.splat_slot = crowd_->impostorBase() + crowd_->members() - 1; // splats fill the impostor region from its end
    p.pixels_per_unit = pixelsPerUnit(constants.view_projection, float(extent_.height));
    p.eye = glm::vec4(eyeOf(constants.view_projection), 1.0f);
    p.cache_lods = 0; // the most levels any model caches this frame (0: no cache pass)
    if (skinned_ && base_.cache_capacity > 0)
        for (const RasterModel& m : models_) p.cache_lods = std::max(p.cache_lods, cacheLevels(m, p.coarse_lods != 0));
    std::memcpy(params_[slot]->mapped(), &p, sizeof p);
    const bool cache = p.cache_lods > 0;
    if (cache)
        passes.push_back(
            {"cache", gpu::PassKind::Compute, gpu::PassTargets::ColorDepth,
             [this, slot, coarse = p.coarse_lods != 0](VkCommandBuffer cmd) { recordCache(cmd, slot, coarse); },
             frame::Members | frame::Animation | frame::Culled,
             frame::Cache | frame::RasterWork | frame::Visibility | frame::Resolved});
    const bool coarse = p.coarse_lods != 0;
    passes.push_back({"raster", gpu::PassKind::Compute, gpu::PassTargets::ColorDepth,
                      [this, slot, cache, coarse](VkCommandBuffer cmd) { recordRaster(cmd, slot, !cache, coarse); },
                      frame::Members | frame::Animation | frame::Culled | frame::Cache | frame::RasterWork,
                      frame::RasterWork | frame::Visibility | frame::Resolved});
    frame_cache_ = cache;
    frame_coarse_ = coarse;
    if (!late_follows) addResolvePass(passes, slot);
}

// The levels model `m` caches in a frame that skins coarsely (`coarse`) or not.
uint32_t ComputeRaster::cacheLevels(const RasterModel& m, bool coarse) {
    return coarse ? m.cache_lods : m.cache_lods_full;
}

// The levels at which some model has work of kind `kind` in a frame that skins coarsely
// (`coarse`) or not: the dispatches worth recording (each is indirect: the plan gives those
// without members no workgroups).
ComputeRaster::Levels ComputeRaster::levelsWith(Work kind, bool coarse) const {
    Levels out{};
    for (const RasterModel& m : models_)
        for (uint32_t l = 0; l < THRONG_MAX_LODS; ++l) {
            if (m.lod_clusters[l].y == 0) continue;
            const bool is_coarse = coarse && THRONG_COARSE_LOD(l, m.coarse_lods);
            switch (kind) {
            case Work::Cache: out[l] = out[l] || l < cacheLevels(m, coarse); break;
            case Work::Full: out[l] = out[l] || !is_coarse; break;
            case Work::Coarse: out[l] = out[l] || is_coarse; break;
            }
        }
    return out;
}

void ComputeRaster::addLatePasses(std::vector<gpu::Pass>& passes, uint32_t slot) {
    const bool coarse = frame_coarse_;
    passes.push_back({"raster-late", gpu::PassKind::Compute, gpu::PassTargets::ColorDepth,
                      [this, slot, coarse](VkCommandBuffer cmd) { recordLate(cmd, slot, coarse); },
                      frame::Members | frame::Animation | frame::Culled | frame::RasterWork,
                      frame::RasterWork | frame::Visibility});
    addResolvePass(passes, slot);
}

void ComputeRaster::addResolvePass(std::vector<gpu::Pass>& passes, uint32_t slot) {
    const bool cache = frame_cache_;
    passes.push_back({"resolve", gpu::PassKind::Compute, gpu::PassTargets::ColorDepth,
                      [this, slot, cache](VkCommandBuffer cmd) { recordResolve(cmd, slot, cache); },
                      frame::DrawReads | frame::Cache | frame::RasterWork | frame::Visibility | frame::History,
                      frame::Resolved});
    passes.push_back({"composite", gpu::PassKind::Graphics, gpu::PassTargets::ColorDepth,
                      [this, slot](VkCommandBuffer cmd) { recordComposite(cmd, slot); },
                      frame::RasterWork | frame::Resolved, 0});
}

// The late phase: plans the members the late culling pass added (after each region's early ones),
// then rasterizes them per cluster, into the visibility buffer the early phase drew.
void ComputeRaster::recordLate(VkCommandBuffer cmd, uint32_t slot, bool coarse) const {
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &sets_[slot * textures_], 0, nullptr);
    recordPlan(cmd, VK_NULL_HANDLE, 0u, true); // nothing cleared: the early members stay
    recordSkinned(cmd, raster_pipeline_, coarse, true);
    recordSplats(cmd);
}

// The splat pass's indirect dispatch (none when the plan counts no splats this phase).
void ComputeRaster::recordSplats(VkCommandBuffer cmd) const {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, splat_pipeline_);
    vkCmdDispatchIndirect(cmd, plan_->buffer, offsetof(RasterPlan, splat_dispatch));
}

// The per-cluster raster of the members outside the cache: those skinned in full (or the bind
// pose) by `full`, the coarse-skinned levels (`coarse` frames) by their own pipeline.
void ComputeRaster::recordSkinned(VkCommandBuffer cmd, VkPipeline full, bool coarse, bool late) const {
    dispatchPerLod(cmd, levelsWith(Work::Full, coarse), offsetof(RasterPlan, dispatches), full, late);
    if (coarse && coarse_)
        dispatchPerLod(cmd, levelsWith(Work::Coarse, coarse), offsetof(RasterPlan, coarse_dispatches),
                       raster_coarse_pipeline_, late);
}

void ComputeRaster::addShadowPasses(std::vector<gpu::Pass>& passes, uint32_t slot,
                                    const gpu::shader::DrawConstants& constants, bool light_culled,
                                    bool hardware_follows) {
    assert(castsShadows());
    RasterParams p = base_;
    const uint32_t side = shadows_->settings().size;
    p.view_projection = shadows_->lightMatrix(slot);
    p.viewport = glm::vec2(float(side));
    p.light_direction = constants.light_direction;
    p.time = constants.time;
    p.coarse_lods = 0; // every level skinned in full, as the technique's depth draw does
    p.cache_lods = 0;  // the cache holds the camera's members
    p.culled = light_culled ? 1u : 0u;
    p.visible_base = crowd_->lightBase();
    p.frame_slot = slot;
    std::memcpy(shadow_params_[slot]->mapped(), &p, sizeof p);
    passes.push_back(
        {"shadow", gpu::PassKind::Compute, gpu::PassTargets::ColorDepth,
         [this, slot, hardware_follows](VkCommandBuffer cmd) { recordShadow(cmd, slot, hardware_follows); },
         frame::Members | frame::Animation | frame::Culled | frame::RasterWork, frame::RasterWork | frame::ShadowMap});
}

void ComputeRaster::recordShadow(VkCommandBuffer cmd, uint32_t slot, bool hardware_follows) const {
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &shadow_sets_[slot], 0, nullptr);
    recordPlan(cmd, shadow_depth_->buffer, 0u);         // empty: depth 0, the farthest (reversed Z)
    recordSkinned(cmd, shadow_pipeline_, false, false); // every level in full (coarse_lods 0)
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    shadows_->recordCopy(cmd, shadow_depth_->buffer, hardware_follows);
}

// Clears `target` (the visibility buffer, with the resolved pixels; or the shadow pass's depth;
// none: nothing) to `clear_word` and plans the frame (one thread; `late`: occlusion culling's late
// phase), then a barrier for the dispatches that read the plan. Expects the descriptor set bound.
void ComputeRaster::recordPlan(VkCommandBuffer cmd, VkBuffer target, uint32_t clear_word, bool late) const {
    if (target != VK_NULL_HANDLE) vkCmdFillBuffer(cmd, target, 0, VK_WHOLE_SIZE, clear_word);
    if (target == visibility_->buffer) { // the camera's frame: the resolve's pixels, none shaded yet
        vkCmdFillBuffer(cmd, resolved_->buffer, 0, VK_WHOLE_SIZE, THRONG_RESOLVED_NONE);
        // The composite's draw of no tile (0 vertices, 1 instance) and no tile flagged.
        const uint32_t no_tile[THRONG_RESOLVE_TILES_FLAGS] = {0, 1, 0, 0};
        vkCmdUpdateBuffer(cmd, resolve_tiles_->buffer, 0, sizeof no_tile, no_tile);
        vkCmdFillBuffer(cmd, resolve_tiles_->buffer, sizeof no_tile, VK_WHOLE_SIZE, 0u);
    }
    const uint32_t phase[4] = {0, late ? 1u : 0u, 0, 0};
    vkCmdPushConstants(cmd, layout_, kRasterStages, 0, sizeof phase, phase);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, plan_pipeline_);
    vkCmdDispatch(cmd, 1, 1, 1);
    gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                       VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                       VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                           VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT);
}

void ComputeRaster::recordCache(VkCommandBuffer cmd, uint32_t slot, bool coarse) const {
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &sets_[slot * textures_], 0, nullptr);
    recordPlan(cmd, visibility_->buffer, 0xffffffffu); // empty: the farthest key, no id
    dispatchPerLod(cmd, levelsWith(Work::Cache, coarse), offsetof(RasterPlan, cache_dispatches), cache_pipeline_);
}

void ComputeRaster::recordRaster(VkCommandBuffer cmd, uint32_t slot, bool plan, bool coarse) const {
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &sets_[slot * textures_], 0, nullptr);
    if (plan)
        recordPlan(cmd, visibility_->buffer, 0xffffffffu);
    else // the cached members, from the cache, then the rest
        dispatchPerLod(cmd, levelsWith(Work::Cache, coarse), offsetof(RasterPlan, cached_dispatches),
                       raster_cached_pipeline_);
    recordSkinned(cmd, raster_pipeline_, coarse, false);
    recordSplats(cmd);
}

// One indirect dispatch of `pipeline` per LOD l in `levels`, from the plan's per-LOD dispatches
// at `plan_offset`, the LOD a push constant (each workgroup finds its model: modelOfGroup).
void ComputeRaster::dispatchPerLod(VkCommandBuffer cmd, const Levels& levels, VkDeviceSize plan_offset,
                                   VkPipeline pipeline, bool late) const {
    bool bound = false;
    for (uint32_t l = 0; l < THRONG_MAX_LODS; ++l) {
        if (!levels[l]) continue;
        if (!bound) vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        bound = true;
        const uint32_t lod[4] = {l, late ? 1u : 0u, 0, 0};
        vkCmdPushConstants(cmd, layout_, kRasterStages, 0, sizeof lod, lod);
        vkCmdDispatchIndirect(cmd, plan_->buffer, plan_offset + l * sizeof(glm::uvec4));
    }
}

// The resolve variants (resolve_body.glsl), each over the whole picture, each leaving the
// others' pixels: the cached members (with a cache this frame), the rest skinned in full (or the
// bind pose), the coarse-skinned levels (`baked` only); each once per texture a submesh samples
// with that texture's set (the submeshes of other textures left; the first also the untextured: one dispatch for the
// usual model of one texture, where a descriptor array indexed per pixel would need descriptor indexing of the device),
// each an indirect dispatch the plan empties when it counts no member for the variant (RasterPlan::resolve_dispatches).
// Pixels no variant shades keep the mark the plan's clear left.
void ComputeRaster::recordResolve(VkCommandBuffer cmd, uint32_t slot, bool cache) const {
    auto dispatch = [&](VkPipeline pipeline, uint32_t variant) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdDispatchIndirect(cmd, plan_->buffer,
                              offsetof(RasterPlan, resolve_dispatches) + variant * sizeof(glm::uvec4));
    };
    for (size_t i = 0; i < resolve_textures_.size(); ++i) {
        const uint32_t t = resolve_textures_[i];
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &sets_[slot * textures_ + t], 0,
                                nullptr);
        const uint32_t push[4] = {t, i == 0 ? 1u : 0u, 0, 0};
        vkCmdPushConstants(cmd, layout_, kRasterStages, 0, sizeof push, push);
        if (cache) dispatch(resolve_cached_pipeline_, 0);
        dispatch(resolve_pipeline_, 1);
        if (coarse_) dispatch(resolve_coarse_pipeline_, 2);
    }
}

// The composite: a quad per tile the resolve shaded a pixel of (its list and draw in
// THRONG_BINDING_RESOLVE_TILES), writing the resolved colour and depth, depth-tested; drawn only
// when the plan counts members (RasterPlan::resolve_counts.w; the maxDrawCount of 1 clamps).
// (lavapipe, Mesa 22.3, drew nothing from this buffer through a plain vkCmdDrawIndirect.)
void ComputeRaster::recordComposite(VkCommandBuffer cmd, uint32_t slot) const {
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &sets_[slot * textures_], 0, nullptr);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, composite_pipeline_);
    vkCmdDrawIndirectCount(cmd, resolve_tiles_->buffer, 0, plan_->buffer,
                           offsetof(RasterPlan, resolve_counts) + 3 * sizeof(uint32_t), 1,
                           sizeof(VkDrawIndirectCommand));
}

std::vector<uint64_t> ComputeRaster::visibility() const {
    std::vector<uint64_t> out(size_t(extent_.width) * extent_.height);
    gpu::downloadBuffer(*allocator_, *visibility_, out.data(), out.size() * sizeof(uint64_t));
    return out;
}

RasterPlan ComputeRaster::plan() const {
    RasterPlan p{};
    gpu::downloadBuffer(*allocator_, *plan_, &p, sizeof p);
    return p;
}

std::vector<RasterRegion> ComputeRaster::regions() const {
    std::vector<uint8_t> bytes(sizeof(RasterPlan) + THRONG_MAX_LODS * models_.size() * sizeof(RasterRegion));
    gpu::downloadBuffer(*allocator_, *plan_, bytes.data(), bytes.size());
    std::vector<RasterRegion> out(THRONG_MAX_LODS * models_.size());
    std::memcpy(out.data(), bytes.data() + sizeof(RasterPlan), out.size() * sizeof(RasterRegion));
    return out;
}

std::vector<glm::uvec2> ComputeRaster::vertexCache(uint64_t vertices) const {
    std::vector<glm::uvec2> out(std::min<uint64_t>(vertices, base_.cache_capacity));
    if (!out.empty()) gpu::downloadBuffer(*allocator_, *vertex_cache_, out.data(), out.size() * sizeof(glm::uvec2));
    return out;
}

std::vector<uint32_t> ComputeRaster::cacheNormals(uint64_t vertices) const {
    std::vector<uint32_t> out(std::min<uint64_t>(vertices, base_.cache_capacity));
    if (!out.empty()) gpu::downloadBuffer(*allocator_, *cache_normals_, out.data(), out.size() * sizeof(uint32_t));
    return out;
}

VertexCacheStats ComputeRaster::cacheStats() const {
    VertexCacheStats s;
    if (!skinned_ || base_.cache_capacity == 0) return s;
    const RasterPlan p = plan();
    s.capacity_bytes = uint64_t(base_.cache_capacity) * kCachedVertexBytes;
    s.cached_vertices = p.totals.x;
    s.cached_members = p.totals.y;
    s.uncached_members = p.totals.z;
    s.cache_pass_bytes = s.cached_vertices * kCachedVertexBytes;
    const std::vector<RasterRegion> regions = this->regions();
    for (uint32_t l = 0; l < THRONG_MAX_LODS; ++l)
        for (size_t m = 0; m < models_.size(); ++m) {
            const glm::uvec4 range = models_[m].lod_clusters[l];
            uint64_t cluster_vertices = 0;
            for (uint32_t c = range.x; c < range.x + range.y; ++c) cluster_vertices += chain_.clusters[c].vertex_count;
            s.raster_read_bytes +=
                uint64_t(regions[l * models_.size() + m].cached) * cluster_vertices * kCachedPositionBytes;
        }
    return s;
}

} // namespace throng::render
