// Several models as one BakedAsset; see asset_library.h.
#include "asset_library.h"
#include "coarse_skinning.h"
#include "derived_cache.h"

#include "../shaders/shared.h"

#include <throng/options.h>

#include <algorithm>
#include <cstdint>

namespace throng::render {

static_assert(kMaxCrowdModels == THRONG_MAX_ASSETS, "the public limit is the records' 8 bits");

namespace {

std::vector<float> levelErrors(const BakedAsset& asset) {
    std::vector<float> errors;
    for (const BakedLod& lod : lodLevels(asset)) errors.push_back(lod.error);
    return errors;
}

// Texels of 4 components in one of two precisions (float32 values or IEEE half bits).
struct TexelsIn {
    const std::vector<float>& f32;
    const std::vector<uint16_t>& f16;
    Precision precision;
};
struct TexelsOut {
    std::vector<float>& f32;
    std::vector<uint16_t>& f16;
    Precision precision;
};

// A model's rows (`clips` x `frames` rows of `row` texels) into the library's layout: clip c,
// frame f, texel t to clip first_clip + c, frame f, texel t of rows `out_frames` a clip and
// `out_row` texels long, halves made floats where the library stores float32.
void copyRows(const TexelsIn& from, uint64_t clips, uint64_t frames, uint64_t row, const TexelsOut& into,
              uint64_t first_clip, uint64_t out_frames, uint64_t out_row) {
    for (uint64_t c = 0; c < clips; ++c)
        for (uint64_t f = 0; f < frames; ++f)
            for (uint64_t t = 0; t < row; ++t) {
                const uint64_t src = (c * frames + f) * row + t,
                               dst = ((first_clip + c) * out_frames + f) * out_row + t;
                for (uint64_t i = 0; i < 4; ++i) {
                    if (into.precision == Precision::Float16) // every model is half
                        into.f16[4 * dst + i] = from.f16[4 * src + i];
                    else
                        into.f32[4 * dst + i] = from.precision == Precision::Float16
                                                    ? halfToFloat(from.f16[4 * src + i])
                                                    : from.f32[4 * src + i];
                }
            }
}

std::string modelName(size_t i, const BakedAsset& asset) {
    return "model " + std::to_string(i + 1) + (asset.name.empty() ? std::string() : " '" + asset.name + "'");
}

} // namespace

AssetRange wholeAsset(const BakedAsset& asset) {
    return wholeAsset(asset, lodLevels(asset).size() > 1 ? cachedCoarseSkinningError(asset).error : 0.0f);
}

AssetRange wholeAsset(const BakedAsset& asset, float coarse_error) {
    AssetRange r;
    r.name = asset.name;
    r.vertex_count = uint32_t(asset.vertices.size());
    r.index_count = uint32_t(asset.indices.size());
    r.submesh_count = uint32_t(asset.submeshes.size());
    r.clip_count = uint32_t(asset.clips.size());
    r.texture_count = uint32_t(asset.textures.size());
    r.joint_count = asset.joint_count;
    r.bind_bounds = asset.bind_bounds;
    r.lod_errors = levelErrors(asset);
    r.first_coarse_lod = uint32_t(r.lod_errors.size());
    if (r.lod_errors.size() > 1) r.first_coarse_lod = firstCoarseLod(r.lod_errors, coarse_error);
    return r;
}

Result<AssetLibrary> buildAssetLibrary(std::span<const BakedAsset* const> assets) {
    if (assets.empty()) return Error{"a crowd needs at least one model"};
    if (assets.size() > THRONG_MAX_ASSETS)
        return Error{std::to_string(assets.size()) + " models in one crowd; a crowd holds at most " +
                     std::to_string(THRONG_MAX_ASSETS)};
    uint64_t clips = 0, vertices = 0, indices = 0;
    for (size_t i = 0; i < assets.size(); ++i) {
        if (assets[i] == nullptr) return Error{modelName(i, BakedAsset{}) + ": missing"};
        if (Status s = validate(*assets[i]); !s) return Error{modelName(i, *assets[i]) + ": " + s.message};
        clips += assets[i]->clips.size();
        vertices += assets[i]->vertices.size();
        indices += assets[i]->indices.size();
    }
    if (clips > THRONG_MAX_CLIPS)
        return Error{std::to_string(clips) + " clips in the crowd's models together; a crowd plays at most " +
                     std::to_string(THRONG_MAX_CLIPS)};
    if (vertices > UINT32_MAX || indices > UINT32_MAX)
        return Error{"the crowd's models have more vertices or indices together than 32-bit indices address"};

    AssetLibrary lib;
    if (assets.size() == 1) {
        lib.asset = *assets[0];
        lib.ranges.push_back(wholeAsset(lib.asset));
        return lib;
    }
    BakedAsset& out = lib.asset;
    out.fps = assets[0]->fps;
    for (const BakedAsset* a : assets) // a name for messages; each clip keeps its own curve
        if (out.root_joint.empty()) out.root_joint = a->root_joint;
    out.precision = assets[0]->precision;
    bool every_vat = true;
    size_t levels = 1;
    for (const BakedAsset* a : assets) {
        out.name += (out.name.empty() ? "" : " + ") + a->name;
        if (a->precision != out.precision) out.precision = Precision::Float32;
        out.joint_count = std::max(out.joint_count, a->joint_count);
        out.max_frames = std::max(out.max_frames, a->max_frames);
        every_vat = every_vat && a->hasVat();
        levels = std::max(levels, lodLevels(*a).size());
    }
    for (const BakedAsset* a : assets) {
        AssetRange r = wholeAsset(*a);
        r.first_vertex = uint32_t(out.vertices.size());
        r.first_index = uint32_t(out.indices.size());
        r.first_submesh = uint32_t(out.submeshes.size());
        r.first_clip = uint32_t(out.clips.size());
        r.first_texture = uint32_t(out.textures.size());
        out.vertices.insert(out.vertices.end(), a->vertices.begin(), a->vertices.end());
        for (uint32_t i : a->indices) out.indices.push_back(i + r.first_vertex);
        for (BakedSubmesh s : a->submeshes) {
            s.first_index += r.first_index;
            if (s.texture >= 0) s.texture += int32_t(r.first_texture);
            out.submeshes.push_back(s);
        }
        out.clips.insert(out.clips.end(), a->clips.begin(), a->clips.end());
        out.textures.insert(out.textures.end(), a->textures.begin(), a->textures.end());
        for (BakedProp p : a->props) {
            p.first_submesh += r.first_submesh;
            p.first_vertex += r.first_vertex;
            out.props.push_back(p);
        }
        for (BakedLook l : a->looks) { // numbered as in its model, so its members' colours are the same
            for (uint32_t& s : l.submeshes) s += r.first_submesh;
            for (int32_t& t : l.textures) t += int32_t(r.first_texture);
            out.looks.push_back(std::move(l));
        }
        if (out.vertices.size() == a->vertices.size()) {
            out.bind_bounds = a->bind_bounds;
        } else {
            out.bind_bounds.min = glm::min(out.bind_bounds.min, a->bind_bounds.min);
            out.bind_bounds.max = glm::max(out.bind_bounds.max, a->bind_bounds.max);
        }
        lib.ranges.push_back(std::move(r));
        lib.sources.push_back(a->source);
    }

    // Levels: a model with fewer repeats its coarsest; the library's error the largest.
    if (levels > 1) {
        out.lods.resize(levels);
        for (size_t l = 0; l < levels; ++l) {
            BakedLod& lod = out.lods[l];
            for (size_t i = 0; i < assets.size(); ++i) {
                const std::vector<BakedLod> own = lodLevels(*assets[i]);
                const BakedLod& from = own[std::min(l, own.size() - 1)];
                lod.error = std::max(lod.error, l == 0 ? 0.0f : from.error);
                for (BakedLodRange range : from.submeshes) {
                    range.first_index += lib.ranges[i].first_index;
                    lod.submeshes.push_back(range);
                }
            }
        }
    }

    // The animation at the largest joint count and frame count.
    const uint64_t texels = uint64_t(out.clips.size()) * out.max_frames * out.texelsPerRow();
    if (texels > kMaxBakedTexels)
        return Error{"the crowd's models' animations take " + std::to_string(texels) +
                     " texels together at the largest joint and frame count; the limit is " +
                     std::to_string(kMaxBakedTexels)};
    (out.precision == Precision::Float16 ? out.animation_f16.resize(4 * texels) : out.animation_f32.resize(4 * texels));
    for (size_t i = 0; i < assets.size(); ++i) {
        const BakedAsset& a = *assets[i];
        copyRows({a.animation_f32, a.animation_f16, a.precision}, a.clips.size(), a.max_frames, a.texelsPerRow(),
                 {out.animation_f32, out.animation_f16, out.precision}, lib.ranges[i].first_clip, out.max_frames,
                 out.texelsPerRow());
    }

    // Vertex animation: every model's or none, beside the asset, each model's from column 0.
    uint64_t widest = 0;
    for (const BakedAsset* a : assets) widest = std::max<uint64_t>(widest, a->vatTexelsPerRow());
    const uint64_t vat = uint64_t(out.clips.size()) * out.max_frames * widest;
    if (every_vat && vat > kMaxBakedTexels) {
        lib.notes.push_back("vertex animation left out: the models' together take " + std::to_string(vat) +
                            " texels, past the limit of " + std::to_string(kMaxBakedTexels));
    } else if (every_vat) {
        lib.vat_row_texels = uint32_t(widest);
        (out.precision == Precision::Float16 ? lib.vat_f16.resize(4 * vat) : lib.vat_f32.resize(4 * vat));
        for (size_t i = 0; i < assets.size(); ++i) {
            const BakedAsset& a = *assets[i];
            copyRows({a.vat_f32, a.vat_f16, a.precision}, a.clips.size(), a.max_frames, a.vatTexelsPerRow(),
                     {lib.vat_f32, lib.vat_f16, out.precision}, lib.ranges[i].first_clip, out.max_frames, widest);
        }
    } else {
        for (const BakedAsset* a : assets)
            if (a->hasVat()) {
                lib.notes.push_back("vertex animation left out: not every model has it");
                break;
            }
    }
    if (Status s = validate(out); !s) return Error{"the crowd's models together: " + s.message};
    return lib;
}

} // namespace throng::render
