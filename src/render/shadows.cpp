// Shadows of the crowd; see shadows.h.
#include "shadows.h"
#include "frame_resources.h"

#include "../gpu/pipeline.h"
#include "../gpu/shader_blobs.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

namespace throng::render {

using gpu::shader::GroundConstants;
using gpu::shader::ShadowParams;

namespace {

constexpr VkFormat kShadowFormat = VK_FORMAT_D32_SFLOAT;

bool emptyBox(const Bounds& b) { return !(b.max.x > b.min.x || b.max.y > b.min.y || b.max.z > b.min.z); }

// The corners the light must see: the area's box and the ground rectangle at its floor.
std::array<glm::vec3, 12> lightCorners(const Bounds& area, const glm::vec3& direction) {
    std::array<glm::vec3, 12> c{};
    for (int i = 0; i < 8; ++i)
        c[i] = glm::vec3((i & 1) ? area.max.x : area.min.x, (i & 2) ? area.max.y : area.min.y,
                         (i & 4) ? area.max.z : area.min.z);
    const glm::vec4 rect = groundRect(area, direction);
    c[8] = {rect.x, area.min.y, rect.y};
    c[9] = {rect.z, area.min.y, rect.y};
    c[10] = {rect.x, area.min.y, rect.w};
    c[11] = {rect.z, area.min.y, rect.w};
    return c;
}

} // namespace

Status checkShadowSettings(const gpu::Context& ctx, const ShadowSettings& s) {
    if (!s.enabled()) return {};
    const uint32_t limit = std::min(kMaxShadowMapSize, ctx.properties.limits.maxImageDimension2D);
    if (s.size < 16 || s.size > limit)
        return Status::failure("shadow map size " + std::to_string(s.size) + " is outside 16.." +
                               std::to_string(limit) + " texels");
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(ctx.physical, kShadowFormat, &props);
    const VkFormatFeatureFlags need =
        VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    if ((props.optimalTilingFeatures & need) != need)
        return Status::failure("shadows: this device cannot render and sample a D32_SFLOAT shadow map");
    return {};
}

Bounds memberArea(std::span<const gpu::shader::InstanceRecord> records, std::span<const Bounds> clip_bounds,
                  std::span<const glm::uvec2> model_clips) {
    // Per model, the largest reach of any of its clips' boxes from a member's origin, times the
    // member's scale (models of very different sizes scaled to one: CrowdLayout::model_size).
    const glm::uvec2 every(0u, uint32_t(clip_bounds.size()));
    const std::span<const glm::uvec2> models = model_clips.empty() ? std::span(&every, 1) : model_clips;
    std::vector<float> reach(models.size(), 0.0f);
    for (size_t m = 0; m < models.size(); ++m)
        for (uint32_t c = models[m].x; c < models[m].x + models[m].y && c < clip_bounds.size(); ++c)
            reach[m] =
                std::max(reach[m], glm::length(glm::max(glm::abs(clip_bounds[c].min), glm::abs(clip_bounds[c].max))));
    Bounds out;
    bool any = false;
    for (const gpu::shader::InstanceRecord& r : records) {
        const float scale = std::abs(r.position_scale.w);
        if (scale == 0.0f) continue; // removed
        const float own = reach[std::min<size_t>(gpu::shader::throngAssetOf(r.clips), reach.size() - 1)];
        const glm::vec3 p(r.position_scale);
        const glm::vec3 lo = p - glm::vec3(own * scale), hi = p + glm::vec3(own * scale);
        out.min = any ? glm::min(out.min, lo) : lo;
        out.max = any ? glm::max(out.max, hi) : hi;
        any = true;
    }
    return out;
}

glm::vec4 groundRect(const Bounds& area, const glm::vec3& direction) {
    // A shadow reaches past what casts it by its height times the light's horizontal slope.
    const float height = area.max.y - area.min.y;
    const glm::vec2 slope = glm::vec2(direction.x, direction.z) / std::max(std::abs(direction.y), 0.2f);
    const glm::vec2 reach = glm::abs(slope) * height + glm::vec2(0.05f * area.diagonal());
    return {area.min.x - reach.x, area.min.z - reach.y, area.max.x + reach.x, area.max.z + reach.y};
}

glm::mat4 lightViewProjection(const glm::vec3& direction, const Bounds& area) {
    const glm::vec3 center = 0.5f * (area.min + area.max);
    const float radius = std::max(area.diagonal(), 1e-3f);
    const glm::vec3 up = std::abs(direction.y) > 0.99f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
    const glm::vec3 eye = center - direction * radius;
    // Right-handed view looking along `direction`.
    const glm::vec3 f = glm::normalize(direction);
    const glm::vec3 s = glm::normalize(glm::cross(f, up));
    const glm::vec3 u = glm::cross(s, f);
    glm::mat4 view(1.0f);
    view[0][0] = s.x, view[1][0] = s.y, view[2][0] = s.z;
    view[0][1] = u.x, view[1][1] = u.y, view[2][1] = u.z;
    view[0][2] = -f.x, view[1][2] = -f.y, view[2][2] = -f.z;
    view[3][0] = -glm::dot(s, eye), view[3][1] = -glm::dot(u, eye), view[3][2] = glm::dot(f, eye);
    glm::vec3 lo(1e30f), hi(-1e30f);
    for (const glm::vec3& c : lightCorners(area, direction)) {
        const glm::vec3 v(view * glm::vec4(c, 1.0f));
        lo = glm::min(lo, v);
        hi = glm::max(hi, v);
    }
    const glm::vec3 pad = 0.01f * glm::max(hi - lo, glm::vec3(1e-3f));
    lo -= pad;
    hi += pad;
    const float near = -hi.z, far = -lo.z; // view space looks down -z
    glm::mat4 proj(0.0f);
    proj[0][0] = 2.0f / (hi.x - lo.x);
    proj[1][1] = 2.0f / (hi.y - lo.y);
    proj[3][0] = -(hi.x + lo.x) / (hi.x - lo.x);
    proj[3][1] = -(hi.y + lo.y) / (hi.y - lo.y);
    proj[2][2] = 1.0f / (far - near); // reversed Z: 1 at the near plane, 0 at the far one
    proj[3][2] = far / (far - near);
    proj[3][3] = 1.0f;
    return proj * view;
}

ShadowMap::ShadowMap(gpu::Allocator& a, const ShadowSettings& settings, uint32_t slots)
    : allocator_(&a), settings_(settings), light_(slots, glm::mat4(1.0f)), areas_(slots) {
    const gpu::Context& ctx = *a.context;
    map_ =
        gpu::OwnedImage(a, gpu::createImage(a, kShadowFormat, settings.size, settings.size, 1,
                                            VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                                VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                            VK_IMAGE_ASPECT_DEPTH_BIT));
    // A comparison sampler (reference >= stored: lit), bilinear where the device filters D32.
    VkFormatProperties props{};
    vkGetPhysicalDeviceFormatProperties(ctx.physical, kShadowFormat, &props);
    const bool linear = (props.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT) != 0;
    VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    sci.magFilter = sci.minFilter = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    sci.compareEnable = VK_TRUE;
    sci.compareOp = VK_COMPARE_OP_GREATER_OR_EQUAL;
    VkSampler sampler = VK_NULL_HANDLE;
    VK_CHECK(vkCreateSampler(ctx.device, &sci, gpu::hostCallbacks(ctx.device), &sampler));
    sampler_ = gpu::Unique<VkSampler>(ctx.device, sampler);
    params_ =
        gpu::ownBuffer(a, slots * sizeof(ShadowParams), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, gpu::MemoryUse::Upload);
    std::memset(params_->mapped(), 0, slots * sizeof(ShadowParams));
    // Empty (everything lit) and readable until the first shadow pass.
    gpu::submitAndWait(ctx, [&](VkCommandBuffer cmd) {
        gpu::transitionImage(cmd, map_->image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                             VK_IMAGE_ASPECT_DEPTH_BIT);
        const VkClearDepthStencilValue far{0.0f, 0};
        const VkImageSubresourceRange range{VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
        vkCmdClearDepthStencilImage(cmd, map_->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &far, 1, &range);
        gpu::transitionImage(cmd, map_->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                             VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT);
    });
}

ShadowMap::~ShadowMap() = default;

void ShadowMap::addBindings(std::vector<VkDescriptorSetLayoutBinding>& bindings, VkShaderStageFlags stages) const {
    bindings.push_back({THRONG_BINDING_SHADOW_MAP, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, stages, nullptr});
    bindings.push_back({THRONG_BINDING_SHADOW_PARAMS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, nullptr});
}

std::vector<gpu::DescriptorWrite> ShadowMap::writes() const {
    return {gpu::DescriptorWrite::sampled(THRONG_BINDING_SHADOW_MAP, sampler_, map_->view),
            gpu::DescriptorWrite::storage(THRONG_BINDING_SHADOW_PARAMS, params_->buffer)};
}

void ShadowMap::update(uint32_t slot, const glm::vec3& light_direction, const Bounds& area) {
    const Bounds& box = emptyBox(settings_.area) ? area : settings_.area;
    const glm::vec3 direction = glm::normalize(light_direction);
    areas_[slot] = box;
    light_[slot] = lightViewProjection(direction, box);
    // One texel in world units: the map spans 2 / |row 0| of the light's x (its view is orthonormal).
    const glm::mat4& m = light_[slot];
    const float width = 2.0f / glm::length(glm::vec3(m[0][0], m[1][0], m[2][0]));
    const float texel_world = width / float(settings_.size);
    const float depth_per_world = glm::length(glm::vec3(m[0][2], m[1][2], m[2][2]));
    ShadowParams p{};
    p.light_view_projection = light_[slot];
    p.settings = glm::vec4(1.0f / float(settings_.size), 1.5f * texel_world, texel_world * depth_per_world, 0.0f);
    std::memcpy(static_cast<uint8_t*>(params_->mapped()) + slot * sizeof(ShadowParams), &p, sizeof p);
}

void ShadowMap::recordCopy(VkCommandBuffer cmd, VkBuffer depth, bool hardware_follows) const {
    gpu::transitionImage(cmd, map_->image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_IMAGE_ASPECT_DEPTH_BIT);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
    region.imageExtent = {settings_.size, settings_.size, 1};
    vkCmdCopyBufferToImage(cmd, depth, map_->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    gpu::transitionImage(cmd, map_->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         hardware_follows ? VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL
                                          : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                         VK_IMAGE_ASPECT_DEPTH_BIT);
}

gpu::Pass ShadowMap::shadowPass(uint32_t slot, Technique& technique, gpu::shader::DrawConstants constants,
                                bool load) const {
    constants.view_projection = light_[slot];
    constants.lod_stride = 0; // every level skinned in full (the light's regions are not the camera's)
    constants.coarse_lods = 0;
    Technique* t = &technique;
    gpu::Pass pass{load ? "shadow-near" : "shadow",
                   gpu::PassKind::Graphics,
                   gpu::PassTargets::OwnDepth,
                   [t, slot, constants](VkCommandBuffer cmd) { t->recordDepth(cmd, slot, constants); },
                   frame::Members | frame::Animation | frame::Culled | (load ? frame::ShadowMap : 0),
                   frame::ShadowMap};
    pass.depth.image = map_->image;
    pass.depth.view = map_->view;
    pass.depth.extent = {settings_.size, settings_.size};
    pass.depth.load = load;
    // Loaded: recordCopy left it a depth attachment, holding what the compute rasterizer cast.
    pass.depth.before = load ? VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
    pass.depth.after = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    return pass;
}

std::vector<float> ShadowMap::readMap() const {
    const uint32_t size = settings_.size;
    gpu::OwnedBuffer staging = gpu::ownBuffer(*allocator_, VkDeviceSize(size) * size * sizeof(float),
                                              VK_BUFFER_USAGE_TRANSFER_DST_BIT, gpu::MemoryUse::Readback);
    gpu::submitAndWait(*allocator_->context, [&](VkCommandBuffer cmd) {
        gpu::transitionImage(cmd, map_->image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                             VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT);
        VkBufferImageCopy region{};
        region.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
        region.imageExtent = {size, size, 1};
        vkCmdCopyImageToBuffer(cmd, map_->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, staging->buffer, 1, &region);
        gpu::transitionImage(cmd, map_->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                             VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_ASPECT_DEPTH_BIT);
    });
    std::vector<float> out(size_t(size) * size);
    std::memcpy(out.data(), staging->mapped(), out.size() * sizeof(float));
    return out;
}

} // namespace throng::render
