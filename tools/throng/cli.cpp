// cli.cpp — the subcommands' options (CLI11), every value checked, and warnings for options the
// chosen technique or input ignores. Usage mistakes become one line and exit code 2.
#include "cli.h"

#include <throng/anim.h>
#include <throng/attach.h>

#include <throng/headless.h>
#include <throng/technique.h>

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace throng::cli {
namespace {

constexpr const char* kModelSizeHelp =
    "Each model scaled so its bind pose's largest extent is SIZE units (models made in other units side by side: a Fox "
    "in centimetres beside a walker in metres); 0: as made";

// Values CLI11 would accept but we do not: "nan", "inf", "-1" for an unsigned option.
// A finite number in [lo, hi], with a message that names the range as a user would write it.
CLI::Validator finiteIn(double lo, double hi) {
    return CLI::Validator(
        [lo, hi](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !std::isfinite(v))
                return "'" + text + "' is not a finite number";
            if (v < lo || v > hi) {
                char range[64];
                std::snprintf(range, sizeof range, "%g .. %g", lo, hi);
                return text + " is out of range (" + range + ")";
            }
            return {};
        },
        "NUMBER");
}
// A positive finite length, or a positive share of the model's size written with '%' (at most
// 100%): `bake --max-error`.
CLI::Validator lengthOrShare() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            const bool share = !text.empty() && text.back() == '%';
            const std::string number = share ? text.substr(0, text.size() - 1) : text;
            char* end = nullptr;
            const double v = std::strtod(number.c_str(), &end);
            if (number.empty() || end == number.c_str() || *end != '\0' || !std::isfinite(v) || v <= 0.0 ||
                (share && v > 100.0))
                return "'" + text + "' is not a positive length (model units) or share of the size (e.g. 0.1%)";
            return {};
        },
        "E|P%");
}
// A text that `parse` (parseAttachment, parseLayer: Result<...>(std::string_view)) accepts; its
// error without the leading "OPTION " (CLI11 names the option itself).
template <class Parse> CLI::Validator parsedBy(Parse parse, std::string option) {
    return CLI::Validator(
        [parse, option](std::string& text) -> std::string {
            const auto spec = parse(text);
            if (spec) return {};
            const std::string& message = spec.error().message;
            return message.rfind(option + " ", 0) == 0 ? message.substr(option.size() + 1) : message;
        },
        "");
}
// --root-motion: auto or a joint name (the skeleton checks the name when the model is loaded).
CLI::Validator rootMotionSpec() {
    return CLI::Validator(
        [](std::string& text) -> std::string {
            if (text.empty() || text.size() > 1024 || text.find_first_of("\n\r") != std::string::npos)
                return "'" + text.substr(0, 64) + "' is not auto or a joint name";
            return {};
        },
        "JOINT|auto");
}
// A whole number in [lo, hi]: no sign, no exponent, no overflow.
CLI::Validator countIn(uint64_t lo, uint64_t hi) {
    return CLI::Validator(
        [lo, hi](std::string& text) -> std::string {
            if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos)
                return "'" + text + "' is not a whole number >= 0";
            errno = 0;
            const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
            if (errno == ERANGE || v < lo || v > hi)
                return text + " is out of range (" + std::to_string(lo) + " .. " + std::to_string(hi) + ")";
            return {};
        },
        "N");
}

// "WxH" with each side in 16 .. 16384.
bool parseSize(const std::string& text, uint32_t& width, uint32_t& height, std::string& error) {
    unsigned w = 0, h = 0;
    char tail = 0;
    if (text.find('-') != std::string::npos || std::sscanf(text.c_str(), "%ux%u%c", &w, &h, &tail) != 2 || w < 16 ||
        h < 16 || w > 16384 || h > 16384) {
        error = "--size " + text + ": expected WxH, each 16 .. 16384";
        return false;
    }
    width = w;
    height = h;
    return true;
}

std::string oneLine(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

// --technique's help: every technique with its summary, and the default.
std::string techniqueHelp(const char* lead) {
    std::string text =
        std::string(lead) + " (default: the model's own, " + naturalTechnique("builtin:fish") + " for builtin:fish): ";
    for (const TechniqueInfo& t : techniques())
        text += std::string(t.name) + ": " + std::string(t.summary) + (&t == &techniques().back() ? "" : "; ");
    return text;
}

// "technique procedural swims", "techniques palette and palette-ubo encode joints": the
// techniques `pick` accepts and what they do (`one` for a single one, `many` for several).
std::string whichDo(bool (*pick)(const TechniqueInfo&), const char* one, const char* many) {
    size_t count = 0;
    for (const TechniqueInfo& t : techniques()) count += pick(t) ? 1 : 0;
    return (count == 1 ? "technique " : "techniques ") + techniqueList(pick, " and ") + " " + (count == 1 ? one : many);
}

// What a technique reads (its TechniqueInfo): the options a user gives that it does not read
// earn a warning.
struct Given {
    bool swim = false, encoding = false, animation = false, precision = false, fps = false;
};
void warnIgnored(const std::string& technique, const std::string& model, const Given& given,
                 std::vector<std::string>& warnings) {
    const TechniqueInfo* t = findTechnique(technique);
    if (t == nullptr) return; // refused before
    if (given.swim && !t->swims)
        warnings.push_back("--swim is ignored: only " +
                           whichDo([](const TechniqueInfo& i) { return i.swims; }, "swims", "swim"));
    if (given.encoding && !t->encodes_joints)
        warnings.push_back(
            "--encoding is ignored: only " +
            whichDo([](const TechniqueInfo& i) { return i.encodes_joints; }, "encodes joints", "encode joints"));
    if (given.animation && !t->animation_storage)
        warnings.push_back("--animation is ignored: only " +
                           whichDo([](const TechniqueInfo& i) { return i.animation_storage; },
                                   "reads a baked animation", "read a baked animation"));
    if (isThrongFile(model)) {
        if (given.fps) warnings.push_back("--fps is ignored: a .throng file keeps the rate it was baked at");
        if (given.precision && !t->texel_precision)
            warnings.push_back("--precision is ignored: a .throng file keeps the precision it was baked in");
    } else if (given.precision && !t->texel_precision && !t->bake_precision) {
        warnings.push_back("--precision is ignored: only " +
                           whichDo([](const TechniqueInfo& i) { return i.texel_precision || i.bake_precision; },
                                   "reads it", "read it"));
    }
}

// render and bench: a camera of the user's choosing (the viewer's console prints its own in this form).
void addCameraFlag(CLI::App* command, CrowdFlags& flags) {
    command
        ->add_option("--camera", flags.camera,
                     "A camera of your choosing instead of --view: EYE:TARGET[:FOV], points x,y,z in world units, the "
                     "vertical field of view in degrees (default 40), e.g. 0,1.7,30:0,1,0:50; its depth range fits the "
                     "crowd (the viewer's console `camera` prints where it stands in this form)")
        ->check(parsedBy([](const std::string& text) { return parseCamera(text); }, "camera"));
}

void addCrowdFlags(CLI::App* command, CrowdFlags& flags) {
    command
        ->add_option("--view", flags.view,
                     "overview (the whole crowd, default) or street (standing at its edge, looking across it)")
        ->check(CLI::IsMember({"overview", "street"}));
    command->add_option("--cull", flags.cull, "Frustum culling on the GPU: on (default) or off")
        ->check(CLI::IsMember({"on", "off"}));
    command->add_option("--lod", flags.lod, "Level of detail by size on screen, chosen on the GPU: on (default) or off")
        ->check(CLI::IsMember({"on", "off"}));
    command
        ->add_option("--lod-error", flags.lod_error,
                     "The largest error a coarser LOD may make on screen, in pixels (default 1)")
        ->check(finiteIn(0.0, 10000.0));
    command
        ->add_option("--occlusion", flags.occlusion,
                     "Occlusion culling on the GPU (with --cull on): members hidden behind what the frame drew are not "
                     "drawn: on (default) or off")
        ->check(CLI::IsMember({"on", "off"}));
    command
        ->add_option("--coarse-skinning", flags.coarse_skinning,
                     techniquesWith(&TechniqueInfo::coarse_skinning) +
                         ", with --lod on: levels whose error is at least what it moves a vertex skinned by the "
                         "heaviest joint at the nearest frame: on (default) or off")
        ->check(CLI::IsMember({"on", "off"}));
    command
        ->add_option("--raster", flags.raster,
                     "auto (default: members whose triangles are large on screen by the hardware, see "
                     "--hardware-triangles, the rest in compute; the hardware alone where the device lacks 64-bit "
                     "buffer atomics), hardware, or compute (the crowd rasterized in compute shaders into a 64-bit "
                     "visibility buffer; " +
                         techniquesWith(&TechniqueInfo::compute_raster, ", ") + ")")
        ->check(CLI::IsMember({"hardware", "compute", "auto"}));
    command
        ->add_option("--hardware-triangles", flags.hardware_triangle_px,
                     "With --raster auto: the hardware draws the members at LOD 0 whose triangles cover about PX "
                     "pixels each or more on screen (default 16; 0: every member at LOD 0)")
        ->check(finiteIn(0.0, 1e6));
    command
        ->add_option("--splat-px", flags.splat_px,
                     "Members fewer than PX pixels across on screen are drawn by the compute rasterizer as splats: the "
                     "few pixels they cover in their average colour, not their coarsest level's triangles "
                     "(docs/IN_MOTION.md; 0 (default): none; --raster hardware draws none)")
        ->check(finiteIn(0.0, double(CullSettings::kMaxSplatPx)));
    command
        ->add_option("--impostors", flags.impostor_px,
                     "Members fewer than PX pixels tall on screen are drawn as animated impostors (pictures baked from "
                     "24 directions; "
                     "a model is baked with them, a .throng file must have been: bake --impostors); 0 (default): none")
        ->check(finiteIn(0.0, 10000.0));
    command
        ->add_option(
            "--vertex-cache", flags.vertex_cache,
            "MiB of the compute rasterizer's vertex cache (" + techniquesWith(&TechniqueInfo::skinned_in_compute) +
                ": each member's vertices skinned once a frame, 8 bytes each); "
                "auto (default): what the crowd needs at full detail, at most a quarter of the GPU's memory and "
                "its largest storage buffer, and with --lod on at most 512 MiB; 0: none")
        ->check([](const std::string& text) -> std::string {
            if (text == "auto") return {};
            char* end = nullptr;
            const double mib = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || *end != '\0' || !(mib >= 0.0 && mib <= 1e9))
                return "--vertex-cache: auto or MiB from 0 to 1e9, not '" + text + "'";
            return {};
        });
    command
        ->add_option("--skinning", flags.skinning,
                     "How " + techniquesWith(&TechniqueInfo::dual_quaternion) +
                         " blend a vertex's joints: linear (default) or dual-quaternion (no collapse where a joint "
                         "twists; other techniques refuse it, in bench as an error for their series)")
        ->check(CLI::IsMember({"linear", "dual-quaternion"}));
    command
        ->add_option("--shadows", flags.shadows,
                     "Shadows of the crowd on itself and on a ground under it, from the light: off (default), on (a "
                     "2048 x 2048 shadow map) or the map's texels a side (16 to 16384)")
        ->check([](const std::string& text) -> std::string {
            if (text == "on" || text == "off") return {};
            char* end = nullptr;
            const long size = std::strtol(text.c_str(), &end, 10);
            if (end == text.c_str() || *end != '\0' || size < 16 || size > 16384)
                return "on, off or texels from 16 to 16384, not '" + text + "'";
            return {};
        });
    command->add_option("--ground", flags.ground,
                        "A ground under the crowd, lit as the members are and receiving their shadows with --shadows: "
                        "on (default) or off");
    command
        ->add_option("--aa", flags.aa,
                     "Anti-aliasing: off (default), or taa (temporal: frames drawn through sub-pixel jitters, blended "
                     "along the motion vectors; render draws at least " +
                         std::to_string(kTaaFrames) + " frames to converge; the viewer's console: aa)")
        ->check(CLI::IsMember({"off", "taa"}));
    command
        ->add_option(
            "--attach", flags.attach,
            "A prop that follows a joint, repeatable: JOINT=MODEL[,X,Y,Z[,RX,RY,RZ[,SCALE]]][@SHARE%] (a model file "
            "or builtin:sword, builtin:hat; offset in the joint's frame: translation, rotations in degrees "
            "about x, y, z, scale; the share of members that carry it, default 100%)")
        ->check(parsedBy(parseAttachment, "--attach"));
    command
        ->add_option(
            "--layer", flags.layers,
            "Techniques " + techniquesWith(&TechniqueInfo::takes_layers, ", ") +
                ": a clip played over the members' own animation from a joint down, repeatable "
                "(at most 8): CLIP@JOINT[,WEIGHT][@SHARE%] (weight 0 to 1, default 1; the share of members that "
                "carry it, default 100%), e.g. idle@spine,0.7@50%")
        ->check(parsedBy(parseLayer, "--layer"));
    command
        ->add_option(
            "--light", flags.light,
            "Where the sun stands, AZIMUTH,ELEVATION in degrees: azimuth about +y (0: in front, from +z; 90: from "
            "+x), elevation above the horizon (5 to 90); shading and shadows follow it. Default 38.7,57.4")
        ->check([](const std::string& text) -> std::string {
            float azimuth = 0.0f, elevation = 0.0f;
            if (!parseSunAngles(text, azimuth, elevation))
                return "AZIMUTH,ELEVATION in degrees, elevation from 5 to 90, not '" + text + "'";
            return {};
        });
    command
        ->add_option("--root-motion", flags.root_motion,
                     "A model that is not a .throng file is baked with root motion taken out of JOINT (or auto), as "
                     "bake --root-motion does")
        ->check(rootMotionSpec());
    command->add_option("--events", flags.events,
                        "A model that is not a .throng file is baked with animation events, repeatable: auto "
                        "(footsteps) or a JSON file, as bake --events does");
    command->add_flag("--simulate", flags.simulate,
                      "Move the members on the GPU: walkers walk to goals apart from each other, fish swim as a school "
                      "(" +
                          techniquesWith(&TechniqueInfo::members_on_gpu, ", ") + ")");
}

} // namespace

uint64_t vertexCacheBytes(const CrowdFlags& flags) {
    if (flags.vertex_cache == "auto") return kVertexCacheAuto;
    return uint64_t(std::strtod(flags.vertex_cache.c_str(), nullptr) * 1048576.0);
}

uint32_t shadowMapSize(const CrowdFlags& flags) {
    if (flags.shadows == "off") return 0;
    if (flags.shadows == "on") return 2048;
    return uint32_t(std::strtoul(flags.shadows.c_str(), nullptr, 10));
}

glm::vec3 lightDirection(const CrowdFlags& flags) {
    float azimuth = 0.0f, elevation = 0.0f;
    if (flags.light.empty() || !parseSunAngles(flags.light, azimuth, elevation)) return kDefaultLightDirection;
    return lightFromAngles(azimuth, elevation);
}

void applyCrowdFlags(const CrowdFlags& flags, CrowdOptions& options) {
    options.cull = {flags.cull,
                    flags.lod,
                    flags.lod_error,
                    flags.occlusion,
                    flags.coarse_skinning,
                    flags.impostor_px,
                    flags.hardware_triangle_px,
                    flags.splat_px};
    parseRaster(flags.raster, options.raster);       // the parser admits only the names it knows
    parseSkinning(flags.skinning, options.skinning); // likewise
    options.vertex_cache_bytes = vertexCacheBytes(flags);
    options.shadows.size = shadowMapSize(flags);
    options.ground = flags.ground;
    options.shadows.ground = flags.ground;
    options.layers = flags.layers;
}

void applyCrowdFlags(const CrowdFlags& flags, CrowdJob& job) {
    applyCrowdFlags(flags, static_cast<CrowdOptions&>(job));
    parseViewKind(flags.view, job.view); // the parser admits only overview and street
    if (!flags.camera.empty())
        if (Result<Camera> camera = parseCamera(flags.camera)) job.camera = camera.value(); // checked when parsed
    job.simulate = flags.simulate;
    job.light_direction = lightDirection(flags);
    job.taa = flags.aa == "taa";
}

Status checkSimulate(const CrowdFlags& flags, const std::string& technique) {
    if (!flags.simulate) return {};
    if (std::string problem = simulationProblem(technique); !problem.empty())
        return Status::failure("--simulate: " + problem);
    return {};
}

Status checkTechniqueFlags(const CrowdFlags& flags, const std::string& technique) {
    if (Status s = checkSimulate(flags, technique); !s) return s;
    Skinning skinning = Skinning::Linear;
    if (parseSkinning(flags.skinning, skinning) && skinning == Skinning::DualQuaternion)
        if (std::string problem = dualQuaternionProblem(technique); !problem.empty())
            return Status::failure("--skinning: " + problem);
    if (!flags.layers.empty())
        if (std::string problem = layersProblem(technique); !problem.empty()) return Status::failure(problem);
    return {};
}

ParseResult parseCommandLine(int argc, const char* const* argv) {
    ParseResult result;
    CommandLine& c = result.command;
    CLI::App app{"throng: animate and render huge crowds of skinned characters"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "throng 0.1.0\n");
    app.option_defaults()->always_capture_default(); // --help shows every option's default

    InfoOptions& info = c.info;
    CLI::App* info_cmd = app.add_subcommand("info", "Describe a model: meshes, joints, skins, clips, bounds, warnings");
    info_cmd
        ->add_option(
            "model", info.sources,
            "Model file (.gltf .glb .fbx .dae ...) or builtin:NAME (fish, walker; props: sword, hat); several: "
            "each in turn (JSON: an array)")
        ->required();
    info_cmd->add_flag("--json", info.json, "Print one JSON object instead of text");

    AnimateOptions& anim = c.animate;
    CLI::App* anim_cmd = app.add_subcommand(
        "animate", "Animate a model on the CPU and check the float path against the double reference");
    anim_cmd->add_option("model", anim.source, "Model file or builtin:NAME")->required();
    anim_cmd->add_option("--clip", anim.clip, "Clip name (default: every clip)");
    anim_cmd->add_option("--frames", anim.frames, "Sample times per clip")->check(countIn(1, 100000));

    BakeCliOptions& bake = c.bake;
    CLI::App* bake_cmd =
        app.add_subcommand("bake", "Bake every clip into a .throng file (animation texture + mesh) for the GPU");
    bake_cmd->add_option("model", bake.source, "Model file or builtin:NAME")->required();
    bake_cmd->add_option("-o,--out,--output", bake.output, "The .throng file to write");
    bake_cmd->add_option("--export", bake.export_dir,
                         "Also (or only) write it for other engines into this directory: animation.exr (and vat.exr "
                         "with --vat), mesh.gltf + mesh.bin, throng.json (docs/EXPORT.md)");
    bake_cmd->add_option("--fps", bake.fps, "Frames per second to sample (1 .. 1000)")->check(finiteIn(1.0, 1000.0));
    bake_cmd->add_option("--precision", bake.precision, "Animation texel precision: float or half")
        ->check(CLI::IsMember({"float", "half"}));
    bake_cmd->add_flag(
        "--vat", bake.vat,
        "Also bake vertex animation textures (every vertex's position and normal per frame) for technique " +
            techniquesWith(&TechniqueInfo::needs_vat, " or "));
    bake_cmd->add_flag(
        "--impostors", bake.impostors,
        "Also bake animated impostors: the model from 8 x 3 directions at 10 pictures a second, 32 texels a side, for "
        "members drawn smaller than --impostors PX in render, bench and view");
    bake_cmd
        ->add_option("--skinning", bake.skinning,
                     "With --impostors: how their pictures' poses blend joints, as the crowds that draw them skin: "
                     "linear (default) or dual-quaternion")
        ->check(CLI::IsMember({"linear", "dual-quaternion"}));
    bake_cmd
        ->add_option("--max-error", bake.max_error,
                     "Error-bounded baking: each clip gets the fewest frames whose tweening stays within E model "
                     "units (or P% of the model's size) of exact sampling, instead of --fps; reports each clip's "
                     "rate, error and bytes against --fps")
        ->check(lengthOrShare());
    bake_cmd
        ->add_option("--root-motion", bake.root_motion,
                     "Root motion: take JOINT's horizontal travel and turn (or auto: the topmost joint that travels "
                     "over 10% of the model's size) out of every clip, bake the clips in place and store the motion "
                     "as each clip's curve, which --simulate moves members by")
        ->check(rootMotionSpec());
    bake_cmd->add_option(
        "--events", bake.events,
        "Animation events, repeatable: auto (footsteps found in the frames: footstep_left, footstep_right) or a JSON "
        "file {\"CLIP\": [{\"time\": SECONDS, \"name\": \"NAME\"}]}; stored in the .throng file");
    bake_cmd->add_option("--lods", bake.lods, "Levels of detail, LOD 0 included (0 or 1: none extra)")
        ->check(countIn(0, kMaxBakedLods));

    RenderOptions& render = c.render;
    std::string size = "1280x720";
    CLI::App* render_cmd = app.add_subcommand(
        "render", "Render a crowd headless to a PNG and print device, triangles and GPU time per pass");
    // The model: the first positional argument, as in every subcommand; --model stays as an alias.
    std::vector<std::string> render_models;
    CLI::Option* r_model = render_cmd->add_option(
        "model", render_models,
        "A .throng file, a model file or builtin:NAME; several make one crowd, each MODEL@SHARE% of the members "
        "(shares default to equal: builtin:walker@70% builtin:strider)");
    render_cmd->add_option("--model", render_models, "The same as the positional MODEL")->excludes(r_model);
    render_cmd->add_option("--instances", render.instances, "Crowd size")->check(countIn(1, 16 << 20));
    render_cmd->add_option("--model-size", render.model_size, kModelSizeHelp)->check(finiteIn(0.0, 1e6));
    CLI::Option* r_technique =
        render_cmd->add_option("--technique", render.technique, techniqueHelp("Animation technique"));
    CLI::Option* r_swim = render_cmd->add_option(
        "--swim", render.swim,
        techniquesWith(&TechniqueInfo::swims) +
            ": amounts, e.g. "
            "side=0.04,pivot=0.12,wave=0.12,twist=0.25,frequency=3.14,beats=1.5,mask_head=0.6,mask_tail=-0.6");
    CLI::Option* r_encoding = render_cmd
                                  ->add_option("--encoding", render.encoding,
                                               techniquesWith(&TechniqueInfo::encodes_joints) +
                                                   ": joints as 3x4 matrices or quaternion + translation")
                                  ->check(CLI::IsMember({"mat", "quat"}));
    render_cmd->add_option("--time", render.time, "Time of the image, seconds (within +-1e6)")
        ->check(finiteIn(-1e6, 1e6));
    render_cmd->add_option("--size", size, "Image size WxH");
    render_cmd->add_option("--seed", render.seed, "Crowd layout and variation seed")->check(countIn(0, UINT64_MAX));
    render_cmd->add_option("--frames", render.frames, "Frames rendered; GPU times are the median after the first")
        ->check(countIn(1, 10000));
    CLI::Option* r_fps = render_cmd->add_option("--fps", render.fps, "Bake rate when the model is not a .throng file")
                             ->check(finiteIn(1.0, 1000.0));
    CLI::Option* r_precision =
        render_cmd
            ->add_option("--precision", render.precision,
                         techniquesWith(&TechniqueInfo::bake_precision) +
                             ": bake precision when the model is not a .throng file; " +
                             techniquesWith(&TechniqueInfo::texel_precision) + ": texel precision")
            ->check(CLI::IsMember({"float", "half"}));
    CLI::Option* r_animation =
        render_cmd
            ->add_option("--animation", render.animation,
                         techniquesWith(&TechniqueInfo::animation_storage) +
                             ": where the animation lives on the GPU: auto, image, texel-buffer or buffer")
            ->check(CLI::IsMember({"auto", "image", "texel-buffer", "buffer"}));
    render_cmd->add_option("--device", render.device, "Use the Vulkan device whose name contains this");
    render_cmd->add_flag("--validate", render.validate, "Enable the Vulkan validation layers; any error fails the run");
    render_cmd->add_option("-o,--out", render.output, "PNG to write");
    render_cmd->add_option(
        "--velocity", render.velocity,
        "Also write motion vectors: the last frame's, as a PNG (hue: direction, brightness: length)");
    render_cmd->add_option("--members", render.members,
                           "Also write the crowd as JSON: every member's place, clip, time and tint, the camera and "
                           "the light, for drawing the same crowd elsewhere (examples/godot-crowd)");
    addCrowdFlags(render_cmd, render.crowd);
    addCameraFlag(render_cmd, render.crowd);

    BenchOptions& bench = c.bench;
    std::string bench_size = "1280x720";
    CLI::App* bench_cmd = app.add_subcommand(
        "bench", "Measure every technique at several crowd sizes (JSON/CSV; plot with tools/plot_bench.py)");
    std::vector<std::string> bench_models;
    CLI::Option* b_model = bench_cmd->add_option(
        "model", bench_models,
        "A .throng file, a model file or builtin:NAME; several make one crowd, each MODEL@SHARE% of the members");
    bench_cmd->add_option("--model", bench_models, "The same as the positional MODEL")->excludes(b_model);
    bench_cmd->add_option("--techniques", bench.techniques,
                          "Comma-separated techniques, or all (" + techniquesWith(&TechniqueInfo::in_bench_all, ", ") +
                              " and the model's own); NAME@VARIANT sets an option for that series: " + benchVariants() +
                              " (" + benchVariantOptions() + "); --layer applies to the series of " +
                              techniquesWith(&TechniqueInfo::takes_layers));
    bench_cmd->add_option("--instances", bench.instances, "Comma-separated crowd sizes");
    bench_cmd->add_option("--model-size", bench.model_size, kModelSizeHelp)->check(finiteIn(0.0, 1e6));
    bench_cmd->add_option("--frames", bench.frames, "Timed frames per configuration")->check(countIn(1, 100000));
    bench_cmd->add_option("--warmup", bench.warmup, "Frames before timing")->check(countIn(0, 100000));
    bench_cmd
        ->add_option("--settle", bench.settle,
                     "Seconds of drawing the first frame again before those, on a GPU (its clocks rise under load)")
        ->check(finiteIn(0.0, 60.0));
    bench_cmd->add_option("--size", bench_size, "Image size WxH");
    bench_cmd->add_option("--seed", bench.seed, "Crowd seed")->check(countIn(0, UINT64_MAX));
    bench_cmd->add_option("--json", bench.json, "Write the report as JSON");
    bench_cmd->add_option("--csv", bench.csv,
                          "Write the report as CSV to this file (else to standard output; with a file, standard "
                          "output gets a table of each series' frame times)");
    bench_cmd->add_option("--device", bench.device, "Use the Vulkan device whose name contains this");
    bench_cmd->add_flag("--validate", bench.validate, "Enable the Vulkan validation layers");
    addCrowdFlags(bench_cmd, bench.crowd);
    addCameraFlag(bench_cmd, bench.crowd);

    view::ViewerOptions& view = c.view;
    std::string view_size = "1280x720", view_encoding = "mat", view_precision = "float";
    CLI::App* view_cmd = app.add_subcommand(
        "view", "Open the crowd in a window: technique switcher, FPS counter, time ruler, debug console (backtick)");
    std::vector<std::string> view_models;
    view_cmd->add_option("model", view_models,
                         "A .throng file, a model file or builtin:NAME; several make one crowd, each MODEL@SHARE% of "
                         "the members");
    view_cmd->add_option("--instances", view.instances, "Crowd size")->check(countIn(1, 10'000'000));
    CLI::Option* v_technique = view_cmd->add_option("--technique", view.technique, techniqueHelp("Technique at start"));
    CLI::Option* v_encoding = view_cmd
                                  ->add_option("--encoding", view_encoding,
                                               techniquesWith(&TechniqueInfo::encodes_joints) +
                                                   ": joints as 3x4 matrices or quaternion + translation")
                                  ->check(CLI::IsMember({"mat", "quat"}));
    CLI::Option* v_precision = view_cmd
                                   ->add_option("--precision", view_precision,
                                                techniquesWith(&TechniqueInfo::texel_precision) +
                                                    " texels and the baked animation: float or half")
                                   ->check(CLI::IsMember({"float", "half"}));
    CLI::Option* v_fps = view_cmd->add_option("--fps", view.fps, "Bake rate when the model is not a .throng file")
                             ->check(finiteIn(1.0, 1000.0));
    view_cmd->add_option("--seed", view.seed, "Crowd layout and variation seed")->check(countIn(0, UINT64_MAX));
    view_cmd->add_option("--model-size", view.model_size, kModelSizeHelp)->check(finiteIn(0.0, 1e6));
    view_cmd->add_option("--present", view.present, "fifo (vsync, default), mailbox or immediate")
        ->check(CLI::IsMember({"fifo", "mailbox", "immediate"}));
    view_cmd->add_option(
        "--exec", view.exec,
        "Console commands separated by ';', one per frame, e.g. \"technique cpu; wait 10; screenshot a.png\"");
    view_cmd
        ->add_option("--frames", view.frames,
                     "Quit after this many frames, 1 or more (default: when the window closes)")
        ->check(countIn(1, 4'000'000'000));
    view_cmd->add_flag("--console", view.console, "Start with the debug console open (backtick toggles it)");
    view_cmd->add_option("--size", view_size, "Window size WxH");
    view_cmd->add_option("--device", view.device, "Use the Vulkan device whose name contains this");
    CrowdFlags view_crowd;
    addCrowdFlags(view_cmd, view_crowd);
    view_cmd->add_flag("--validate", view.validate,
                       "Enable the Vulkan validation layers; any error makes the exit code 1");

    auto usage = [&](const std::string& message) {
        result.exit_code = 2;
        result.error = oneLine(message);
        return result;
    };
    // A first word that names no subcommand is named as such (CLI11 would say one is required).
    if (argc > 1 && argv[1][0] != '-') {
        std::string names;
        bool known = false;
        for (const CLI::App* sub : app.get_subcommands({})) {
            known = known || sub->get_name() == argv[1];
            names += (names.empty() ? "" : ", ") + sub->get_name();
        }
        if (!known)
            return usage("unknown subcommand '" + std::string(argv[1]) + "' (" + names + "; see throng --help)");
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) { // --help, --help-all, --version (CallForHelp derives from Success)
        std::ostringstream out, err;
        result.exit_code = app.exit(e, out, err);
        result.out = out.str() + err.str();
        return result;
    } catch (const CLI::ParseError& e) {
        std::string where;
        for (CLI::App* sub : app.get_subcommands())
            if (sub->parsed()) where = std::string(" (see throng ") + sub->get_name() + " --help)";
        return usage(e.what() + (where.empty() ? std::string(" (see throng --help)") : where));
    } catch (const std::exception& e) {
        return usage(e.what());
    }

    std::string error;
    if (info_cmd->parsed()) {
        c.subcommand = Subcommand::Info;
    } else if (anim_cmd->parsed()) {
        c.subcommand = Subcommand::Animate;
    } else if (bake_cmd->parsed()) {
        c.subcommand = Subcommand::Bake;
        if (bake.output.empty() && bake.export_dir.empty())
            return usage("bake needs -o FILE.throng, --export DIR, or both (see throng bake --help)");
    } else if (render_cmd->parsed()) {
        c.subcommand = Subcommand::Render;
        if (!render_models.empty()) {
            if (Status s = parseModelList(render_models, render.models, render.shares); !s) return usage(s.message);
            render.model = render.models[0];
        }
        if (r_technique->count() == 0) render.technique = naturalTechnique(render.model);
        if (!parseSize(size, render.width, render.height, error)) return usage(error);
        if (findTechnique(render.technique) == nullptr)
            return usage("--technique: unknown technique '" + render.technique + "' (available: " + techniqueList() +
                         ")");
        if (Status s = checkRenderOptions(render); !s) return usage(s.message);
        if (Status s = checkTechniqueFlags(render.crowd, render.technique); !s) return usage(s.message);
        warnIgnored(render.technique, render.model,
                    Given{r_swim->count() > 0, r_encoding->count() > 0, r_animation->count() > 0,
                          r_precision->count() > 0, r_fps->count() > 0},
                    c.warnings);
    } else if (bench_cmd->parsed()) {
        c.subcommand = Subcommand::Bench;
        if (!bench_models.empty()) {
            if (Status s = parseModelList(bench_models, bench.models, bench.shares); !s) return usage(s.message);
            bench.model = bench.models[0];
        }
        if (!parseSize(bench_size, bench.width, bench.height, error)) return usage(error);
        if (Status s = checkBenchOptions(bench); !s) return usage(s.message);
    } else if (view_cmd->parsed()) {
        c.subcommand = Subcommand::View;
        if (!view_models.empty()) {
            if (Status s = parseModelList(view_models, view.models, view.shares); !s) return usage(s.message);
            view.model = view.models[0];
        }
        if (v_technique->count() == 0) view.technique = naturalTechnique(view.model);
        if (!parseSize(view_size, view.width, view.height, error)) return usage(error);
        applyCrowdFlags(view_crowd, static_cast<CrowdOptions&>(view));
        parseJointEncoding(view_encoding, view.encoding); // the parser admits only mat and quat
        view.bone_precision = view_precision == "half" ? Precision::Float16 : Precision::Float32;
        parseViewKind(view_crowd.view, view.view); // the parser admits only overview and street
        view.simulate = view_crowd.simulate;
        view.attach = view_crowd.attach;
        view.root_motion = view_crowd.root_motion;
        view.events = view_crowd.events;
        view.light = view_crowd.light;
        view.taa = view_crowd.aa == "taa";
        if (findTechnique(view.technique) == nullptr)
            return usage("--technique: unknown technique '" + view.technique + "' (available: " + techniqueList() +
                         ")");
        // The viewer switches techniques at run time, so only options no technique can use warn.
        if (isThrongFile(view.model) && v_fps->count() > 0)
            c.warnings.push_back("--fps is ignored: a .throng file keeps the rate it was baked at");
        (void)v_encoding;
        (void)v_precision;
    }
    return result;
}

} // namespace throng::cli
