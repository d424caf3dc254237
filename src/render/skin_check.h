// The GPU side of "GPU = CPU": runs the renderer's skinning function (baked_skin.glsl, or vat_sample.glsl) in a
// compute shader for chosen instances and returns the skinned model-space positions, for tests
// to compare with the double-precision CPU reference.
#pragma once

#include "crowd.h"
#include "gpu_asset.h"

#include <vector>

namespace throng::render {

// Result: queries.size() * asset.vertex_count positions, query-major. Each query is an
// instance record (clip, time offset, speed, cross-fade); the instance transform is not applied.
std::vector<glm::vec3> skinOnGpu(gpu::Allocator& allocator, const GpuAsset& asset,
                                 const std::vector<gpu::shader::InstanceRecord>& queries, float time);

// The same for technique vat: its vertex function (vat_sample.glsl: frames lerped, clips
// cross-faded) on the vertex animation texels. Empty when the asset has no usable vertex
// animation (GpuAsset::has_vat).
std::vector<glm::vec3> skinVatOnGpu(gpu::Allocator& allocator, const GpuAsset& asset,
                                    const std::vector<gpu::shader::InstanceRecord>& queries, float time);

} // namespace throng::render
