// The technique interface: one way of animating the crowd, behind the same small contract, so
// the renderer, the benchmark and the viewer can switch between them at run time.
//
// The registry (kTechniques in technique.cpp) holds one entry per technique: its descriptor
// (throng::TechniqueInfo, include/throng/technique.h: what it draws, needs and reads) and its
// create function. Every list of techniques, help text and refusal that names techniques is
// derived from the descriptors: techniqueNames, techniqueTakesLayers, techniqueReadsMembersOnGpu,
// skinningProblem, techniqueCullBounds and createTechnique here, computeRasterProblem and the
// compute rasterizer's skinning (compute_raster.cpp), sim::kindFor, the crowd layouts of
// src/api, the CLI's help, warnings, checks and bench variants (tools/throng), the console's help.
// A new technique touches:
//   - a file of its own in src/render, as technique_vat.cpp is: the technique and its create
//     function (in CMakeLists.txt's throng_render sources);
//   - its shader in src/shaders (in CMakeLists.txt's shader list; a vertex shader also builds
//     its capture variant, CONTRIBUTING.md);
//   - one entry in kTechniques (technique.cpp), with the create function's declaration above it;
//   - the docs that describe each technique (README.md's table, CHANGELOG.md).
// The descriptor's flags cover what the existing options and paths ask of a technique; one that
// needs a new option or path adds a flag there and reads it where the option is handled. The
// only name outside the registry: tools/throng/info.cpp names the technique builtin:fish is drawn
// with by default.
//
// Lifetime: createTechnique() builds pipelines and uploads what never changes; per frame the
// owner of the frame calls update() (CPU work, writing only the frame slot's own buffers, which
// the GPU finished reading when that slot's fence signalled); the frame (crowd_frame.h) takes
// its prepare passes first and its draw where the frame draws (gpu/passes.h).
#pragma once

#include "crowd.h"
#include "crowd_gpu.h"
#include "crowd_pose.h"
#include "gpu_asset.h"
#include "history.h"
#include "pose_gpu.h"

#include "../gpu/passes.h"

#include <throng/technique.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace throng::render {

// The mesh as the CPU skinning jobs read it (structure of arrays), from BakedAsset::vertices.
struct BakedAssetMesh {
    std::vector<glm::vec3> positions, normals;
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
};
BakedAssetMesh cpuMesh(const BakedAsset& asset);

// JointEncoding and Skinning: throng/options.h.
// parseSkinning with the one-line error every entry point gives for a bad name.
Result<Skinning> skinningNamed(const std::string& name);
// Whether technique `name` draws `skinning` ("" when it does, else why not, naming the techniques
// that do).
std::string skinningProblem(std::string_view name, Skinning skinning);

// What the renderer gives a technique once.
struct TechniqueSetup {
    gpu::Allocator* allocator = nullptr;
    const GpuAsset* asset = nullptr;
    const std::vector<gpu::shader::InstanceRecord>* instances =
        nullptr; // the members as they start (CPU techniques sample from them)
    // The crowd on the GPU whose records and visible list the technique draws (owned by the
    // frame's owner, outliving the technique). Required.
    CrowdGpu* crowd = nullptr;
    VkFormat color_format = VK_FORMAT_UNDEFINED;
    VkFormat depth_format = VK_FORMAT_UNDEFINED;
    // Motion vectors (history.h): the velocity target's format and the crowd's history, whose
    // previous records and per-slot MotionParams the draws' velocity variants read. None: UNDEFINED, null.
    VkFormat velocity_format = VK_FORMAT_UNDEFINED;
    const MemberHistory* history = nullptr;
    uint32_t frames_in_flight = 2;
    SwimParams swim = defaultSwim(); // TechniqueInfo::swims only
    // TechniqueInfo::needs_source: each model's source animation (crowd_pose.h; several models
    // only for the techniques with TechniqueInfo::mixed_crowds).
    PoseSources sources;
    const BakedAssetMesh* mesh = nullptr;           // TechniqueInfo::needs_cpu_mesh
    JointEncoding encoding = JointEncoding::Matrix; // TechniqueInfo::encodes_joints
    Skinning skinning = Skinning::Linear;           // DualQuaternion: TechniqueInfo::dual_quaternion
    // `--layer` texts (throng::parseLayer), for the techniques that blend layers
    // (TechniqueInfo::takes_layers; the others refuse any). createTechnique() resolves them
    // against `source` into `pose_layers`, which the techniques read.
    std::vector<std::string> layers;
    std::vector<PoseLayerSetup> pose_layers;
    Precision bone_precision = Precision::Float32; // TechniqueInfo::texel_precision: float or half texels
    // Tests: a storage buffer of vec4 per (instance, vertex) that the capture shader variants
    // fill with world positions (needs Context::vertex_stores). VK_NULL_HANDLE: normal shaders.
    VkBuffer capture = VK_NULL_HANDLE;
    // The crowd casts and receives shadows (shadows.h; owned by the frame's owner, outliving the
    // technique): the lit pass reads its map, and recordDepth() has a depth-only pipeline. Null: none.
    const class ShadowMap* shadows = nullptr;
    // Tests: pretend the device's maxStorageBufferRange is this many bytes (0: the device's), to
    // exercise the batching of techniques whose per-frame data outgrows one storage buffer.
    uint64_t storage_buffer_limit = 0;
};

// The largest storage buffer range shaders may read: the device's maxStorageBufferRange, or
// TechniqueSetup::storage_buffer_limit when set.
uint64_t storageBufferLimit(const TechniqueSetup& setup);

inline double millisecondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// CPU cost of the last update(), for the time ruler and `throng bench`.
struct TechniqueStats {
    double sample_ms = 0.0;    // sampling poses
    double skin_ms = 0.0;      // skinning on the CPU
    double upload_ms = 0.0;    // writing per-frame buffers
    uint64_t upload_bytes = 0; // bytes written for the GPU this frame
};

// Where a technique keeps a frame's skinning palettes for the compute rasterizer
// (Technique::computePalettes): every member's raster.joint_count entries, member-major, each 3
// vec4 rows (the columns of a 3x4 matrix) or, in the quaternion encoding, 2 (rotation; translation
// and uniform scale), either in a storage buffer or as the texels of a float image.
struct ComputePalettes {
    VkBuffer buffer = VK_NULL_HANDLE;   // storage buffer of vec4 rows, or
    VkImageView image = VK_NULL_HANDLE; // an RGBA float image in SHADER_READ_ONLY_OPTIMAL, row k at
    uint32_t image_width = 0;           // texel (k % image_width, k / image_width)
    JointEncoding encoding = JointEncoding::Matrix;
    // The buffer holds the members in batches of batch_members consecutive members whose first
    // rows lie batch_stride vec4s apart (palette-ubo's padded uniform blocks); 0: one run.
    uint32_t batch_members = 0;
    uint32_t batch_stride = 0;
    uint64_t bytes = 0; // the buffer's size (a storage buffer's range is limited)
    // With motion vectors: the palettes as the last frame drew them, laid out as `buffer`
    // (technique pose poses each member a second time, from its last record at the last frame's
    // time; palette and palette-ubo upload the last frame's beside this frame's). Null: none kept
    // (the resolve then reads this frame's: the members' moves without their limbs').
    VkBuffer previous = VK_NULL_HANDLE;
    VkImageView previous_image = VK_NULL_HANDLE; // the same for `image` (null: none kept)
};

class Technique {
  public:
    virtual ~Technique() = default;
    virtual std::string_view name() const = 0;
    // CPU work for frame slot `slot` at `time` (seconds). Default: nothing.
    virtual void update(uint32_t slot, float time) {
        (void)slot;
        (void)time;
    }
    virtual TechniqueStats stats() const { return {}; }
    // Whether the draw reads members through a culled visible list (CrowdGpu). Techniques that
    // draw in batches of consecutive members cannot, and draw every member; the compute
    // rasterizer still culls for them (it reads a member's palette by its index), and with
    // `auto` draws all of such a crowd (crowd_frame.cpp).
    virtual bool drawsCulled() const { return true; }

    // The technique's passes of frame slot `slot` before anything draws with them (its draw, the
    // shadow pass, the compute rasterizer), appended to `passes`: default the `upload` pass when
    // hasTransfers(); technique `pose` its compute pass. The passes keep `this`: record them
    // before the technique is destroyed. `constants` carries the camera, light and time;
    // `previous` what the frame's motion vectors measure against (null: none).
    virtual void addPreparePasses(std::vector<gpu::Pass>& passes, uint32_t slot,
                                  const gpu::shader::DrawConstants& constants, const PreviousFrame* previous);
    // Per-frame transfers (uploads into images), recorded in the `upload` pass. Default: none.
    virtual bool hasTransfers() const { return false; }
    virtual void recordTransfers(VkCommandBuffer cmd, uint32_t slot) {
        (void)cmd;
        (void)slot;
    }
    // The skinning palettes of frame slot `slot` that the compute rasterizer reads for a technique
    // with TechniqueInfo::palettes_in_compute (ComputePalettes: where and how; written by
    // update() or by addPreparePasses' passes before the raster's), the same for every slot where
    // the technique keeps one. Default: none.
    virtual ComputePalettes computePalettes(uint32_t slot) const {
        (void)slot;
        return {};
    }
    // The CPU-skinned vertices of frame slot `slot` that the compute rasterizer reads for a
    // technique with TechniqueInfo::vertices_in_compute (per member, in member order, its
    // vertices' positions then their normals, 3 floats each), when they are in one buffer:
    // VK_NULL_HANDLE otherwise (a crowd whose vertices span several buffers). Default: none.
    virtual VkBuffer computeVertices(uint32_t slot) const {
        (void)slot;
        return VK_NULL_HANDLE;
    }
    // With motion vectors: the same vertices' positions as the last frame drew them, laid out as
    // computeVertices' (VK_NULL_HANDLE: the technique keeps none). Default: none.
    virtual VkBuffer computePreviousVertices(uint32_t slot) const {
        (void)slot;
        return VK_NULL_HANDLE;
    }
    // Draws the crowd inside dynamic rendering on the frame's colour and depth targets.
    virtual void record(VkCommandBuffer cmd, uint32_t slot, const gpu::shader::DrawConstants& constants) = 0;
    // The same draw, with the same skinning, into a depth-only target (the shadow map), through
    // whichever members the crowd's last recorded culling phase chose. Contract: the technique
    // was made with TechniqueSetup::shadows.
    virtual void recordDepth(VkCommandBuffer cmd, uint32_t slot, const gpu::shader::DrawConstants& constants) = 0;
};

// The technique's `draw` pass (graphics, colour + depth) calling record(): after its prepare
// passes (a frame with shadows puts the shadow pass between them). `name`: occlusion culling's
// late phase draws through the same pass as `draw-late`.
void addDrawPass(std::vector<gpu::Pass>& passes, Technique& technique, uint32_t slot,
                 const gpu::shader::DrawConstants& constants, const char* name = "draw");

// The boxes culling tests per clip for technique `name`: `clip_bounds` (Crowd::clip_bounds), or
// for one that swims the reach of the swim around them (its rotations about axes through the
// origin, then its sideways translations), or for one with TechniqueInfo::pads_cull_bounds each
// grown by a tenth of its diagonal (a cross-fade blended in local space swings limbs on arcs,
// outside both clips' boxes) and, with `layers`, the union of every clip's box (a layer's clip,
// e.g. a raised arm, may reach past the member's own clips), grown the same way.
std::vector<Bounds> techniqueCullBounds(std::string_view name, const std::vector<Bounds>& clip_bounds,
                                        const SwimParams& swim, bool layers = false);

// Whether technique `name` reads the members only on the GPU (TechniqueInfo::members_on_gpu), so
// that they may move there (a simulated crowd); the others sample poses from the CPU's copy.
bool techniqueReadsMembersOnGpu(std::string_view name);

// Whether technique `name` blends layers (TechniqueSetup::layers; TechniqueInfo::takes_layers).
bool techniqueTakesLayers(std::string_view name);

// Whether technique `name` swims (TechniqueInfo::swims): its crowd is laid out in a volume.
bool techniqueSwims(std::string_view name);

// The swim as the shaders read it (shared.h's SwimParams, the same fields).
gpu::shader::SwimParams toShader(const SwimParams& swim);

// The names createTechnique() knows, in the order tools list them (throng::techniques()).
std::vector<std::string_view> techniqueNames();

// Errors: an unknown name (listing the known ones); skinning the technique does not draw
// (skinningProblem); a technique that needs the source animation given an asset without it; one
// that needs vertex animation given an asset without it; layers for a technique that does not
// blend them (naming those that do), or layers it cannot resolve; records past the storage limit.
Result<std::unique_ptr<Technique>> createTechnique(std::string_view name, const TechniqueSetup& setup);

} // namespace throng::render
