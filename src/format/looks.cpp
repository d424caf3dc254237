// Colour variation across a crowd; see throng/looks.h.
#include <throng/looks.h>

#include "../shaders/shared.h"

#include <glm/gtc/packing.hpp>

#include <algorithm>
#include <cmath>
#include <string>

namespace throng {

std::vector<uint32_t> lookBounds(std::span<const float> shares, size_t colors) {
    double total = 0.0;
    for (size_t c = 0; c < colors; ++c) total += shares.empty() ? 1.0 : double(shares[c]);
    std::vector<uint32_t> bounds;
    double sum = 0.0;
    for (size_t c = 0; c < colors; ++c) {
        sum += shares.empty() ? 1.0 : double(shares[c]);
        const long bound = c + 1 == colors ? 256L : std::lround(sum / total * 256.0);
        bounds.push_back(uint32_t(std::clamp(bound, 0L, 256L)));
    }
    return bounds;
}

uint32_t lookColor(const BakedLook& look, uint32_t key) {
    const std::vector<uint32_t> bounds = lookBounds(look.shares, look.colors.size());
    const uint32_t pick = gpu::shader::throngLookPick(key, THRONG_LOOK_SALT + look.number);
    for (uint32_t c = 0; c < bounds.size(); ++c)
        if (pick < bounds[c]) return c;
    return uint32_t(bounds.size()) - 1; // not reached: the last bound is 256
}

Status validateLooks(const BakedAsset& asset) {
    std::vector<bool> in_look(asset.submeshes.size(), false);
    for (const BakedLook& l : asset.looks) {
        if (Status s = validateLook(l.name, l.colors, l.shares); !s) return s;
        const std::string what = "look '" + l.name + "'";
        if (l.number >= kMaxLooks) return Status::failure(what + ": numbered " + std::to_string(l.number));
        for (uint32_t s : l.submeshes) {
            if (s >= asset.submeshes.size())
                return Status::failure(what + ": submesh " + std::to_string(s) + " outside the asset's " +
                                       std::to_string(asset.submeshes.size()));
            if (in_look[s]) return Status::failure(what + ": submesh " + std::to_string(s) + " is in another look too");
            in_look[s] = true;
        }
    }
    return {};
}

LookTable lookTable(const BakedAsset& asset) {
    LookTable t;
    t.words.push_back(0u); // record 0: none
    t.submesh_records.assign(asset.submeshes.size(), 0u);
    for (const BakedLook& l : asset.looks) {
        const uint32_t record = uint32_t(t.words.size());
        for (uint32_t s : l.submeshes)
            if (s < t.submesh_records.size()) t.submesh_records[s] = record;
        t.words.push_back((THRONG_LOOK_SALT + l.number) | uint32_t(l.colors.size()) << 8u);
        const std::vector<uint32_t> bounds = lookBounds(l.shares, l.colors.size());
        for (size_t c = 0; c < l.colors.size(); ++c) {
            const glm::vec3 rgb = l.colors[c];
            t.words.push_back(glm::packHalf2x16(glm::vec2(rgb.r, rgb.g)));
            t.words.push_back((glm::packHalf2x16(glm::vec2(rgb.b, 0.0f)) & 0xffffu) | bounds[c] << 16u);
        }
    }
    return t;
}

std::vector<BakedLook> bakedLooks(const Model& model) {
    std::vector<int32_t> material; // per baked submesh, as copyMeshes makes them
    for (const Mesh& mesh : model.meshes) {
        if (mesh.submeshes.empty() && !mesh.indices.empty()) material.push_back(-1);
        for (const Submesh& s : mesh.submeshes) material.push_back(s.material);
    }
    std::vector<BakedLook> out;
    for (uint32_t l = 0; l < model.looks.size(); ++l) {
        const Look& look = model.looks[l];
        BakedLook b{look.name, {}, look.colors, look.shares, l};
        for (uint32_t s = 0; s < material.size(); ++s)
            if (material[s] >= 0 &&
                std::find(look.materials.begin(), look.materials.end(), uint32_t(material[s])) != look.materials.end())
                b.submeshes.push_back(s);
        out.push_back(std::move(b));
    }
    return out;
}

} // namespace throng
