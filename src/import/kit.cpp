// Kit files: parse, then assemble the base and its parts into one Model; see throng/kit.h.
#include <throng/attach.h>
#include <throng/file_kind.h>
#include <throng/files.h>
#include <throng/import.h>
#include <throng/kit.h>

#include "../model/names.h"
#include "../texture/texture.h"

#include <glm/gtc/matrix_inverse.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

namespace throng {
namespace {

using nlohmann::json;

Result<KitPartSpec> parsePart(const json& j, size_t index) {
    const std::string where = "kit: part " + std::to_string(index);
    if (!j.is_object()) return Error{where + ": expected an object with \"model\""};
    KitPartSpec p;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        const json& v = it.value();
        auto text = [&](std::string& to) -> Status {
            if (!v.is_string()) return Status::failure(where + ": \"" + key + "\" is not a string");
            to = v.get<std::string>();
            return {};
        };
        Status s;
        if (key == "name")
            s = text(p.name);
        else if (key == "model")
            s = text(p.model);
        else if (key == "slot")
            s = text(p.slot);
        else if (key == "joint")
            s = text(p.joint);
        else if (key == "share") {
            if (!v.is_number() || !(v.get<double>() >= 0.0 && v.get<double>() <= 1.0))
                return Error{where + ": \"share\" is not a number from 0 to 1"};
            p.share = float(v.get<double>());
        } else if (key == "offset") {
            const size_t n = v.is_array() ? v.size() : 0;
            if (n != 3 && n != 6 && n != 7)
                return Error{where + ": \"offset\" takes 3, 6 or 7 numbers (X, Y, Z, RX, RY, RZ, SCALE)"};
            double values[7] = {0, 0, 0, 0, 0, 0, 1};
            for (size_t i = 0; i < n; ++i) {
                if (!v[i].is_number() || !std::isfinite(v[i].get<double>()) || std::abs(v[i].get<double>()) > 1e6)
                    return Error{where + ": \"offset\" holds something other than a finite number"};
                values[i] = v[i].get<double>();
            }
            if (!(values[6] > 0.0)) return Error{where + ": \"offset\"'s scale must be positive"};
            p.offset = attachmentOffset(values);
        } else
            return Error{where + ": unknown key" + detail::quotedName(key.substr(0, 64)) +
                         " (a part has name, model, slot, share, joint, offset)"};
        if (!s) return Error{s.message};
    }
    if (p.model.empty()) return Error{where + ": no \"model\""};
    if (p.name.empty()) p.name = std::filesystem::path(p.model).filename().string();
    return p;
}

// "#rrggbb" (sRGB) or [r, g, b] (linear) as a linear colour.
Result<glm::vec3> parseColor(const json& v, const std::string& where) {
    glm::vec3 c(0.0f);
    if (v.is_string()) {
        const std::string t = v.get<std::string>();
        if (t.size() != 7 || t[0] != '#' ||
            !std::all_of(t.begin() + 1, t.end(), [](unsigned char x) { return std::isxdigit(x) != 0; }))
            return Error{where + ": colour" + detail::quotedName(t.substr(0, 16)) + " is not #rrggbb"};
        for (int i = 0; i < 3; ++i)
            c[i] = float(texture::srgbToLinear(double(std::stoi(t.substr(1 + 2 * i, 2), nullptr, 16)) / 255.0));
        return c;
    }
    if (!v.is_array() || v.size() != 3) return Error{where + ": a colour is neither \"#rrggbb\" nor [r, g, b]"};
    for (int i = 0; i < 3; ++i) {
        if (!v[size_t(i)].is_number()) return Error{where + ": a colour holds something other than a number"};
        c[i] = float(v[size_t(i)].get<double>());
    }
    return c;
}

Result<KitLookSpec> parseLook(const json& j, size_t index) {
    const std::string where = "kit: look " + std::to_string(index);
    if (!j.is_object()) return Error{where + ": expected an object with \"name\", \"materials\" and \"colors\""};
    KitLookSpec l;
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        const json& v = it.value();
        if (key == "name") {
            if (!v.is_string()) return Error{where + ": \"name\" is not a string"};
            l.name = v.get<std::string>();
        } else if (key == "materials") {
            if (!v.is_array() || v.empty() || v.size() > 4096)
                return Error{where + ": \"materials\" is not a list of material names"};
            for (const json& m : v) {
                if (!m.is_string()) return Error{where + ": \"materials\" holds something other than a name"};
                l.materials.push_back(m.get<std::string>());
            }
        } else if (key == "colors") {
            if (!v.is_array() || v.size() > kMaxLookColors)
                return Error{where + ": \"colors\" is not a list of 1 to " + std::to_string(kMaxLookColors) +
                             " colours"};
            for (const json& c : v) {
                Result<glm::vec3> color = parseColor(c, where);
                if (!color) return color.error();
                l.colors.push_back(color.value());
            }
        } else if (key == "shares") {
            if (!v.is_array() || v.size() > kMaxLookColors)
                return Error{where + ": \"shares\" is not a list of numbers"};
            for (const json& x : v) {
                if (!x.is_number()) return Error{where + ": \"shares\" holds something other than a number"};
                l.shares.push_back(float(x.get<double>()));
            }
        } else if (key == "textures") {
            if (!v.is_array() || v.empty() || v.size() > kMaxLookColors)
                return Error{where + ": \"textures\" is not a list of 1 to " + std::to_string(kMaxLookColors) +
                             " image files"};
            for (const json& t : v) {
                if (!t.is_string() || t.get<std::string>().empty())
                    return Error{where + ": \"textures\" holds something other than a file name"};
                l.textures.push_back(t.get<std::string>());
            }
        } else
            return Error{where + ": unknown key" + detail::quotedName(key.substr(0, 64)) +
                         " (a look has name, materials, colors, shares, textures)"};
    }
    if (l.name.empty()) return Error{where + ": no \"name\""};
    if (l.materials.empty()) return Error{where + ": no \"materials\""};
    if (l.colors.empty() && !l.textures.empty()) l.colors.assign(l.textures.size(), glm::vec3(1.0f));
    if (!l.textures.empty() && l.textures.size() != l.colors.size())
        return Error{where + ": " + std::to_string(l.textures.size()) + " textures for " +
                     std::to_string(l.colors.size()) + " colours"};
    if (Status s = validateLook(l.name, l.colors, l.shares); !s) return Error{"kit: " + s.message};
    return l;
}

// A look's texture variant: the image file's bytes, which must decode (texture/texture.h).
Result<Texture> lookTexture(const std::string& file) {
    constexpr uint64_t kMaxBytes = uint64_t(256) << 20;
    Result<std::vector<uint8_t>> bytes = io::readRegularFile(file, kMaxBytes);
    if (!bytes) return bytes.error();
    Texture t;
    t.name = std::filesystem::path(file).filename().string();
    t.encoded = std::move(bytes).value();
    const bool png = t.encoded.size() >= 4 && t.encoded[0] == 0x89 && t.encoded[1] == 'P';
    t.mime_type = png ? "image/png" : "image/jpeg";
    if (Result<texture::Rgba8> d = texture::decodeTexture(BakedTexture{t.mime_type, t.encoded}); !d) return d.error();
    return t;
}

// The names of the kit's materials, for messages.
std::string materialNames(const Model& m) {
    std::string out;
    for (const Material& x : m.materials) out += (out.empty() ? "" : ", ") + x.name.substr(0, 64);
    return out.size() > 512 ? out.substr(0, 509) + "..." : out;
}

std::string paletteNames(const Model& m) {
    std::string names;
    for (size_t k = 0; k < m.palette.size() && k < 40; ++k)
        names += (names.empty() ? "" : ", ") + m.skeleton.names[m.palette[k].joint].substr(0, 64);
    for (char& c : names)
        if (static_cast<unsigned char>(c) < 32 || c == 127) c = '?'; // one line, whatever the file names
    return names + (m.palette.size() > 40 ? ", ..." : "");
}

int32_t paletteIndexOf(const Model& m, const std::string& name) {
    for (size_t k = 0; k < m.palette.size(); ++k)
        if (m.palette[k].joint < m.skeleton.names.size() && m.skeleton.names[m.palette[k].joint] == name)
            return int32_t(k);
    return -1;
}

// Appends `part`'s materials and textures to `kit`; returns the first material's new index.
int32_t appendMaterials(Model& kit, const Model& part) {
    const int32_t first_material = int32_t(kit.materials.size()), first_texture = int32_t(kit.textures.size());
    for (Material m : part.materials) {
        if (m.texture >= 0) m.texture += first_texture;
        kit.materials.push_back(std::move(m));
    }
    kit.textures.insert(kit.textures.end(), part.textures.begin(), part.textures.end());
    return first_material;
}

// Every mesh of `part`, its joints renamed to the base's palette (skinned) or all on `joint`
// placed by `place` (rigid).
Status appendMeshes(Model& kit, const Model& part, const KitPartSpec& spec) {
    const std::string what = "kit: part" + detail::quotedName(spec.name.substr(0, 64));
    const int32_t first_material = appendMaterials(kit, part);
    const Bounds bounds = bindPoseBounds(kit);
    const double tolerance = 1e-3 * std::max(double(bounds.diagonal()), 1e-6);
    int32_t rigid = -1;
    glm::dmat4 place(1.0);
    if (!spec.joint.empty()) {
        rigid = paletteIndexOf(kit, spec.joint);
        if (rigid < 0)
            return Status::failure(what + ": no skinning joint" + detail::quotedName(spec.joint.substr(0, 64)) +
                                   " in the base (joints: " + paletteNames(kit) + ")");
        place = glm::inverse(glm::dmat4(kit.palette[size_t(rigid)].inverse_bind)) * glm::dmat4(spec.offset);
    }
    std::vector<int32_t> remap(part.palette.size(), -2); // -2: not looked up yet
    for (Mesh mesh : part.meshes) {
        mesh.skin = kit.skins.empty() ? -1 : 0;
        mesh.rigid_joint = -1;
        for (Submesh& s : mesh.submeshes)
            if (s.material >= 0) s.material += first_material;
        if (rigid >= 0) {
            const glm::dmat3 normal_matrix = glm::inverseTranspose(glm::dmat3(place));
            for (size_t v = 0; v < mesh.positions.size(); ++v) {
                mesh.positions[v] = glm::vec3(place * glm::dvec4(glm::dvec3(mesh.positions[v]), 1.0));
                mesh.normals[v] = glm::vec3(glm::normalize(normal_matrix * glm::dvec3(mesh.normals[v])));
            }
            mesh.joints.assign(mesh.positions.size(), glm::u16vec4(uint16_t(rigid), 0, 0, 0));
            mesh.weights.assign(mesh.positions.size(), glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
        } else {
            for (size_t v = 0; v < mesh.positions.size(); ++v)
                for (int k = 0; k < 4; ++k) {
                    if (mesh.weights[v][k] <= 0.0f) {
                        mesh.joints[v][k] = 0;
                        continue;
                    }
                    const uint16_t j = mesh.joints[v][k];
                    if (remap[j] == -2) {
                        const std::string& name = part.skeleton.names[part.palette[j].joint];
                        remap[j] = paletteIndexOf(kit, name);
                        if (remap[j] < 0)
                            return Status::failure(
                                what + ": joint" + detail::quotedName(name.substr(0, 64)) +
                                " is not a skinning joint of the base (joints: " + paletteNames(kit) + ")");
                        const glm::dmat4 a = glm::inverse(glm::dmat4(part.palette[j].inverse_bind));
                        const glm::dmat4 b = glm::inverse(glm::dmat4(kit.palette[size_t(remap[j])].inverse_bind));
                        double apart = glm::length(glm::dvec3(a[3]) - glm::dvec3(b[3]));
                        for (int c = 0; c < 3; ++c)
                            apart = std::max(apart, glm::length(glm::dvec3(a[c]) - glm::dvec3(b[c])) *
                                                        std::max(double(bounds.diagonal()), 1e-6));
                        if (!(apart <= tolerance))
                            return Status::failure(what + ": joint" + detail::quotedName(name.substr(0, 64)) +
                                                   " is bound elsewhere than the base's (" + std::to_string(apart) +
                                                   " units apart; the base is " + std::to_string(bounds.diagonal()) +
                                                   " across)");
                    }
                    mesh.joints[v][k] = uint16_t(remap[j]);
                }
        }
        kit.meshes.push_back(std::move(mesh));
    }
    return {};
}

} // namespace

Result<KitSpec> parseKit(std::string_view json_text) {
    json j = json::parse(json_text.begin(), json_text.end(), nullptr, false);
    if (j.is_discarded()) return Error{"kit: not JSON"};
    if (!j.is_object()) return Error{"kit: expected an object with \"base\" and \"parts\""};
    KitSpec spec;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "base") {
            if (!it.value().is_string() || it.value().get<std::string>().empty())
                return Error{"kit: \"base\" is not a model's name"};
            spec.base = it.value().get<std::string>();
        } else if (it.key() == "parts") {
            if (!it.value().is_array()) return Error{"kit: \"parts\" is not a list"};
            if (it.value().size() > kMaxParts)
                return Error{"kit: " + std::to_string(it.value().size()) + " parts, more than " +
                             std::to_string(kMaxParts)};
            for (size_t i = 0; i < it.value().size(); ++i) {
                Result<KitPartSpec> p = parsePart(it.value()[i], i);
                if (!p) return p.error();
                spec.parts.push_back(std::move(p).value());
            }
        } else if (it.key() == "looks") {
            if (!it.value().is_array()) return Error{"kit: \"looks\" is not a list"};
            if (it.value().size() > kMaxLooks)
                return Error{"kit: " + std::to_string(it.value().size()) + " looks, more than " +
                             std::to_string(kMaxLooks)};
            for (size_t i = 0; i < it.value().size(); ++i) {
                Result<KitLookSpec> l = parseLook(it.value()[i], i);
                if (!l) return l.error();
                spec.looks.push_back(std::move(l).value());
            }
        } else
            return Error{"kit: unknown key" + detail::quotedName(it.key().substr(0, 64)) +
                         " (a kit has base, parts and looks)"};
    }
    if (spec.base.empty()) return Error{"kit: no \"base\""};
    std::vector<Part> parts;
    for (const KitPartSpec& p : spec.parts) parts.push_back({p.name, p.slot, p.share, 0, 1});
    if (Status s = validateParts(parts); !s) return Error{"kit: " + s.message};
    return spec;
}

Result<Model> assembleKit(const KitSpec& spec, const std::string& folder) {
    auto path = [&](const std::string& model) {
        if (model.rfind("builtin:", 0) == 0 || std::filesystem::path(model).is_absolute()) return model;
        return (std::filesystem::path(folder) / model).string();
    };
    auto load = [&](const std::string& model, const std::string& what) -> Result<Model> {
        // A kit file among the models would be read as a kit again (itself: without end).
        std::string ext = std::filesystem::path(model).extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
        if (ext == ".json" && io::sniffFileKind(path(model)) != io::FileKind::GltfJson)
            return Error{"kit: " + what + detail::quotedName(model.substr(0, 256)) +
                         " is a kit file, not a model (a kit in a kit)"};
        Result<Model> m = importModel(path(model));
        if (!m) return Error{"kit: " + what + detail::quotedName(model.substr(0, 256)) + ": " + m.error().message};
        if (!m.value().parts.empty())
            return Error{"kit: " + what + detail::quotedName(model.substr(0, 256)) +
                         " has parts of its own (a kit in a kit)"};
        return m;
    };
    Result<Model> base = load(spec.base, "base");
    if (!base) return base.error();
    Model kit = std::move(base).value();
    if (kit.palette.empty())
        return Error{"kit: base" + detail::quotedName(spec.base.substr(0, 256)) + " has no skinning joints"};
    for (const KitPartSpec& p : spec.parts) {
        Result<Model> part = load(p.model, "part");
        if (!part) return part.error();
        const uint32_t first_mesh = uint32_t(kit.meshes.size());
        if (Status s = appendMeshes(kit, part.value(), p); !s) return Error{s.message};
        if (kit.meshes.size() == first_mesh)
            return Error{"kit: part" + detail::quotedName(p.name.substr(0, 64)) + ": the model has no meshes"};
        kit.parts.push_back(Part{p.name, p.slot, p.share, first_mesh, uint32_t(kit.meshes.size()) - first_mesh});
        for (const std::string& w : part.value().warnings) kit.warnings.push_back("part '" + p.name + "': " + w);
    }
    for (const KitLookSpec& l : spec.looks) {
        Look look{l.name, {}, l.colors, l.shares, {}};
        for (const std::string& file : l.textures) {
            Result<Texture> t = lookTexture(path(file));
            if (!t)
                return Error{"kit: look" + detail::quotedName(l.name.substr(0, 64)) + ": texture" +
                             detail::quotedName(file.substr(0, 256)) + ": " + t.error().message};
            look.textures.push_back(int32_t(kit.textures.size()));
            kit.textures.push_back(std::move(t).value());
        }
        for (const std::string& name : l.materials) {
            bool found = false;
            for (uint32_t m = 0; m < kit.materials.size(); ++m)
                if (kit.materials[m].name == name) {
                    found = true;
                    if (std::find(look.materials.begin(), look.materials.end(), m) == look.materials.end())
                        look.materials.push_back(m);
                }
            if (!found)
                return Error{"kit: look" + detail::quotedName(l.name.substr(0, 64)) + ": no material" +
                             detail::quotedName(name.substr(0, 64)) + " (the kit has " + materialNames(kit) + ")"};
        }
        kit.looks.push_back(std::move(look));
    }
    if (Status s = validate(kit); !s) return Error{"kit: " + s.message};
    return kit;
}

Result<Model> importKit(const std::string& path) {
    Result<std::vector<uint8_t>> bytes = io::readRegularFile(path, uint64_t(1) << 20);
    if (!bytes) return bytes.error();
    Result<KitSpec> spec =
        parseKit(std::string_view(reinterpret_cast<const char*>(bytes.value().data()), bytes.value().size()));
    if (!spec) return spec.error();
    Result<Model> kit = assembleKit(spec.value(), std::filesystem::path(path).parent_path().string());
    if (kit) kit.value().source = path;
    if (kit) kit.value().format = "throng kit (JSON)";
    return kit;
}

} // namespace throng
