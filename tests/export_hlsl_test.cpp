// export/throng_export.hlsl, the include that Unity and Unreal shaders use to play an export
// (docs/EXPORT.md), compiled by `glslc -x hlsl` in the build (tests/shaders/export_hlsl_check.hlsl
// wraps it in a compute shader) and run on the Vulkan device with the exported animation.exr,
// vat.exr and mesh.gltf as an engine would read them; every vertex at baked frames, between
// frames, past a clip's end and cross-faded between two clips, against the double-precision
// reference pose.
#include "../src/gpu/owned.h"
#include "../src/gpu/pipeline.h"

#include <throng/builtin.h>
#include <throng/export.h>

#include "export_readback.h"
#include "gpu_suite.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <iterator>

using namespace throng;
using namespace throng::test::exported;

namespace {

class ExportHlsl : public test::GpuSuite {};

// What one invocation reads (tests/shaders/export_hlsl_check.hlsl's Vertex, Query and Layout).
struct ShaderVertex {
    glm::vec4 position; // w: _VAT_INDEX
    glm::vec4 normal;
    glm::uvec4 joints;
    glm::vec4 weights;
};

struct Query {
    glm::vec4 clip_a, clip_b; // duration, frame_count, first_row, loop
    glm::vec4 times;          // time_a, time_b, fade
};

struct Layout {
    uint32_t vertex_count, query_count, vat_width, rows_per_frame;
};

std::vector<uint32_t> readSpirv(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_TRUE(!bytes.empty() && bytes.size() % 4 == 0) << path << ": no SPIR-V (the build compiles it)";
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), words.size() * 4);
    return words;
}

glm::vec4 clipVector(const nlohmann::json& clip) {
    return {clip["duration"].get<float>(), float(clip["frame_count"].get<uint32_t>()),
            float(clip["first_row"].get<uint32_t>()), clip["loop"].get<bool>() ? 1.0f : 0.0f};
}

// The include run on the device: four vec4 per (query, vertex), query-major.
std::vector<glm::vec4> runInclude(gpu::Allocator& a, const Image& anim, const Image& vat, const ExportedMesh& mesh,
                                  const std::vector<Query>& queries, const Layout& layout) {
    const gpu::Context& ctx = *a.context;
    const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
    const std::array<VkDescriptorSetLayoutBinding, 5> bindings{{
        {0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, cs, nullptr},
        {1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, cs, nullptr},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr},
        {3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr},
        {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, cs, nullptr},
    }};
    const gpu::Unique<VkDescriptorSetLayout> set_layout(ctx.device, gpu::createSetLayout(ctx, bindings));
    const gpu::Unique<VkPipelineLayout> pipeline_layout(ctx.device,
                                                        gpu::createPipelineLayout(ctx, set_layout, sizeof(Layout), cs));
    const std::vector<uint32_t> spirv = readSpirv(THRONG_EXPORT_HLSL_SPV);
    const gpu::Unique<VkPipeline> pipeline(ctx.device,
                                           gpu::createComputePipeline(ctx, spirv, pipeline_layout, nullptr));

    auto image = [&](const Image& texels) {
        gpu::OwnedImage img(a, gpu::createImage(a, VK_FORMAT_R32G32B32A32_SFLOAT, uint32_t(texels.width),
                                                uint32_t(texels.height), 1,
                                                VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT));
        gpu::uploadImage(a, *img, texels.rgba.data(), texels.rgba.size() * sizeof(float));
        return img;
    };
    const gpu::OwnedImage anim_image = image(anim), vat_image = image(vat);

    std::vector<ShaderVertex> vertices(mesh.positions.size());
    for (size_t v = 0; v < vertices.size(); ++v)
        vertices[v] = {glm::vec4(mesh.positions[v], mesh.vat_index[v]), glm::vec4(mesh.normals[v], 0.0f),
                       glm::uvec4(mesh.joints[v]), mesh.weights[v]};
    const VkBufferUsageFlags in = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    const gpu::OwnedBuffer vertex_buffer =
        gpu::ownBuffer(a, vertices.size() * sizeof(ShaderVertex), in, gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, *vertex_buffer, vertices.data(), vertices.size() * sizeof(ShaderVertex));
    const gpu::OwnedBuffer query_buffer = gpu::ownBuffer(a, queries.size() * sizeof(Query), in, gpu::MemoryUse::Device);
    gpu::uploadBuffer(a, *query_buffer, queries.data(), queries.size() * sizeof(Query));
    const size_t count = size_t(layout.vertex_count) * layout.query_count * 4;
    const gpu::OwnedBuffer results =
        gpu::ownBuffer(a, count * sizeof(glm::vec4),
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, gpu::MemoryUse::Device);

    const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 2},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3}};
    const gpu::Unique<VkDescriptorPool> pool = gpu::createDescriptorPool(ctx, 1, sizes);
    const VkDescriptorSet set = gpu::allocateSets(ctx, pool, set_layout, 1)[0];
    const gpu::DescriptorWrite writes[] = {
        gpu::DescriptorWrite::sampledImage(0, anim_image->view), gpu::DescriptorWrite::sampledImage(1, vat_image->view),
        gpu::DescriptorWrite::storage(2, vertex_buffer->buffer), gpu::DescriptorWrite::storage(3, query_buffer->buffer),
        gpu::DescriptorWrite::storage(4, results->buffer)};
    gpu::writeDescriptors(ctx.device, set, writes);

    gpu::submitAndWait(ctx, [&](VkCommandBuffer cmd) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0, nullptr);
        vkCmdPushConstants(cmd, pipeline_layout, cs, 0, sizeof(layout), &layout);
        vkCmdDispatch(cmd, (layout.vertex_count * layout.query_count + 63) / 64, 1, 1);
        gpu::memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                           VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
    });
    std::vector<glm::vec4> out(count);
    gpu::downloadBuffer(a, *results, out.data(), count * sizeof(glm::vec4));
    return out;
}

// A clip's pose at `time` in double: the two baked frames' exact matrices tweened (what the bone
// path blends) and the two frames' exact normals tweened (what the vertex animation blends).
struct ExactPose {
    std::vector<glm::dmat4> matrices;
    std::vector<glm::dvec3> vat_normals; // not normalized
};

ExactPose exactPose(const Model& model, const BakedAsset& asset, uint32_t c, double time) {
    const BakedClip& baked = asset.clips[c];
    const Clip* clip = model.clips.empty() ? nullptr : &model.clips[c];
    const Frames f = framesAt(baked, time);
    ExactFrame frames[2];
    for (int i = 0; i < 2; ++i) {
        frames[i].matrices = referenceSkinningMatrices(model, clip, bakedFrameTime(baked, i == 0 ? f.f0 : f.f1), false);
        frames[i].skinned = skinAll(model, frames[i].matrices);
    }
    ExactPose p;
    for (size_t j = 0; j < frames[0].matrices.size(); ++j)
        p.matrices.push_back(frames[0].matrices[j] * (1.0 - f.w) + frames[1].matrices[j] * f.w);
    for (size_t v = 0; v < frames[0].skinned.normals.size(); ++v)
        p.vat_normals.push_back(glm::mix(frames[0].skinned.normals[v], frames[1].skinned.normals[v], f.w));
    return p;
}

} // namespace

// Float export of the walker (vertex animation wrapped over three rows a frame): each clip alone
// at its first, middle and last frames, between frames and wrapped past its end, and each clip
// cross-faded into the next; positions within 1e-5 of the model's size, normals within 1e-5 rad,
// through the bone texture and the vertex animation alike (lavapipe: 1.7e-7 and 1.5e-7 of the
// size, normals 2.4e-7 and 2.9e-7 rad).
TEST_F(ExportHlsl, IncludePlaysTheExportLikeTheReference) {
    const Model model = makeWalker();
    BakeOptions bake_options;
    bake_options.vat = true;
    bake_options.lods = 1;
    Result<BakedAsset> baked = bake(model, bake_options);
    ASSERT_TRUE(baked.ok()) << baked.error().message;
    const BakedAsset& asset = baked.value();
    const std::string dir = (test::scratchDir("export_hlsl") / "walker").string();
    ExportOptions options;
    options.max_width = 4096; // 2 x 5321 vertices: three rows a frame
    Result<ExportReport> report = exportForEngines(asset, dir, options);
    ASSERT_TRUE(report.ok()) << report.error().message;

    const nlohmann::json desc = readJson(dir + "/throng.json");
    const Image anim = readExr(dir + "/animation.exr"), vat = readExr(dir + "/vat.exr");
    const ExportedMesh mesh = readGltf(dir + "/mesh.gltf");
    const nlohmann::json& clips = desc["clips"];
    ASSERT_GE(clips.size(), 2u);
    ASSERT_EQ(mesh.positions.size(), asset.vertices.size());

    // (clip a, time a, clip b, time b, fade)
    struct Case {
        uint32_t a;
        double time_a;
        uint32_t b;
        double time_b, fade;
    };
    std::vector<Case> cases;
    for (uint32_t c = 0; c < clips.size(); ++c) {
        const BakedClip& clip = asset.clips[c];
        const double step = clip.duration / double(std::max(clip.frame_count, 2u) - 1);
        const double mid = bakedFrameTime(clip, clip.frame_count / 2);
        for (const double t : {0.0, mid, mid + 0.37 * step, double(clip.duration) - 0.25 * step, double(clip.duration),
                               mid + 0.61 * step + 2.0 * clip.duration})
            cases.push_back({c, t, c, 0.0, 0.0});
        const uint32_t next = (c + 1) % uint32_t(clips.size());
        cases.push_back({c, mid + 0.29 * step, next, 0.41 * asset.clips[next].duration, 0.35});
    }
    std::vector<Query> queries;
    for (const Case& k : cases)
        queries.push_back({clipVector(clips[k.a]), clipVector(clips[k.b]),
                           glm::vec4(float(k.time_a), float(k.time_b), float(k.fade), 0.0f)});
    const Layout layout{uint32_t(mesh.positions.size()), uint32_t(queries.size()), desc["vat"]["width"].get<uint32_t>(),
                        desc["vat"]["rows_per_frame"].get<uint32_t>()};
    ASSERT_EQ(layout.rows_per_frame, 3u);
    const std::vector<glm::vec4> out = runInclude(*allocator_, anim, vat, mesh, queries, layout);

    const double diag = diagonal(asset);
    double bone = 0.0, bone_normal = 0.0, vertex = 0.0, vertex_normal = 0.0;
    for (size_t q = 0; q < cases.size(); ++q) {
        const Case& k = cases[q];
        // Queries use the times as the shader got them (float).
        ExactPose a = exactPose(model, asset, k.a, double(float(k.time_a)));
        if (k.fade > 0.0) {
            const ExactPose b = exactPose(model, asset, k.b, double(float(k.time_b)));
            const double fade = double(float(k.fade));
            for (size_t j = 0; j < a.matrices.size(); ++j)
                a.matrices[j] = a.matrices[j] * (1.0 - fade) + b.matrices[j] * fade;
            for (size_t v = 0; v < a.vat_normals.size(); ++v)
                a.vat_normals[v] = glm::mix(a.vat_normals[v], b.vat_normals[v], fade);
        }
        const SkinnedVertices truth = skinAll(model, a.matrices);
        for (size_t v = 0; v < layout.vertex_count; ++v) {
            const glm::vec4* r = &out[(q * layout.vertex_count + v) * 4];
            bone = std::max(bone, glm::length(glm::dvec3(r[0]) - truth.positions[v]) / diag);
            vertex = std::max(vertex, glm::length(glm::dvec3(r[2]) - truth.positions[v]) / diag);
            if (v < truth.normals.size()) {
                bone_normal = std::max(bone_normal, angle(glm::dvec3(r[1]), truth.normals[v]));
                vertex_normal = std::max(vertex_normal, angle(glm::dvec3(r[3]), a.vat_normals[v]));
            }
        }
    }
    std::printf("HLSL include, %zu queries x %u vertices: bone path %.2e of the size, normals %.2e rad; vertex "
                "animation %.2e, normals %.2e rad\n",
                cases.size(), layout.vertex_count, bone, bone_normal, vertex, vertex_normal);
    EXPECT_LE(bone, 1e-5);
    EXPECT_LE(vertex, 1e-5);
    EXPECT_LE(bone_normal, 1e-5);
    EXPECT_LE(vertex_normal, 1e-5);
}
