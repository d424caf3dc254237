// validate(): every invariant documented in throng/model.h, checked with a message that
// names the first offending element.
#include <throng/model.h>

#include "names.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace throng {
namespace {

using detail::quotedName;

bool finite(float v) { return std::isfinite(v); }
bool finite(const glm::vec2& v) { return finite(v.x) && finite(v.y); }
bool finite(const glm::vec3& v) { return finite(v.x) && finite(v.y) && finite(v.z); }
bool finite(const glm::vec4& v) { return finite(v.x) && finite(v.y) && finite(v.z) && finite(v.w); }
bool finite(const glm::quat& q) { return finite(q.x) && finite(q.y) && finite(q.z) && finite(q.w); }
bool finite(const glm::mat4& m) { return finite(m[0]) && finite(m[1]) && finite(m[2]) && finite(m[3]); }

template <class T> Status checkFinite(const std::vector<T>& values, const std::string& what) {
    for (size_t i = 0; i < values.size(); ++i)
        if (!finite(values[i])) return Status::failure(what + " " + std::to_string(i) + " is NaN or infinite");
    return {};
}

Status validateMesh(const Model& model, size_t index) {
    const Mesh& mesh = model.meshes[index];
    const std::string where = "mesh " + std::to_string(index) + quotedName(mesh.name);
    const size_t n = mesh.positions.size();
    if (n == 0) return Status::failure(where + ": has no vertices");
    if (mesh.normals.size() != n)
        return Status::failure(where + ": " + std::to_string(mesh.normals.size()) + " normals for " +
                               std::to_string(n) + " vertices");
    if (!mesh.uvs.empty() && mesh.uvs.size() != n)
        return Status::failure(where + ": uv count differs from vertex count");
    if (!mesh.colors.empty() && mesh.colors.size() != n)
        return Status::failure(where + ": colour count differs from vertex count");
    if (mesh.joints.size() != n || mesh.weights.size() != n)
        return Status::failure(where + ": joint/weight count differs from vertex count");
    if (Status s = checkFinite(mesh.positions, where + ": position"); !s) return s;
    if (Status s = checkFinite(mesh.normals, where + ": normal"); !s) return s;
    if (Status s = checkFinite(mesh.uvs, where + ": uv"); !s) return s;
    if (Status s = checkFinite(mesh.colors, where + ": colour"); !s) return s;
    for (size_t v = 0; v < n; ++v) {
        const glm::vec4& w = mesh.weights[v];
        if (!finite(w)) return Status::failure(where + " vertex " + std::to_string(v) + ": weight is NaN or infinite");
        float sum = 0.0f;
        for (int i = 0; i < 4; ++i) {
            if (w[i] < 0.0f) return Status::failure(where + " vertex " + std::to_string(v) + ": negative weight");
            if (w[i] > 0.0f && mesh.joints[v][i] >= model.palette.size())
                return Status::failure(where + " vertex " + std::to_string(v) + ": joint index " +
                                       std::to_string(mesh.joints[v][i]) + " out of range (palette has " +
                                       std::to_string(model.palette.size()) + ")");
            sum += w[i];
        }
        if (std::fabs(sum - 1.0f) > kWeightSumTolerance)
            return Status::failure(where + " vertex " + std::to_string(v) + ": weights sum to " + std::to_string(sum) +
                                   ", not 1");
    }
    if (mesh.indices.size() % 3 != 0) return Status::failure(where + ": index count is not a multiple of 3");
    for (size_t i = 0; i < mesh.indices.size(); ++i)
        if (mesh.indices[i] >= n)
            return Status::failure(where + ": index " + std::to_string(i) + " = " + std::to_string(mesh.indices[i]) +
                                   " out of range (" + std::to_string(n) + " vertices)");
    for (size_t s = 0; s < mesh.submeshes.size(); ++s) {
        const Submesh& sub = mesh.submeshes[s];
        if (uint64_t(sub.first_index) + sub.index_count > mesh.indices.size() || sub.index_count % 3 != 0)
            return Status::failure(where + ": submesh " + std::to_string(s) + " index range out of bounds");
        if (sub.material >= int32_t(model.materials.size()))
            return Status::failure(where + ": submesh " + std::to_string(s) + " material out of range");
    }
    if (mesh.skin >= int32_t(model.skins.size())) return Status::failure(where + ": skin index out of range");
    if (mesh.rigid_joint >= int32_t(model.skeleton.size()))
        return Status::failure(where + ": rigid joint out of range");
    return {};
}

Status validateClip(const Model& model, size_t index) {
    const Clip& clip = model.clips[index];
    const std::string where = "clip " + std::to_string(index) + quotedName(clip.name);
    if (!std::isfinite(clip.duration) || clip.duration < 0.0f) return Status::failure(where + ": bad duration");
    for (size_t t = 0; t < clip.tracks.size(); ++t) {
        const Track& track = clip.tracks[t];
        const std::string tw = where + " track " + std::to_string(t);
        if (track.joint >= model.skeleton.size())
            return Status::failure(tw + ": targets joint " + std::to_string(track.joint) + ", which does not exist (" +
                                   std::to_string(model.skeleton.size()) + " joints)");
        if (track.times.empty()) return Status::failure(tw + ": has no keys");
        const size_t per_key = track.interpolation == Interpolation::CubicSpline ? 3 : 1;
        if (track.values.size() != track.times.size() * per_key)
            return Status::failure(tw + ": " + std::to_string(track.values.size()) + " values for " +
                                   std::to_string(track.times.size()) + " keys");
        for (size_t k = 0; k < track.times.size(); ++k) {
            const float time = track.times[k];
            if (!std::isfinite(time) || time < 0.0f)
                return Status::failure(tw + ": key " + std::to_string(k) + " has a bad time");
            if (k > 0 && !(time > track.times[k - 1]))
                return Status::failure(tw + ": key times not increasing at key " + std::to_string(k));
            if (time > clip.duration + 1e-4f) return Status::failure(tw + ": key after the clip's end");
        }
        if (Status s = checkFinite(track.values, tw + ": value"); !s) return s;
        if (track.target == TrackTarget::Rotation && track.interpolation != Interpolation::CubicSpline)
            for (size_t k = 0; k < track.values.size(); ++k)
                if (std::fabs(glm::length(track.values[k]) - 1.0f) > 1e-3f)
                    return Status::failure(tw + ": rotation key " + std::to_string(k) + " is not a unit quaternion");
    }
    return {};
}

} // namespace

Status validate(const Skeleton& skeleton) {
    const size_t n = skeleton.parents.size();
    if (skeleton.names.size() != n || skeleton.rest.size() != n)
        return Status::failure("skeleton: names, parents and rest pose differ in length");
    for (size_t j = 0; j < n; ++j) {
        const int32_t p = skeleton.parents[j];
        const std::string where = "joint " + std::to_string(j) + quotedName(skeleton.names[j]);
        if (p == kNoParent) continue;
        if (p < 0 || size_t(p) >= n) return Status::failure(where + ": parent " + std::to_string(p) + " out of range");
        if (size_t(p) < j) continue; // parents before children everywhere rules out cycles: linear time
        // The first joint out of order: one walk up (at most n steps) tells a cycle from an order problem.
        int32_t q = p;
        for (size_t steps = 0; q != kNoParent; ++steps) {
            if (steps > n || size_t(q) == j) return Status::failure(where + ": the joint hierarchy has a cycle");
            q = skeleton.parents[size_t(q)];
            if (q != kNoParent && (q < 0 || size_t(q) >= n)) break; // reported when its own joint is checked
        }
        return Status::failure(where + ": parent " + std::to_string(p) +
                               " comes after its child (parent-before-child order required)");
    }
    for (size_t j = 0; j < n; ++j) {
        const Transform& t = skeleton.rest[j];
        if (!finite(t.translation) || !finite(t.rotation) || !finite(t.scale))
            return Status::failure("joint " + std::to_string(j) + quotedName(skeleton.names[j]) +
                                   ": rest transform is NaN or infinite");
        if (std::fabs(glm::length(t.rotation) - 1.0f) > 1e-3f)
            return Status::failure("joint " + std::to_string(j) + quotedName(skeleton.names[j]) +
                                   ": rest rotation is not a unit quaternion");
    }
    return {};
}

Status validate(const Model& model) {
    if (Status s = validate(model.skeleton); !s) return s;
    for (size_t s = 0; s < model.skins.size(); ++s)
        for (uint32_t j : model.skins[s].joints)
            if (j >= model.skeleton.size())
                return Status::failure("skin " + std::to_string(s) + ": joint " + std::to_string(j) + " out of range");
    for (size_t k = 0; k < model.palette.size(); ++k) {
        if (model.palette[k].joint >= model.skeleton.size())
            return Status::failure("palette entry " + std::to_string(k) + ": joint out of range");
        if (!finite(model.palette[k].inverse_bind))
            return Status::failure("palette entry " + std::to_string(k) + ": inverse bind matrix is NaN or infinite");
    }
    if (model.palette.size() > 65535) return Status::failure("more than 65535 palette entries");
    if (model.meshes.empty()) return Status::failure("no meshes");
    for (size_t m = 0; m < model.meshes.size(); ++m)
        if (Status s = validateMesh(model, m); !s) return s;
    for (size_t c = 0; c < model.clips.size(); ++c)
        if (Status s = validateClip(model, c); !s) return s;
    for (size_t m = 0; m < model.materials.size(); ++m)
        if (model.materials[m].texture >= int32_t(model.textures.size()))
            return Status::failure("material " + std::to_string(m) + ": texture out of range");
    std::vector<bool> in_part(model.meshes.size(), false);
    for (const Part& p : model.parts) {
        const std::string what = "part" + detail::quotedName(p.name.substr(0, 64));
        if (p.mesh_count == 0 || p.first_mesh >= model.meshes.size() ||
            p.mesh_count > model.meshes.size() - p.first_mesh)
            return Status::failure(what + ": meshes " + std::to_string(p.first_mesh) + " + " +
                                   std::to_string(p.mesh_count) + " outside the model's " +
                                   std::to_string(model.meshes.size()));
        for (uint32_t m = p.first_mesh; m < p.first_mesh + p.mesh_count; ++m) {
            if (in_part[m]) return Status::failure(what + ": mesh " + std::to_string(m) + " is in another part too");
            in_part[m] = true;
        }
    }
    if (Status s = validateParts(model.parts); !s) return s;
    if (model.looks.size() > kMaxLooks)
        return Status::failure(std::to_string(model.looks.size()) + " looks, more than " + std::to_string(kMaxLooks));
    std::vector<bool> in_look(model.materials.size(), false);
    for (const Look& l : model.looks) {
        const std::string what = "look" + detail::quotedName(l.name.substr(0, 64));
        if (Status s = validateLook(l.name, l.colors, l.shares, l.textures, model.textures.size()); !s) return s;
        if (l.materials.empty()) return Status::failure(what + ": colours no material");
        for (uint32_t m : l.materials) {
            if (m >= model.materials.size())
                return Status::failure(what + ": material " + std::to_string(m) + " outside the model's " +
                                       std::to_string(model.materials.size()));
            if (in_look[m])
                return Status::failure(what + ": material " + std::to_string(m) + " is in another look too");
            in_look[m] = true;
        }
    }
    return {};
}

Status validateLook(const std::string& name, std::span<const glm::vec3> colors, std::span<const float> shares,
                    std::span<const int32_t> textures, size_t texture_count) {
    const std::string what = "look" + detail::quotedName(name.substr(0, 64));
    if (name.size() > 64 || name.find_first_of("\n\r") != std::string::npos)
        return Status::failure(what + ": a name past 64 characters or not on one line");
    if (colors.empty() || colors.size() > kMaxLookColors)
        return Status::failure(what + ": " + std::to_string(colors.size()) + " colours (1 .. " +
                               std::to_string(kMaxLookColors) + ")");
    for (size_t c = 0; c < colors.size(); ++c)
        for (int i = 0; i < 3; ++i)
            if (!(colors[c][i] >= 0.0f && colors[c][i] <= 65504.0f))
                return Status::failure(what + ": colour " + std::to_string(c) + " is not finite and >= 0");
    if (!textures.empty() && textures.size() != colors.size())
        return Status::failure(what + ": " + std::to_string(textures.size()) + " textures for " +
                               std::to_string(colors.size()) + " colours");
    for (size_t t = 0; t < textures.size(); ++t)
        if (textures[t] < 0 || size_t(textures[t]) >= texture_count)
            return Status::failure(what + ": texture " + std::to_string(textures[t]) + " outside the " +
                                   std::to_string(texture_count) + " textures");
    if (shares.empty()) return {};
    if (shares.size() != colors.size())
        return Status::failure(what + ": " + std::to_string(shares.size()) + " shares for " +
                               std::to_string(colors.size()) + " colours");
    double total = 0.0;
    for (float s : shares) {
        if (!(s >= 0.0f && s <= 1e6f)) return Status::failure(what + ": a share is not finite and >= 0");
        total += s;
    }
    if (total <= 0.0) return Status::failure(what + ": its shares add up to 0");
    return {};
}

Status validateParts(std::span<const Part> parts) {
    if (parts.size() > kMaxParts)
        return Status::failure(std::to_string(parts.size()) + " parts, more than " + std::to_string(kMaxParts));
    std::vector<std::pair<std::string, double>> slots;
    for (const Part& p : parts) {
        const std::string what = "part" + detail::quotedName(p.name.substr(0, 64));
        if (p.name.size() > 4096 || p.slot.size() > 64 || p.name.find_first_of("\n\r") != std::string::npos ||
            p.slot.find_first_of("\n\r") != std::string::npos)
            return Status::failure(what + ": a name past 4,096 or a slot past 64 characters, or not on one line");
        if (!(p.share >= 0.0f && p.share <= 1.0f))
            return Status::failure(what + ": share " + std::to_string(p.share) + " outside 0..1");
        if (p.slot.empty()) continue;
        auto it = std::find_if(slots.begin(), slots.end(), [&](const auto& s) { return s.first == p.slot; });
        if (it == slots.end()) it = slots.insert(slots.end(), {p.slot, 0.0});
        if ((it->second += double(p.share)) > 1.0 + 1e-6)
            return Status::failure("slot" + detail::quotedName(p.slot) + ": its parts' shares add up to " +
                                   std::to_string(int(std::lround(it->second * 100.0))) +
                                   "%, past 100% (a member wears one part of a slot at most)");
    }
    return {};
}

} // namespace throng
