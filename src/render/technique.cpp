// The technique registry: the one place that lists them.
#include "technique.h"

#include "mesh_pass.h"

#include <algorithm>
#include <cmath>

namespace throng::render {

using Created = Result<std::unique_ptr<Technique>>;
Created createBakedTechnique(const TechniqueSetup& setup);
Created createVatTechnique(const TechniqueSetup& setup);
Created createStaticTechnique(const TechniqueSetup& setup);
Created createProceduralTechnique(const TechniqueSetup& setup);
Created createPaletteTechnique(const TechniqueSetup& setup);
Created createPaletteUboTechnique(const TechniqueSetup& setup);
Created createBonetexTechnique(const TechniqueSetup& setup);
Created createCpuTechnique(const TechniqueSetup& setup);
Created createPoseTechnique(const TechniqueSetup& setup);

namespace {

struct Entry {
    std::string_view name;
    Created (*create)(const TechniqueSetup&);
};

constexpr Entry kTechniques[] = {
    {"cpu", createCpuTechnique},
    {"palette", createPaletteTechnique},
    {"palette-ubo", createPaletteUboTechnique},
    {"bonetex", createBonetexTechnique},
    {"baked", createBakedTechnique},
    {"pose", createPoseTechnique},
    {"vat", createVatTechnique},
    {"procedural", createProceduralTechnique},
    {"static", createStaticTechnique},
};

} // namespace

BakedAssetMesh cpuMesh(const BakedAsset& asset) {
    BakedAssetMesh m;
    for (const BakedVertex& v : asset.vertices) {
        m.positions.emplace_back(v.position[0], v.position[1], v.position[2]);
        m.normals.emplace_back(v.normal[0], v.normal[1], v.normal[2]);
        m.joints.emplace_back(v.joints[0], v.joints[1], v.joints[2], v.joints[3]);
        m.weights.emplace_back(v.weights[0], v.weights[1], v.weights[2], v.weights[3]);
    }
    return m;
}

std::vector<std::string_view> techniqueNames() {
    std::vector<std::string_view> names;
    for (const Entry& e : kTechniques) names.push_back(e.name);
    return names;
}

std::vector<Bounds> techniqueCullBounds(std::string_view name, const std::vector<Bounds>& clip_bounds,
                                        const gpu::shader::SwimParams& swim, bool layers) {
    if (name == "pose") {
        std::vector<Bounds> out = clip_bounds;
        if (layers && !out.empty()) {
            Bounds all = out[0];
            for (const Bounds& b : out) {
                all.min = glm::min(all.min, b.min);
                all.max = glm::max(all.max, b.max);
            }
            std::fill(out.begin(), out.end(), all);
        }
        for (Bounds& b : out) {
            const glm::vec3 pad(0.1f * b.diagonal());
            b.min -= pad;
            b.max += pad;
        }
        return out;
    }
    if (name != "procedural") return clip_bounds;
    std::vector<Bounds> out;
    for (const Bounds& b : clip_bounds) {
        // The shader rolls about z, adds the wave along x, yaws about y, adds the side-to-side
        // motion along x. Rotations about axes through the origin keep a point's distance to it.
        const float wave = std::fabs(swim.wave), side = std::fabs(swim.side);
        Bounds r = b;
        if (swim.pivot != 0.0f || swim.twist != 0.0f) {
            const float reach = glm::length(glm::max(glm::abs(b.min), glm::abs(b.max))) + wave;
            r = Bounds{glm::vec3(-reach), glm::vec3(reach)};
            r.min.x -= side;
            r.max.x += side;
        } else {
            r.min.x -= wave + side;
            r.max.x += wave + side;
        }
        out.push_back(r);
    }
    return out;
}

bool techniqueTakesLayers(std::string_view name) {
    return name == "pose" || name == "cpu" || name == "palette" || name == "palette-ubo" || name == "bonetex";
}

bool techniqueReadsMembersOnGpu(std::string_view name) {
    return name == "baked" || name == "vat" || name == "procedural" || name == "static" || name == "pose";
}

void Technique::addPreparePasses(std::vector<gpu::Pass>& passes, uint32_t slot,
                                 const gpu::shader::DrawConstants& constants) {
    (void)constants;
    if (!hasTransfers()) return;
    passes.push_back({"upload", gpu::PassKind::Transfer, gpu::PassTargets::ColorDepth,
                      [this, slot](VkCommandBuffer cmd) { recordTransfers(cmd, slot); }});
}

void addDrawPass(std::vector<gpu::Pass>& passes, Technique& technique, uint32_t slot,
                 const gpu::shader::DrawConstants& constants) {
    Technique* t = &technique;
    passes.push_back({"draw", gpu::PassKind::Graphics, gpu::PassTargets::ColorDepth,
                      [t, slot, constants](VkCommandBuffer cmd) { t->record(cmd, slot, constants); }});
}

void Technique::addPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const gpu::shader::DrawConstants& constants) {
    addPreparePasses(passes, slot, constants);
    addDrawPass(passes, *this, slot, constants);
}

const char* toString(Skinning skinning) { return skinning == Skinning::DualQuaternion ? "dual-quaternion" : "linear"; }

bool parseSkinning(std::string_view name, Skinning& skinning) {
    for (Skinning s : {Skinning::Linear, Skinning::DualQuaternion})
        if (name == toString(s)) {
            skinning = s;
            return true;
        }
    return false;
}

Result<Skinning> skinningNamed(const std::string& name) {
    Skinning skinning = Skinning::Linear;
    if (!parseSkinning(name, skinning)) return Error{"skinning '" + name + "' is not linear or dual-quaternion"};
    return skinning;
}

std::string skinningProblem(std::string_view name, Skinning skinning) {
    if (skinning == Skinning::Linear || name == "palette" || name == "palette-ubo" || name == "baked" || name == "pose")
        return "";
    return "dual-quaternion skinning is drawn by techniques palette, palette-ubo, baked and pose, not " +
           std::string(name);
}

Result<std::unique_ptr<Technique>> createTechnique(std::string_view name, const TechniqueSetup& setup) {
    for (const Entry& e : kTechniques) {
        if (e.name != name) continue;
        if (std::string problem = skinningProblem(name, setup.skinning); !problem.empty()) return Error{problem};
        TechniqueSetup resolved = setup;
        if (!setup.layers.empty()) {
            if (!techniqueTakesLayers(name))
                return Error{"layers (--layer) are blended by the techniques that pose members from the source "
                             "animation (pose, cpu, palette, palette-ubo, bonetex), not " +
                             std::string(name)};
            if (setup.source == nullptr)
                return Error{"layers (--layer) need the model's source animation, which this asset lacks"};
            Result<std::vector<PoseLayerSetup>> layers = resolveLayers(*setup.source, setup.layers);
            if (!layers) return layers.error();
            resolved.pose_layers = std::move(layers).value();
        }
        const uint64_t records = uint64_t(setup.instances->size()) * sizeof(gpu::shader::InstanceRecord);
        if (Status s = checkStorageBuffer(setup, records,
                                          std::to_string(setup.instances->size()) + " instance records x " +
                                              std::to_string(sizeof(gpu::shader::InstanceRecord)) + " B");
            !s)
            return Error{s.message};
        return e.create(resolved);
    }
    std::string known;
    for (const Entry& e : kTechniques) known += std::string(known.empty() ? "" : ", ") + std::string(e.name);
    return Error{"unknown technique '" + std::string(name) + "' (available: " + known + ")"};
}

} // namespace throng::render
