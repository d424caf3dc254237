// Colour variation across a crowd; see throng/looks.h.
#include <throng/looks.h>

#include <throng/attach.h>

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

namespace {

// The colour of a look of salt `salt` and colour bounds `bounds` (lookBounds) that key `key` takes.
uint32_t pickColor(std::span<const uint32_t> bounds, uint32_t salt, uint32_t key) {
    const uint32_t pick = gpu::shader::throngLookPick(key, salt);
    for (uint32_t c = 0; c < bounds.size(); ++c)
        if (pick < bounds[c]) return c;
    return uint32_t(bounds.size()) - 1; // not reached: the last bound is 256
}

} // namespace

uint32_t lookColor(const BakedLook& look, uint32_t key) {
    return pickColor(lookBounds(look.shares, look.colors.size()), THRONG_LOOK_SALT + look.number, key);
}

Status validateLooks(const BakedAsset& asset) {
    std::vector<bool> in_look(asset.submeshes.size(), false);
    for (const BakedLook& l : asset.looks) {
        if (Status s = validateLook(l.name, l.colors, l.shares, l.textures, asset.textures.size()); !s) return s;
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

LookTable lookTable(const BakedAsset& asset, std::span<const glm::vec3> texture_means) {
    LookTable t;
    t.words.assign(1 + asset.looks.size(), 0u); // the count, each look's record, then the records
    t.words[0] = uint32_t(asset.looks.size());
    t.submesh_records.assign(asset.submeshes.size(), 0u);
    for (size_t i = 0; i < asset.looks.size(); ++i) {
        const BakedLook& l = asset.looks[i];
        const uint32_t record = uint32_t(t.words.size());
        t.words[1 + i] = record;
        for (uint32_t s : l.submeshes)
            if (s < t.submesh_records.size()) t.submesh_records[s] = record;
        const bool textured = !l.textures.empty();
        t.words.push_back((THRONG_LOOK_SALT + l.number) | uint32_t(l.colors.size()) << 8u |
                          (textured ? THRONG_LOOK_TEXTURED : 0u));
        const std::vector<uint32_t> bounds = lookBounds(l.shares, l.colors.size());
        auto entry = [&](glm::vec3 rgb, uint32_t bound) {
            t.words.push_back(glm::packHalf2x16(glm::vec2(rgb.r, rgb.g)));
            t.words.push_back((glm::packHalf2x16(glm::vec2(rgb.b, 0.0f)) & 0xffffu) | bound << 16u);
        };
        for (size_t c = 0; c < l.colors.size(); ++c) entry(l.colors[c], bounds[c]);
        for (size_t c = 0; textured && c < l.colors.size(); ++c) {
            const size_t tex = size_t(std::max(l.textures[c], 0));
            entry(l.colors[c] * (tex < texture_means.size() ? texture_means[tex] : glm::vec3(1.0f)), 0u);
        }
    }
    return t;
}

Result<uint32_t> keyFor(const BakedAsset& asset, const Dress& dress, uint32_t from) {
    struct Wish {
        std::vector<uint32_t> props; // the slot's parts' wear selectors (propWear)
        int32_t part = -1;           // the index in `props` of the one worn (-1: none)
    };
    std::vector<Wish> wishes;
    auto list = [](const std::vector<std::string>& names) {
        std::string out;
        for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n.substr(0, 64);
        return out.empty() ? std::string("none") : out;
    };
    for (const auto& [slot, part] : dress.parts) {
        Wish w;
        std::vector<std::string> slots, names;
        for (uint32_t p = 0; p < asset.props.size(); ++p) {
            const BakedProp& prop = asset.props[p];
            if (!prop.slot.empty() && std::find(slots.begin(), slots.end(), prop.slot) == slots.end())
                slots.push_back(prop.slot);
            if (prop.slot != slot) continue;
            if (prop.name == part) w.part = int32_t(w.props.size());
            w.props.push_back(propWear(asset, p));
            names.push_back(prop.name);
        }
        if (slot.empty() || w.props.empty())
            return Error{"no slot '" + slot.substr(0, 64) + "' (the model's: " + list(slots) + ")"};
        if (!part.empty() && w.part < 0)
            return Error{"slot '" + slot.substr(0, 64) + "' has no part '" + part.substr(0, 64) +
                         "' (its parts: " + list(names) + ")"};
        wishes.push_back(std::move(w));
    }
    struct ColorWish {
        std::vector<uint32_t> bounds; // the look's (lookBounds)
        uint32_t salt = 0, color = 0;
    };
    std::vector<ColorWish> colors;
    for (const auto& [name, color] : dress.colors) {
        const BakedLook* found = nullptr;
        std::vector<std::string> names;
        for (const BakedLook& l : asset.looks) {
            names.push_back(l.name);
            if (l.name == name) found = &l;
        }
        if (found == nullptr) return Error{"no look '" + name.substr(0, 64) + "' (the model's: " + list(names) + ")"};
        if (color >= found->colors.size())
            return Error{"look '" + name.substr(0, 64) + "' has " + std::to_string(found->colors.size()) +
                         " colours, not colour " + std::to_string(color)};
        colors.push_back({lookBounds(found->shares, found->colors.size()), THRONG_LOOK_SALT + found->number, color});
    }
    constexpr uint64_t kTries = uint64_t(1) << 26;
    uint32_t key = std::max(from, 1u);
    for (uint64_t t = 0; t < kTries; ++t, key = key == UINT32_MAX ? 1u : key + 1) {
        bool fits = true;
        for (const Wish& w : wishes) {
            for (size_t i = 0; i < w.props.size(); ++i)
                if (gpu::shader::throngWears(key, w.props[i]) != (int32_t(i) == w.part)) fits = false;
            if (!fits) break;
        }
        for (size_t c = 0; fits && c < colors.size(); ++c)
            fits = pickColor(colors[c].bounds, colors[c].salt, key) == colors[c].color;
        if (fits) return key;
    }
    return Error{"no key of " + std::to_string(kTries) +
                 " tried dresses a member so: its wishes are too rare together"};
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
        BakedLook b{look.name, {}, look.colors, look.shares, look.textures, l};
        for (uint32_t s = 0; s < material.size(); ++s)
            if (material[s] >= 0 &&
                std::find(look.materials.begin(), look.materials.end(), uint32_t(material[s])) != look.materials.end())
                b.submeshes.push_back(s);
        out.push_back(std::move(b));
    }
    return out;
}

} // namespace throng
