// Builds small glTF files in tests: a two-joint rig whose every property (interpolation,
// component types, sparse data, deliberate faults) a test can choose.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

namespace throng::test {

class GltfBuilder {
  public:
    nlohmann::json json = {{"asset", {{"version", "2.0"}}}};
    std::vector<uint8_t> bin;

    // Appends bytes as a new bufferView; returns its index.
    int addView(const void* data, size_t bytes) {
        while (bin.size() % 4 != 0) bin.push_back(0);
        const size_t offset = bin.size();
        bin.resize(offset + bytes);
        std::memcpy(bin.data() + offset, data, bytes);
        json["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bytes}});
        return int(json["bufferViews"].size() - 1);
    }

    template <class T>
    int addAccessor(const std::vector<T>& values, int component_type, size_t count, const char* type,
                    bool normalized = false) {
        const int view = addView(values.data(), values.size() * sizeof(T));
        nlohmann::json a = {{"bufferView", view}, {"componentType", component_type}, {"count", count}, {"type", type}};
        if (normalized) a["normalized"] = true;
        json["accessors"].push_back(a);
        return int(json["accessors"].size() - 1);
    }

    void writeGltf(const std::string& path) {
        json["buffers"] = {
            {{"byteLength", bin.size()}, {"uri", "data:application/octet-stream;base64," + base64(bin)}}};
        std::ofstream(path) << json.dump();
    }

    void writeGlb(const std::string& path) {
        json["buffers"] = {{{"byteLength", bin.size()}}};
        std::string text = json.dump();
        while (text.size() % 4 != 0) text.push_back(' ');
        std::vector<uint8_t> body = bin;
        while (body.size() % 4 != 0) body.push_back(0);
        std::ofstream out(path, std::ios::binary);
        auto u32 = [&](uint32_t v) { out.write(reinterpret_cast<const char*>(&v), 4); };
        out.write("glTF", 4);
        u32(2);
        u32(uint32_t(12 + 8 + text.size() + 8 + body.size()));
        u32(uint32_t(text.size()));
        out.write("JSON", 4);
        out.write(text.data(), std::streamsize(text.size()));
        u32(uint32_t(body.size()));
        out.write("BIN\0", 4);
        out.write(reinterpret_cast<const char*>(body.data()), std::streamsize(body.size()));
    }

    static std::string base64(const std::vector<uint8_t>& data) {
        static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        std::string out;
        for (size_t i = 0; i < data.size(); i += 3) {
            const uint32_t n = uint32_t(data[i]) << 16 | (i + 1 < data.size() ? uint32_t(data[i + 1]) << 8 : 0) |
                               (i + 2 < data.size() ? uint32_t(data[i + 2]) : 0);
            out += digits[(n >> 18) & 63];
            out += digits[(n >> 12) & 63];
            out += i + 1 < data.size() ? digits[(n >> 6) & 63] : '=';
            out += i + 2 < data.size() ? digits[n & 63] : '=';
        }
        return out;
    }
};

constexpr int kFloat = 5126, kUByte = 5121, kUShort = 5123;

struct RigOptions {
    std::string interpolation = "LINEAR"; // of the bone's rotation track
    int weight_type = kFloat;             // kFloat, or kUByte / kUShort (normalized)
    int joint_type = kUByte;              // kUByte or kUShort
    bool skin = true;                     // false: the mesh node has no skin
    bool sparse_position = false;         // vertex 5 stored as (9,9,9), fixed by a sparse accessor
    bool nan_weight = false;              // vertex 1's first weight is NaN
    bool bad_position_accessor = false;   // POSITION refers to accessor 99
    bool cycle = false;                   // the bone lists the root as its child
};

// Two joints: "root" at the origin and "bone" at (0,1,0); a 6-vertex strip from y=0 to y=2
// (y=0 on root, y=1 half/half, y=2 on bone). Clip "wave": bone rotates 0 -> 90 -> 0 degrees
// about z at t = 0, 1, 2; root translation STEPs to (2,0,0) at t = 1.
inline GltfBuilder makeRig(const RigOptions& o = {}) {
    GltfBuilder b;
    std::vector<float> pos = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0, 2, 0, 1, 2, 0};
    if (o.sparse_position) pos[15] = pos[16] = pos[17] = 9.0f;
    const int positions = b.addAccessor(pos, kFloat, 6, "VEC3");
    if (o.sparse_position) {
        const std::vector<uint16_t> idx = {5};
        const std::vector<float> val = {1, 2, 0};
        const int iv = b.addView(idx.data(), 2), vv = b.addView(val.data(), 12);
        b.json["accessors"][positions]["sparse"] = {{"count", 1},
                                                    {"indices", {{"bufferView", iv}, {"componentType", kUShort}}},
                                                    {"values", {{"bufferView", vv}}}};
    }
    const std::vector<uint16_t> indices = {0, 1, 2, 2, 1, 3, 2, 3, 4, 4, 3, 5};
    const int idx = b.addAccessor(indices, kUShort, 12, "SCALAR");
    const std::vector<float> wf = {
        1, 0, 0, 0, o.nan_weight ? NAN : 1.0f, 0, 0, 0, .5f, .5f, 0, 0, .5f, .5f, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0};
    int weights = 0;
    if (o.weight_type == kFloat) {
        weights = b.addAccessor(wf, kFloat, 6, "VEC4");
    } else if (o.weight_type == kUByte) {
        const std::vector<uint8_t> w = {255, 0,   0, 0, 255, 0,   0, 0, 128, 127, 0, 0,
                                        128, 127, 0, 0, 0,   255, 0, 0, 0,   255, 0, 0};
        weights = b.addAccessor(w, kUByte, 6, "VEC4", true);
    } else {
        const std::vector<uint16_t> w = {65535, 0,     0, 0, 65535, 0,     0, 0, 32768, 32767, 0, 0,
                                         32768, 32767, 0, 0, 0,     65535, 0, 0, 0,     65535, 0, 0};
        weights = b.addAccessor(w, kUShort, 6, "VEC4", true);
    }
    int joints = 0;
    if (o.joint_type == kUByte)
        joints =
            b.addAccessor(std::vector<uint8_t>{0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0},
                          kUByte, 6, "VEC4");
    else
        joints =
            b.addAccessor(std::vector<uint16_t>{0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0},
                          kUShort, 6, "VEC4");
    const std::vector<float> ibm = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1,
                                    1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1};
    const int ibms = b.addAccessor(ibm, kFloat, 2, "MAT4");

    nlohmann::json attributes = {{"POSITION", o.bad_position_accessor ? 99 : positions}};
    if (o.skin) {
        attributes["JOINTS_0"] = joints;
        attributes["WEIGHTS_0"] = weights;
    }
    b.json["meshes"] = {{{"name", "strip"}, {"primitives", {{{"attributes", attributes}, {"indices", idx}}}}}};
    nlohmann::json bone = {{"name", "bone"}, {"translation", {0, 1, 0}}};
    if (o.cycle) bone["children"] = {0};
    b.json["nodes"] = {{{"name", "root"}, {"children", {1}}}, bone, {{"name", "body"}, {"mesh", 0}}};
    if (o.skin) {
        b.json["nodes"][2]["skin"] = 0;
        b.json["skins"] = {{{"joints", {0, 1}}, {"inverseBindMatrices", ibms}}};
    }
    b.json["scenes"] = {{{"nodes", {0, 2}}}};
    b.json["scene"] = 0;

    const float s = 0.70710678f;
    const std::vector<float> times = {0, 1, 2};
    std::vector<float> rot = {0, 0, 0, 1, 0, 0, s, s, 0, 0, 0, 1};
    if (o.interpolation == "CUBICSPLINE") {
        // in-tangent, value, out-tangent per key; zero tangents except key 1's out-tangent.
        rot = {0, 0, 0, 0, 0,     0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
               s, s, 0, 0, -0.5f, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
    }
    const int in = b.addAccessor(times, kFloat, 3, "SCALAR");
    const int out = b.addAccessor(rot, kFloat, rot.size() / 4, "VEC4");
    const int step_in = b.addAccessor(std::vector<float>{0, 1}, kFloat, 2, "SCALAR");
    const int step_out = b.addAccessor(std::vector<float>{0, 0, 0, 2, 0, 0}, kFloat, 2, "VEC3");
    b.json["animations"] = {{{"name", "wave"},
                             {"samplers",
                              {{{"input", in}, {"output", out}, {"interpolation", o.interpolation}},
                               {{"input", step_in}, {"output", step_out}, {"interpolation", "STEP"}}}},
                             {"channels",
                              {{{"sampler", 0}, {"target", {{"node", 1}, {"path", "rotation"}}}},
                               {{"sampler", 1}, {"target", {{"node", 0}, {"path", "translation"}}}}}}}};
    return b;
}

} // namespace throng::test
