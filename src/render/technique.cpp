// The technique registry: the one place that lists them and says what each can do (technique.h).
#include "technique.h"
#include "frame_resources.h"

#include "mesh_pass.h"

#include <algorithm>
#include <array>
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

// One technique: what it is and how to make it, in the order the tools list them.
struct Entry {
    TechniqueInfo info;
    Created (*create)(const TechniqueSetup&);
};

constexpr Entry kTechniques[] = {
    {{.name = "cpu",
      .summary = "poses sampled and vertices skinned on the CPU, uploaded every frame",
      .takes_layers = true,
      .compute_raster = true,
      .skinned_in_compute = true,
      .vertices_in_compute = true,
      .pads_cull_bounds = true,
      .needs_source = true,
      .needs_cpu_mesh = true,
      .in_bench_all = true},
     createCpuTechnique},
    {{.name = "palette",
      .summary = "poses sampled on the CPU into a storage buffer of joints, skinned on the GPU",
      .takes_layers = true,
      .dual_quaternion = true,
      .compute_raster = true,
      .skinned_in_compute = true,
      .palettes_in_compute = true,
      .pads_cull_bounds = true,
      .needs_source = true,
      .encodes_joints = true,
      .in_bench_all = true,
      .mixed_crowds = true},
     createPaletteTechnique},
    {{.name = "palette-ubo",
      .summary = "as palette, from 16 KiB uniform blocks drawn in batches",
      .takes_layers = true,
      .dual_quaternion = true,
      .compute_raster = true,
      .skinned_in_compute = true,
      .palettes_in_compute = true,
      .pads_cull_bounds = true,
      .needs_source = true,
      .encodes_joints = true,
      .in_bench_all = true},
     createPaletteUboTechnique},
    {{.name = "bonetex",
      .summary = "poses sampled on the CPU into a texture of joints, skinned on the GPU",
      .takes_layers = true,
      .compute_raster = true,
      .skinned_in_compute = true,
      .palettes_in_compute = true,
      .pads_cull_bounds = true,
      .needs_source = true,
      .texel_precision = true,
      .in_bench_all = true,
      .mixed_crowds = true},
     createBonetexTechnique},
    {{.name = "baked",
      .summary = "the baked animation sampled, cross-faded and skinned on the GPU",
      .members_on_gpu = true,
      .dual_quaternion = true,
      .compute_raster = true,
      .skinned_in_compute = true,
      .bake_precision = true,
      .animation_storage = true,
      .coarse_skinning = true,
      .in_bench_all = true,
      .mixed_crowds = true},
     createBakedTechnique},
    {{.name = "pose",
      .summary = "every member posed on the GPU from the model's keys (exact cross-fades, layers)",
      .members_on_gpu = true,
      .takes_layers = true,
      .dual_quaternion = true,
      .compute_raster = true,
      .skinned_in_compute = true,
      .palettes_in_compute = true,
      .pads_cull_bounds = true,
      .needs_source = true,
      .in_bench_all = true},
     createPoseTechnique},
    {{.name = "vat",
      .summary = "vertex animation textures, every vertex's position and normal per frame",
      .members_on_gpu = true,
      .compute_raster = true,
      .skinned_in_compute = true,
      .vat_in_compute = true,
      .needs_vat = true,
      .in_bench_all = true,
      .mixed_crowds = true},
     createVatTechnique},
    {{.name = "procedural",
      .summary = "fish swimming in the vertex shader (builtin:fish)",
      .members_on_gpu = true,
      .compute_raster = true,
      .skinned_in_compute = true,
      .swim_in_compute = true,
      .swims = true,
      .mixed_crowds = true},
     createProceduralTechnique},
    {{.name = "static",
      .summary = "the bind pose, plain instancing (the ceiling)",
      .members_on_gpu = true,
      .compute_raster = true,
      .in_bench_all = true,
      .mixed_crowds = true},
     createStaticTechnique},
};

// The descriptors alone, contiguous, for throng::techniques() (and the one copy findTechnique
// points into): kInfos[i] is kTechniques[i].info.
constexpr auto kInfos = [] {
    std::array<TechniqueInfo, std::size(kTechniques)> infos{};
    for (size_t i = 0; i < infos.size(); ++i) infos[i] = kTechniques[i].info;
    return infos;
}();

// The index of technique `name`, or kInfos.size().
size_t indexOf(std::string_view name) {
    size_t i = 0;
    while (i < kInfos.size() && kInfos[i].name != name) ++i;
    return i;
}

const Entry* findEntry(std::string_view name) {
    const size_t i = indexOf(name);
    return i < kInfos.size() ? &kTechniques[i] : nullptr;
}

template <class Pick> std::string joinNames(Pick pick, std::string_view last) {
    std::vector<std::string_view> names;
    for (const TechniqueInfo& t : kInfos)
        if (pick(t)) names.push_back(t.name);
    std::string out;
    for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += i + 1 == names.size() ? last : std::string_view(", ");
        out += names[i];
    }
    return out;
}

} // namespace

} // namespace throng::render

namespace throng {

std::span<const TechniqueInfo> techniques() { return render::kInfos; }

const TechniqueInfo* findTechnique(std::string_view name) {
    const size_t i = render::indexOf(name);
    return i < render::kInfos.size() ? &render::kInfos[i] : nullptr;
}

std::string techniqueList(bool (*pick)(const TechniqueInfo&), std::string_view last) {
    return render::joinNames([pick](const TechniqueInfo& t) { return pick == nullptr || pick(t); }, last);
}

std::string techniquesWith(bool TechniqueInfo::*ability, std::string_view last) {
    return render::joinNames([ability](const TechniqueInfo& t) { return t.*ability; }, last);
}

std::string simulationProblem(std::string_view name) {
    const TechniqueInfo* info = findTechnique(name);
    if (info == nullptr || info->members_on_gpu) return {};
    return "technique " + std::string(name) +
           " samples poses from the members on the CPU; a crowd simulated on the GPU is drawn by " +
           techniquesWith(&TechniqueInfo::members_on_gpu, " or ");
}

std::string dualQuaternionProblem(std::string_view name) {
    return findTechnique(name) == nullptr ? "" : render::skinningProblem(name, Skinning::DualQuaternion);
}

std::string layersProblem(std::string_view name) {
    const TechniqueInfo* info = findTechnique(name);
    if (info == nullptr || info->takes_layers) return {};
    return "layers (--layer) are blended by the techniques that pose members from the source animation (" +
           techniquesWith(&TechniqueInfo::takes_layers) + "), not " + std::string(name);
}

std::string mixedCrowdProblem(std::string_view name) {
    const TechniqueInfo* info = findTechnique(name);
    if (info == nullptr || info->mixed_crowds) return {};
    return "technique " + std::string(name) +
           (info->needs_cpu_mesh   ? " skins one model's mesh on the CPU"
            : info->members_on_gpu ? " poses members from one model's keys on the GPU"
                                   : " draws each batch's members with every submesh, unculled") +
           "; a crowd of several models is drawn by " + techniquesWith(&TechniqueInfo::mixed_crowds, " or ");
}

} // namespace throng

namespace throng::render {

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
    for (const TechniqueInfo& t : kInfos) names.push_back(t.name);
    return names;
}

std::vector<Bounds> techniqueCullBounds(std::string_view name, const std::vector<Bounds>& clip_bounds,
                                        const SwimParams& swim, bool layers) {
    const TechniqueInfo* info = findTechnique(name);
    if (info == nullptr) return clip_bounds;
    if (info->pads_cull_bounds) {
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
    if (!info->swims) return clip_bounds;
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

bool techniqueSwims(std::string_view name) {
    const TechniqueInfo* info = findTechnique(name);
    return info != nullptr && info->swims;
}

gpu::shader::SwimParams toShader(const SwimParams& s) {
    static_assert(sizeof(SwimParams) == sizeof(gpu::shader::SwimParams));
    return {s.side, s.pivot, s.wave, s.twist, s.frequency, s.beats_per_second, s.mask_head, s.mask_tail};
}

bool techniqueTakesLayers(std::string_view name) {
    const TechniqueInfo* info = findTechnique(name);
    return info != nullptr && info->takes_layers;
}

bool techniqueReadsMembersOnGpu(std::string_view name) {
    const TechniqueInfo* info = findTechnique(name);
    return info != nullptr && info->members_on_gpu;
}

void Technique::addPreparePasses(std::vector<gpu::Pass>& passes, uint32_t slot,
                                 const gpu::shader::DrawConstants& constants, const PreviousFrame* previous) {
    (void)constants;
    (void)previous;
    if (!hasTransfers()) return;
    passes.push_back({"upload", gpu::PassKind::Transfer, gpu::PassTargets::ColorDepth,
                      [this, slot](VkCommandBuffer cmd) { recordTransfers(cmd, slot); }, 0, frame::Animation});
}

void addDrawPass(std::vector<gpu::Pass>& passes, Technique& technique, uint32_t slot,
                 const gpu::shader::DrawConstants& constants, const char* name) {
    Technique* t = &technique;
    passes.push_back({name, gpu::PassKind::Graphics, gpu::PassTargets::ColorDepth,
                      [t, slot, constants](VkCommandBuffer cmd) { t->record(cmd, slot, constants); }, frame::DrawReads,
                      0});
}

Result<Skinning> skinningNamed(const std::string& name) {
    Skinning skinning = Skinning::Linear;
    if (!parseSkinning(name, skinning)) return Error{"skinning '" + name + "' is not linear or dual-quaternion"};
    return skinning;
}

std::string skinningProblem(std::string_view name, Skinning skinning) {
    const TechniqueInfo* info = findTechnique(name);
    if (skinning == Skinning::Linear || (info != nullptr && info->dual_quaternion)) return "";
    return "dual-quaternion skinning is drawn by techniques " + techniquesWith(&TechniqueInfo::dual_quaternion) +
           ", not " + std::string(name);
}

Result<std::unique_ptr<Technique>> createTechnique(std::string_view name, const TechniqueSetup& setup) {
    if (const Entry* e = findEntry(name)) {
        if (std::string problem = skinningProblem(name, setup.skinning); !problem.empty()) return Error{problem};
        TechniqueSetup resolved = setup;
        if (!setup.layers.empty()) {
            if (std::string problem = layersProblem(name); !problem.empty()) return Error{problem};
            if (setup.sources.models.size() > 1)
                return Error{
                    "layers (--layer) name one model's clips and joints; a crowd of several models takes none"};
            if (setup.sources.one() == nullptr)
                return Error{"layers (--layer) need the model's source animation, which this asset lacks"};
            Result<std::vector<PoseLayerSetup>> layers = resolveLayers(*setup.sources.one(), setup.layers);
            if (!layers) return layers.error();
            resolved.pose_layers = std::move(layers).value();
        }
        const uint64_t records = uint64_t(setup.instances->size()) * sizeof(gpu::shader::InstanceRecord);
        if (Status s = checkStorageBuffer(setup, records,
                                          std::to_string(setup.instances->size()) + " instance records x " +
                                              std::to_string(sizeof(gpu::shader::InstanceRecord)) + " B");
            !s)
            return s.error();
        return e->create(resolved);
    }
    return Error{"unknown technique '" + std::string(name) + "' (available: " + techniqueList() + ")"};
}

} // namespace throng::render
