// Derived facts about a Model: bounds and counts (what `throng info` reports).
#include <throng/model.h>

#include "names.h"

#include <algorithm>
#include <limits>
#include <set>

namespace throng {

glm::mat4 toMatrix(const Transform& t) {
    glm::mat4 m = glm::mat4_cast(t.rotation);
    m[0] *= t.scale.x;
    m[1] *= t.scale.y;
    m[2] *= t.scale.z;
    m[3] = glm::vec4(t.translation, 1.0f);
    return m;
}

std::string textureNotFound(const Texture& t) {
    return "texture '" + (t.name.empty() ? t.uri : t.name) + "': image file '" + t.uri +
           "' not found next to the model; drawn without it (its base colour shows)";
}

std::vector<std::string> missingTextures(const Model& model) {
    std::vector<std::string> out;
    for (const Texture& t : model.textures)
        if (!t.uri.empty() && t.encoded.empty()) out.push_back(textureNotFound(t));
    return out;
}

const char* toString(Interpolation i) {
    switch (i) {
    case Interpolation::Step: return "STEP";
    case Interpolation::Linear: return "LINEAR";
    case Interpolation::CubicSpline: return "CUBICSPLINE";
    }
    return "?";
}

const char* toString(TrackTarget t) {
    switch (t) {
    case TrackTarget::Translation: return "translation";
    case TrackTarget::Rotation: return "rotation";
    case TrackTarget::Scale: return "scale";
    }
    return "?";
}

Bounds bindPoseBounds(const Model& model) {
    glm::vec3 lo(std::numeric_limits<float>::max());
    glm::vec3 hi(-std::numeric_limits<float>::max());
    for (const Mesh& mesh : model.meshes) {
        for (const glm::vec3& p : mesh.positions) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
        }
    }
    if (lo.x > hi.x) return Bounds{};
    return Bounds{lo, hi};
}

uint32_t vertexCount(const Model& model) {
    size_t n = 0;
    for (const Mesh& mesh : model.meshes) n += mesh.positions.size();
    return uint32_t(n);
}

uint32_t triangleCount(const Model& model) {
    size_t n = 0;
    for (const Mesh& mesh : model.meshes) n += mesh.indices.size() / 3;
    return uint32_t(n);
}

uint32_t skinJointCount(const Model& model) {
    std::set<uint32_t> joints;
    for (const Skin& skin : model.skins) joints.insert(skin.joints.begin(), skin.joints.end());
    return uint32_t(joints.size());
}

uint32_t keyframeCount(const Clip& clip) {
    size_t n = 0;
    for (const Track& track : clip.tracks) n += track.times.size();
    return uint32_t(n);
}

} // namespace throng
