// The throng CLI's subcommands. Each returns the process exit code and prints its own errors
// as one line: "throng: error: SOURCE: what is wrong".
#pragma once

#include <throng/headless.h>
#include <throng/result.h>

#include <cstdint>
#include <string>
#include <vector>

namespace throng::cli {

struct InfoOptions {
    std::string source;               // file path or builtin:NAME
    std::vector<std::string> sources; // several (the models of one crowd): each described, in order
    bool json = false;
};
int runInfo(const InfoOptions& options);

struct AnimateOptions {
    std::string source;
    std::string clip; // empty: every clip
    int frames = 30;  // sample times per clip, spread over [0, duration]
};
int runAnimate(const AnimateOptions& options);

struct BakeCliOptions {
    std::string source;              // file path or builtin:NAME
    std::string output;              // the .throng file to write (may be empty with export_dir)
    std::string export_dir;          // --export: the asset for other engines (throng/export.h); empty: none
    float fps = 30.0f;               // 1 .. 1000 (bake() checks)
    std::string precision = "float"; // float | half
    bool vat = false;                // also bake vertex animation (technique vat)
    bool impostors = false;          // also bake animated impostors (BakedImpostors)
    std::string skinning = "linear"; // the impostors' poses: linear | dual-quaternion (ImpostorOptions::skinning)
    uint32_t lods = 8;               // LOD levels, LOD 0 included; 0 or 1: none extra (8 = kMaxBakedLods)
    std::string max_error;   // --max-error: "E" (model units) or "P%" (of the bind pose's diagonal); empty: --fps
    std::string root_motion; // --root-motion JOINT|auto (throng/root_motion.h); empty: none
    std::vector<std::string> events; // --events auto | FILE.json, repeatable (throng/events.h)
};
int runBake(const BakeCliOptions& options);

// How the crowd is seen and drawn, shared by render, bench and view (--view, --cull, --lod,
// --lod-error, --occlusion, --coarse-skinning, --hardware-triangles; docs/GPU_DRIVEN.md).
struct CrowdFlags {
    std::string view = "overview";      // overview | street (render::ViewKind)
    std::string camera;                 // render and bench: EYE:TARGET[:FOV] instead of --view (throng/camera.h)
    bool cull = true;                   // frustum culling on the GPU
    bool lod = true;                    // LOD chosen on the GPU by size on screen
    float lod_error = 1.0f;             // pixels
    bool occlusion = true;              // with cull: members hidden behind others are not drawn
    bool coarse_skinning = true;        // with lod: baked skins its coarsest levels by one joint at the nearest frame
    std::string raster = "auto";        // auto | hardware | compute (render, bench and view; Raster)
    float hardware_triangle_px = 16.0f; // auto: the hardware's members by triangle size (CullSettings)
    float impostor_px = 0.0f; // members fewer pixels tall are drawn as animated impostors (0: none; render and bench)
    float splat_px = 0.0f;    // members fewer pixels across are drawn as splats by the compute rasterizer (0: none)
    std::string vertex_cache = "auto"; // MiB of the compute rasterizer's vertex cache, or auto (kVertexCacheAuto)
    bool simulate = false;             // members move on the GPU (src/sim/): TechniqueInfo::members_on_gpu
    std::string shadows = "off";       // off | on (2048) | texels a side of the shadow map
    bool ground = true;                // a ground under the crowd (CrowdOptions::ground; with shadows, receiving them)
    std::string aa = "off";            // off | taa: temporal anti-aliasing (CrowdJob::taa; the viewer's too)
    std::string skinning = "linear";   // linear | dual-quaternion (Skinning; TechniqueInfo::dual_quaternion)
    std::vector<std::string> attach;   // props: JOINT=MODEL[,offset][@share%] (throng/attach.h)
    std::vector<std::string> layers;   // pose, cpu, palette(-ubo), bonetex: CLIP@JOINT[,WEIGHT][@SHARE%]
    std::string light;                 // AZIMUTH,ELEVATION in degrees; empty: the default light
    std::string root_motion; // models baked at start: JOINT or auto takes root motion out (throng/root_motion.h)
    std::vector<std::string> events; // models baked at start: auto | FILE.json animation events (throng/events.h)
};
// The sun of --light AZIMUTH,ELEVATION (degrees), as the way its light travels; the default
// light when not given. Contract: the text passed the option's check.
glm::vec3 lightDirection(const CrowdFlags& flags);
// The shadow map size of --shadows (CrowdJob::shadows; 0: off).
uint32_t shadowMapSize(const CrowdFlags& flags);
// The bytes of --vertex-cache (CrowdJob::vertex_cache_bytes).
uint64_t vertexCacheBytes(const CrowdFlags& flags);
// The crowd flags into the crowd's options (throng/options.h): culling, LOD, occlusion,
// impostors, raster, skinning, vertex cache, shadows, the ground, layers (technique, encoding, precision and
// swim are the subcommand's). The one place the command line's text becomes options.
void applyCrowdFlags(const CrowdFlags& flags, CrowdOptions& options);
// ...and into a job: those, and the view, the simulation, the light and anti-aliasing.
void applyCrowdFlags(const CrowdFlags& flags, CrowdJob& job);
// --simulate with a technique that samples poses on the CPU (not TechniqueInfo::members_on_gpu):
// the message, naming the techniques that draw a simulated crowd; else success.
Status checkSimulate(const CrowdFlags& flags, const std::string& technique);
// checkSimulate, and --skinning dual-quaternion and --layer for a technique that draws them
// (render's usage errors: exit 2).
Status checkTechniqueFlags(const CrowdFlags& flags, const std::string& technique);

struct RenderOptions {
    std::string model = "builtin:walker"; // .throng, a model file, or builtin:NAME (the first of `models`)
    // Every model of the crowd (MODEL[@SHARE%] on the command line: parseModelList), and each
    // one's share of the members (empty: equal shares). One model: a crowd as it always was.
    std::vector<std::string> models;
    std::vector<float> shares;
    float model_size = 0.0f; // CrowdJob::model_size: each model scaled to this largest extent (0: as made)
    uint32_t instances = 1000;
    std::string technique = "baked";
    std::string encoding = "mat"; // TechniqueInfo::encodes_joints: mat | quat
    std::string swim;             // TechniqueInfo::swims: "side=0.04,pivot=0.12,..." overrides of defaultSwim()
    float time = 1.0f;            // seconds
    uint32_t width = 1280, height = 720;
    uint64_t seed = 1;
    uint32_t frames = 3; // rendered frames; timings are the median after the first
    float fps = 30.0f;   // bake rate when the model is not a .throng file
    std::string precision = "float";
    std::string animation = "auto"; // animation_storage: auto | image | texel-buffer | buffer
    std::string device;             // substring of the device name
    bool validate = false;
    std::string output = "crowd.png";
    // Motion vectors (CrowdJob::velocity): the last frame's as a picture (velocityPicture) into
    // this PNG; empty: none drawn.
    std::string velocity;
    // The members as laid out, the camera and the light, as JSON (membersJson) into this file;
    // empty: none written.
    std::string members;
    CrowdFlags crowd;
};
// The models of a crowd as the command line names them, MODEL[@SHARE%] each (a share in
// (0, 100]): their paths, and their shares (empty when none is given: equal shares). Models
// without a share split what the others leave; the shares given take at most 100% (all of it
// only when every model has one). Errors: one line naming the item.
Status parseModelList(const std::vector<std::string>& items, std::vector<std::string>& paths,
                      std::vector<float>& shares);

// Usage checks beyond what the parser does (the --swim list); exit code 2 on failure.
Status checkRenderOptions(const RenderOptions& options);
int runRender(const RenderOptions& options);
// The JSON of `render --members` (tools/throng/members_file.cpp): the format's fields, the models,
// the time, the picture's size, the camera and view-projection, the light, and every member of
// `out.members`.
std::string membersJson(const CrowdJobResult& out, const std::vector<std::string>& models, float time,
                        const glm::vec3& light_direction);

struct BenchOptions {
    std::string model = "builtin:walker"; // the first of `models`
    std::vector<std::string> models;      // as RenderOptions::models (MODEL[@SHARE%] each)
    std::vector<float> shares;
    float model_size = 0.0f; // as RenderOptions::model_size
    // Comma-separated NAME or NAME@VARIANT (bench.cpp, parseVariant), or all (the techniques with
    // TechniqueInfo::in_bench_all, and the model's own).
    std::string techniques = "all";
    std::string instances = "100,1000"; // comma-separated crowd sizes
    uint32_t frames = 20;               // timed frames per configuration
    uint32_t warmup = 5;                // frames before timing (pipeline compilation, caches)
    float settle = 0.5f;                // seconds of the first frame again before those (CrowdJob::settle_seconds)
    uint32_t width = 1280, height = 720;
    uint64_t seed = 1;
    std::string json, csv; // reports to write (empty: none); the CSV also goes to stdout
    std::string device;
    bool validate = false;
    CrowdFlags crowd;
};
// Usage checks: the technique and crowd-size lists (non-empty, every item known); exit code 2.
Status checkBenchOptions(const BenchOptions& options);
// The NAME@VARIANT series `--techniques` accepts, from what each technique reads:
// "palette@mat|quat|dq, ..., pose@dq".
std::string benchVariants();
// What the variants stand for: "mat|quat as --encoding, ..., dq as --skinning dual-quaternion".
std::string benchVariantOptions();
int runBench(const BenchOptions& options);

} // namespace throng::cli

namespace throng::view {
struct ViewerOptions;
}

namespace throng::cli {

int runView(const view::ViewerOptions& options); // `throng view` (throng/view.h, src/view/viewer.cpp)

void printError(const std::string& source, const std::string& message);

// An output path refused before any work starts (a FIFO, device, directory, missing or unwritable
// folder: throng/files.h); prints the error and returns false.
bool checkOutput(const std::string& path);

// The technique a model is drawn with when none is named: `procedural` for the creatures that
// swim (builtin:fish), `baked` for the rest.
std::string naturalTechnique(const std::string& model);

// A baked .throng file by its content (the magic: a renamed one is one) or by its name.
bool isThrongFile(const std::string& path);

} // namespace throng::cli
