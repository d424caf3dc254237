// An export (`throng bake --export`, docs/EXPORT.md) read back as another engine reads it:
// animation.exr and vat.exr with tinyexr, throng.json with nlohmann, mesh.gltf with tinygltf;
// and the double-precision truth its clips stand for. Shared by export_test.cpp (the documented
// GLSL evaluated on the CPU) and export_hlsl_test.cpp (export/throng_export.hlsl on the GPU).
#pragma once

#include <throng/anim.h>
#include <throng/bake.h>

#include <gtest/gtest.h>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>
#include <tiny_gltf.h>
#include <tinyexr.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace throng::test::exported {

struct Image {
    int width = 0, height = 0;
    std::vector<float> rgba;
    glm::vec4 texel(int x, int y) const {
        const float* p = &rgba[(size_t(y) * width + x) * 4];
        return {p[0], p[1], p[2], p[3]};
    }
};

inline Image readExr(const std::string& path) {
    Image img;
    float* data = nullptr;
    const char* err = nullptr;
    if (LoadEXR(&data, &img.width, &img.height, path.c_str(), &err) != TINYEXR_SUCCESS) {
        ADD_FAILURE() << path << ": " << (err ? err : "?");
        if (err) FreeEXRErrorMessage(err);
        return img;
    }
    img.rgba.assign(data, data + size_t(img.width) * img.height * 4);
    std::free(data);
    return img;
}

inline nlohmann::json readJson(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

// The mesh as a loader reads it: one primitive's attributes (every primitive shares them).
struct ExportedMesh {
    std::vector<glm::vec3> positions, normals;
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
    std::vector<float> vat_index;
    size_t primitives = 0, indices = 0;
};

template <class T> std::vector<T> readAccessor(const tinygltf::Model& m, int index) {
    const tinygltf::Accessor& a = m.accessors[size_t(index)];
    const tinygltf::BufferView& v = m.bufferViews[size_t(a.bufferView)];
    const uint8_t* base = m.buffers[size_t(v.buffer)].data.data() + v.byteOffset + a.byteOffset;
    std::vector<T> out(a.count);
    std::memcpy(out.data(), base, a.count * sizeof(T));
    return out;
}

inline ExportedMesh readGltf(const std::string& path) {
    tinygltf::TinyGLTF loader;
    tinygltf::Model model;
    std::string err, warn;
    ExportedMesh mesh;
    if (!loader.LoadASCIIFromFile(&model, &err, &warn, path)) {
        ADD_FAILURE() << path << ": " << err;
        return mesh;
    }
    const tinygltf::Primitive& p = model.meshes.at(0).primitives.at(0);
    mesh.positions = readAccessor<glm::vec3>(model, p.attributes.at("POSITION"));
    mesh.normals = readAccessor<glm::vec3>(model, p.attributes.at("NORMAL"));
    mesh.joints = readAccessor<glm::u16vec4>(model, p.attributes.at("JOINTS_0"));
    mesh.weights = readAccessor<glm::vec4>(model, p.attributes.at("WEIGHTS_0"));
    mesh.vat_index = readAccessor<float>(model, p.attributes.at("_VAT_INDEX"));
    EXPECT_EQ(model.accessors[size_t(p.attributes.at("JOINTS_0"))].componentType,
              TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
    mesh.primitives = model.meshes[0].primitives.size();
    for (const tinygltf::Primitive& q : model.meshes[0].primitives)
        mesh.indices += model.accessors[size_t(q.indices)].count;
    return mesh;
}

// The double-precision truth. --------------------------------------------------------------

// What sampling a clip at `time` means (baked.h), in double: the baked frames around it and the
// weight of the second.
struct Frames {
    uint32_t f0 = 0, f1 = 0;
    double w = 0.0;
};

inline Frames framesAt(const BakedClip& clip, double time) {
    const double duration = clip.duration, last = double(clip.frame_count - 1);
    if (duration <= 0.0) return {};
    const double local = clip.loop ? time - duration * std::floor(time / duration) : std::clamp(time, 0.0, duration);
    const double u = std::clamp(local / duration * last, 0.0, last);
    Frames f;
    f.f0 = uint32_t(std::floor(u));
    f.f1 = std::min(f.f0 + 1, clip.frame_count - 1);
    f.w = u - std::floor(u);
    return f;
}

// Every mesh of the model skinned in double by `matrices`, in bake order.
inline SkinnedVertices skinAll(const Model& model, const std::vector<glm::dmat4>& matrices) {
    SkinnedVertices out;
    for (const throng::Mesh& mesh : model.meshes) {
        const SkinnedVertices s = referenceSkin(mesh, matrices);
        out.positions.insert(out.positions.end(), s.positions.begin(), s.positions.end());
        out.normals.insert(out.normals.end(), s.normals.begin(), s.normals.end());
    }
    return out;
}

// The exact poses a clip's baked frames hold (the last frame: the pose at the clip's end).
struct ExactFrame {
    std::vector<glm::dmat4> matrices;
    SkinnedVertices skinned;
};

inline double diagonal(const BakedAsset& asset) {
    return double(glm::length(asset.bind_bounds.max - asset.bind_bounds.min));
}

// Angle between two directions, in radians.
inline double angle(glm::dvec3 a, glm::dvec3 b) { return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b)); }

} // namespace throng::test::exported
