// throng/technique.h — what each animation technique draws, needs and reads: one descriptor per
// technique, from the registry that creates them (src/render/technique.cpp). The tools' help
// texts, `bench --techniques all` and its NAME@VARIANT series, the warnings for options a
// technique ignores and every refusal that names techniques are derived from these, so that a
// new technique is described in one place.
#pragma once

#include <throng/api.h>

#include <span>
#include <string>
#include <string_view>

THRONG_API_BEGIN
namespace throng {

struct TechniqueInfo {
    std::string_view name;    // as --technique and CrowdRendererDesc::technique name it
    std::string_view summary; // what it does, one line for help texts

    // What it draws.
    bool members_on_gpu = false; // reads the members only on the GPU, so they may move there (--simulate)
    bool takes_layers = false;   // blends layers (--layer; CrowdRendererDesc::layers)
    // Draws dual-quaternion skinning (--skinning dual-quaternion); with compute_raster the compute
    // rasterizer draws it too, so such a technique skins from joints there (the baked animation or
    // palettes_in_compute: render::RasterOptions::skinning).
    bool dual_quaternion = false;
    bool compute_raster = false; // the compute rasterizer can draw it (--raster compute|auto)...
    // ...skinning its vertices (once a frame into its vertex cache: --vertex-cache) from the baked
    // animation, as technique baked draws them (without: the bind pose, as static)...
    bool skinned_in_compute = false;
    // ...or, with skinned_in_compute, from the skinning palettes it writes each frame (its own
    // pass, pose; the CPU, palette, palette-ubo, bonetex: render::Technique::computePalettes,
    // member-major, 3 vec4 rows per joint or 2 in the quaternion encoding, in a storage buffer,
    // batches of one or a texture), as palette.vert draws them.
    bool palettes_in_compute = false;
    // ...or, with skinned_in_compute, each vertex's position and normal sampled from the vertex
    // animation (tweened and cross-faded per vertex, as technique vat draws them; needs_vat).
    bool vat_in_compute = false;
    // ...or, with skinned_in_compute and swims, each vertex of the rest mesh moved by the swim (as
    // technique procedural draws it; render::RasterOptions::swim).
    bool swim_in_compute = false;
    // ...or, with skinned_in_compute, each vertex's position and normal read from the vertices the
    // CPU skinned this frame (render::Technique::computeVertices), as technique cpu draws them.
    bool vertices_in_compute = false;
    // A school of fish: laid out in a volume, simulated as a school, culled by the reach of its
    // swim and shaped by --swim (CrowdJob::swim).
    bool swims = false;
    // Culled with each clip's box grown for cross-fades blended in local space (limbs swing on
    // arcs, outside both clips' boxes) and, with layers, with the union of every clip's box.
    bool pads_cull_bounds = false;

    // What it needs of the asset.
    bool needs_source = false;   // the source animation: it poses members from the model's keys
    bool needs_cpu_mesh = false; // the mesh on the CPU: it skins there
    bool needs_vat = false;      // vertex animation (`throng bake --vat`; the tools bake it in for it)

    // Which options it reads.
    bool encodes_joints = false;    // --encoding mat|quat (CrowdJob::encoding)
    bool texel_precision = false;   // --precision: its joint texels float|half (CrowdJob::bone_precision)
    bool bake_precision = false;    // --precision: the animation a model (not a .throng file) is baked with
    bool animation_storage = false; // --animation image|texel-buffer|buffer (CrowdJob::animation)
    // --coarse-skinning: its coarsest levels of detail skinned by each vertex's heaviest joint at
    // the nearest frame.
    bool coarse_skinning = false;

    // In `throng bench --techniques all` (the model's own technique joins it where it is not).
    bool in_bench_all = false;
    // It draws a crowd of several models (issue #25): each member from its own model's data
    // (mixedCrowdProblem says why not where it does not).
    bool mixed_crowds = false;
};

// Every technique, in the order the tools list them.
std::span<const TechniqueInfo> techniques();

// The technique called `name`; null when there is none.
const TechniqueInfo* findTechnique(std::string_view name);

// The names of the techniques `pick` accepts (every technique when null), in registry order;
// `last` joins the last two: ", " (a plain list: "cpu, palette, bonetex"), " and ", " or ".
std::string techniqueList(bool (*pick)(const TechniqueInfo&) = nullptr, std::string_view last = ", ");

// Why a crowd of technique `name` cannot be simulated on the GPU ("" when it can, or when the
// technique is unknown): it samples poses from the CPU's copy of the members. The one wording of
// that refusal (--simulate, the viewer's simulate, CrowdRendererDesc::simulate).
std::string simulationProblem(std::string_view name);

// Why technique `name` cannot draw dual-quaternion skinning ("" when it can, or when the technique
// is unknown; TechniqueInfo::dual_quaternion), and why it cannot blend layers (likewise;
// TechniqueInfo::takes_layers): the one wording of those refusals (--skinning and --layer,
// CrowdRendererDesc).
std::string dualQuaternionProblem(std::string_view name);
std::string layersProblem(std::string_view name);

// Why technique `name` cannot draw a crowd of several models ("" when it can, or when the
// technique is unknown; TechniqueInfo::mixed_crowds): `pose` packs one model's skeleton and keys
// into its own pass's tables and `cpu` skins one model's mesh, which a crowd of several models
// does not give them yet (issue #25, docs/MIXED_CROWDS.md).
std::string mixedCrowdProblem(std::string_view name);

// The names of the techniques that have `ability`, as a sentence: "palette, palette-ubo, baked
// and pose" (`last` " or ": "baked or static").
std::string techniquesWith(bool TechniqueInfo::*ability, std::string_view last = " and ");

} // namespace throng
THRONG_API_END
