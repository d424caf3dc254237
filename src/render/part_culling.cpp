// Culling boxes that follow what each member wears; see part_culling.h.
#include "part_culling.h"

#include <throng/attach.h>

#include <algorithm>
#include <array>
#include <limits>

namespace throng::render {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

void expand(Bounds& b, const glm::vec3& p) {
    b.min = glm::min(b.min, p);
    b.max = glm::max(b.max, p);
}

// `b` padded as clipCullBox (crowd.cpp) pads a clip's box; a point at the origin where `b` is empty.
Bounds padded(const Bounds& b) {
    if (!(b.min.x <= b.max.x)) return Bounds{glm::vec3(0.0f), glm::vec3(0.0f)};
    const glm::vec3 pad =
        0.01f * (b.max - b.min) + glm::vec3(1e-5f) * (1.0f + glm::max(glm::abs(b.min), glm::abs(b.max)));
    return {b.min - pad, b.max + pad};
}

} // namespace

PartBoxes partBoxes(const BakedAsset& asset, std::span<const AssetRange> ranges) {
    PartBoxes out;
    if (asset.props.empty()) return out;
    std::vector<AssetRange> whole;
    if (ranges.empty()) {
        whole.push_back(wholeAsset(asset));
        ranges = whole;
    }
    const size_t props = asset.props.size(), clips = asset.clips.size();
    const std::vector<int32_t> group = propOfVertices(asset); // per vertex: its prop, -1 the model's own
    out.wear.resize(props);
    out.model.assign(props, 0);
    for (uint32_t p = 0; p < props; ++p) {
        const BakedProp& prop = asset.props[p];
        out.wear[p] = propWear(asset, p);
        for (uint32_t m = 0; m < ranges.size(); ++m)
            if (prop.first_vertex >= ranges[m].first_vertex &&
                prop.first_vertex < ranges[m].first_vertex + ranges[m].vertex_count)
                out.model[p] = m;
    }
    const Bounds none{glm::vec3(kInf), glm::vec3(-kInf)};
    std::vector<Bounds> own(clips, none), parts(clips * props, none);
    std::vector<glm::vec4> rows(size_t(asset.joint_count) * 3);
    for (uint32_t m = 0; m < ranges.size(); ++m) {
        const AssetRange& r = ranges[m];
        if (std::find(out.model.begin(), out.model.end(), m) == out.model.end()) continue;
        const uint32_t v_end = std::min<uint32_t>(r.first_vertex + r.vertex_count, uint32_t(asset.vertices.size()));
        for (uint32_t c = r.first_clip; c < r.first_clip + r.clip_count && c < clips; ++c) {
            auto box = [&](uint32_t v) -> Bounds& {
                return group[v] < 0 ? own[c] : parts[c * props + size_t(group[v])];
            };
            for (uint32_t v = r.first_vertex; v < v_end; ++v) // the bind pose (`static` draws it)
                expand(box(v), glm::vec3(asset.vertices[v].position[0], asset.vertices[v].position[1],
                                         asset.vertices[v].position[2]));
            for (uint32_t f = 0; f < asset.clips[c].frame_count; ++f) {
                for (uint32_t j = 0; j < asset.joint_count; ++j)
                    for (uint32_t k = 0; k < 3; ++k) rows[3 * j + k] = bakedTexel(asset, c, f, j, k);
                for (uint32_t v = r.first_vertex; v < v_end; ++v) {
                    const BakedVertex& vx = asset.vertices[v];
                    std::array<glm::vec4, 3> blend{};
                    for (int i = 0; i < 4; ++i)
                        if (vx.weights[i] > 0.0f && vx.joints[i] < asset.joint_count)
                            for (int k = 0; k < 3; ++k)
                                blend[size_t(k)] += vx.weights[i] * rows[3 * vx.joints[i] + size_t(k)];
                    const glm::vec4 p(vx.position[0], vx.position[1], vx.position[2], 1.0f);
                    expand(box(v), glm::vec3(glm::dot(blend[0], p), glm::dot(blend[1], p), glm::dot(blend[2], p)));
                }
            }
        }
    }
    for (const Bounds& b : own) out.own.push_back(padded(b));
    for (const Bounds& b : parts) out.parts.push_back(padded(b));
    return out;
}

std::vector<glm::vec4> cullBoxTable(std::span<const Bounds> clips, const PartBoxes& parts,
                                    std::span<const AssetRange> ranges, std::span<gpu::shader::CullAsset> models) {
    std::vector<glm::vec4> table;
    std::vector<uint32_t> clip_model(clips.size(), 0);
    for (uint32_t m = 0; m < ranges.size(); ++m)
        for (uint32_t c = ranges[m].first_clip; c < ranges[m].first_clip + ranges[m].clip_count && c < clips.size();
             ++c)
            clip_model[c] = m;
    auto hasParts = [&](uint32_t m) {
        return std::find(parts.model.begin(), parts.model.end(), m) != parts.model.end();
    };
    const bool usable = !parts.empty() && parts.own.size() == clips.size() &&
                        parts.parts.size() == clips.size() * parts.wear.size() && !ranges.empty();
    for (size_t c = 0; c < clips.size(); ++c) {
        const Bounds& b = usable && hasParts(clip_model[c]) ? parts.own[c] : clips[c];
        table.push_back(glm::vec4(b.min, 0.0f));
        table.push_back(glm::vec4(b.max, 0.0f));
    }
    for (gpu::shader::CullAsset& a : models) a.parts = a.part_table = 0;
    if (!usable) return table;
    const size_t props = parts.wear.size();
    for (uint32_t m = 0; m < ranges.size() && m < models.size(); ++m) {
        std::vector<uint32_t> own_props;
        for (uint32_t p = 0; p < props; ++p)
            if (parts.model[p] == m) own_props.push_back(p);
        if (own_props.empty()) continue;
        const AssetRange& r = ranges[m];
        models[m].parts = uint32_t(own_props.size());
        models[m].part_table = uint32_t(table.size());
        table.push_back(glm::vec4(glm::uintBitsToFloat(r.first_clip), glm::uintBitsToFloat(r.clip_count), 0.0f, 0.0f));
        for (uint32_t p : own_props) table.push_back(glm::vec4(glm::uintBitsToFloat(parts.wear[p]), 0.0f, 0.0f, 0.0f));
        for (uint32_t c = r.first_clip; c < r.first_clip + r.clip_count; ++c)
            for (uint32_t p : own_props) {
                const Bounds& b = parts.parts[size_t(c) * props + p];
                table.push_back(glm::vec4(b.min, 0.0f));
                table.push_back(glm::vec4(b.max, 0.0f));
            }
    }
    return table;
}

} // namespace throng::render
