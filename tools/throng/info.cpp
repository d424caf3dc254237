// `throng info`: what a model holds, as text or as one JSON object.
#include "commands.h"

#include <glm/trigonometric.hpp>

#include <throng/attach.h>
#include <throng/looks.h>
#include <throng/root_motion.h>

#include <throng/bake.h>
#include <throng/format.h>
#include <throng/import.h>

#include <throng/file_kind.h>
#include <throng/files.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

namespace throng::cli {

void printError(const std::string& source, const std::string& message) {
    std::fprintf(stderr, "throng: error: %s: %s\n", source.c_str(), message.c_str());
}

// By content (its magic: a renamed .throng file is one) or by name.
bool isThrongFile(const std::string& model) {
    return io::sniffFileKind(model) == io::FileKind::Throng || std::filesystem::path(model).extension() == ".throng";
}

std::string naturalTechnique(const std::string& model) { return model == "builtin:fish" ? "procedural" : "baked"; }

bool checkOutput(const std::string& path) {
    Result<std::string> target = io::resolveOutput(path);
    if (!target) printError(path, target.error().message);
    return target.ok();
}

namespace {

// Parts (Model::parts, BakedAsset::props): each with its slot and share.
nlohmann::json partsJson(const std::vector<Part>& parts) {
    nlohmann::json out = nlohmann::json::array();
    for (const Part& p : parts) out.push_back({{"name", p.name}, {"slot", p.slot}, {"share", p.share}});
    return out;
}

// "  parts      N in S slots", then a line per slot (its parts and shares, and the share that
// wears none) and one for the parts outside slots.
void printParts(const nlohmann::json& parts) {
    if (parts.empty()) return;
    std::vector<std::string> slots;
    for (const auto& p : parts)
        if (std::find(slots.begin(), slots.end(), p["slot"].get<std::string>()) == slots.end())
            slots.push_back(p["slot"].get<std::string>());
    const size_t named = slots.size() - size_t(std::count(slots.begin(), slots.end(), std::string()));
    std::printf("  parts      %zu in %zu slots\n", parts.size(), named);
    for (const std::string& slot : slots) {
        std::printf("    %-10s", slot.empty() ? "(alone)" : slot.c_str());
        double sum = 0.0;
        for (const auto& p : parts)
            if (p["slot"].get<std::string>() == slot) {
                std::printf(" %s %.3g%%", p["name"].get<std::string>().c_str(), 100.0 * p["share"].get<double>());
                sum += p["share"].get<double>();
            }
        if (!slot.empty()) std::printf(", none %.3g%%", std::max(0.0, 100.0 * (1.0 - sum)));
        std::printf("\n");
    }
}

// Looks (Model::looks, BakedAsset::looks): each with its colours (linear RGB), their shares
// of the members (as lookBounds deals them, in 256ths) and its texture variants where it has them.
nlohmann::json lookJson(const std::string& name, const std::vector<glm::vec3>& colors, const std::vector<float>& shares,
                        const std::vector<int32_t>& textures) {
    nlohmann::json out{{"name", name}, {"colors", nlohmann::json::array()}, {"shares", nlohmann::json::array()}};
    if (!textures.empty()) out["textures"] = textures; // texture variants: one per colour
    const std::vector<uint32_t> bounds = lookBounds(shares, colors.size());
    for (size_t c = 0; c < colors.size(); ++c) {
        out["colors"].push_back({colors[c].r, colors[c].g, colors[c].b});
        out["shares"].push_back(double(bounds[c] - (c == 0 ? 0u : bounds[c - 1])) / 256.0);
    }
    return out;
}

// "  looks      N", then a line per look: its colours as sRGB hex and their shares.
void printLooks(const nlohmann::json& looks) {
    if (looks.empty()) return;
    std::printf("  looks      %zu\n", looks.size());
    for (const auto& l : looks) {
        std::printf("    %-10s", l["name"].get<std::string>().c_str());
        for (size_t c = 0; c < l["colors"].size(); ++c) {
            int rgb[3];
            for (int i = 0; i < 3; ++i) {
                const double v = std::clamp(l["colors"][c][i].get<double>(), 0.0, 1.0);
                rgb[i] =
                    int(std::lround(255.0 * (v <= 0.0031308 ? 12.92 * v : 1.055 * std::pow(v, 1.0 / 2.4) - 0.055)));
            }
            std::printf(" #%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
            if (l.contains("textures")) std::printf(" texture %d", l["textures"][c].get<int>());
            std::printf(" %.3g%%", 100.0 * l["shares"][c].get<double>());
        }
        std::printf("\n");
    }
}

// The LOD chain `throng bake` would store (the simplifier runs: milliseconds for a crowd member).
nlohmann::json lodsJson(const Result<std::vector<BakedLod>>& lods) {
    nlohmann::json out = nlohmann::json::array();
    if (lods)
        for (const BakedLod& l : lods.value()) out.push_back({{"triangles", l.triangleCount()}, {"error", l.error}});
    return out;
}

// Root motion as `bake --root-motion auto` would take it: the joint (-1: none) and each clip's
// root speed.
struct AutoRoot {
    int32_t joint = -1;
    std::vector<double> speeds;
};
AutoRoot autoRoot(const Model& model) {
    AutoRoot r;
    const Result<int32_t> joint = rootMotionJoint(model, "auto");
    if (joint && joint.value() >= 0) {
        r.joint = joint.value();
        r.speeds = rootSpeeds(model, uint32_t(r.joint));
    }
    return r;
}

nlohmann::json describe(const Model& model, const Result<std::vector<BakedLod>>& lods) {
    using nlohmann::json;
    json j;
    j["source"] = model.source;
    j["format"] = model.format;
    j["vertices"] = vertexCount(model);
    j["triangles"] = triangleCount(model);
    j["joints"] = skinJointCount(model);
    j["nodes"] = model.skeleton.size();
    j["palette"] = model.palette.size();
    json meshes = json::array();
    for (const Mesh& m : model.meshes) {
        meshes.push_back(
            {{"name", m.name},
             {"vertices", m.positions.size()},
             {"triangles", m.indices.size() / 3},
             {"submeshes", m.submeshes.size()},
             {"skin", m.skin},
             {"rigid_joint", m.rigid_joint >= 0 ? json(model.skeleton.names[size_t(m.rigid_joint)]) : json(nullptr)}});
    }
    j["meshes"] = meshes;
    json skins = json::array();
    for (const Skin& s : model.skins) skins.push_back({{"name", s.name}, {"joints", s.joints.size()}});
    j["skins"] = skins;
    const AutoRoot root = autoRoot(model);
    const int32_t root_joint = root.joint;
    const std::vector<double>& speeds = root.speeds;
    json clips = json::array();
    for (size_t i = 0; i < model.clips.size(); ++i) {
        const Clip& c = model.clips[i];
        json clip = {
            {"name", c.name}, {"duration", c.duration}, {"keyframes", keyframeCount(c)}, {"tracks", c.tracks.size()}};
        if (root_joint >= 0) clip["root_speed"] = speeds[i];
        clips.push_back(clip);
    }
    j["clips"] = clips;
    j["root_joint"] = root_joint >= 0 ? json(model.skeleton.names[size_t(root_joint)]) : json(nullptr);
    j["materials"] = model.materials.size();
    j["textures"] = model.textures.size();
    const Bounds b = bindPoseBounds(model);
    j["bounds"] = {
        {"min", {b.min.x, b.min.y, b.min.z}}, {"max", {b.max.x, b.max.y, b.max.z}}, {"diagonal", b.diagonal()}};
    j["lods"] = lodsJson(lods); // empty when they cannot be built, and lods_error says why
    if (!lods) j["lods_error"] = lods.error().message;
    j["parts"] = partsJson(model.parts);
    j["looks"] = nlohmann::json::array();
    for (const Look& l : model.looks) j["looks"].push_back(lookJson(l.name, l.colors, l.shares, l.textures));
    j["warnings"] = model.warnings;
    return j;
}

void printText(const Model& model, const Result<std::vector<BakedLod>>& lods) {
    const AutoRoot root = autoRoot(model);
    const Bounds b = bindPoseBounds(model);
    size_t rigid = 0, submeshes = 0;
    for (const Mesh& m : model.meshes) {
        rigid += m.rigid_joint >= 0 ? 1 : 0;
        submeshes += m.submeshes.size();
    }
    std::printf("%s\n", model.source.c_str());
    std::printf("  format     %s\n", model.format.c_str());
    std::printf("  meshes     %zu (%zu submeshes, %zu rigidly attached)\n", model.meshes.size(), submeshes, rigid);
    std::printf("  vertices   %u\n", vertexCount(model));
    std::printf("  triangles  %u\n", triangleCount(model));
    std::printf("  joints     %u in skins (%u skeleton nodes, %zu palette entries)\n", skinJointCount(model),
                model.skeleton.size(), model.palette.size());
    std::printf("  skins      %zu\n", model.skins.size());
    std::printf("  materials  %zu (%zu textures)\n", model.materials.size(), model.textures.size());
    std::printf("  clips      %zu\n", model.clips.size());
    for (size_t i = 0; i < model.clips.size(); ++i) {
        const Clip& c = model.clips[i];
        std::printf("    %-24s %8.3f s  %6u keys  %4zu tracks", c.name.c_str(), double(c.duration), keyframeCount(c),
                    c.tracks.size());
        if (root.joint >= 0) std::printf("  root speed %.4g units/s", root.speeds[i]);
        std::printf("\n");
    }
    if (root.joint >= 0)
        std::printf("  root motion: joint '%s' travels (bake --root-motion auto takes it out)\n",
                    model.skeleton.names[size_t(root.joint)].c_str());
    std::printf("  bounds     min (%.4g, %.4g, %.4g)  max (%.4g, %.4g, %.4g)  diagonal %.4g\n", double(b.min.x),
                double(b.min.y), double(b.min.z), double(b.max.x), double(b.max.y), double(b.max.z),
                double(b.diagonal()));
    if (lods) {
        std::printf("  lods       %zu (as throng bake stores them; error in model units)\n", lods.value().size());
        for (size_t l = 0; l < lods.value().size(); ++l)
            std::printf("    LOD %zu  %9llu triangles  error %.4g\n", l,
                        static_cast<unsigned long long>(lods.value()[l].triangleCount()),
                        double(lods.value()[l].error));
    } else {
        std::printf("  lods       none: %s\n", lods.error().message.c_str());
    }
    printParts(partsJson(model.parts));
    nlohmann::json looks = nlohmann::json::array();
    for (const Look& l : model.looks) looks.push_back(lookJson(l.name, l.colors, l.shares, l.textures));
    printLooks(looks);
    std::printf("  warnings   %zu\n", model.warnings.size());
    for (const std::string& w : model.warnings) std::printf("    - %s\n", w.c_str());
}

// A baked .throng file: what it holds, as `throng bake` wrote it.
nlohmann::json describeBaked(const std::string& source, const BakedAsset& a) {
    using nlohmann::json;
    json j;
    j["source"] = source;
    j["format"] = "throng";
    j["precision"] = a.precision == Precision::Float16 ? "half" : "float";
    j["fps"] = a.fps;
    j["vertices"] = a.vertices.size();
    j["triangles"] = a.indices.empty() ? 0 : (a.lods.empty() ? a.indices.size() / 3 : a.lods[0].triangleCount());
    j["joints"] = a.joint_count;
    j["submeshes"] = a.submeshes.size();
    j["textures"] = a.textures.size();
    json clips = json::array();
    for (const BakedClip& c : a.clips) {
        json clip = {{"name", c.name}, {"duration", c.duration}, {"frames", c.frame_count}, {"loop", c.loop}};
        if (!c.events.empty()) {
            json events = json::array();
            for (const ClipEvent& e : c.events) events.push_back({{"time", e.time}, {"name", e.name}});
            clip["events"] = events;
        }
        if (!c.root_motion.empty()) // root motion: speed (units/s) and the turn of one cycle (degrees)
            clip["root_motion"] = {{"speed", rootSpeed(c)}, {"turn", glm::degrees(double(c.root_motion.back().z))}};
        clips.push_back(clip);
    }
    j["clips"] = clips;
    j["root_joint"] = a.root_joint.empty() ? json(nullptr) : json(a.root_joint);
    json lods = json::array();
    for (const BakedLod& l : a.lods) lods.push_back({{"triangles", l.triangleCount()}, {"error", l.error}});
    j["lods"] = lods;
    j["vat"] = a.hasVat();
    j["parts"] = partsJson(propParts(a));
    j["looks"] = json::array();
    for (const BakedLook& l : a.looks) j["looks"].push_back(lookJson(l.name, l.colors, l.shares, l.textures));
    j["impostors"] = a.impostors.empty() ? json(nullptr)
                                         : json{{"views", a.impostors.views()},
                                                {"tile", a.impostors.tile},
                                                {"fps", a.impostors.fps},
                                                {"width", a.impostors.width()},
                                                {"height", a.impostors.height()}};
    const Bounds& b = a.bind_bounds;
    j["bounds"] = {
        {"min", {b.min.x, b.min.y, b.min.z}}, {"max", {b.max.x, b.max.y, b.max.z}}, {"diagonal", b.diagonal()}};
    return j;
}

void printBakedText(const nlohmann::json& j) {
    std::printf("%s\n", j["source"].get<std::string>().c_str());
    std::printf("  format     baked .throng (%s texels, baked at %g fps)\n", j["precision"].get<std::string>().c_str(),
                j["fps"].get<double>());
    std::printf("  vertices   %llu\n", j["vertices"].get<unsigned long long>());
    std::printf("  triangles  %llu (LOD 0)\n", j["triangles"].get<unsigned long long>());
    std::printf("  joints     %u\n", j["joints"].get<unsigned>());
    std::printf("  submeshes  %zu (%zu textures)\n", j["submeshes"].get<size_t>(), j["textures"].get<size_t>());
    std::printf("  clips      %zu\n", j["clips"].size());
    for (const auto& c : j["clips"]) {
        std::printf("    %-24s %8.3f s  %6u frames%s", c["name"].get<std::string>().c_str(),
                    c["duration"].get<double>(), c["frames"].get<unsigned>(), c["loop"].get<bool>() ? "" : "  (once)");
        if (c.contains("root_motion"))
            std::printf("  root speed %.4g units/s, turn %.3g degrees", c["root_motion"]["speed"].get<double>(),
                        c["root_motion"]["turn"].get<double>());
        std::printf("\n");
        if (c.contains("events")) {
            std::printf("      events");
            for (const auto& e : c["events"])
                std::printf(" %s@%.3g", e["name"].get<std::string>().c_str(), e["time"].get<double>());
            std::printf("\n");
        }
    }
    if (!j["root_joint"].is_null())
        std::printf("  root motion taken out of joint '%s' (in place; curves per clip)\n",
                    j["root_joint"].get<std::string>().c_str());
    std::printf("  lods       %zu\n", j["lods"].size());
    for (size_t l = 0; l < j["lods"].size(); ++l)
        std::printf("    LOD %zu  %9llu triangles  error %.4g\n", l,
                    j["lods"][l]["triangles"].get<unsigned long long>(), j["lods"][l]["error"].get<double>());
    std::printf("  vat        %s\n", j["vat"].get<bool>() ? "yes" : "no");
    printParts(j["parts"]);
    printLooks(j["looks"]);
    if (j["impostors"].is_null())
        std::printf("  impostors  no\n");
    else
        std::printf("  impostors  %u views, %u texels a side, %g pictures a second: %llu x %llu texels\n",
                    j["impostors"]["views"].get<unsigned>(), j["impostors"]["tile"].get<unsigned>(),
                    j["impostors"]["fps"].get<double>(), j["impostors"]["width"].get<unsigned long long>(),
                    j["impostors"]["height"].get<unsigned long long>());
    const auto& b = j["bounds"];
    std::printf("  bounds     min (%.4g, %.4g, %.4g)  max (%.4g, %.4g, %.4g)  diagonal %.4g\n",
                b["min"][0].get<double>(), b["min"][1].get<double>(), b["min"][2].get<double>(),
                b["max"][0].get<double>(), b["max"][1].get<double>(), b["max"][2].get<double>(),
                b["diagonal"].get<double>());
}

// One source described: its JSON, and its text printed unless `json`; null after printing the
// error line.
std::optional<nlohmann::json> describeSource(const std::string& source, bool json) {
    if (isThrongFile(source)) {
        Result<BakedAsset> asset = readThrong(source);
        if (!asset) {
            printError(source, asset.error().message);
            return std::nullopt;
        }
        nlohmann::json j = describeBaked(source, asset.value());
        if (!json) printBakedText(j);
        return j;
    }
    Result<Model> model = importModel(source);
    if (!model) {
        printError(source, model.error().message);
        return std::nullopt;
    }
    const Result<std::vector<BakedLod>> lods = lodChain(model.value());
    if (!json) printText(model.value(), lods);
    return json ? describe(model.value(), lods) : nlohmann::json();
}

} // namespace

int runInfo(const InfoOptions& options) {
    // Several sources (the models of one crowd): each in turn, text apart by a blank line, JSON
    // as an array of their objects; the first that fails ends it.
    const std::vector<std::string> sources =
        options.sources.empty() ? std::vector<std::string>{options.source} : options.sources;
    nlohmann::json all = nlohmann::json::array();
    for (size_t i = 0; i < sources.size(); ++i) {
        if (i > 0 && !options.json) std::printf("\n");
        std::optional<nlohmann::json> j = describeSource(sources[i], options.json);
        if (!j) return 1;
        all.push_back(std::move(*j));
    }
    if (options.json) // names may hold invalid UTF-8
        std::cout << (all.size() == 1 ? all[0] : all).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << "\n";
    return 0;
}

} // namespace throng::cli
