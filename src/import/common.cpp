// Steps shared by every importer: influence limiting, hierarchy ordering, palette building,
// rigid attachment and the final checks.
#include "common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace throng::detail {

float limitInfluences(std::vector<Influence> influences, uint32_t fallback_joint, glm::u16vec4& joints,
                      glm::vec4& weights) {
    // Merge duplicate joints first: some exporters list a joint twice for one vertex.
    std::sort(influences.begin(), influences.end(),
              [](const Influence& a, const Influence& b) { return a.joint < b.joint; });
    std::vector<Influence> merged;
    for (const Influence& in : influences) {
        if (!(in.weight > 0.0f) || !std::isfinite(in.weight)) continue;
        if (!merged.empty() && merged.back().joint == in.joint)
            merged.back().weight += in.weight;
        else
            merged.push_back(in);
    }
    joints = glm::u16vec4(0);
    weights = glm::vec4(0.0f);
    if (merged.empty()) {
        joints[0] = uint16_t(fallback_joint);
        weights[0] = 1.0f;
        return 0.0f;
    }
    std::stable_sort(merged.begin(), merged.end(),
                     [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
    double total = 0.0;
    for (const Influence& in : merged) total += in.weight;
    const float dropped = merged.size() > kMaxInfluences ? float(merged[kMaxInfluences].weight / total) : 0.0f;
    const size_t kept = std::min<size_t>(merged.size(), kMaxInfluences);
    double kept_total = 0.0;
    for (size_t i = 0; i < kept; ++i) kept_total += merged[i].weight;
    for (size_t i = 0; i < kept; ++i) {
        joints[int(i)] = uint16_t(merged[i].joint);
        weights[int(i)] = float(merged[i].weight / kept_total);
    }
    return dropped;
}

// One line of at most 200 bytes of valid UTF-8 (messages may end up in JSON): assimp's parse
// errors can quote kilobytes of the file, including its raw bytes. Invalid bytes become '?'.
std::string oneLine(const std::string& in) {
    std::string s;
    size_t i = 0;
    while (i < in.size() && s.size() < 196) {
        const auto c = static_cast<unsigned char>(in[i]);
        const size_t len = c < 0x80 ? 1 : c >= 0xf8 ? 0 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
        uint32_t cp = len == 1 ? c : len == 2 ? c & 0x1f : len == 3 ? c & 0x0f : c & 0x07;
        bool ok = len > 0 && i + len <= in.size();
        for (size_t k = 1; ok && k < len; ++k) {
            const auto b = static_cast<unsigned char>(in[i + k]);
            ok = (b >> 6) == 2;
            cp = (cp << 6) | (b & 0x3f);
        }
        const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
        ok = ok && cp >= min[len] && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
        if (!ok)
            s += '?';
        else if (len == 1)
            s += c < 0x20 || c == 0x7f ? ' ' : char(c);
        else
            s.append(in, i, len);
        i += ok ? len : 1;
    }
    if (i < in.size()) s += "...";
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s;
}

Status orderParentsFirst(const std::vector<int32_t>& parents, const std::vector<std::string>& names,
                         std::vector<uint32_t>& order, std::vector<int32_t>& remap) {
    const size_t n = parents.size();
    auto name = [&](size_t i) {
        return i < names.size() && !names[i].empty() ? "node " + std::to_string(i) + " '" + names[i] + "'"
                                                     : "node " + std::to_string(i);
    };
    std::vector<std::vector<uint32_t>> children(n);
    for (size_t i = 0; i < n; ++i) {
        const int32_t p = parents[i];
        if (p == kNoParent) continue;
        if (p < 0 || size_t(p) >= n)
            return Status::failure(name(i) + ": parent index " + std::to_string(p) + " out of range");
        children[size_t(p)].push_back(uint32_t(i));
    }
    order.clear();
    order.reserve(n);
    remap.assign(n, -1);
    // Breadth-first from the roots; whatever is never reached sits on a cycle.
    for (size_t i = 0; i < n; ++i)
        if (parents[i] == kNoParent) order.push_back(uint32_t(i));
    for (size_t head = 0; head < order.size(); ++head)
        for (uint32_t c : children[order[head]]) order.push_back(c);
    if (order.size() != n) {
        std::vector<bool> reached(n, false);
        for (uint32_t i : order) reached[i] = true;
        for (size_t i = 0; i < n; ++i)
            if (!reached[i]) return Status::failure("the node hierarchy has a cycle through " + name(i));
    }
    for (size_t k = 0; k < n; ++k) remap[order[k]] = int32_t(k);
    return {};
}

std::vector<glm::mat4> restModelMatrices(const Skeleton& skeleton) {
    std::vector<glm::mat4> out(skeleton.size());
    for (uint32_t j = 0; j < skeleton.size(); ++j) {
        const glm::mat4 local = toMatrix(skeleton.rest[j]);
        const int32_t p = skeleton.parents[j];
        out[j] = p == kNoParent ? local : out[size_t(p)] * local;
    }
    return out;
}

uint32_t addPaletteEntry(Model& model, uint32_t joint, const glm::mat4& inverse_bind) {
    for (size_t k = 0; k < model.palette.size(); ++k)
        if (model.palette[k].joint == joint && model.palette[k].inverse_bind == inverse_bind) return uint32_t(k);
    model.palette.push_back(PaletteEntry{joint, inverse_bind});
    return uint32_t(model.palette.size() - 1);
}

void computeNormals(Mesh& mesh, size_t first_vertex, size_t first_index) {
    mesh.normals.resize(mesh.positions.size());
    for (size_t v = first_vertex; v < mesh.normals.size(); ++v) mesh.normals[v] = glm::vec3(0.0f);
    for (size_t i = first_index; i + 2 < mesh.indices.size(); i += 3) {
        const uint32_t a = mesh.indices[i], b = mesh.indices[i + 1], c = mesh.indices[i + 2];
        if (a >= mesh.positions.size() || b >= mesh.positions.size() || c >= mesh.positions.size()) continue;
        if (a < first_vertex || b < first_vertex || c < first_vertex) continue;
        // The cross product's length is twice the area: larger faces weigh more.
        const glm::vec3 n = glm::cross(mesh.positions[b] - mesh.positions[a], mesh.positions[c] - mesh.positions[a]);
        mesh.normals[a] += n;
        mesh.normals[b] += n;
        mesh.normals[c] += n;
    }
    for (size_t v = first_vertex; v < mesh.normals.size(); ++v) {
        glm::vec3& n = mesh.normals[v];
        const float len = glm::length(n);
        n = len > 0.0f && std::isfinite(len) ? n / len : glm::vec3(0.0f, 1.0f, 0.0f);
    }
}

void bindRigidMesh(Model& model, Mesh& mesh, uint32_t joint, const std::vector<glm::mat4>& rest_model) {
    const glm::mat4& m = rest_model[joint];
    const glm::mat3 normal_matrix = glm::transpose(glm::inverse(glm::mat3(m)));
    for (glm::vec3& p : mesh.positions) p = glm::vec3(m * glm::vec4(p, 1.0f));
    for (glm::vec3& n : mesh.normals) {
        const glm::vec3 t = normal_matrix * n;
        const float len = glm::length(t);
        n = len > 0.0f ? t / len : n;
    }
    const uint32_t entry = addPaletteEntry(model, joint, glm::inverse(m));
    mesh.joints.assign(mesh.positions.size(), glm::u16vec4(uint16_t(entry), 0, 0, 0));
    mesh.weights.assign(mesh.positions.size(), glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
    mesh.rigid_joint = int32_t(joint);
}

void placeSkinnedMeshAtRest(Model& model, Mesh& mesh, const std::vector<glm::mat4>& rest_model) {
    // Rest skinning matrix of every entry the mesh uses, and the entry carrying most weight.
    std::vector<double> weight(model.palette.size(), 0.0);
    for (size_t v = 0; v < mesh.positions.size(); ++v)
        for (int i = 0; i < 4; ++i) weight[mesh.joints[v][i]] += mesh.weights[v][i];
    const size_t dominant = size_t(std::max_element(weight.begin(), weight.end()) - weight.begin());
    auto restMatrix = [&](size_t k) {
        return glm::dmat4(rest_model[model.palette[k].joint]) * glm::dmat4(model.palette[k].inverse_bind);
    };
    const glm::dmat4 b = restMatrix(dominant);
    if (b == glm::dmat4(1.0)) return;
    // Does the rest skin equal B * p for every vertex, within 1e-6 of the mesh's size?
    std::vector<glm::dmat4> rest(weight.size());
    for (size_t k = 0; k < weight.size(); ++k)
        if (weight[k] != 0.0) rest[k] = restMatrix(k);
    glm::dvec3 lo(1e300), hi(-1e300);
    double worst = 0.0;
    for (size_t v = 0; v < mesh.positions.size(); ++v) {
        const glm::dvec4 p(glm::dvec3(mesh.positions[v]), 1.0);
        const glm::dvec3 q = glm::dvec3(b * p);
        glm::dvec3 skinned(0.0);
        for (int i = 0; i < 4; ++i)
            if (mesh.weights[v][i] > 0.0f)
                skinned += double(mesh.weights[v][i]) * glm::dvec3(rest[mesh.joints[v][i]] * p);
        worst = std::max(worst, glm::length(skinned - q));
        lo = glm::min(lo, q);
        hi = glm::max(hi, q);
    }
    if (worst > 1e-5 * glm::length(hi - lo)) {
        char text[64];
        std::snprintf(text, sizeof text, "%.3g", worst / std::max(glm::length(hi - lo), 1e-300));
        model.warnings.push_back("mesh '" + mesh.name + "': the rest pose is not the bind pose (differs by " + text +
                                 " of its size); bind positions kept as stored");
        return;
    }
    const glm::dmat4 b_inverse = glm::inverse(b);
    const glm::dmat3 normal_matrix = glm::transpose(glm::inverse(glm::dmat3(b)));
    for (glm::vec3& p : mesh.positions) p = glm::vec3(b * glm::dvec4(glm::dvec3(p), 1.0));
    for (glm::vec3& n : mesh.normals) {
        const glm::dvec3 t = normal_matrix * glm::dvec3(n);
        if (glm::length(t) > 0.0) n = glm::vec3(glm::normalize(t));
    }
    std::vector<int32_t> remap(weight.size(), -1);
    for (size_t k = 0; k < weight.size(); ++k)
        if (weight[k] != 0.0)
            remap[k] = int32_t(addPaletteEntry(model, model.palette[k].joint,
                                               glm::mat4(glm::dmat4(model.palette[k].inverse_bind) * b_inverse)));
    for (glm::u16vec4& j : mesh.joints)
        for (int i = 0; i < 4; ++i)
            if (remap[j[i]] >= 0) j[i] = uint16_t(remap[j[i]]);
}

namespace {

// Removes palette entries that no mesh references and renumbers the meshes' joint indices.
void prunePalette(Model& model) {
    std::vector<bool> used(model.palette.size(), false);
    for (const Mesh& mesh : model.meshes)
        for (size_t v = 0; v < mesh.joints.size(); ++v)
            for (int i = 0; i < 4; ++i)
                if (mesh.weights[v][i] > 0.0f && mesh.joints[v][i] < used.size()) used[mesh.joints[v][i]] = true;
    std::vector<uint16_t> remap(model.palette.size(), 0);
    std::vector<PaletteEntry> kept;
    for (size_t k = 0; k < model.palette.size(); ++k) {
        if (!used[k]) continue;
        remap[k] = uint16_t(kept.size());
        kept.push_back(model.palette[k]);
    }
    if (kept.size() == model.palette.size()) return;
    for (Mesh& mesh : model.meshes)
        for (size_t v = 0; v < mesh.joints.size(); ++v)
            for (int i = 0; i < 4; ++i)
                mesh.joints[v][i] =
                    mesh.weights[v][i] > 0.0f && mesh.joints[v][i] < remap.size() ? remap[mesh.joints[v][i]] : 0;
    model.palette = std::move(kept);
}

bool nonUniform(const glm::vec3& s) {
    const float lo = std::min({std::fabs(s.x), std::fabs(s.y), std::fabs(s.z)});
    const float hi = std::max({std::fabs(s.x), std::fabs(s.y), std::fabs(s.z)});
    return hi - lo > 1e-4f * std::max(hi, 1e-8f);
}

} // namespace

Result<Model> finishImport(Model model) {
    if (model.palette.size() <= 65535) prunePalette(model); // larger: validate() reports it
    // Unit quaternions everywhere, so float and double paths see the same rotations.
    for (Transform& t : model.skeleton.rest) {
        const float len = glm::length(t.rotation);
        if (len > 0.0f && std::isfinite(len)) t.rotation /= len;
    }
    for (Clip& clip : model.clips)
        for (Track& track : clip.tracks)
            if (track.target == TrackTarget::Rotation && track.interpolation != Interpolation::CubicSpline)
                for (glm::vec4& q : track.values) {
                    const float len = glm::length(q);
                    if (len > 0.0f && std::isfinite(len)) q /= len;
                }
    for (Clip& clip : model.clips) {
        float last = 0.0f;
        for (const Track& track : clip.tracks)
            for (float t : track.times) last = std::max(last, t); // max, not back(): order is validate()'s to judge
        clip.duration = std::max(clip.duration, last);
    }
    for (uint32_t j = 0; j < model.skeleton.size(); ++j) {
        if (nonUniform(model.skeleton.rest[j].scale)) {
            model.warnings.push_back("non-uniform scale in the rest pose of joint '" + model.skeleton.names[j] + "'");
            break;
        }
    }
    for (const Clip& clip : model.clips) {
        bool found = false;
        for (const Track& track : clip.tracks) {
            if (track.target != TrackTarget::Scale) continue;
            for (const glm::vec4& v : track.values)
                if (nonUniform(glm::vec3(v))) found = true;
            if (found) break;
        }
        if (found) model.warnings.push_back("clip '" + clip.name + "' animates a non-uniform scale");
    }
    size_t rigid = 0;
    for (const Mesh& mesh : model.meshes) rigid += mesh.rigid_joint >= 0 && mesh.skin < 0 ? 1 : 0;
    if (rigid > 0 && !model.skins.empty())
        model.warnings.push_back(std::to_string(rigid) +
                                 " mesh(es) rigidly attached to joints (skinned with weight 1 to their joint)");
    // The same warning from many meshes (one mesh used by many nodes) is said once, counted.
    std::vector<std::string> unique;
    std::vector<size_t> times;
    for (const std::string& w : model.warnings) {
        const auto it = std::find(unique.begin(), unique.end(), w);
        if (it != unique.end())
            ++times[size_t(it - unique.begin())];
        else {
            unique.push_back(w);
            times.push_back(1);
        }
    }
    model.warnings.clear();
    for (size_t i = 0; i < unique.size(); ++i)
        model.warnings.push_back(times[i] > 1 ? unique[i] + " (x" + std::to_string(times[i]) + ")" : unique[i]);
    if (Status s = validate(model); !s) return Error{s.message};
    return model;
}

} // namespace throng::detail
