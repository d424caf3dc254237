// throng/options.h — how a crowd is animated and drawn: the one set of options that every way of
// drawing a crowd takes. `throng render`, `bench` and `view` fill it from their command lines;
// the headless jobs (throng/headless.h, CrowdJob) and the render API (throng/render.h,
// CrowdRendererDesc) are a CrowdOptions plus what only they need; the renderer inside takes it
// as it is (src/render/crowd_renderer.h), so no field is copied under another name on the way.
// A choice among a few is an enum; the technique is a name of the registry (throng/technique.h),
// so that a new technique needs no entry here.
#pragma once

#include <throng/api.h>
#include <throng/baked.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

THRONG_API_BEGIN
namespace throng {

// The most models one crowd holds (a member names its model in 8 bits; issue #25).
constexpr size_t kMaxCrowdModels = 256;

// Who rasterizes the crowd. Compute: every member through the compute rasterizer (64-bit buffer
// atomics; refused where it cannot draw the crowd). Auto (the default): members at LOD 0 through
// the hardware, the coarser levels through the compute rasterizer; the hardware alone where the
// compute rasterizer cannot draw the crowd (a device without 64-bit buffer atomics, quietly; an
// asset or crowd it cannot take, with a note), never an error. Hardware: the hardware alone.
enum class Raster : uint8_t { Hardware, Compute, Auto };
// How techniques that upload palettes store a joint (TechniqueInfo::encodes_joints): a 3x4
// matrix, or a quaternion + translation and uniform scale (exact for rigid joints).
enum class JointEncoding : uint8_t { Matrix, Quaternion };
// Where the headless renders and the viewer stand: Overview, the whole crowd seen from above its
// edge; Street, among the members at eye height, looking across them.
enum class ViewKind : uint8_t { Overview, Street };
// Where technique baked's animation texels live on the GPU (TechniqueInfo::animation_storage).
// Auto: the image array when it fits the device's image limits (width 3 * joints, height frames,
// layers clips), else a uniform texel buffer, else (past maxTexelBufferElements) a storage buffer.
// StorageBuffer reads the same texels as plain words, without the texture unit; on the H200 that
// is 14% slower than the image (docs/BENCHMARKS.md), so Auto takes it only as the last resort.
enum class AnimationStorage : uint8_t { Auto, Image, TexelBuffer, StorageBuffer };

// The names the command line and messages use: "linear", "dual-quaternion"; "hardware",
// "compute", "auto"; "mat", "quat"; "overview", "street"; "auto", "image", "texel-buffer",
// "buffer". parse*: false for any other text (the value kept).
const char* toString(Skinning skinning);
const char* toString(Raster raster);
const char* toString(JointEncoding encoding);
const char* toString(ViewKind view);
const char* toString(AnimationStorage storage);
bool parseSkinning(std::string_view name, Skinning& skinning);
bool parseRaster(std::string_view name, Raster& raster);
bool parseJointEncoding(std::string_view name, JointEncoding& encoding);
bool parseViewKind(std::string_view name, ViewKind& view);
bool parseAnimationStorage(std::string_view name, AnimationStorage& storage);

// The swim of technique "procedural" for a body of length 2 along z, head at +z (builtin:fish).
struct SwimParams {
    float side = 0.0f;             // side-to-side translation amplitude
    float pivot = 0.0f;            // yaw amplitude about the body's centre
    float wave = 0.0f;             // travelling-wave amplitude
    float twist = 0.0f;            // roll amplitude
    float frequency = 0.0f;        // wave number along z (radians per unit length)
    float beats_per_second = 0.0f; // tail beats per second at speed 1
    float mask_head = 0.0f;        // z in front of which the wave and twist vanish (head at +z)...
    float mask_tail = 0.0f;        // ...and z behind which they act fully; mask_tail < mask_head
};
SwimParams defaultSwim();

// Culling and levels of detail on the GPU (where the device has drawIndirectCount).
struct CullSettings {
    bool cull = true;            // drop members outside the frustum
    bool lod = true;             // choose a coarser LOD where its error is small on screen
    float lod_error_px = 1.0f;   // the largest error on screen a coarser LOD may make, in pixels
    bool occlusion = true;       // with `cull`: also drop members hidden behind what the frame drew
    bool coarse_skinning = true; // with `lod`: TechniqueInfo::coarse_skinning skins its coarsest levels coarsely
    // Members less than this many pixels tall are drawn as animated impostors (0: none; the asset
    // needs them: `throng bake --impostors`).
    float impostor_px = 0.0f;
    // With the raster mode auto: the hardware draws the members at LOD 0 whose triangles cover
    // about this many pixels each or more, the compute rasterizer everyone else (its cost grows
    // with a triangle's pixels, the hardware's does not; render/crowd_gpu.h autoShare). 0: the
    // hardware draws every member at LOD 0.
    float hardware_triangle_px = 16.0f;
    // Members less than this many pixels across on screen (their bounding sphere, as impostor_px)
    // are drawn as splats by the compute rasterizer: a few pixels of their coverage and average
    // colour instead of their coarsest level's triangles (docs/IN_MOTION.md; 0: none; 0 .. 8).
    // Drawn by the compute rasterizer only: with Raster::Hardware it has no effect.
    float splat_px = 0.0f;
    static constexpr float kMaxSplatPx = 8.0f;
    bool active() const { return cull || lod; }
};

// Shadows of the crowd on itself and on a ground under it, from the light.
struct ShadowSettings {
    uint32_t size = 0;  // texels a side of the shadow map (16..16384); 0: no shadows
    bool ground = true; // draw a ground (at the area's floor) that receives them
    // The world box the crowd lives in; empty (min == max): the members' box, refitted when they
    // change (a simulated crowd: its layout's).
    Bounds area;
    bool enabled() const { return size > 0; }
};

// The compute rasterizer's vertex cache: the default size (room for every member at its finest
// level, within the GPU's limits; with LOD at most 512 MiB: src/render/compute_raster.h).
constexpr uint64_t kVertexCacheAuto = ~uint64_t(0);

struct CrowdOptions {
    std::string technique = "baked"; // a name of the registry (throng/technique.h)
    Skinning skinning = Skinning::Linear;
    JointEncoding encoding = JointEncoding::Matrix; // TechniqueInfo::encodes_joints
    Precision bone_precision = Precision::Float32;  // TechniqueInfo::texel_precision: joint texels
    SwimParams swim = defaultSwim();                // TechniqueInfo::swims
    // Layers (TechniqueInfo::takes_layers), "CLIP@JOINT[,WEIGHT][@SHARE%]" each (throng::parseLayer):
    // CLIP over the member's animation from JOINT down, on the share of members their key chooses.
    std::vector<std::string> layers;
    Raster raster = Raster::Auto;
    uint64_t vertex_cache_bytes = kVertexCacheAuto; // the compute rasterizer's; 0: none
    CullSettings cull;
    ShadowSettings shadows;
    // A ground under the crowd (render/ground.h: a grey plane with a faint one-unit checker at the
    // floor of the members' box, lit as they are), also without shadows; with shadows
    // ShadowSettings::ground draws it too, receiving them. Off here (a host draws its own world);
    // on by default on the command line (`--ground`).
    bool ground = false;
};

// What a program can set that no command line can: an enum out of its range, a pixel size
// negative or not finite. One line; the technique, layers and shadow map size are checked where
// the crowd is built (against the registry, the asset, the device).
std::string optionsProblem(const CrowdOptions& options);

} // namespace throng
THRONG_API_END
