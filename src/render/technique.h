// The technique interface: one way of animating the crowd, behind the same small contract, so
// the renderer, the benchmark and the viewer can switch between them at run time. A technique
// is one file; adding one touches that file and the registry in technique.cpp.
//
// Lifetime: createTechnique() builds pipelines and uploads what never changes; per frame the
// renderer calls update() (CPU work, writing only the frame slot's own buffers, which the GPU
// finished reading when that slot's fence signalled) and then record() inside dynamic rendering.
#pragma once

#include "crowd.h"
#include "gpu_asset.h"

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

// What the renderer gives a technique once.
struct TechniqueSetup {
    gpu::Allocator* allocator = nullptr;
    const GpuAsset* asset = nullptr;
    const std::vector<gpu::shader::InstanceRecord>* instances = nullptr;
    VkFormat color_format = VK_FORMAT_UNDEFINED;
    VkFormat depth_format = VK_FORMAT_UNDEFINED;
    uint32_t frames_in_flight = 2;
    gpu::shader::SwimParams swim = defaultSwim();  // technique `procedural` only
    const AnimationSource* source = nullptr;       // for techniques that sample poses on the CPU
    const BakedAssetMesh* mesh = nullptr;          // technique `cpu`
    PaletteEncoding encoding = PaletteEncoding::Matrix;
    Precision bone_precision = Precision::Float32;  // technique `bonetex`: float or half texels
    // Tests: a storage buffer of vec4 per (instance, vertex) that the capture shader variants
    // fill with world positions (needs Context::vertex_stores). VK_NULL_HANDLE: normal shaders.
    VkBuffer capture = VK_NULL_HANDLE;
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
    double sample_ms = 0.0;        // sampling poses
    double skin_ms = 0.0;          // skinning on the CPU
    double upload_ms = 0.0;        // writing per-frame buffers
    uint64_t upload_bytes = 0;     // bytes written for the GPU this frame
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
    // Transfers for the frame, recorded before rendering begins (uploads into images). Default: none.
    virtual void recordTransfers(VkCommandBuffer cmd, uint32_t slot) {
        (void)cmd;
        (void)slot;
    }
    // Draws the crowd. `constants` carries the camera, light and time; the technique fills the rest.
    virtual void record(VkCommandBuffer cmd, uint32_t slot, const gpu::shader::DrawConstants& constants) = 0;
    virtual TechniqueStats stats() const { return {}; }
};

// The names createTechnique() knows, in the order tools list them.
std::vector<std::string_view> techniqueNames();

// Errors: an unknown name (listing the known ones); a technique that samples poses on the CPU
// given an asset without its source animation; `vat` given an asset without vertex animation.
Result<std::unique_ptr<Technique>> createTechnique(std::string_view name, const TechniqueSetup& setup);

} // namespace throng::render
