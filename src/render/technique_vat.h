// Technique `vat` (vertex animation textures): the baker skinned every vertex at every frame
// (BakeOptions::vat); the vertex shader fetches the position and normal of the two frames
// bracketing the instance's clip time, lerps them, cross-fades two clips and places the
// instance. No joints and no matrices at run time; the CPU writes nothing per frame. The compute
// rasterizer (--raster compute|auto) samples the same image with the same code (vat_sample.glsl)
// for every LOD's vertices, which are LOD 0's (compute_raster.h).
#pragma once

#include "technique.h"

#include <array>

namespace throng::render {

// The bindings the vat shaders read — instances, clips, vertex animation image — and their
// descriptor writes; shared with the compute check.
constexpr uint32_t kVatBindingCount = 3;
std::array<VkDescriptorSetLayoutBinding, kVatBindingCount> vatLayoutBindings(VkShaderStageFlags stages);
void writeVatBindings(VkDevice device, VkDescriptorSet set, VkBuffer instances, const GpuAsset& asset);

// Why `asset` cannot be drawn with technique vat, or "" when it can.
std::string vatUnavailable(const GpuAsset& asset);

} // namespace throng::render
