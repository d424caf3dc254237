// The technique interface: one way of animating the crowd, behind the same small contract, so
// the renderer, the benchmark and the viewer can switch between them at run time. A technique
// is one file; adding one touches that file and the registry in technique.cpp.
//
// Lifetime: createTechnique() builds pipelines and uploads what never changes; per frame the
// owner of the frame calls update() (CPU work, writing only the frame slot's own buffers, which
// the GPU finished reading when that slot's fence signalled) and then addPasses(), whose passes
// it records with the rest of the frame (gpu/passes.h).
#pragma once

#include "crowd.h"
#include "crowd_gpu.h"
#include "gpu_asset.h"
#include "pose_gpu.h"

#include "../gpu/passes.h"

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace throng::render {

// The swim of technique `procedural` for a body of length 2 along z, head at +z (builtin:fish).
gpu::shader::SwimParams defaultSwim();

// The mesh as the CPU skinning jobs read it (structure of arrays), from BakedAsset::vertices.
struct BakedAssetMesh {
    std::vector<glm::vec3> positions, normals;
    std::vector<glm::u16vec4> joints;
    std::vector<glm::vec4> weights;
};
BakedAssetMesh cpuMesh(const BakedAsset& asset);

// How technique `palette` stores a joint: a 3x4 matrix (48 bytes) or a quaternion + translation
// and uniform scale (32 bytes; exact for rigid joints with uniform scale, an approximation of
// cross-faded or sheared matrices).
enum class PaletteEncoding { Matrix, Quaternion };

// How techniques palette, palette-ubo, baked and pose blend a vertex's joints: their matrices weighted
// (linear blend skinning), or as dual quaternions (dual_quaternion.glsl: no collapse where a
// joint twists; throng/anim.h's dualQuaternionBlend is the CPU reference). The others: Linear only.
enum class Skinning { Linear, DualQuaternion };
const char* toString(Skinning skinning); // "linear", "dual-quaternion"
bool parseSkinning(std::string_view name, Skinning& skinning);
// parseSkinning with the one-line error every entry point gives for a bad name.
Result<Skinning> skinningNamed(const std::string& name);
// Whether technique `name` draws `skinning` ("" when it does, else why not).
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
    uint32_t frames_in_flight = 2;
    gpu::shader::SwimParams swim = defaultSwim(); // technique `procedural` only
    const AnimationSource* source = nullptr;      // for techniques that sample poses on the CPU
    const BakedAssetMesh* mesh = nullptr;         // technique `cpu`
    PaletteEncoding encoding = PaletteEncoding::Matrix;
    Skinning skinning = Skinning::Linear; // techniques palette, palette-ubo, baked and pose
    // `--layer` texts (throng::parseLayer), for the techniques that pose members from the source
    // animation (cpu, palette, palette-ubo, bonetex, pose; the others refuse any).
    // createTechnique() resolves them against `source` into `pose_layers`, which the techniques read.
    std::vector<std::string> layers;
    std::vector<PoseLayerSetup> pose_layers;
    Precision bone_precision = Precision::Float32; // technique `bonetex`: float or half texels
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

class Technique {
  public:
    virtual ~Technique() = default;
    virtual std::string_view name() const = 0;
    // CPU work for frame slot `slot` at `time` (seconds). Default: nothing.
    virtual void update(uint32_t slot, float time) {
        (void)slot;
        (void)time;
    }
    // The technique's passes of frame slot `slot`, appended to `passes` in order. Default: an
    // `upload` transfer pass when hasTransfers(), then the `draw` graphics pass (colour + depth)
    // calling record(). The passes keep `this`: record them before the technique is destroyed.
    // `constants` carries the camera, light and time; the technique fills the rest.
    virtual void addPasses(std::vector<gpu::Pass>& passes, uint32_t slot, const gpu::shader::DrawConstants& constants);
    virtual TechniqueStats stats() const { return {}; }
    // Whether the draw reads members through a culled visible list (CrowdGpu). Techniques that
    // draw in batches of consecutive members cannot, and draw every member.
    virtual bool drawsCulled() const { return true; }

    // The parts of the default addPasses().
    // The technique's passes before its draw (and before the shadow pass, which draws with
    // them): default the `upload` pass when hasTransfers(); technique `pose` its compute pass.
    virtual void addPreparePasses(std::vector<gpu::Pass>& passes, uint32_t slot,
                                  const gpu::shader::DrawConstants& constants);
    // Per-frame transfers (uploads into images), recorded in the `upload` pass. Default: none.
    virtual bool hasTransfers() const { return false; }
    virtual void recordTransfers(VkCommandBuffer cmd, uint32_t slot) {
        (void)cmd;
        (void)slot;
    }
    // Draws the crowd inside dynamic rendering on the frame's colour and depth targets.
    virtual void record(VkCommandBuffer cmd, uint32_t slot, const gpu::shader::DrawConstants& constants) = 0;
    // The same draw, with the same skinning, into a depth-only target (the shadow map), through
    // whichever members the crowd's last recorded culling phase chose. Contract: the technique
    // was made with TechniqueSetup::shadows.
    virtual void recordDepth(VkCommandBuffer cmd, uint32_t slot, const gpu::shader::DrawConstants& constants) = 0;
};

// The `draw` pass of Technique::addPasses (after addPreparePasses; a frame with shadows puts the
// shadow pass between the two).
void addDrawPass(std::vector<gpu::Pass>& passes, Technique& technique, uint32_t slot,
                 const gpu::shader::DrawConstants& constants);

// The boxes culling tests per clip for technique `name`: `clip_bounds` (Crowd::clip_bounds), or
// for `procedural` the reach of the swim around them (its rotations about axes through the
// origin, then its sideways translations), or for `pose` each grown by a tenth of its diagonal
// (a cross-fade blended in local space swings limbs on arcs, outside both clips' boxes) and,
// with `layers`, the union of every clip's box (a layer's clip, e.g. a raised arm, may reach past
// the member's own clips), grown the same way.
std::vector<Bounds> techniqueCullBounds(std::string_view name, const std::vector<Bounds>& clip_bounds,
                                        const gpu::shader::SwimParams& swim, bool layers = false);

// Whether technique `name` reads the members only on the GPU (baked, vat, procedural, static, pose),
// so that they may move there (a simulated crowd); the others sample poses from the CPU's copy.
bool techniqueReadsMembersOnGpu(std::string_view name);

// Whether technique `name` blends layers (TechniqueSetup::layers): the ones that pose members from
// the source animation (pose on the GPU; cpu, palette, palette-ubo, bonetex on the CPU).
bool techniqueTakesLayers(std::string_view name);

// The names createTechnique() knows, in the order tools list them.
std::vector<std::string_view> techniqueNames();

// Errors: an unknown name (listing the known ones); a technique that samples poses on the CPU
// (or `pose`) given an asset without its source animation; `vat` given an asset without vertex
// animation; layers for a technique other than `pose`, or layers it cannot resolve.
Result<std::unique_ptr<Technique>> createTechnique(std::string_view name, const TechniqueSetup& setup);

} // namespace throng::render
