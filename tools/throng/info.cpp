// `throng info`: what a model holds, as text or as one JSON object.
#include "commands.h"

#include <throng/bake.h>
#include <throng/import.h>

#include "../../src/io/files.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace throng::cli {

void printError(const std::string& source, const std::string& message) {
    std::fprintf(stderr, "throng: error: %s: %s\n", source.c_str(), message.c_str());
}

bool checkOutput(const std::string& path) {
    Result<std::string> target = io::resolveOutput(path);
    if (!target) printError(path, target.error().message);
    return target.ok();
}

namespace {

// The LOD chain `throng bake` would store (the simplifier runs: milliseconds for a crowd member).
nlohmann::json lodsJson(const Result<std::vector<BakedLod>>& lods) {
    nlohmann::json out = nlohmann::json::array();
    if (lods)
        for (const BakedLod& l : lods.value()) out.push_back({{"triangles", l.triangleCount()}, {"error", l.error}});
    return out;
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
    json clips = json::array();
    for (const Clip& c : model.clips)
        clips.push_back(
            {{"name", c.name}, {"duration", c.duration}, {"keyframes", keyframeCount(c)}, {"tracks", c.tracks.size()}});
    j["clips"] = clips;
    j["materials"] = model.materials.size();
    j["textures"] = model.textures.size();
    const Bounds b = bindPoseBounds(model);
    j["bounds"] = {
        {"min", {b.min.x, b.min.y, b.min.z}}, {"max", {b.max.x, b.max.y, b.max.z}}, {"diagonal", b.diagonal()}};
    j["lods"] = lodsJson(lods); // empty when they cannot be built, and lods_error says why
    if (!lods) j["lods_error"] = lods.error().message;
    j["warnings"] = model.warnings;
    return j;
}

void printText(const Model& model, const Result<std::vector<BakedLod>>& lods) {
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
    for (const Clip& c : model.clips)
        std::printf("    %-24s %8.3f s  %6u keys  %4zu tracks\n", c.name.c_str(), double(c.duration), keyframeCount(c),
                    c.tracks.size());
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
    std::printf("  warnings   %zu\n", model.warnings.size());
    for (const std::string& w : model.warnings) std::printf("    - %s\n", w.c_str());
}

} // namespace

int runInfo(const InfoOptions& options) {
    Result<Model> model = importModel(options.source);
    if (!model) {
        printError(options.source, model.error().message);
        return 1;
    }
    const Result<std::vector<BakedLod>> lods = lodChain(model.value());
    if (options.json)
        std::cout << describe(model.value(), lods).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
                  << "\n"; // names may hold invalid UTF-8
    else
        printText(model.value(), lods);
    return 0;
}

} // namespace throng::cli
