// Props that follow a joint; see throng/attach.h.
#include <throng/attach.h>

#include "../shaders/shared.h"

#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/packing.hpp>
#include <glm/gtx/euler_angles.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace throng {

namespace {

bool finite(const glm::mat4& m) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
            if (!std::isfinite(m[c][r])) return false;
    return true;
}

// The skinning matrix of palette entry `joint` at frame `frame` of clip `clip`, as stored.
glm::dmat4 storedMatrix(const BakedAsset& asset, uint32_t clip, uint32_t frame, uint32_t joint) {
    glm::dmat4 m(1.0);
    for (uint32_t r = 0; r < 3; ++r) {
        const glm::vec4 row = bakedTexel(asset, clip, frame, joint, r);
        for (int c = 0; c < 4; ++c) m[c][r] = row[c];
    }
    return m;
}

// The prop's vertices and triangles, gathered from its meshes and placed by `place`.
struct PropGeometry {
    std::vector<BakedVertex> vertices;
    std::vector<uint32_t> indices;       // into vertices
    std::vector<BakedSubmesh> submeshes; // first_index relative to `indices`
};

PropGeometry placeProp(const Model& prop, const glm::dmat4& place, uint32_t joint, int32_t texture_base) {
    PropGeometry g;
    const glm::dmat3 normal_matrix = glm::inverseTranspose(glm::dmat3(place));
    for (const Mesh& mesh : prop.meshes) {
        const uint32_t base = uint32_t(g.vertices.size());
        for (size_t v = 0; v < mesh.positions.size(); ++v) {
            BakedVertex out{};
            const glm::dvec3 p = glm::dvec3(place * glm::dvec4(glm::dvec3(mesh.positions[v]), 1.0));
            const glm::dvec3 n = glm::normalize(normal_matrix * glm::dvec3(mesh.normals[v]));
            for (int k = 0; k < 3; ++k) {
                out.position[k] = float(p[k]);
                out.normal[k] = float(n[k]);
            }
            if (v < mesh.uvs.size()) out.uv[0] = mesh.uvs[v].x, out.uv[1] = mesh.uvs[v].y;
            const glm::vec4 c = v < mesh.colors.size() ? mesh.colors[v] : glm::vec4(1.0f);
            for (int k = 0; k < 4; ++k) out.color[k] = uint8_t(std::lround(std::clamp(c[k], 0.0f, 1.0f) * 255.0f));
            out.joints[0] = uint16_t(joint);
            out.weights[0] = 1.0f;
            g.vertices.push_back(out);
        }
        for (const Submesh& s : mesh.submeshes) {
            BakedSubmesh sub;
            sub.first_index = uint32_t(g.indices.size());
            sub.index_count = s.index_count;
            if (s.material >= 0 && size_t(s.material) < prop.materials.size()) {
                const Material& m = prop.materials[size_t(s.material)];
                sub.base_color = m.base_color;
                sub.texture = m.texture >= 0 ? texture_base + m.texture : -1;
            }
            for (uint32_t i = 0; i < s.index_count; ++i) g.indices.push_back(base + mesh.indices[s.first_index + i]);
            g.submeshes.push_back(sub);
        }
    }
    return g;
}

std::string paletteNames(const BakedAsset& asset) {
    std::string names;
    for (size_t p = 0; p < asset.source.palette.size() && p < 40; ++p) {
        const uint32_t j = asset.source.palette[p].joint;
        if (j < asset.source.skeleton.names.size())
            names += (names.empty() ? "" : ", ") + asset.source.skeleton.names[j];
    }
    if (asset.source.palette.size() > 40) names += ", ...";
    return names;
}

} // namespace

Status attachProps(BakedAsset& asset, std::span<const Attachment> attachments) {
    if (attachments.empty()) return {};
    if (asset.source.empty() || asset.source.palette.size() != asset.joint_count)
        return Status::failure(asset.name + ": no skeleton to attach props to (a .throng file baked without its "
                                            "source animation)");
    if (asset.props.size() + attachments.size() > kMaxProps)
        return Status::failure("at most " + std::to_string(kMaxProps) + " props on one model");
    // The props there and the new ones as parts: shares, slots, names (validateParts).
    std::vector<Part> parts = propParts(asset);
    for (const Attachment& a : attachments) parts.push_back({a.prop.source, a.slot, a.share, 0, 0});
    if (Status st = validateParts(parts); !st) return st;
    BakedAsset out = asset; // all or nothing
    for (const Attachment& a : attachments) {
        const std::string what = "prop '" + a.prop.source + "' on joint '" + a.joint + "'";
        uint32_t joint = ~0u;
        for (uint32_t p = 0; p < out.source.palette.size(); ++p) {
            const uint32_t j = out.source.palette[p].joint;
            if (j < out.source.skeleton.names.size() && out.source.skeleton.names[j] == a.joint) joint = p;
        }
        if (joint == ~0u)
            return Status::failure(what + ": no skinning joint of that name (joints: " + paletteNames(out) + ")");
        if (!(a.share >= 0.0f && a.share <= 1.0f)) return Status::failure(what + ": share outside 0..1");
        if (!finite(a.offset)) return Status::failure(what + ": the offset is not finite");
        if (Status s = validate(a.prop); !s) return Status::failure(what + ": " + s.message);
        const glm::dmat4 bind = glm::inverse(glm::dmat4(out.source.palette[joint].inverse_bind));
        const glm::dmat4 place = bind * glm::dmat4(a.offset);
        if (!finite(glm::mat4(place))) return Status::failure(what + ": the joint's bind pose is singular");
        PropGeometry g = placeProp(a.prop, place, joint, int32_t(out.textures.size()));
        if (g.indices.empty()) return Status::failure(what + ": the prop has no triangles");
        if (uint64_t(out.vertices.size()) + g.vertices.size() > 0xffffffffull)
            return Status::failure(what + ": too many vertices");

        BakedProp prop;
        prop.name = a.prop.source;
        prop.joint = joint;
        prop.share = a.share;
        prop.slot = a.slot;
        prop.offset = a.offset;
        prop.first_vertex = uint32_t(out.vertices.size());
        prop.vertex_count = uint32_t(g.vertices.size());
        prop.first_submesh = uint32_t(out.submeshes.size());
        prop.submesh_count = uint32_t(g.submeshes.size());
        for (const Texture& t : a.prop.textures) out.textures.push_back(BakedTexture{t.mime_type, t.encoded});

        // Indices at the end. The prop whole at the levels partDrawnAt says, none past them.
        Bounds box{glm::vec3(g.vertices[0].position[0], g.vertices[0].position[1], g.vertices[0].position[2]), {}};
        box.max = box.min;
        for (const BakedVertex& v : g.vertices) {
            box.min = glm::min(box.min, glm::vec3(v.position[0], v.position[1], v.position[2]));
            box.max = glm::max(box.max, glm::vec3(v.position[0], v.position[1], v.position[2]));
        }
        const float prop_size = box.diagonal();
        const uint32_t first_index = uint32_t(out.indices.size());
        for (uint32_t i : g.indices) out.indices.push_back(prop.first_vertex + i);
        for (BakedSubmesh sub : g.submeshes) {
            sub.first_index += first_index;
            out.submeshes.push_back(sub);
            for (BakedLod& lod : out.lods) {
                const bool drawn = partDrawnAt(lod.error, prop_size);
                lod.submeshes.push_back({sub.first_index, drawn ? sub.index_count : 0u});
            }
        }

        // Bounds: the bind pose, and every stored frame through the joint's stored matrix.
        for (const BakedVertex& v : g.vertices) {
            const glm::vec3 p(v.position[0], v.position[1], v.position[2]);
            out.bind_bounds.min = glm::min(out.bind_bounds.min, p);
            out.bind_bounds.max = glm::max(out.bind_bounds.max, p);
        }
        for (uint32_t c = 0; c < out.clips.size(); ++c)
            for (uint32_t f = 0; f < out.clips[c].frame_count && f < out.clips[c].frame_bounds.size(); ++f) {
                const glm::dmat4 m = storedMatrix(out, c, f, joint);
                Bounds& b = out.clips[c].frame_bounds[f];
                for (const BakedVertex& v : g.vertices) {
                    const glm::dvec3 p = glm::dvec3(m * glm::dvec4(v.position[0], v.position[1], v.position[2], 1.0));
                    // A hair of padding: the bound holds the exact pose too (the matrix is rounded).
                    const glm::vec3 lo = glm::vec3(p) - glm::vec3(1e-6f) * (1.0f + glm::abs(glm::vec3(p)));
                    const glm::vec3 hi = glm::vec3(p) + glm::vec3(1e-6f) * (1.0f + glm::abs(glm::vec3(p)));
                    b.min = glm::min(b.min, lo);
                    b.max = glm::max(b.max, hi);
                }
            }

        // Vertex animation: every row gains the prop's vertices, skinned by the stored matrix.
        if (out.hasVat()) {
            const uint64_t old_row = out.vatTexelsPerRow();
            const uint64_t new_row = old_row + 2 * uint64_t(g.vertices.size());
            if (uint64_t(out.clips.size()) * out.max_frames * new_row > kMaxBakedTexels)
                return Status::failure(what + ": the vertex animation would pass its size limit");
            const bool half = out.precision == Precision::Float16;
            std::vector<float> f32;
            std::vector<uint16_t> f16;
            (half ? f16.reserve(out.clips.size() * out.max_frames * new_row * 4)
                  : f32.reserve(out.clips.size() * out.max_frames * new_row * 4));
            for (uint32_t c = 0; c < out.clips.size(); ++c)
                for (uint32_t y = 0; y < out.max_frames; ++y) {
                    const size_t row_start = (size_t(c) * out.max_frames + y) * old_row * 4;
                    if (half)
                        f16.insert(f16.end(), out.vat_f16.begin() + row_start,
                                   out.vat_f16.begin() + row_start + old_row * 4);
                    else
                        f32.insert(f32.end(), out.vat_f32.begin() + row_start,
                                   out.vat_f32.begin() + row_start + old_row * 4);
                    const glm::dmat4 m = storedMatrix(out, c, y, joint);
                    const glm::dmat3 cof = glm::inverseTranspose(glm::dmat3(m));
                    for (const BakedVertex& v : g.vertices) {
                        const glm::dvec3 p =
                            glm::dvec3(m * glm::dvec4(v.position[0], v.position[1], v.position[2], 1.0));
                        const glm::dvec3 n = glm::normalize(cof * glm::dvec3(v.normal[0], v.normal[1], v.normal[2]));
                        const float texels[8] = {float(p.x), float(p.y), float(p.z), 1.0f,
                                                 float(n.x), float(n.y), float(n.z), 0.0f};
                        for (float t : texels) {
                            if (half)
                                f16.push_back(glm::packHalf1x16(t));
                            else
                                f32.push_back(t);
                        }
                    }
                }
            out.vat_f32 = std::move(f32);
            out.vat_f16 = std::move(f16);
        }
        out.vertices.insert(out.vertices.end(), g.vertices.begin(), g.vertices.end());
        out.props.push_back(std::move(prop));
    }
    asset = std::move(out);
    return {};
}

std::vector<Part> propParts(const BakedAsset& asset) {
    std::vector<Part> parts;
    for (const BakedProp& p : asset.props) parts.push_back({p.name, p.slot, p.share, p.first_submesh, p.submesh_count});
    return parts;
}

uint32_t propWear(const BakedAsset& asset, uint32_t prop) {
    if (prop >= asset.props.size()) return 0;
    const std::string& slot = asset.props[prop].slot;
    // The slot's salt is its first prop's number; the intervals follow the props' order.
    uint32_t salt = prop + 1;
    double before = 0.0;
    if (!slot.empty())
        for (uint32_t p = 0; p < prop; ++p)
            if (asset.props[p].slot == slot) {
                salt = std::min(salt, p + 1);
                before += double(std::clamp(asset.props[p].share, 0.0f, 1.0f));
            }
    const double after = before + double(std::clamp(asset.props[prop].share, 0.0f, 1.0f));
    auto q = [](double share) { return uint32_t(std::clamp<long>(std::lround(share * 256.0), 0, 256)); };
    return gpu::shader::throngWear(salt, std::min(q(before), 255u), q(after));
}

int32_t propOfSubmesh(const BakedAsset& asset, uint32_t submesh) {
    for (uint32_t p = 0; p < asset.props.size(); ++p) {
        const BakedProp& prop = asset.props[p];
        if (submesh >= prop.first_submesh && submesh - prop.first_submesh < prop.submesh_count) return int32_t(p);
    }
    return -1;
}

std::vector<int32_t> propOfVertices(const BakedAsset& asset) {
    std::vector<int32_t> out(asset.vertices.size(), -1);
    for (uint32_t p = 0; p < asset.props.size(); ++p)
        for (uint32_t v = asset.props[p].first_vertex;
             v < asset.props[p].first_vertex + asset.props[p].vertex_count && v < out.size(); ++v)
            out[v] = int32_t(p);
    return out;
}

bool isPropSubmesh(const BakedAsset& asset, uint32_t submesh) { return propOfSubmesh(asset, submesh) >= 0; }

uint32_t propDrawBits(const BakedAsset& asset, uint32_t submesh) {
    const int32_t p = propOfSubmesh(asset, submesh);
    return p < 0 ? 0u : THRONG_DRAW_UNTINTED | propWear(asset, uint32_t(p)) << THRONG_DRAW_WEAR_SHIFT;
}

bool wears(const BakedAsset& asset, uint32_t prop, uint32_t key) {
    return gpu::shader::throngWears(key, propWear(asset, prop));
}

Result<AttachmentSpec> parseAttachment(std::string_view text) {
    const std::string whole(text);
    auto bad = [&](const std::string& why) {
        return Error{"--attach '" + whole + "': " + why + " (JOINT=MODEL[,X,Y,Z[,RX,RY,RZ[,SCALE]]][@SHARE%])"};
    };
    AttachmentSpec spec;
    const size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0) return bad("no JOINT=");
    spec.joint = std::string(text.substr(0, eq));
    std::string_view rest = text.substr(eq + 1);
    const size_t at = rest.rfind('@');
    if (at != std::string_view::npos && !rest.empty() && rest.back() == '%') {
        const std::string share(rest.substr(at + 1, rest.size() - at - 2));
        char* end = nullptr;
        const double percent = std::strtod(share.c_str(), &end);
        if (share.empty() || *end != '\0' || !(percent >= 0.0 && percent <= 100.0))
            return bad("the share is not a percentage from 0 to 100");
        spec.share = float(percent / 100.0);
        rest = rest.substr(0, at);
    }
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        const size_t comma = rest.find(',', start);
        parts.emplace_back(
            rest.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    spec.model = parts[0];
    if (spec.model.empty()) return bad("no MODEL");
    const size_t numbers = parts.size() - 1;
    if (numbers != 0 && numbers != 3 && numbers != 6 && numbers != 7)
        return bad("the offset takes 3, 6 or 7 numbers, not " + std::to_string(numbers));
    double v[7] = {0, 0, 0, 0, 0, 0, 1};
    for (size_t i = 0; i < numbers; ++i) {
        char* end = nullptr;
        v[i] = std::strtod(parts[i + 1].c_str(), &end);
        if (parts[i + 1].empty() || *end != '\0' || !std::isfinite(v[i]) || std::abs(v[i]) > 1e6)
            return bad("'" + parts[i + 1] + "' is not a number");
    }
    if (!(v[6] > 0.0)) return bad("the scale must be positive");
    spec.offset = attachmentOffset(v);
    return spec;
}

glm::mat4 attachmentOffset(const double (&v)[7]) {
    const glm::dmat4 rotation = glm::eulerAngleZ(glm::radians(v[5])) * glm::eulerAngleY(glm::radians(v[4])) *
                                glm::eulerAngleX(glm::radians(v[3]));
    glm::dmat4 offset = glm::translate(glm::dmat4(1.0), glm::dvec3(v[0], v[1], v[2])) * rotation;
    return glm::mat4(glm::scale(offset, glm::dvec3(v[6])));
}

} // namespace throng
