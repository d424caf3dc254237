// Technique `baked`: one instanced draw per submesh; the vertex shader fetches two frames of up
// to 4 joints from the baked animation (image array, texel buffer or storage buffer: AnimationStorage),
// tweens them, cross-fades two clips and skins. The CPU writes nothing per frame: each
// instance's clip time is time * speed + time_offset, computed on the GPU from the frame's time.
#pragma once

#include "technique.h"

#include <array>

namespace throng::render {

// The bindings every skinning shader reads — instances, clips, animation image, animation texel
// buffer, animation words — and their descriptor writes; shared with the compute check.
constexpr uint32_t kAnimationBindingCount = 5;
std::array<VkDescriptorSetLayoutBinding, kAnimationBindingCount> animationLayoutBindings(VkShaderStageFlags stages);
void writeAnimationBindings(VkDevice device, VkDescriptorSet set, VkBuffer instances, const GpuAsset& asset);

} // namespace throng::render
