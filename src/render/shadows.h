// Shadows of the crowd (issue #13, part 1; docs/GAME_CROWDS.md): one shadow map from the
// directional light of the frame's constants, drawn each frame by the technique itself (its own
// vertex shader, a depth-only pipeline: shadows move with the animation), after the crowd was
// culled against the light's view (CrowdGpu's SHADOW phase: members outside the camera still
// cast into it); the mesh techniques' lit pass (lit_shadowed.frag) and the ground under the crowd
// (ground.h) read it with 3 x 3 percentage-closer filtering.
//
// The light's view is orthographic over the crowd's area (ShadowSettings::area, or the members'
// box) and the ground under it, one map for the whole crowd: a larger area spreads the same
// texels thinner (no cascades). Members drawn by the compute rasterizer or as impostors cast
// shadows (the technique draws them all into the map); the compute rasterizer's resolve receives
// them (its *_shadowed variants read this map: RasterOptions::shadows), impostors do not.
//
// Frame order (render/crowd_frame.cpp): the technique's uploads, `shadow-cull`, `shadow`,
// `ground`, then the camera's `cull`, `draw` and the rest. One map serves every frame in flight: the
// queue runs frames in order, each frame's first pass waits for everything before it, and within
// a frame every reader of the map waits for its writers (frame::ShadowMap); the light's matrix
// is per frame slot (ShadowParams, indexed by the slot the draw constants carry).
#pragma once

#include "technique.h"

#include "../gpu/owned.h"
#include "../gpu/passes.h"
#include "../gpu/pipeline.h"

#include <memory>
#include <vector>

namespace throng::render {

// ShadowSettings: throng/options.h.

// The largest shadow map side accepted (the device's maxImageDimension2D may be smaller).
constexpr uint32_t kMaxShadowMapSize = 16384;

// Errors (one line): a size outside [16, kMaxShadowMapSize] or past the device's limit; a device
// that cannot render and sample D32_SFLOAT.
Status checkShadowSettings(const gpu::Context& context, const ShadowSettings& settings);

// The box that holds every member of `records` in any pose of `clip_bounds` (per clip), each
// member in any pose of its model's clips: `model_clips` per model (first clip, clip count; a
// crowd of several models, asset_library.h), or every clip (empty).
Bounds memberArea(std::span<const gpu::shader::InstanceRecord> records, std::span<const Bounds> clip_bounds,
                  std::span<const glm::uvec2> model_clips = {});

// The ground's x-z rectangle (min x, min z, max x, max z) around `area`: wide enough for the
// shadows of what stands in it under `light_direction`.
glm::vec4 groundRect(const Bounds& area, const glm::vec3& light_direction);

// World to the shadow map's clip space: orthographic along `light_direction` (the way light
// travels, normalized), x-y fitted to `area` and the ground rectangle, reversed Z (1 nearest the
// light), depth range over the same.
glm::mat4 lightViewProjection(const glm::vec3& light_direction, const Bounds& area);

class ShadowMap {
  public:
    // Throws gpu::GpuError. Contract: checkShadowSettings() passed. `slots`: frames in flight.
    // The ground that receives the shadows (settings.ground) is ground.h's.
    ShadowMap(gpu::Allocator& allocator, const ShadowSettings& settings, uint32_t slots);
    ~ShadowMap();
    ShadowMap(const ShadowMap&) = delete;
    ShadowMap& operator=(const ShadowMap&) = delete;

    const ShadowSettings& settings() const { return settings_; }
    // The bindings a lit pass adds to its set (THRONG_BINDING_SHADOW_MAP, _PARAMS) for the shader
    // stages `stages` (a fragment shader's by default; the compute rasterizer's resolve is a
    // compute shader), and their writes.
    void addBindings(std::vector<VkDescriptorSetLayoutBinding>& bindings,
                     VkShaderStageFlags stages = VK_SHADER_STAGE_FRAGMENT_BIT) const;
    std::vector<gpu::DescriptorWrite> writes() const;

    // CPU part of frame slot `slot`: the light's matrix over `area` (settings().area when that is
    // not empty). The slot's previous frame has finished.
    void update(uint32_t slot, const glm::vec3& light_direction, const Bounds& area);
    const glm::mat4& lightMatrix(uint32_t slot) const { return light_[slot]; }
    const Bounds& area(uint32_t slot) const { return areas_[slot]; }

    // `shadow`: the technique's depth-only draw of the crowd into the map (gpu::PassTargets::OwnDepth),
    // with `constants` (the frame's) seen from the light; the map ends readable by the lit pass.
    // With `load` (named `shadow-near`) it draws over what recordCopy(..., true) left in the map:
    // the compute rasterizer's casters (ComputeRaster::addShadowPasses), the finer levels by the
    // hardware on top.
    gpu::Pass shadowPass(uint32_t slot, Technique& technique, gpu::shader::DrawConstants constants,
                         bool load = false) const;
    // Inside a pass: the map from `depth` (a float per texel, row-major, size x size, within
    // [0, 1]), ending readable by the lit pass or, with `hardware_follows`, as a depth attachment
    // for shadowPass(..., load = true). Contract: `depth`'s writes are visible to copies.
    void recordCopy(VkCommandBuffer cmd, VkBuffer depth, bool hardware_follows) const;
    // Tests: the map as the last frame left it (depth per texel, row-major; the device must be idle).
    std::vector<float> readMap() const;

  private:
    gpu::Allocator* allocator_;
    ShadowSettings settings_;
    gpu::OwnedImage map_;
    gpu::Unique<VkSampler> sampler_;
    gpu::OwnedBuffer params_; // ShadowParams per slot (host-visible)
    std::vector<glm::mat4> light_;
    std::vector<Bounds> areas_;
};

} // namespace throng::render
