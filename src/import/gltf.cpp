// glTF 2.0 importer (.gltf / .glb) through tinygltf.
//
// tinygltf parses the JSON and loads buffers; everything that touches buffer bytes is ours and
// bounds-checked here (accessor ranges, strides, sparse substitution), because the input may be
// hostile. Images are kept encoded: decoding is the baker's business, not the importer's.
#include <throng/import.h>

#include "common.h"

#include <throng/files.h>

#include <tiny_gltf.h>

#include <glm/gtc/type_ptr.hpp>
#include <glm/gtx/matrix_decompose.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <set>
#include <span>

namespace throng {
namespace {

using detail::Influence;

constexpr uint32_t kMaxJsonDepth = 128; // far above any real glTF (about 10)
// Numbers decoded from accessors per import: 2^25 is 2M vertices with every attribute, and keeps
// the Model (about 16 bytes per decoded number once widened to vertices) under 1 GiB.
constexpr uint64_t kMaxDecodedValues = uint64_t(1) << 25;
constexpr uint64_t kMaxValuesWithoutData = uint64_t(1) << 24; // zeros for one accessor without a bufferView
constexpr uint64_t kMaxExternalFileBytes = uint64_t(1) << 32; // one external buffer or image

std::string firstLine(std::string s) {
    while (!s.empty() && (s.front() == '\n' || s.front() == ' ')) s.erase(s.begin());
    if (size_t nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return detail::oneLine(s);
}

// An index decoded as a double (a file may store it as a float): in [0, n), never NaN. And how a
// message names it without converting a value no integer type holds (1e31, NaN: found by fuzzing).
bool indexIn(double d, uint64_t n) { return d >= 0.0 && d < double(n); }
std::string indexText(double d) {
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", d);
    return text;
}

// Keep images encoded (tinygltf would decode them with stb_image).
bool keepEncodedImage(tinygltf::Image* image, const int, std::string*, std::string*, int, int,
                      const unsigned char* bytes, int size, void*) {
    if (size > 0) image->image.assign(bytes, bytes + size);
    image->width = image->height = -1;
    return true;
}

// A GLB header check before tinygltf sees the bytes: clearer messages for truncation and
// non-GLB data, and no reliance on the parser for the most common corruption.
Status checkGlbHeader(std::span<const uint8_t> bytes) {
    const uint64_t size = bytes.size();
    if (size < 12) return Status::failure("truncated GLB: " + std::to_string(size) + " bytes, a header needs 12");
    if (std::memcmp(bytes.data(), "glTF", 4) != 0) return Status::failure("not a GLB file (no 'glTF' magic)");
    uint32_t version = 0, length = 0;
    std::memcpy(&version, bytes.data() + 4, 4);
    std::memcpy(&length, bytes.data() + 8, 4);
    if (version != 2) return Status::failure("GLB version " + std::to_string(version) + " is not supported (only 2)");
    if (length > size)
        return Status::failure("truncated GLB: header says " + std::to_string(length) + " bytes, file has " +
                               std::to_string(size));
    return {};
}

// The JSON text of a .gltf, or the JSON chunk of a .glb (empty when the chunk header is bad:
// tinygltf then says what is wrong).
std::span<const uint8_t> jsonText(std::span<const uint8_t> bytes, bool binary) {
    if (!binary) return bytes;
    if (bytes.size() < 20) return {};
    uint32_t length = 0;
    std::memcpy(&length, bytes.data() + 12, 4);
    return length <= bytes.size() - 20 ? bytes.subspan(20, length) : std::span<const uint8_t>{};
}

// tinygltf's JSON parser recurses once per nesting level, so a file of 30,000 nested arrays
// overflows the stack. Counted here, without recursion, before the parser sees the text.
Status checkJsonDepth(std::span<const uint8_t> json) {
    uint32_t depth = 0;
    bool in_string = false, escaped = false;
    for (uint8_t c : json) {
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonDepth)
                return Status::failure("glTF: JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return {};
}

// External buffers and images go through the same regular-file check as the model itself
// (a FIFO named by a uri must not hang us); no shell expansion of paths; nothing is written.
bool externalExists(const std::string& path, void* allowed) {
    return allowed != nullptr && io::checkInputFile(path).ok();
}
std::string externalPath(const std::string& path, void*) { return path; }
bool readExternal(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* allowed) {
    if (allowed == nullptr) {
        if (err) *err += "external file '" + path + "' refused (reading from memory)\n";
        return false;
    }
    Result<std::vector<uint8_t>> r = io::readRegularFile(path, kMaxExternalFileBytes);
    if (!r) {
        if (err) *err += "external file '" + path + "': " + r.error().message + "\n";
        return false;
    }
    *out = std::move(r).value();
    return true;
}
bool refuseWrite(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
    if (err) *err += "writing is not supported\n";
    return false;
}

// Reads any accessor as doubles (exact for every glTF component type), applying normalisation
// and sparse substitution. `out` holds count * components values.
class AccessorReader {
  public:
    explicit AccessorReader(const tinygltf::Model& gm) : gm_(gm) {}

    Status read(int index, std::vector<double>& out, int& components) const {
        if (index < 0 || size_t(index) >= gm_.accessors.size())
            return fail("accessor index " + std::to_string(index) + " out of range (" +
                        std::to_string(gm_.accessors.size()) + " accessors)");
        const tinygltf::Accessor& a = gm_.accessors[size_t(index)];
        const std::string where = "accessor " + std::to_string(index);
        components = tinygltf::GetNumComponentsInType(uint32_t(a.type));
        const int csize = tinygltf::GetComponentSizeInBytes(uint32_t(a.componentType));
        if (components <= 0 || csize <= 0) return fail(where + ": unknown type or component type");
        const uint64_t count = a.count;
        const uint64_t elem = uint64_t(components) * uint64_t(csize);
        out.assign(0, 0.0);
        if (a.bufferView >= 0) {
            const uint8_t* base = nullptr;
            uint64_t stride = 0;
            if (Status s = view(a.bufferView, a.byteOffset, count, elem, base, stride, where); !s) return s;
            if (Status s = spend(count * uint64_t(components), where); !s) return s;
            out.resize(size_t(count * uint64_t(components)));
            for (uint64_t i = 0; i < count; ++i)
                decode(base + i * stride, a.componentType, components, a.normalized,
                       &out[size_t(i * uint64_t(components))]);
        } else {
            if (count > kMaxValuesWithoutData / uint64_t(components))
                return fail(where + ": count " + std::to_string(count) + " is absurd for an accessor without data");
            if (Status s = spend(count * uint64_t(components), where); !s) return s;
            out.assign(size_t(count * uint64_t(components)), 0.0);
        }
        if (a.sparse.isSparse) return applySparse(a, where, components, csize, out);
        return {};
    }

  private:
    static Status fail(std::string m) { return Status::failure(std::move(m)); }

    // Accessors may be read many times (primitives share vertex data), so the budget is over
    // every value decoded during the import, not per accessor.
    Status spend(uint64_t values, const std::string& where) const {
        if (values > kMaxDecodedValues - spent_)
            return fail(where + ": the file's accessors add up to more than " + std::to_string(kMaxDecodedValues) +
                        " values (the import's limit)");
        spent_ += values;
        return {};
    }
    mutable uint64_t spent_ = 0;

    Status view(int view_index, uint64_t offset, uint64_t count, uint64_t elem, const uint8_t*& base, uint64_t& stride,
                const std::string& where) const {
        if (view_index < 0 || size_t(view_index) >= gm_.bufferViews.size())
            return fail(where + ": bufferView " + std::to_string(view_index) + " out of range");
        const tinygltf::BufferView& bv = gm_.bufferViews[size_t(view_index)];
        if (bv.buffer < 0 || size_t(bv.buffer) >= gm_.buffers.size())
            return fail(where + ": buffer index out of range");
        const tinygltf::Buffer& buf = gm_.buffers[size_t(bv.buffer)];
        if (uint64_t(bv.byteOffset) + bv.byteLength > buf.data.size())
            return fail(where + ": bufferView " + std::to_string(view_index) + " runs past the end of its buffer");
        stride = bv.byteStride != 0 ? uint64_t(bv.byteStride) : elem;
        if (stride < elem) return fail(where + ": byteStride smaller than the element");
        if (count > 0 && offset + (count - 1) * stride + elem > bv.byteLength)
            return fail(where + ": " + std::to_string(count) + " elements do not fit in bufferView " +
                        std::to_string(view_index));
        base = buf.data.data() + bv.byteOffset + offset;
        return {};
    }

    static void decode(const uint8_t* p, int type, int n, bool normalized, double* out) {
        for (int c = 0; c < n; ++c) {
            double v = 0.0;
            switch (type) {
            case TINYGLTF_COMPONENT_TYPE_BYTE: {
                int8_t x;
                std::memcpy(&x, p + c, 1);
                v = normalized ? std::max(x / 127.0, -1.0) : x;
                break;
            }
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: {
                uint8_t x;
                std::memcpy(&x, p + c, 1);
                v = normalized ? x / 255.0 : x;
                break;
            }
            case TINYGLTF_COMPONENT_TYPE_SHORT: {
                int16_t x;
                std::memcpy(&x, p + 2 * c, 2);
                v = normalized ? std::max(x / 32767.0, -1.0) : x;
                break;
            }
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
                uint16_t x;
                std::memcpy(&x, p + 2 * c, 2);
                v = normalized ? x / 65535.0 : x;
                break;
            }
            case TINYGLTF_COMPONENT_TYPE_INT: {
                int32_t x;
                std::memcpy(&x, p + 4 * c, 4);
                v = x;
                break;
            }
            case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
                uint32_t x;
                std::memcpy(&x, p + 4 * c, 4);
                v = x;
                break;
            }
            case TINYGLTF_COMPONENT_TYPE_FLOAT: {
                float x;
                std::memcpy(&x, p + 4 * c, 4);
                v = x;
                break;
            }
            case TINYGLTF_COMPONENT_TYPE_DOUBLE: {
                double x;
                std::memcpy(&x, p + 8 * c, 8);
                v = x;
                break;
            }
            default: break;
            }
            out[c] = v;
        }
    }

    Status applySparse(const tinygltf::Accessor& a, const std::string& where, int components, int csize,
                       std::vector<double>& out) const {
        const auto& sp = a.sparse;
        if (sp.count < 0 || uint64_t(sp.count) > a.count) return fail(where + ": sparse count out of range");
        const uint64_t n = uint64_t(sp.count);
        const int isize = tinygltf::GetComponentSizeInBytes(uint32_t(sp.indices.componentType));
        if (isize != 1 && isize != 2 && isize != 4) return fail(where + ": bad sparse index type");
        const uint8_t* ibase = nullptr;
        const uint8_t* vbase = nullptr;
        uint64_t istride = 0, vstride = 0;
        const uint64_t velem = uint64_t(components) * uint64_t(csize);
        if (Status s = view(sp.indices.bufferView, uint64_t(std::max(sp.indices.byteOffset, 0)), n, uint64_t(isize),
                            ibase, istride, where + " sparse indices");
            !s)
            return s;
        if (Status s = view(sp.values.bufferView, uint64_t(std::max(sp.values.byteOffset, 0)), n, velem, vbase, vstride,
                            where + " sparse values");
            !s)
            return s;
        for (uint64_t i = 0; i < n; ++i) {
            double target = 0.0;
            decode(ibase + i * uint64_t(isize), sp.indices.componentType, 1, false, &target);
            if (!indexIn(target, a.count)) return fail(where + ": sparse index " + indexText(target) + " out of range");
            decode(vbase + i * velem, a.componentType, components, a.normalized,
                   &out[size_t(uint64_t(target) * uint64_t(components))]);
        }
        return {};
    }

    const tinygltf::Model& gm_;
};

Transform nodeTransform(const tinygltf::Node& node, std::vector<std::string>& warnings) {
    Transform t;
    if (node.matrix.size() == 16) {
        glm::dmat4 m = glm::make_mat4(node.matrix.data());
        glm::dvec3 scale, translation, skew;
        glm::dquat rotation;
        glm::dvec4 perspective;
        if (glm::decompose(m, scale, rotation, translation, skew, perspective)) {
            t.translation = glm::vec3(translation);
            t.rotation = glm::quat(glm::normalize(rotation));
            t.scale = glm::vec3(scale);
            if (glm::length(skew) > 1e-6)
                warnings.push_back("node '" + node.name + "': matrix has shear, which was dropped");
        } else {
            warnings.push_back("node '" + node.name + "': matrix could not be decomposed; identity used");
        }
        return t;
    }
    if (node.translation.size() == 3)
        t.translation = glm::vec3(node.translation[0], node.translation[1], node.translation[2]);
    if (node.rotation.size() == 4)
        t.rotation = glm::quat(float(node.rotation[3]), float(node.rotation[0]), float(node.rotation[1]),
                               float(node.rotation[2]));
    if (node.scale.size() == 3) t.scale = glm::vec3(node.scale[0], node.scale[1], node.scale[2]);
    return t;
}

struct Importer {
    const tinygltf::Model& gm;
    AccessorReader reader{gm};
    Model model;
    std::vector<int32_t> joint_of_node;              // gltf node -> skeleton joint
    std::vector<std::vector<uint32_t>> skin_palette; // gltf skin -> skin joint -> palette entry
    std::vector<glm::mat4> rest_model;
    bool warned_morph = false;

    Status buildSkeleton() {
        const size_t n = gm.nodes.size();
        std::vector<int32_t> parents(n, kNoParent);
        std::vector<std::string> names(n);
        for (size_t i = 0; i < n; ++i) {
            names[i] = gm.nodes[i].name;
            for (int c : gm.nodes[i].children) {
                if (c < 0 || size_t(c) >= n)
                    return Status::failure("node " + std::to_string(i) + " has child " + std::to_string(c) +
                                           ", which does not exist");
                if (parents[size_t(c)] != kNoParent || size_t(c) == i)
                    return Status::failure("node " + std::to_string(c) +
                                           " has two parents or is its own child (the node hierarchy has a cycle)");
                parents[size_t(c)] = int32_t(i);
            }
        }
        std::vector<uint32_t> order;
        if (Status s = detail::orderParentsFirst(parents, names, order, joint_of_node); !s) return s;
        Skeleton& sk = model.skeleton;
        for (uint32_t old : order) {
            sk.names.push_back(names[old].empty() ? "node" + std::to_string(old) : names[old]);
            sk.parents.push_back(parents[old] == kNoParent ? kNoParent : joint_of_node[size_t(parents[old])]);
            sk.rest.push_back(nodeTransform(gm.nodes[old], model.warnings));
        }
        rest_model = detail::restModelMatrices(sk);
        return {};
    }

    Status buildSkins() {
        for (size_t s = 0; s < gm.skins.size(); ++s) {
            const tinygltf::Skin& gs = gm.skins[s];
            Skin skin;
            skin.name = gs.name;
            std::vector<double> ibm;
            int comps = 0;
            if (gs.inverseBindMatrices >= 0) {
                if (Status st = reader.read(gs.inverseBindMatrices, ibm, comps); !st)
                    return Status::failure("skin " + std::to_string(s) + ": " + st.message);
                if (comps != 16 || ibm.size() < gs.joints.size() * 16)
                    return Status::failure("skin " + std::to_string(s) +
                                           ": inverse bind matrices are not one MAT4 per joint");
            }
            std::vector<uint32_t> entries;
            for (size_t k = 0; k < gs.joints.size(); ++k) {
                const int node = gs.joints[k];
                if (node < 0 || size_t(node) >= gm.nodes.size())
                    return Status::failure("skin " + std::to_string(s) + ": joint " + std::to_string(k) + " is node " +
                                           std::to_string(node) + ", which does not exist");
                const uint32_t joint = uint32_t(joint_of_node[size_t(node)]);
                skin.joints.push_back(joint);
                glm::mat4 m(1.0f);
                if (!ibm.empty()) m = glm::mat4(glm::make_mat4(&ibm[16 * k]));
                entries.push_back(detail::addPaletteEntry(model, joint, m));
            }
            model.skins.push_back(std::move(skin));
            skin_palette.push_back(std::move(entries));
        }
        return {};
    }

    Status readVec(const std::map<std::string, int>& attributes, const char* name, int want, std::vector<double>& out,
                   bool& present) {
        auto it = attributes.find(name);
        present = it != attributes.end();
        if (!present) return {};
        int comps = 0;
        if (Status s = reader.read(it->second, out, comps); !s)
            return Status::failure(std::string(name) + ": " + s.message);
        if (comps < want)
            return Status::failure(std::string(name) + ": accessor has " + std::to_string(comps) +
                                   " components, need " + std::to_string(want));
        if (comps != want) { // COLOR_0 may be VEC3: widen to RGBA with alpha 1
            std::vector<double> w;
            for (size_t i = 0; i + size_t(comps) <= out.size(); i += size_t(comps))
                for (int c = 0; c < want; ++c) w.push_back(out[i + size_t(c)]);
            out.swap(w);
        }
        return {};
    }

    // Appends one primitive to `mesh`. influences: per new vertex, filled for skinned meshes.
    Status addPrimitive(const tinygltf::Primitive& prim, int skin, Mesh& mesh,
                        std::vector<std::vector<Influence>>& influences, const std::string& mesh_name) {
        if (prim.mode != TINYGLTF_MODE_TRIANGLES && prim.mode != TINYGLTF_MODE_TRIANGLE_STRIP &&
            prim.mode != TINYGLTF_MODE_TRIANGLE_FAN && prim.mode != -1) {
            model.warnings.push_back("mesh '" + mesh_name + "': a point or line primitive was skipped");
            return {};
        }
        if (!prim.targets.empty() && !warned_morph) {
            model.warnings.push_back("morph targets skipped (first in mesh '" + mesh_name + "')");
            warned_morph = true;
        }
        std::vector<double> pos, nrm, uv, col;
        bool has_pos = false, has_nrm = false, has_uv = false, has_col = false;
        if (Status s = readVec(prim.attributes, "POSITION", 3, pos, has_pos); !s) return s;
        if (!has_pos) return Status::failure("mesh '" + mesh_name + "': a primitive has no POSITION");
        if (Status s = readVec(prim.attributes, "NORMAL", 3, nrm, has_nrm); !s) return s;
        if (Status s = readVec(prim.attributes, "TEXCOORD_0", 2, uv, has_uv); !s) return s;
        if (Status s = readVec(prim.attributes, "COLOR_0", 4, col, has_col); !s) {
            // COLOR_0 may legally be VEC3.
            if (Status s3 = readVec(prim.attributes, "COLOR_0", 3, col, has_col); !s3) return s3;
            std::vector<double> w;
            for (size_t i = 0; i + 3 <= col.size(); i += 3) w.insert(w.end(), {col[i], col[i + 1], col[i + 2], 1.0});
            col.swap(w);
        }
        const size_t count = pos.size() / 3;
        auto sameCount = [&](const std::vector<double>& v, int c, const char* what) {
            return v.size() == count * size_t(c)
                       ? Status{}
                       : Status::failure("mesh '" + mesh_name + "': " + what + " count differs from POSITION count");
        };
        if (has_nrm)
            if (Status s = sameCount(nrm, 3, "NORMAL"); !s) return s;
        if (has_uv)
            if (Status s = sameCount(uv, 2, "TEXCOORD_0"); !s) return s;
        if (has_col)
            if (Status s = sameCount(col, 4, "COLOR_0"); !s) return s;

        const uint32_t base = uint32_t(mesh.positions.size());
        for (size_t i = 0; i < count; ++i) {
            mesh.positions.emplace_back(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
            mesh.normals.push_back(has_nrm ? glm::vec3(nrm[3 * i], nrm[3 * i + 1], nrm[3 * i + 2]) : glm::vec3(0.0f));
            mesh.uvs.push_back(has_uv ? glm::vec2(uv[2 * i], uv[2 * i + 1]) : glm::vec2(0.0f));
            mesh.colors.push_back(has_col ? glm::vec4(col[4 * i], col[4 * i + 1], col[4 * i + 2], col[4 * i + 3])
                                          : glm::vec4(1.0f));
        }
        // Indices: triangle lists as they are; strips and fans unrolled.
        std::vector<uint32_t> idx;
        if (prim.indices >= 0) {
            std::vector<double> raw;
            int comps = 0;
            if (Status s = reader.read(prim.indices, raw, comps); !s) return Status::failure("indices: " + s.message);
            for (double d : raw) {
                if (!indexIn(d, count))
                    return Status::failure("mesh '" + mesh_name + "': vertex index " + indexText(d) +
                                           " out of range (" + std::to_string(count) + " vertices)");
                idx.push_back(uint32_t(d));
            }
        } else {
            for (uint32_t i = 0; i < count; ++i) idx.push_back(i);
        }
        const uint32_t first = uint32_t(mesh.indices.size());
        if (prim.mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
            for (size_t i = 2; i < idx.size(); ++i) {
                const bool odd = (i & 1) != 0;
                mesh.indices.insert(mesh.indices.end(),
                                    {base + idx[odd ? i - 1 : i - 2], base + idx[odd ? i - 2 : i - 1], base + idx[i]});
            }
        } else if (prim.mode == TINYGLTF_MODE_TRIANGLE_FAN) {
            for (size_t i = 2; i < idx.size(); ++i)
                mesh.indices.insert(mesh.indices.end(), {base + idx[0], base + idx[i - 1], base + idx[i]});
        } else {
            if (idx.size() % 3 != 0)
                return Status::failure("mesh '" + mesh_name + "': index count is not a multiple of 3");
            for (uint32_t i : idx) mesh.indices.push_back(base + i);
        }
        Submesh sub;
        sub.first_index = first;
        sub.index_count = uint32_t(mesh.indices.size()) - first;
        sub.material = prim.material >= 0 && size_t(prim.material) < gm.materials.size() ? prim.material : -1;
        mesh.submeshes.push_back(sub);

        if (skin >= 0) {
            // JOINTS_n / WEIGHTS_n sets, each 4 influences; all of them feed the limiter.
            influences.resize(mesh.positions.size());
            const std::vector<uint32_t>& entries = skin_palette[size_t(skin)];
            for (int set = 0;; ++set) {
                std::vector<double> j, w;
                bool has_j = false, has_w = false;
                if (Status s = readVec(prim.attributes, ("JOINTS_" + std::to_string(set)).c_str(), 4, j, has_j); !s)
                    return s;
                if (Status s = readVec(prim.attributes, ("WEIGHTS_" + std::to_string(set)).c_str(), 4, w, has_w); !s)
                    return s;
                if (!has_j && !has_w) break;
                if (has_j != has_w)
                    return Status::failure("mesh '" + mesh_name + "': JOINTS_" + std::to_string(set) +
                                           " without WEIGHTS_" + std::to_string(set) + " (or the reverse)");
                if (Status s = sameCount(j, 4, "JOINTS"); !s) return s;
                if (Status s = sameCount(w, 4, "WEIGHTS"); !s) return s;
                for (size_t v = 0; v < count; ++v)
                    for (int c = 0; c < 4; ++c) {
                        const double weight = w[4 * v + size_t(c)], joint = j[4 * v + size_t(c)];
                        if (!std::isfinite(weight))
                            return Status::failure("mesh '" + mesh_name + "' vertex " + std::to_string(v) +
                                                   ": weight is NaN or infinite");
                        if (weight == 0.0) continue;
                        if (!indexIn(joint, entries.size()))
                            return Status::failure("mesh '" + mesh_name + "' vertex " + std::to_string(v) + ": joint " +
                                                   indexText(joint) + " out of range (skin has " +
                                                   std::to_string(entries.size()) + " joints)");
                        influences[base + v].push_back(Influence{entries[size_t(joint)], float(weight)});
                    }
            }
        }
        if (!has_nrm) detail::computeNormals(mesh, base, first);
        return {};
    }

    Status buildMeshes() {
        // Meshes come from the nodes reachable from the scene (the default one, else the first,
        // else every root); a mesh used by several nodes becomes several Model meshes.
        std::vector<int> roots;
        const int scene = gm.defaultScene >= 0 ? gm.defaultScene : (gm.scenes.empty() ? -1 : 0);
        if (scene >= 0 && size_t(scene) < gm.scenes.size())
            roots = gm.scenes[size_t(scene)].nodes;
        else
            for (size_t i = 0; i < gm.nodes.size(); ++i)
                if (model.skeleton.parents[size_t(joint_of_node[i])] == kNoParent) roots.push_back(int(i));
        std::vector<int> stack(roots.rbegin(), roots.rend());
        std::vector<bool> seen(gm.nodes.size(), false);
        bool any_skin = false;
        size_t rigid = 0;
        while (!stack.empty()) {
            const int ni = stack.back();
            stack.pop_back();
            if (ni < 0 || size_t(ni) >= gm.nodes.size())
                return Status::failure("scene lists node " + std::to_string(ni) + ", which does not exist");
            if (seen[size_t(ni)]) continue;
            seen[size_t(ni)] = true;
            const tinygltf::Node& node = gm.nodes[size_t(ni)];
            for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) stack.push_back(*it);
            if (node.mesh < 0) continue;
            if (size_t(node.mesh) >= gm.meshes.size())
                return Status::failure("node " + std::to_string(ni) + ": mesh " + std::to_string(node.mesh) +
                                       " does not exist");
            if (node.skin >= 0 && size_t(node.skin) >= gm.skins.size())
                return Status::failure("node " + std::to_string(ni) + ": skin " + std::to_string(node.skin) +
                                       " does not exist");
            const tinygltf::Mesh& gmesh = gm.meshes[size_t(node.mesh)];
            Mesh mesh;
            mesh.name =
                gmesh.name.empty() ? (node.name.empty() ? "mesh" + std::to_string(node.mesh) : node.name) : gmesh.name;
            int skin = node.skin;
            if (skin >= 0) {
                bool weighted = true;
                for (const auto& p : gmesh.primitives)
                    weighted = weighted && p.attributes.count("JOINTS_0") && p.attributes.count("WEIGHTS_0");
                if (!weighted) {
                    model.warnings.push_back("mesh '" + mesh.name +
                                             "' has a skin but no JOINTS_0/WEIGHTS_0: imported as rigid");
                    skin = -1;
                }
            }
            std::vector<std::vector<Influence>> influences;
            for (const auto& prim : gmesh.primitives)
                if (Status s = addPrimitive(prim, skin, mesh, influences, mesh.name); !s) return s;
            if (mesh.positions.empty()) continue;
            if (skin >= 0) {
                any_skin = true;
                mesh.skin = skin;
                mesh.joints.resize(mesh.positions.size());
                mesh.weights.resize(mesh.positions.size());
                float worst = 0.0f;
                size_t over = 0;
                const uint32_t fallback = skin_palette[size_t(skin)].empty() ? 0 : skin_palette[size_t(skin)][0];
                for (size_t v = 0; v < mesh.positions.size(); ++v) {
                    over += influences[v].size() > kMaxInfluences ? 1 : 0;
                    worst = std::max(worst,
                                     detail::limitInfluences(influences[v], fallback, mesh.joints[v], mesh.weights[v]));
                }
                if (over > 0)
                    model.warnings.push_back("mesh '" + mesh.name + "': " + std::to_string(over) +
                                             " vertices had more than 4 influences; largest dropped weight " +
                                             std::to_string(worst));
                detail::placeSkinnedMeshAtRest(model, mesh, rest_model);
            } else {
                detail::bindRigidMesh(model, mesh, uint32_t(joint_of_node[size_t(ni)]), rest_model);
                ++rigid;
            }
            model.meshes.push_back(std::move(mesh));
        }
        if (!any_skin && rigid > 0)
            model.warnings.push_back("no skin: meshes imported as rigid parts that move with their nodes");
        return {};
    }

    void buildMaterials() {
        for (const tinygltf::Texture& t : gm.textures) {
            Texture tex;
            tex.name = t.name;
            if (t.source >= 0 && size_t(t.source) < gm.images.size()) {
                const tinygltf::Image& img = gm.images[size_t(t.source)];
                tex.mime_type = img.mimeType;
                if (img.bufferView < 0 && img.uri.rfind("data:", 0) != 0) tex.uri = img.uri;
                tex.encoded = img.image;
                if (tex.name.empty()) tex.name = img.name;
            }
            model.textures.push_back(std::move(tex));
        }
        for (const tinygltf::Material& m : gm.materials) {
            Material mat;
            mat.name = m.name;
            const auto& f = m.pbrMetallicRoughness.baseColorFactor;
            if (f.size() == 4) mat.base_color = glm::vec4(f[0], f[1], f[2], f[3]);
            const int t = m.pbrMetallicRoughness.baseColorTexture.index;
            mat.texture = t >= 0 && size_t(t) < model.textures.size() ? t : -1;
            model.materials.push_back(std::move(mat));
        }
    }

    Status buildClips() {
        bool warned_weights = false;
        for (size_t a = 0; a < gm.animations.size(); ++a) {
            const tinygltf::Animation& ga = gm.animations[a];
            Clip clip;
            clip.name = ga.name.empty() ? "clip" + std::to_string(a) : ga.name;
            const std::string where = "animation " + std::to_string(a) + " '" + clip.name + "'";
            for (size_t c = 0; c < ga.channels.size(); ++c) {
                const tinygltf::AnimationChannel& ch = ga.channels[c];
                if (ch.target_path == "weights") {
                    if (!warned_weights) model.warnings.push_back("morph target weight animation skipped");
                    warned_weights = true;
                    continue;
                }
                Track track;
                if (ch.target_path == "translation")
                    track.target = TrackTarget::Translation;
                else if (ch.target_path == "rotation")
                    track.target = TrackTarget::Rotation;
                else if (ch.target_path == "scale")
                    track.target = TrackTarget::Scale;
                else {
                    model.warnings.push_back(where + ": channel path '" + ch.target_path + "' skipped");
                    continue;
                }
                if (ch.target_node < 0 || size_t(ch.target_node) >= gm.nodes.size())
                    return Status::failure(where + " channel " + std::to_string(c) + ": targets node " +
                                           std::to_string(ch.target_node) + ", which does not exist");
                if (ch.sampler < 0 || size_t(ch.sampler) >= ga.samplers.size())
                    return Status::failure(where + " channel " + std::to_string(c) + ": sampler out of range");
                track.joint = uint32_t(joint_of_node[size_t(ch.target_node)]);
                const tinygltf::AnimationSampler& s = ga.samplers[size_t(ch.sampler)];
                if (s.interpolation == "STEP")
                    track.interpolation = Interpolation::Step;
                else if (s.interpolation == "CUBICSPLINE")
                    track.interpolation = Interpolation::CubicSpline;
                else
                    track.interpolation = Interpolation::Linear;
                std::vector<double> in, out;
                int in_c = 0, out_c = 0;
                if (Status st = reader.read(s.input, in, in_c); !st)
                    return Status::failure(where + " input: " + st.message);
                if (Status st = reader.read(s.output, out, out_c); !st)
                    return Status::failure(where + " output: " + st.message);
                const int want = track.target == TrackTarget::Rotation ? 4 : 3;
                const size_t per_key = track.interpolation == Interpolation::CubicSpline ? 3 : 1;
                if (in_c != 1 || out_c != want || out.size() / size_t(want) != in.size() * per_key)
                    return Status::failure(where + " channel " + std::to_string(c) + ": " + std::to_string(in.size()) +
                                           " key times but " + std::to_string(out.size() / size_t(std::max(out_c, 1))) +
                                           " values");
                for (double t : in) track.times.push_back(float(t));
                for (size_t i = 0; i < out.size(); i += size_t(want))
                    track.values.emplace_back(out[i], out[i + 1], out[i + 2], want == 4 ? out[i + 3] : 0.0);
                if (track.times.empty()) continue;
                clip.tracks.push_back(std::move(track));
            }
            model.clips.push_back(std::move(clip));
        }
        return {};
    }
};

Result<Model> readGltfBytes(std::span<const uint8_t> bytes, bool binary, const std::string& base_dir,
                            const std::string& source) {
    if (binary)
        if (Status s = checkGlbHeader(bytes); !s) return Error{s.message};
    if (Status s = checkJsonDepth(jsonText(bytes, binary)); !s) return Error{s.message};
    if (bytes.size() > std::numeric_limits<unsigned int>::max()) return Error{"glTF: larger than 4 GiB"};
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(keepEncodedImage, nullptr);
    static int allowed = 1;
    loader.SetFsCallbacks(tinygltf::FsCallbacks{externalExists, externalPath, readExternal, refuseWrite,
                                                base_dir.empty() ? nullptr : &allowed});
    tinygltf::Model gm;
    std::string err, warn;
    const bool ok = binary
                        ? loader.LoadBinaryFromMemory(&gm, &err, &warn, bytes.data(), unsigned(bytes.size()), base_dir)
                        : loader.LoadASCIIFromString(&gm, &err, &warn, reinterpret_cast<const char*>(bytes.data()),
                                                     unsigned(bytes.size()), base_dir);
    if (!ok) return Error{"glTF: " + (err.empty() ? std::string("could not be parsed") : firstLine(err))};

    Importer im{gm};
    im.model.source = source;
    im.model.format = binary ? "glTF 2.0 binary (.glb)" : "glTF 2.0 (.gltf)";
    if (!warn.empty()) im.model.warnings.push_back("tinygltf: " + firstLine(warn));
    for (const std::string& e : gm.extensionsRequired)
        if (e == "KHR_draco_mesh_compression" || e == "EXT_meshopt_compression")
            return Error{"required extension " + e + " is not supported"};
    if (Status s = im.buildSkeleton(); !s) return Error{s.message};
    if (Status s = im.buildSkins(); !s) return Error{s.message};
    im.buildMaterials();
    if (Status s = im.buildMeshes(); !s) return Error{s.message};
    if (Status s = im.buildClips(); !s) return Error{s.message};
    if (im.model.meshes.empty()) return Error{"no triangle meshes in the scene"};
    return detail::finishImport(std::move(im.model));
}

} // namespace

Result<Model> importGltfBytes(std::span<const uint8_t> bytes, bool binary, const std::string& base_dir,
                              const std::string& source) {
    // Messages quote names from the file, which may hold newlines and escape sequences: one line
    // each, whatever the file says (found by fuzzing; fuzz/regressions.cpp rebuilds the inputs).
    Result<Model> model = readGltfBytes(bytes, binary, base_dir, source);
    if (!model) return Error{detail::oneLine(model.error().message)};
    for (std::string& w : model.value().warnings) w = detail::oneLine(w);
    return model;
}

Result<Model> importGltf(const std::string& path) {
    Result<std::vector<uint8_t>> bytes = io::readRegularFile(path);
    if (!bytes) return bytes.error();
    // Binary by its magic whatever the name, or by its name (a damaged .glb: "not a GLB file").
    const std::vector<uint8_t>& data = bytes.value();
    const std::string ext = std::filesystem::path(path).extension().string();
    const bool binary =
        (data.size() >= 4 && std::memcmp(data.data(), "glTF", 4) == 0) || ext == ".glb" || ext == ".GLB";
    std::string base_dir = std::filesystem::path(path).parent_path().string();
    if (base_dir.empty()) base_dir = ".";
    return importGltfBytes(bytes.value(), binary, base_dir, path);
}

} // namespace throng
