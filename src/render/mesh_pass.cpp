// Shared pipeline, descriptors and draw loop of the mesh-drawing techniques; see mesh_pass.h.
#include "mesh_pass.h"

#include "shadows.h"

#include "../gpu/shader_blobs.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <utility>

namespace throng::render {

using gpu::shader::DrawConstants;

uint64_t storageBufferLimit(const TechniqueSetup& setup) {
    const uint64_t device = setup.allocator->context->properties.limits.maxStorageBufferRange;
    return setup.storage_buffer_limit > 0 ? std::min(setup.storage_buffer_limit, device) : device;
}

Status checkStorageBuffer(const TechniqueSetup& setup, uint64_t bytes, const std::string& what) {
    return checkStorageRange(storageBufferLimit(setup), bytes, what);
}

void setPaletteSpecialization(MeshPassDesc& desc, bool quaternion_palette, Skinning skinning) {
    desc.specialization_entries = {{THRONG_SPEC_PALETTE_QUATERNION, 0, sizeof(VkBool32)},
                                   {THRONG_SPEC_DUAL_QUATERNION, sizeof(VkBool32), sizeof(VkBool32)}};
    const VkBool32 flags[2] = {quaternion_palette ? VK_TRUE : VK_FALSE,
                               skinning == Skinning::DualQuaternion ? VK_TRUE : VK_FALSE};
    desc.specialization_data.resize(sizeof(flags));
    std::memcpy(desc.specialization_data.data(), flags, sizeof(flags));
}

namespace {

// The velocity variant of a member vertex shader (motion.glsl): the same source compiled with
// THRONG_VELOCITY. Every technique's vertex shader has one.
std::span<const uint32_t> velocityVariant(std::span<const uint32_t> vertex) {
    namespace s = gpu::shaders;
    const std::pair<std::span<const uint32_t>, std::span<const uint32_t>> variants[] = {
        {s::baked_vert_spv, s::baked_velocity_vert_spv},
        {s::static_vert_spv, s::static_velocity_vert_spv},
        {s::procedural_vert_spv, s::procedural_velocity_vert_spv},
        {s::palette_vert_spv, s::palette_velocity_vert_spv},
        {s::palette_ubo_vert_spv, s::palette_ubo_velocity_vert_spv},
        {s::bonetex_vert_spv, s::bonetex_velocity_vert_spv},
        {s::cpu_vert_spv, s::cpu_velocity_vert_spv},
        {s::vat_vert_spv, s::vat_velocity_vert_spv}};
    for (const auto& [plain, velocity] : variants)
        if (plain.data() == vertex.data()) return velocity;
    throw gpu::GpuError("no motion-vector variant of this technique's vertex shader");
}

} // namespace

void createMeshPass(const TechniqueSetup& setup, const MeshPassDesc& desc, MeshPass& pass) {
    const gpu::Context& ctx = *setup.allocator->context;
    const GpuAsset& asset = *setup.asset;
    std::vector<VkDescriptorSetLayoutBinding> bindings = desc.bindings;
    bindings.push_back(
        {THRONG_BINDING_VERTICES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr});
    bindings.push_back(
        {THRONG_BINDING_VISIBLE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr});
    bindings.push_back(
        {THRONG_BINDING_LOOKS, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr});
    bindings.push_back(
        {THRONG_BINDING_TEXTURE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
    if (setup.shadows != nullptr) setup.shadows->addBindings(bindings);
    const bool velocity = setup.velocity_format != VK_FORMAT_UNDEFINED;
    if (velocity) {
        assert(setup.history != nullptr);
        bindings.push_back({THRONG_BINDING_PREVIOUS_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                            VK_SHADER_STAGE_VERTEX_BIT, nullptr});
        bindings.push_back({THRONG_BINDING_MOTION, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                            VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, nullptr});
    }
    const bool capture = setup.capture != VK_NULL_HANDLE;
    if (capture && velocity) throw gpu::GpuError("capture draws no motion vectors");
    if (capture) {
        if (desc.capture_spirv.empty()) throw gpu::GpuError("this technique has no capture shader");
        bindings.push_back(
            {THRONG_BINDING_CAPTURE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, nullptr});
    }
    pass.set_layout = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, bindings));
    pass.layout = gpu::Unique<VkPipelineLayout>(
        ctx.device, gpu::createPipelineLayout(ctx, pass.set_layout, sizeof(DrawConstants),
                                              VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT));

    gpu::GraphicsPipelineDesc d;
    d.vertex_spirv = capture ? desc.capture_spirv : velocity ? velocityVariant(desc.vertex_spirv) : desc.vertex_spirv;
    d.vertex_specialization = desc.vertex_specialization;
    VkSpecializationInfo own{uint32_t(desc.specialization_entries.size()), desc.specialization_entries.data(),
                             desc.specialization_data.size(), desc.specialization_data.data()};
    if (!desc.specialization_entries.empty()) d.vertex_specialization = &own;
    {
        namespace s = gpu::shaders;
        d.fragment_spirv = setup.shadows != nullptr
                               ? (velocity ? s::lit_shadowed_velocity_frag_spv : s::lit_shadowed_frag_spv)
                               : (velocity ? s::lit_velocity_frag_spv : s::lit_frag_spv);
    }
    // No vertex input: the shaders pull BakedVertex from a storage buffer (vertex.glsl says why).
    d.layout = pass.layout;
    d.setTargets({setup.color_format, setup.depth_format, setup.velocity_format});
    pass.pipeline = gpu::Unique<VkPipeline>(ctx.device, gpu::createGraphicsPipeline(ctx, d));
    if (setup.shadows != nullptr) {
        gpu::GraphicsPipelineDesc depth = d;
        depth.depth_only = true;
        depth.vertex_spirv = capture ? desc.capture_spirv : desc.vertex_spirv; // no motion in a shadow map
        depth.color_format = VK_FORMAT_UNDEFINED;
        depth.velocity_format = VK_FORMAT_UNDEFINED;
        depth.depth_format = VK_FORMAT_D32_SFLOAT;
        depth.depth_bias_slope = -float(THRONG_SHADOW_BIAS_SLOPE); // reversed Z: away from the light
        pass.depth_pipeline = gpu::Unique<VkPipeline>(ctx.device, gpu::createGraphicsPipeline(ctx, depth));
    }

    // Pool sizes: enough of every type a technique may use, per set.
    pass.textures = 1 + uint32_t(asset.textures.size());
    const uint32_t set_count = pass.textures * std::max(desc.slots, 1u);
    const std::array<VkDescriptorPoolSize, 5> sizes = {{{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 10 * set_count},
                                                        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 3 * set_count},
                                                        {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, set_count},
                                                        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, set_count},
                                                        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, set_count}}};
    VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = set_count;
    pci.poolSizeCount = uint32_t(sizes.size());
    pci.pPoolSizes = sizes.data();
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VK_CHECK(vkCreateDescriptorPool(ctx.device, &pci, gpu::hostCallbacks(ctx.device), &pool));
    pass.pool = gpu::Unique<VkDescriptorPool>(ctx.device, pool);
    std::vector<VkDescriptorSetLayout> layouts(set_count, pass.set_layout.get());
    pass.sets.resize(set_count);
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pass.pool;
    ai.descriptorSetCount = set_count;
    ai.pSetLayouts = layouts.data();
    VK_CHECK(vkAllocateDescriptorSets(ctx.device, &ai, pass.sets.data()));
    for (uint32_t s = 0; s < set_count; ++s) {
        const uint32_t texture = s % pass.textures;
        if (desc.write) desc.write(pass.sets[s], s / pass.textures);
        const gpu::Image& tex = texture == 0 ? asset.no_texture : asset.textures[texture - 1];
        const gpu::DescriptorWrite writes[] = {
            gpu::DescriptorWrite::sampled(THRONG_BINDING_TEXTURE, asset.linear, tex.view),
            gpu::DescriptorWrite::storage(THRONG_BINDING_VERTICES, asset.vertices.buffer),
            gpu::DescriptorWrite::storage(THRONG_BINDING_VISIBLE, setup.crowd->visible()),
            gpu::DescriptorWrite::storage(THRONG_BINDING_LOOKS, asset.looks.buffer)};
        gpu::writeDescriptors(ctx.device, pass.sets[s], writes);
        if (setup.shadows != nullptr) gpu::writeDescriptors(ctx.device, pass.sets[s], setup.shadows->writes());
        if (velocity) {
            const gpu::DescriptorWrite w[] = {
                gpu::DescriptorWrite::storage(THRONG_BINDING_PREVIOUS_INSTANCES, setup.history->previous()),
                gpu::DescriptorWrite::storage(THRONG_BINDING_MOTION, setup.history->motions())};
            gpu::writeDescriptors(ctx.device, pass.sets[s], w);
        }
        if (capture) {
            const gpu::DescriptorWrite w[] = {gpu::DescriptorWrite::storage(THRONG_BINDING_CAPTURE, setup.capture)};
            gpu::writeDescriptors(ctx.device, pass.sets[s], w);
        }
    }
}

void recordMeshPass(VkCommandBuffer cmd, const MeshPass& pass, const GpuAsset& asset, const CrowdGpu& crowd,
                    DrawConstants constants, uint32_t instance_count, uint32_t slot, uint32_t first_instance,
                    std::span<const uint32_t> dynamic_offsets) {
    if (instance_count == 0) return;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pass.depth_only ? pass.depth_pipeline : pass.pipeline);
    vkCmdBindIndexBuffer(cmd, asset.indices.buffer, 0, VK_INDEX_TYPE_UINT32);
    const uint32_t coarse_end = constants.coarse_lods & 0xffff0000u;
    for (uint32_t s = 0; s < asset.submeshes.size(); ++s) {
        const BakedSubmesh& sub = asset.submeshes[s];
        if (sub.index_count == 0) continue;
        const uint32_t texture = submeshTexture(asset, s);
        const uint32_t set = texture == THRONG_NO_TEXTURE ? 0 : texture + 1;
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pass.layout, 0, 1,
                                &pass.sets[slot * pass.textures + set], uint32_t(dynamic_offsets.size()),
                                dynamic_offsets.data());
        constants.base_color = sub.base_color;
        // The frame slot stays; the wear selector and the untinted bit are the submesh's.
        constants.draw_bits = (constants.draw_bits & (THRONG_DRAW_SLOT_MASK << THRONG_DRAW_SLOT_SHIFT)) |
                              (set != 0 ? THRONG_DRAW_TEXTURED : 0u) |
                              (s < asset.submesh_props.size() ? asset.submesh_props[s] : 0u);
        constants.look = s < asset.submesh_looks.size() ? asset.submesh_looks[s] : 0u;
        // A crowd of several models: the submesh's model's coarse levels.
        if (asset.ranges.size() > 1 && coarse_end != 0)
            constants.coarse_lods =
                std::min(asset.ranges[crowd.modelOfSubmesh(s)].first_coarse_lod, 0xffffu) | coarse_end;
        vkCmdPushConstants(cmd, pass.layout, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof(constants), &constants);
        crowd.drawSubmesh(cmd, s, first_instance, instance_count);
    }
}

MeshTechnique::MeshTechnique(const TechniqueSetup& setup) : setup_(setup) {
    assert(setup.crowd != nullptr);
    instance_count_ = uint32_t(setup.instances->size());
}

MeshTechnique::~MeshTechnique() = default; // pass_ frees its objects

void MeshTechnique::buildPass(const MeshPassDesc& desc) {
    slots_ = std::max(desc.slots, 1u);
    createMeshPass(setup_, desc, pass_);
}

void MeshTechnique::recordDepth(VkCommandBuffer cmd, uint32_t slot, const DrawConstants& constants) {
    assert(pass_.depth_pipeline != VK_NULL_HANDLE);
    pass_.depth_only = true;
    record(cmd, slot, constants);
    pass_.depth_only = false;
}

void MeshTechnique::record(VkCommandBuffer cmd, uint32_t slot, const DrawConstants& constants) {
    DrawConstants c = constants;
    adjustConstants(c);
    recordMeshPass(cmd, pass_, *setup_.asset, *setup_.crowd, c, instance_count_, slots_ > 1 ? slot : 0);
}

} // namespace throng::render
