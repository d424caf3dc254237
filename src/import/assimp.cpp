// importAssimp: FBX, Collada and the other formats assimp reads, normalised to a Model.
//
// Conventions that differ from glTF and how they are mapped:
// - aiMatrix4x4 is row-major (a1..a4 is the first row); glm is column-major.
// - Skinned vertices follow assimp's rule: world = global(bone) * offset * v, the mesh node's
//   own transform is ignored. The offset matrix maps the mesh's local space to the bone at bind
//   time (FBX folds the mesh node's bind transform into it, Collada does not), so the local
//   positions are not model-space bind positions. We move them to model space with
//   M = restGlobal(bone) * offset and store offset * M^-1 in the palette: skinned results are
//   unchanged, and rest-pose skinning reproduces Mesh::positions whenever rest == bind.
// - UVs are flipped to glTF's top-left origin (aiProcess_FlipUVs).
// - Collada nodes are named by their `name` attribute (not the id), which matches the names
//   COLLADA2GLTF writes; assimp's own up-axis fix (Z up -> Y up) stays on the root node.
#include "common.h"

#include <throng/import.h>

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <new>
#include <unordered_map>
#include <unordered_set>

namespace throng {
namespace {

using detail::Influence;
using detail::oneLine;

constexpr double kDefaultTicksPerSecond = 25.0; // what assimp's own tools assume for 0

// aiMatrix4x4 stores its rows a1..a4, b1..b4, ... contiguously (assimp's operator[] relies on
// it); glm reads 16 floats as columns, hence the transpose.
glm::mat4 toGlm(const aiMatrix4x4& m) { return glm::transpose(glm::make_mat4(&m.a1)); }

// Lower-case extension without the dot.
std::string extensionOf(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    if (!ext.empty()) ext.erase(0, 1);
    for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext;
}

std::string formatName(const std::string& path) {
    std::string ext = extensionOf(path);
    if (ext == "fbx") return "FBX (assimp)";
    if (ext == "dae") return "Collada (assimp)";
    for (char& c : ext) c = char(std::toupper(static_cast<unsigned char>(c)));
    return (ext.empty() ? std::string("unknown") : ext) + " (assimp)";
}

// Splits an affine matrix into T * R * S. A mirror goes into a negative x scale. Returns false
// when the matrix has shear or a zero axis; the Transform then approximates it.
bool decompose(const glm::mat4& m, Transform& t) {
    t.translation = glm::vec3(m[3]);
    glm::vec3 axis[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
    glm::vec3 s(glm::length(axis[0]), glm::length(axis[1]), glm::length(axis[2]));
    t.scale = s;
    t.rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    for (int i = 0; i < 3; ++i)
        if (!(s[i] > 1e-20f) || !std::isfinite(s[i])) return false;
    if (glm::determinant(glm::mat3(m)) < 0.0f) s.x = -s.x;
    t.scale = s;
    for (int i = 0; i < 3; ++i) axis[i] /= s[i];
    const bool shear = std::fabs(glm::dot(axis[0], axis[1])) > 1e-4f || std::fabs(glm::dot(axis[0], axis[2])) > 1e-4f ||
                       std::fabs(glm::dot(axis[1], axis[2])) > 1e-4f;
    // Gram-Schmidt so that a sheared matrix still yields a proper rotation.
    axis[1] = glm::normalize(axis[1] - glm::dot(axis[1], axis[0]) * axis[0]);
    axis[2] = glm::cross(axis[0], axis[1]);
    t.rotation = glm::normalize(glm::quat_cast(glm::mat3(axis[0], axis[1], axis[2])));
    if (!std::isfinite(t.rotation.w)) t.rotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    return !shear;
}

// Equal within 1e-4 of a's largest entry (and at least 1e-4).
bool nearlyEqual(const glm::dmat4& a, const glm::dmat4& b) {
    double scale = 1.0, diff = 0.0;
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            scale = std::max(scale, std::fabs(a[c][r]));
            diff = std::max(diff, std::fabs(a[c][r] - b[c][r]));
        }
    return diff <= 1e-4 * scale;
}

std::string mimeType(const std::string& hint) { // hint: lower-case extension
    if (hint == "png") return "image/png";
    if (hint == "jpg" || hint == "jpeg") return "image/jpeg";
    return hint.empty() ? std::string() : "image/" + hint;
}

class AssimpReader {
  public:
    AssimpReader(const aiScene& scene, Model& model) : scene_(scene), model_(model) {}

    Status read() {
        if (Status s = buildSkeleton(); !s) return s;
        buildMaterials();
        if (Status s = buildMeshes(); !s) return s;
        buildClips();
        return {};
    }

  private:
    const aiScene& scene_;
    Model& model_;
    std::vector<const aiNode*> nodes_; // skeleton order
    std::unordered_map<std::string, uint32_t> joint_by_name_;
    std::vector<glm::mat4> rest_model_;
    std::map<std::string, int32_t> texture_by_path_;

    void warn(std::string w) { model_.warnings.push_back(oneLine(std::move(w))); }

    // Depth-first with an explicit stack (deep files must not overflow ours), which is
    // parent-first by construction; children keep their file order.
    Status buildSkeleton() {
        Skeleton& sk = model_.skeleton;
        std::vector<std::pair<const aiNode*, int32_t>> stack{{scene_.mRootNode, kNoParent}};
        std::unordered_set<const aiNode*> seen;
        uint32_t sheared = 0, duplicates = 0;
        std::string first_sheared;
        while (!stack.empty()) {
            const auto [node, parent] = stack.back();
            stack.pop_back();
            if (!seen.insert(node).second) return Status::failure("a node appears twice in the hierarchy");
            const uint32_t j = uint32_t(nodes_.size());
            nodes_.push_back(node);
            const std::string name = node->mName.C_Str();
            sk.names.push_back(name);
            sk.parents.push_back(parent);
            Transform t;
            if (!decompose(toGlm(node->mTransformation), t) && sheared++ == 0) first_sheared = name;
            sk.rest.push_back(t);
            if (!name.empty() && !joint_by_name_.emplace(name, j).second) ++duplicates;
            if (node->mNumChildren > 0 && node->mChildren == nullptr) continue;
            for (unsigned c = node->mNumChildren; c-- > 0;)
                if (node->mChildren[c]) stack.emplace_back(node->mChildren[c], int32_t(j));
        }
        if (sheared > 0)
            warn(std::to_string(sheared) + " node transform(s) with shear or a zero axis approximated (first: '" +
                 first_sheared + "')");
        if (duplicates > 0)
            warn(std::to_string(duplicates) + " repeated node name(s); bones and channels bind to the first");
        rest_model_ = detail::restModelMatrices(sk);
        return {};
    }

    int32_t textureFor(const aiMaterial& mat) {
        aiString path;
        if (mat.GetTexture(aiTextureType_BASE_COLOR, 0, &path) != AI_SUCCESS &&
            mat.GetTexture(aiTextureType_DIFFUSE, 0, &path) != AI_SUCCESS)
            return -1;
        const std::string key = path.C_Str();
        if (key.empty()) return -1;
        if (auto it = texture_by_path_.find(key); it != texture_by_path_.end()) return it->second;
        Texture tex;
        tex.name = key;
        // "*N" and, for FBX, the original file name both address embedded textures.
        if (const aiTexture* embedded = scene_.GetEmbeddedTexture(key.c_str())) {
            if (embedded->mHeight != 0 || embedded->pcData == nullptr) {
                warn("texture '" + key + "' is embedded as raw texels (unsupported); skipped");
                return texture_by_path_[key] = -1;
            }
            const auto* bytes = reinterpret_cast<const uint8_t*>(embedded->pcData);
            tex.encoded.assign(bytes, bytes + embedded->mWidth);
            const char* hint = embedded->achFormatHint;
            tex.mime_type = mimeType(extensionOf("x." + std::string(hint, strnlen(hint, HINTMAXTEXTURELEN))));
        } else {
            tex.uri = key;
            tex.mime_type = mimeType(extensionOf(key));
        }
        model_.textures.push_back(std::move(tex));
        return texture_by_path_[key] = int32_t(model_.textures.size() - 1);
    }

    // One Model material per aiMaterial, same index.
    void buildMaterials() {
        for (unsigned i = 0; i < scene_.mNumMaterials; ++i) {
            Material out;
            if (const aiMaterial* mat = scene_.mMaterials[i]) {
                out.name = mat->GetName().C_Str();
                aiColor4D c(1.0f, 1.0f, 1.0f, 1.0f);
                if (mat->Get(AI_MATKEY_BASE_COLOR, c) == AI_SUCCESS) {
                    out.base_color = glm::vec4(c.r, c.g, c.b, c.a);
                } else if (mat->Get(AI_MATKEY_COLOR_DIFFUSE, c) == AI_SUCCESS) {
                    float opacity = 1.0f;
                    if (mat->Get(AI_MATKEY_OPACITY, opacity) != AI_SUCCESS) opacity = 1.0f;
                    out.base_color = glm::vec4(c.r, c.g, c.b, c.a * opacity);
                }
                for (int k = 0; k < 4; ++k)
                    if (!std::isfinite(out.base_color[k])) out.base_color[k] = 1.0f;
                out.texture = textureFor(*mat);
            }
            model_.materials.push_back(std::move(out));
        }
    }

    // Vertex data and triangles of one aiMesh in its own space. False (with a warning) when
    // it has nothing to draw.
    bool readGeometry(const aiMesh& am, Mesh& mesh) {
        const uint32_t n = am.mNumVertices;
        if (!(am.mPrimitiveTypes & aiPrimitiveType_TRIANGLE) || n == 0 || am.mVertices == nullptr) {
            warn("mesh '" + mesh.name + "' has no triangles (points or lines only); skipped");
            return false;
        }
        mesh.positions.reserve(n);
        for (uint32_t v = 0; v < n; ++v) {
            mesh.positions.emplace_back(am.mVertices[v].x, am.mVertices[v].y, am.mVertices[v].z);
            if (am.mNormals) mesh.normals.emplace_back(am.mNormals[v].x, am.mNormals[v].y, am.mNormals[v].z);
            if (const aiVector3D* uv = am.mTextureCoords[0]) mesh.uvs.emplace_back(uv[v].x, uv[v].y);
            if (const aiColor4D* c = am.mColors[0]) mesh.colors.emplace_back(c[v].r, c[v].g, c[v].b, c[v].a);
        }
        uint32_t skipped = 0;
        for (unsigned f = 0; am.mFaces && f < am.mNumFaces; ++f) {
            const aiFace& face = am.mFaces[f];
            if (face.mNumIndices != 3 || face.mIndices == nullptr || face.mIndices[0] >= n || face.mIndices[1] >= n ||
                face.mIndices[2] >= n) {
                ++skipped;
                continue;
            }
            mesh.indices.insert(mesh.indices.end(), face.mIndices, face.mIndices + 3);
        }
        if (skipped > 0) warn("mesh '" + mesh.name + "': " + std::to_string(skipped) + " non-triangle faces skipped");
        if (mesh.indices.empty()) {
            warn("mesh '" + mesh.name + "' has no valid triangles; skipped");
            return false;
        }
        const int32_t material = am.mMaterialIndex < scene_.mNumMaterials ? int32_t(am.mMaterialIndex) : -1;
        mesh.submeshes.push_back(Submesh{0, uint32_t(mesh.indices.size()), material});
        return true;
    }

    // Normals missing or unusable (zero, NaN): recompute from the triangles.
    void fixNormals(Mesh& mesh) {
        if (mesh.normals.empty()) {
            detail::computeNormals(mesh);
            return;
        }
        uint32_t bad = 0;
        for (glm::vec3& nrm : mesh.normals) {
            const float len = glm::length(nrm);
            const bool ok = len > 1e-20f && std::isfinite(len);
            nrm = ok ? nrm / len : nrm;
            bad += ok ? 0 : 1;
        }
        if (bad == 0) return;
        warn("mesh '" + mesh.name + "': " + std::to_string(bad) + " zero or invalid normals; all recomputed");
        detail::computeNormals(mesh);
    }

    void skinMesh(const aiMesh& am, uint32_t node_joint, Mesh& mesh) {
        const size_t n = mesh.positions.size();
        std::vector<uint32_t> bones, joints; // aiBone indices that name a node, their joints
        std::vector<glm::dmat4> candidates;  // restGlobal(joint) * offset
        std::vector<double> totals;
        for (unsigned b = 0; b < am.mNumBones; ++b) {
            const aiBone* bone = am.mBones[b];
            if (!bone) continue;
            auto it = joint_by_name_.find(bone->mName.C_Str());
            if (it == joint_by_name_.end()) {
                warn("mesh '" + mesh.name + "': bone '" + bone->mName.C_Str() + "' names no node; weights dropped");
                continue;
            }
            double total = 0.0;
            for (unsigned k = 0; bone->mWeights && k < bone->mNumWeights; ++k)
                if (std::isfinite(bone->mWeights[k].mWeight)) total += bone->mWeights[k].mWeight;
            bones.push_back(b);
            joints.push_back(it->second);
            candidates.push_back(glm::dmat4(rest_model_[it->second]) * glm::dmat4(toGlm(bone->mOffsetMatrix)));
            totals.push_back(total);
        }
        // M (see the top of the file) is the same for every bone when the rest pose is the bind
        // pose. When some bones rest elsewhere (Blender's FBX export can store an animated pose
        // as a node's transform), the others still agree: take the M that carries most weight.
        // Only the 64 heaviest bones are tried, so that a file with huge bone counts stays linear.
        std::vector<size_t> order(candidates.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return totals[a] > totals[b]; });
        order.resize(std::min<size_t>(order.size(), 64));
        size_t best = 0;
        double best_score = -1.0;
        for (size_t i : order) {
            double score = 0.0;
            for (size_t k = 0; k < candidates.size(); ++k)
                score += nearlyEqual(candidates[i], candidates[k]) ? totals[k] : 0.0;
            if (score > best_score) best_score = score, best = i;
        }
        glm::dmat4 bind(1.0);
        const double det = candidates.empty() ? 0.0 : glm::determinant(candidates[best]);
        if (std::isfinite(det) && std::fabs(det) > 1e-30) bind = candidates[best];
        const glm::dmat4 inv_bind = glm::inverse(bind);

        std::vector<std::vector<Influence>> influences(n);
        Skin skin;
        skin.name = mesh.name;
        uint32_t disagreeing = 0;
        const auto weighted = std::count_if(totals.begin(), totals.end(), [](double t) { return t > 0.0; });
        std::string first_disagreeing;
        for (size_t i = 0; i < bones.size(); ++i) {
            const aiBone& bone = *am.mBones[bones[i]];
            const uint32_t joint = joints[i];
            // Bones without weight cannot move a vertex, so their bind pose does not matter.
            if (totals[i] > 0.0 && !nearlyEqual(candidates[i], bind) && disagreeing++ == 0)
                first_disagreeing = model_.skeleton.names[joint];
            const glm::dmat4 offset(toGlm(bone.mOffsetMatrix));
            const uint32_t entry = detail::addPaletteEntry(model_, joint, glm::mat4(offset * inv_bind));
            skin.joints.push_back(joint);
            for (unsigned k = 0; bone.mWeights && k < bone.mNumWeights; ++k) {
                const aiVertexWeight& w = bone.mWeights[k];
                if (w.mVertexId < n) influences[w.mVertexId].push_back(Influence{entry, w.mWeight});
            }
        }
        if (disagreeing > 0)
            warn("mesh '" + mesh.name + "': the rest pose is not the bind pose for " + std::to_string(disagreeing) +
                 " of " + std::to_string(weighted) + " weighted bones (first: '" + first_disagreeing +
                 "'); bind positions follow the others");

        // Vertices without weights ride rigidly on the mesh's node, keeping their bind position.
        uint32_t unweighted = 0, over = 0, fallback = 0;
        float worst = 0.0f;
        mesh.joints.resize(n);
        mesh.weights.resize(n);
        for (size_t v = 0; v < n; ++v) {
            const bool none = std::none_of(influences[v].begin(), influences[v].end(),
                                           [](auto& i) { return i.weight > 0.0f && std::isfinite(i.weight); });
            if (none && unweighted++ == 0)
                fallback = detail::addPaletteEntry(model_, node_joint, glm::inverse(rest_model_[node_joint]));
            const bool many = influences[v].size() > kMaxInfluences;
            const float dropped =
                detail::limitInfluences(std::move(influences[v]), fallback, mesh.joints[v], mesh.weights[v]);
            if (many && dropped > 0.0f) ++over, worst = std::max(worst, dropped);
        }
        if (unweighted > 0)
            warn("mesh '" + mesh.name + "': " + std::to_string(unweighted) +
                 " vertices without weights bound to node '" + model_.skeleton.names[node_joint] + "'");
        if (over > 0) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.2g", double(worst));
            warn("mesh '" + mesh.name + "': " + std::to_string(over) +
                 " vertices had more than 4 influences; largest dropped weight " + buf);
        }

        const glm::mat4 m(bind);
        const glm::mat3 normal_matrix = glm::inverseTranspose(glm::mat3(m));
        for (glm::vec3& p : mesh.positions) p = glm::vec3(m * glm::vec4(p, 1.0f));
        for (glm::vec3& nrm : mesh.normals) nrm = normal_matrix * nrm;

        // Meshes of one skeleton usually list the same bones: share the Skin.
        std::sort(skin.joints.begin(), skin.joints.end());
        skin.joints.erase(std::unique(skin.joints.begin(), skin.joints.end()), skin.joints.end());
        for (size_t s = 0; s < model_.skins.size(); ++s)
            if (model_.skins[s].joints == skin.joints) mesh.skin = int32_t(s);
        if (mesh.skin < 0) {
            model_.skins.push_back(std::move(skin));
            mesh.skin = int32_t(model_.skins.size() - 1);
        }
    }

    Status buildMeshes() {
        std::vector<bool> used(scene_.mNumMeshes, false);
        for (uint32_t j = 0; j < nodes_.size(); ++j) {
            const aiNode& node = *nodes_[j];
            for (unsigned i = 0; node.mMeshes && i < node.mNumMeshes; ++i) {
                const unsigned index = node.mMeshes[i];
                if (index >= scene_.mNumMeshes || scene_.mMeshes[index] == nullptr) continue;
                used[index] = true;
                const aiMesh& am = *scene_.mMeshes[index];
                Mesh mesh;
                mesh.name = am.mName.length > 0 ? am.mName.C_Str() : node.mName.C_Str();
                if (!readGeometry(am, mesh)) continue;
                if (am.mNumBones > 0 && am.mBones != nullptr) {
                    skinMesh(am, j, mesh); // normals go through M before normalising
                    fixNormals(mesh);
                } else {
                    fixNormals(mesh);
                    detail::bindRigidMesh(model_, mesh, j, rest_model_);
                }
                model_.meshes.push_back(std::move(mesh));
            }
        }
        const auto unused = std::count(used.begin(), used.end(), false);
        if (unused > 0) warn(std::to_string(unused) + " mesh(es) not placed by any node; skipped");
        if (model_.meshes.empty()) return Status::failure("no triangle meshes");
        if (model_.skins.empty()) warn("no skin: meshes imported as rigid parts that move with their nodes");
        return {};
    }

    // Keys of one channel as a track: seconds, strictly increasing, >= 0.
    template <class Key, class Convert>
    void addTrack(Clip& clip, uint32_t joint, TrackTarget target, const Key* keys, unsigned count, double tps,
                  Convert convert, uint32_t& fixed) {
        if (keys == nullptr || count == 0) return;
        Track track;
        track.joint = joint;
        track.target = target;
        track.interpolation = Interpolation::Linear; // assimp: lerp, and slerp for rotations
        for (unsigned k = 0; k < count; ++k) {
            const double seconds = keys[k].mTime / tps; // guarded: out-of-range float casts are UB
            const glm::vec4 value = convert(keys[k].mValue);
            if (!(std::fabs(seconds) < 1e9) || !std::isfinite(glm::dot(value, value))) {
                ++fixed;
                continue;
            }
            float t = float(seconds);
            if (t < 0.0f) t = 0.0f, ++fixed;
            if (!track.times.empty() && !(t > track.times.back())) {
                ++fixed;
                if (t == track.times.back()) track.values.back() = value; // duplicate: keep the last
                continue;                                                 // out of order: drop
            }
            track.times.push_back(t);
            track.values.push_back(value);
        }
        if (!track.times.empty()) clip.tracks.push_back(std::move(track));
    }

    void buildClips() {
        for (unsigned a = 0; a < scene_.mNumAnimations; ++a) {
            const aiAnimation* anim = scene_.mAnimations[a];
            if (!anim) continue;
            Clip clip;
            // Unnamed: "clip0", as importGltf names them.
            clip.name = anim->mName.length > 0 ? anim->mName.C_Str() : "clip" + std::to_string(a);
            double tps = anim->mTicksPerSecond;
            if (!(tps > 0.0) || !std::isfinite(tps)) {
                warn("clip '" + clip.name + "': no ticks per second; assumed 25");
                tps = kDefaultTicksPerSecond;
            }
            if (anim->mNumMorphMeshChannels > 0 || anim->mNumMeshChannels > 0)
                warn("clip '" + clip.name + "': morph/mesh animation skipped");
            std::unordered_set<uint32_t> animated;
            uint32_t fixed = 0;
            for (unsigned c = 0; anim->mChannels && c < anim->mNumChannels; ++c) {
                const aiNodeAnim* ch = anim->mChannels[c];
                if (!ch) continue;
                auto it = joint_by_name_.find(ch->mNodeName.C_Str());
                if (it == joint_by_name_.end()) {
                    warn("clip '" + clip.name + "': channel for unknown node '" + ch->mNodeName.C_Str() + "' skipped");
                    continue;
                }
                if (!animated.insert(it->second).second) {
                    warn("clip '" + clip.name + "': second channel for node '" + ch->mNodeName.C_Str() + "' skipped");
                    continue;
                }
                auto vec = [](const aiVector3D& v) { return glm::vec4(v.x, v.y, v.z, 0.0f); };
                auto quat = [](const aiQuaternion& q) {
                    const glm::vec4 v(q.x, q.y, q.z, q.w); // aiQuaternion is w, x, y, z
                    const float len = glm::length(v);
                    return len > 1e-20f ? v / len : glm::vec4(NAN);
                };
                const uint32_t j = it->second;
                using T = TrackTarget;
                addTrack(clip, j, T::Translation, ch->mPositionKeys, ch->mNumPositionKeys, tps, vec, fixed);
                addTrack(clip, j, T::Rotation, ch->mRotationKeys, ch->mNumRotationKeys, tps, quat, fixed);
                addTrack(clip, j, T::Scale, ch->mScalingKeys, ch->mNumScalingKeys, tps, vec, fixed);
            }
            if (fixed > 0)
                warn("clip '" + clip.name + "': " + std::to_string(fixed) +
                     " keys with repeated, decreasing, negative or invalid times/values dropped or "
                     "clamped");
            float last = 0.0f;
            for (const Track& t : clip.tracks) last = std::max(last, t.times.back());
            const double duration = anim->mDuration / tps;
            clip.duration = duration > last && duration < 1e9 ? float(duration) : last; // NaN: last
            model_.clips.push_back(std::move(clip));
        }
    }
};

Result<Model> importScene(const std::string& path) {
    if (!std::ifstream(path, std::ios::binary)) return Error{"cannot open the file"};
    // assimp logs only through DefaultLogger, which stays the silent NullLogger unless someone
    // calls DefaultLogger::create(); we never do.
    Assimp::Importer importer;
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
    importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_USE_COLLADA_NAMES, true);
    // No aiProcess_LimitBoneWeights: limitInfluences does it and reports what it dropped.
    const unsigned flags = aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType |
                           aiProcess_ValidateDataStructure | aiProcess_FlipUVs;
    const aiScene* scene = importer.ReadFile(path, flags);
    if (scene == nullptr) {
        std::string why = importer.GetErrorString();
        // The caller names the file; keep the message free of the path.
        for (size_t at; !path.empty() && (at = why.find(path)) != std::string::npos;)
            why.replace(at, path.size(), "<file>");
        why = oneLine(why);
        return Error{"assimp could not read it: " + (why.empty() ? "unknown error" : why)};
    }
    if (scene->mRootNode == nullptr) return Error{"no node hierarchy"};
    if (scene->mNumMeshes == 0 || scene->mMeshes == nullptr) return Error{"no meshes"};

    Model model;
    model.source = path;
    model.format = formatName(path);
    AssimpReader reader(*scene, model);
    if (Status s = reader.read(); !s) return Error{s.message};
    return detail::finishImport(std::move(model));
}

} // namespace

Result<Model> importAssimp(const std::string& path) {
    // assimp reports most failures through ReadFile, but post-processing and our own
    // allocations on absurd sizes can still throw.
    try {
        return importScene(path);
    } catch (const std::bad_alloc&) {
        return Error{"out of memory while importing"};
    } catch (const std::exception& e) {
        return Error{"assimp could not read it: " + oneLine(e.what())};
    }
}

} // namespace throng
