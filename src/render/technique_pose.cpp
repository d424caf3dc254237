// Technique `pose`: every member's pose is computed on the GPU each frame. A compute pass (the
// `pose` pass before the draw: pose_nodes.comp, a thread per member and node, for skeletons of up
// to THRONG_POSE_GROUP_NODES nodes; pose.comp, a thread per member, for larger ones; both
// pose_sample.glsl) samples each member's clips from the model's own
// keys, blends the cross-fade and the crowd's layers per joint in local space (exact, where baked and vat
// blend skinning matrices), composes the hierarchy and writes the member's
// palette of 3x4 matrices into one device buffer; palette.vert then skins from it as technique
// `palette` does (linear or dual-quaternion blending), and the compute rasterizer (--raster
// compute|auto: compute_raster.h) reads it too (computePalettes: its cache pass and palette
// variants, linear only). The members are read on the GPU only, so a simulated crowd works, and
// nothing is uploaded per frame.
//
// The pass poses every live member, not only the visible ones: the shadow map, drawn before the
// camera's culling, needs members the camera does not see. Memory: per member 48 bytes a palette
// entry (the pass keeps model matrices in shared memory, or in each thread's stack: the path from
// the root). With motion vectors the pass poses every member a second time, from its history
// record (history.h) at the last frame's time, into a second palette buffer the velocity
// variants read: the limbs' motion in the vectors, for twice the palettes' memory and the pass's time.
#include "frame_resources.h"
#include "mesh_pass.h"
#include "pose_gpu.h"

#include "../gpu/owned.h"
#include "../gpu/shader_blobs.h"

#include <algorithm>

namespace throng::render {

namespace {

class PoseTechnique final : public MeshTechnique {
  public:
    explicit PoseTechnique(const TechniqueSetup& setup) : MeshTechnique(setup) {
        gpu::Allocator& a = *setup.allocator;
        const gpu::Context& ctx = *a.context;
        const AnimationSource& source = *setup.sources.one();
        nodes_ = source.skeleton.size();
        joints_ = uint32_t(source.palette.size());
        const PoseData data = packPose(source, setup.pose_layers);
        auto upload = [&](const void* bytes, size_t size) {
            gpu::OwnedBuffer b = gpu::ownBuffer(a, std::max<size_t>(size, 16),
                                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                gpu::MemoryUse::Device);
            gpu::uploadBuffer(a, *b, bytes, size);
            return b;
        };
        auto uploadVector = [&](const auto& v) { return upload(v.data(), v.size() * sizeof(v[0])); };
        nodes_buffer_ = uploadVector(data.nodes);
        table_ = uploadVector(data.table);
        tracks_ = uploadVector(data.tracks);
        times_ = uploadVector(data.times);
        values_ = uploadVector(data.values);
        joint_buffer_ = uploadVector(data.joints);
        layer_buffer_ = uploadVector(data.layers);
        masks_ = uploadVector(data.masks);
        durations_ = uploadVector(data.durations);
        steps_ = uploadVector(data.steps);
        const VkDeviceSize members = std::max(instance_count_, 1u);
        palette_ = gpu::ownBuffer(a, members * std::max(joints_, 1u) * 48,
                                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                  gpu::MemoryUse::Device);
        // With motion vectors the members are posed twice a frame: now, and as the last frame drew
        // them (their history records at the last frame's time) into a second palette buffer,
        // from which the draw and the resolve place each vertex's last position.
        const bool velocity = setup.velocity_format != VK_FORMAT_UNDEFINED && setup.history != nullptr;
        if (velocity)
            previous_palette_ =
                gpu::ownBuffer(a, palette_->size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                               gpu::MemoryUse::Device);
        // Records past the live ones (the render API's room for more members) are drawn when
        // nothing culls: zero palettes collapse them, where stale memory could be NaN.
        gpu::submitAndWait(ctx, [&](VkCommandBuffer cmd) {
            vkCmdFillBuffer(cmd, palette_->buffer, 0, VK_WHOLE_SIZE, 0);
            if (velocity) vkCmdFillBuffer(cmd, previous_palette_->buffer, 0, VK_WHOLE_SIZE, 0);
            gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
        });

        // The compute pass.
        const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
        std::vector<VkDescriptorSetLayoutBinding> bindings;
        for (uint32_t b : {uint32_t(THRONG_BINDING_INSTANCES), uint32_t(THRONG_BINDING_PALETTE)})
            bindings.push_back({b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr});
        for (uint32_t b = THRONG_BINDING_POSE_NODES; b <= THRONG_BINDING_POSE_CLIPS; ++b)
            bindings.push_back({b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr});
        set_layout_ = gpu::Unique<VkDescriptorSetLayout>(ctx.device, gpu::createSetLayout(ctx, bindings));
        layout_ = gpu::Unique<VkPipelineLayout>(
            ctx.device, gpu::createPipelineLayout(ctx, set_layout_, sizeof(gpu::shader::PoseConstants), cs));
        // A thread per (member, node) where a workgroup holds a member's nodes, else per member.
        const VkSpecializationMapEntry depth_entry{THRONG_SPEC_POSE_DEPTH, 0, sizeof(uint32_t)};
        const VkSpecializationInfo depth{1, &depth_entry, sizeof data.depth, &data.depth};
        pipeline_ = gpu::Unique<VkPipeline>(
            ctx.device, perNode() ? gpu::createComputePipeline(ctx, gpu::shaders::pose_nodes_comp_spv, layout_)
                                  : gpu::createComputePipeline(ctx, gpu::shaders::pose_comp_spv, layout_, &depth));
        const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * uint32_t(bindings.size())}};
        pool_ = gpu::createDescriptorPool(ctx, 2, sizes);
        const std::vector<VkDescriptorSet> sets = gpu::allocateSets(ctx, pool_, set_layout_, velocity ? 2 : 1);
        set_ = sets[0];
        if (velocity) {
            previous_set_ = sets[1];
            writePoseSet(previous_set_, setup.history->previous(), previous_palette_->buffer);
        }
        writePoseSet(set_, crowd().instances(), palette_->buffer);

        // The draw: palette.vert over the pass's palettes (3x4 matrices).
        MeshPassDesc desc;
        desc.vertex_spirv = gpu::shaders::palette_vert_spv;
        desc.capture_spirv = gpu::shaders::palette_capture_vert_spv;
        const VkShaderStageFlags vs = VK_SHADER_STAGE_VERTEX_BIT;
        desc.bindings = {{THRONG_BINDING_INSTANCES, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr},
                         {THRONG_BINDING_PALETTE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr}};
        if (velocity)
            desc.bindings.push_back(
                {THRONG_BINDING_PREVIOUS_PALETTE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, vs, nullptr});
        setPaletteSpecialization(desc, false, setup.skinning);
        desc.write = [&](VkDescriptorSet set, uint32_t) {
            using W = gpu::DescriptorWrite;
            std::vector<W> draw_writes = {instancesWrite(), W::storage(THRONG_BINDING_PALETTE, palette_->buffer)};
            if (velocity) draw_writes.push_back(W::storage(THRONG_BINDING_PREVIOUS_PALETTE, previous_palette_->buffer));
            gpu::writeDescriptors(device(), set, draw_writes);
        };
        buildPass(desc);
        name_ = "pose";
        if (const size_t layers = setup.pose_layers.size(); layers > 0)
            name_ += " (" + std::to_string(layers) + (layers == 1 ? " layer)" : " layers)");
        if (setup.skinning == Skinning::DualQuaternion) name_ += " (dual-quaternion)";
    }
    std::string_view name() const override { return name_; }

    void addPreparePasses(std::vector<gpu::Pass>& passes, uint32_t slot, const gpu::shader::DrawConstants& constants,
                          const PreviousFrame* previous) override {
        (void)slot;
        const float time = constants.time;
        // The second pose reads the history (written by the frame's `history` and `teleport` passes).
        const bool twice = previous != nullptr && previous_set_ != VK_NULL_HANDLE;
        const float then = twice ? previous->time : time;
        passes.push_back({"pose", gpu::PassKind::Compute, gpu::PassTargets::ColorDepth,
                          [this, time, then, twice](VkCommandBuffer cmd) {
                              recordPose(cmd, time, set_);
                              if (twice) recordPose(cmd, then, previous_set_);
                          },
                          twice ? frame::Members | frame::History : frame::Members, frame::Animation});
    }

    // The compute rasterizer skins from the same palettes (one buffer: the pass writes it each
    // frame before the draw or the raster reads it), and with motion vectors from the second pose.
    ComputePalettes computePalettes(uint32_t slot) const override {
        (void)slot;
        ComputePalettes p;
        p.buffer = palette_->buffer;
        p.bytes = palette_->size;
        p.previous = previous_palette_->buffer; // null without motion vectors
        return p;
    }

  private:
    // The pass's descriptor set posing the members of `records` into `palettes`.
    void writePoseSet(VkDescriptorSet set, VkBuffer records, VkBuffer palettes) const {
        using W = gpu::DescriptorWrite;
        const W writes[] = {W::storage(THRONG_BINDING_INSTANCES, records),
                            W::storage(THRONG_BINDING_PALETTE, palettes),
                            W::storage(THRONG_BINDING_POSE_NODES, nodes_buffer_->buffer),
                            W::storage(THRONG_BINDING_POSE_TABLE, table_->buffer),
                            W::storage(THRONG_BINDING_POSE_TRACKS, tracks_->buffer),
                            W::storage(THRONG_BINDING_POSE_TIMES, times_->buffer),
                            W::storage(THRONG_BINDING_POSE_VALUES, values_->buffer),
                            W::storage(THRONG_BINDING_POSE_JOINTS, joint_buffer_->buffer),
                            W::storage(THRONG_BINDING_POSE_LAYERS, layer_buffer_->buffer),
                            W::storage(THRONG_BINDING_POSE_MASKS, masks_->buffer),
                            W::storage(THRONG_BINDING_POSE_STEPS, steps_->buffer),
                            W::storage(THRONG_BINDING_POSE_CLIPS, durations_->buffer)};
        gpu::writeDescriptors(device(), set, writes);
    }

    void recordPose(VkCommandBuffer cmd, float time, VkDescriptorSet set) const {
        const uint32_t members = crowd().liveMembers();
        if (members == 0) return;
        const gpu::shader::PoseConstants c{time, members, nodes_, joints_, uint32_t(setup_.pose_layers.size()),
                                           0,    0,       0};
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof c, &c);
        // Rows of at most 32,768 workgroups: past 4 M members one row would pass the 65,535 every
        // device allows.
        const uint32_t per_group = perNode() ? THRONG_POSE_GROUP_NODES / nodes_ : THRONG_POSE_LOCAL_SIZE;
        const uint32_t groups = (members + per_group - 1) / per_group;
        const uint32_t x = std::min(groups, 32768u);
        vkCmdDispatch(cmd, x, (groups + x - 1) / x, 1);
    }

    bool perNode() const { return nodes_ <= THRONG_POSE_GROUP_NODES; } // pose_nodes.comp, else pose.comp

    uint32_t nodes_ = 0, joints_ = 0;
    gpu::OwnedBuffer nodes_buffer_, table_, tracks_, times_, values_, joint_buffer_, layer_buffer_, masks_, durations_,
        steps_, palette_, previous_palette_;
    gpu::Unique<VkDescriptorSetLayout> set_layout_;
    gpu::Unique<VkPipelineLayout> layout_;
    gpu::Unique<VkPipeline> pipeline_;
    gpu::Unique<VkDescriptorPool> pool_;
    VkDescriptorSet set_ = VK_NULL_HANDLE, previous_set_ = VK_NULL_HANDLE; // posing now, and as the last frame drew
    std::string name_;
};

} // namespace

Result<std::unique_ptr<Technique>> createPoseTechnique(const TechniqueSetup& setup) {
    if (setup.sources.one() == nullptr)
        return Error{"technique pose samples the model's keys on the GPU and needs the source animation, which this "
                     "asset lacks"};
    // pose.comp (skeletons of more nodes than pose_nodes.comp's workgroup) keeps a stack per thread.
    if (const uint32_t depth = skeletonDepth(setup.sources.one()->skeleton);
        setup.sources.one()->skeleton.size() > THRONG_POSE_GROUP_NODES && depth > THRONG_POSE_MAX_DEPTH)
        return Error{"technique pose: the skeleton is " + std::to_string(depth) + " levels deep, more than the " +
                     std::to_string(THRONG_POSE_MAX_DEPTH) + " its pass holds (baked and vat draw it)"};
    const uint64_t members = setup.instances->size();
    const std::string what = "technique pose: " + std::to_string(members) + " members x ";
    if (Status s = checkStorageBuffer(setup, members * setup.sources.one()->palette.size() * 48,
                                      what + std::to_string(setup.sources.one()->palette.size()) + " joints x 48 B");
        !s)
        return s.error();
    return std::unique_ptr<Technique>(std::make_unique<PoseTechnique>(setup));
}

} // namespace throng::render
