// GPU tests on whatever Vulkan device is present (lavapipe in CI), validation layers always
// on: any validation error fails the test that caused it.
//  - GPU = CPU: the renderer's skinning function, run in a compute shader, against the
//    double-precision CPU reference, for every shared model, float and half.
//  - Images: determinism, a silhouette where the CPU projection says, a crowd that fills the view.
#include "../src/gpu/png.h"
#include "../src/render/crowd_pose.h"
#include "../src/render/renderer.h"
#include "../src/render/skin_check.h"

#include <throng/anim.h>
#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/import.h>

#include "gpu_suite.h"
#include "reference_pose.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <glm/gtc/packing.hpp>

#include <cmath>
#include <cstdio>
#include <limits>

using namespace throng;

namespace {

class Gpu : public test::GpuSuite {};

Model loadModel(const std::string& source) {
    Result<Model> r = importModel(source);
    EXPECT_TRUE(r.ok()) << source << ": " << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : Model{};
}

BakedAsset bakeModel(const Model& model, Precision precision, bool vat = false) {
    BakeOptions o;
    o.precision = precision;
    o.vat = vat;
    Result<BakedAsset> r = bake(model, o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : BakedAsset{};
}

// Every mesh of the model skinned by the double reference, concatenated in bake order.
std::vector<glm::dvec3> cpuSkin(const Model& model, const Clip* clip, double t) {
    const std::vector<glm::dmat4> m = referenceSkinningMatrices(model, clip, t, true);
    std::vector<glm::dvec3> out;
    for (const Mesh& mesh : model.meshes) {
        const SkinnedVertices s = referenceSkin(mesh, m);
        out.insert(out.end(), s.positions.begin(), s.positions.end());
    }
    return out;
}

struct Errors {
    double at_frames = 0.0; // GPU vs exact CPU sample at baked frame times, relative to the bind diagonal
    double vs_tween = 0.0;  // halfway between frames: GPU vs the CPU doing the same tweening in double
    double vs_exact = 0.0;  // halfway between frames: GPU vs the exact CPU sample (the cost of tweening)
};

// Skins the frames bracketing `t` in double and blends them with weight `s`, as the shader does.
std::vector<glm::dvec3> cpuTween(const Model& model, const Clip* clip, double t0, double t1, double s) {
    const std::vector<glm::dmat4> a = referenceSkinningMatrices(model, clip, t0, true);
    const std::vector<glm::dmat4> b = referenceSkinningMatrices(model, clip, t1, false);
    std::vector<glm::dmat4> m(a.size());
    for (size_t k = 0; k < a.size(); ++k) m[k] = a[k] * (1.0 - s) + b[k] * s;
    std::vector<glm::dvec3> out;
    for (const Mesh& mesh : model.meshes) {
        const SkinnedVertices v = referenceSkin(mesh, m);
        out.insert(out.end(), v.positions.begin(), v.positions.end());
    }
    return out;
}

// Infinity when a GPU position is not finite (std::max would skip a NaN).
double largestDifference(const std::vector<glm::vec3>& gpu, size_t offset, const std::vector<glm::dvec3>& cpu) {
    double worst = 0.0;
    for (size_t v = 0; v < cpu.size(); ++v) {
        const glm::vec3 p = gpu[offset + v];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
            return std::numeric_limits<double>::infinity();
        worst = std::max(worst, glm::length(glm::dvec3(p) - cpu[v]));
    }
    return worst;
}

// A crowd of one member at the origin playing clip 0 from its start (error-path tests).
render::Crowd oneMember(const BakedAsset& baked) {
    render::Crowd crowd;
    crowd.instances = {render::singleInstance(0, 0.0f)};
    crowd.bounds = baked.bind_bounds;
    return crowd;
}

enum class Path { Bones, Vertices }; // baked_skin.glsl (skin_check.comp) or vat (vat_check.comp)

// Skins every clip at baked frame times and halfway between frames, on the GPU and on the
// CPU, and returns the largest differences. Halfway, the CPU does what the shader does in
// double: Bones blends the two frames' skinning matrices, Vertices lerps the two frames' exact
// positions (as vat lerps its texels).
Errors compareWithCpu(gpu::Allocator& a, const Model& model, const BakedAsset& baked, Path path = Path::Bones,
                      render::AnimationStorage storage = render::AnimationStorage::Auto) {
    Errors e;
    Result<render::GpuAsset> uploaded = render::uploadAsset(a, baked, storage);
    EXPECT_TRUE(uploaded.ok()) << (uploaded.ok() ? "" : uploaded.error().message);
    if (!uploaded) return e;
    render::GpuAsset& g = uploaded.value();
    if (path == Path::Vertices) {
        EXPECT_TRUE(g.has_vat) << g.vat_problem;
    }
    const double diagonal = bindPoseBounds(model).diagonal();
    for (uint32_t c = 0; c < baked.clips.size(); ++c) {
        const BakedClip& clip = baked.clips[c];
        const Clip* source = c < model.clips.size() ? &model.clips[c] : nullptr;
        const uint32_t last = clip.frame_count - 1;
        auto frameTime = [&](uint32_t f) { return last > 0 ? double(clip.duration) * f / last : 0.0; };
        // Up to 12 frames per clip, the first and the last among them, each with the midpoint after it.
        std::vector<uint32_t> frames;
        for (uint32_t i = 0; i < 12; ++i) frames.push_back(last * i / 11);
        std::vector<gpu::shader::InstanceRecord> queries;
        for (uint32_t f : frames) {
            queries.push_back(render::singleInstance(c, float(frameTime(f))));
            if (f < last) queries.push_back(render::singleInstance(c, float(0.5 * (frameTime(f) + frameTime(f + 1)))));
        }
        const std::vector<glm::vec3> gpu_positions =
            path == Path::Bones ? render::skinOnGpu(a, g, queries, 0.0f) : render::skinVatOnGpu(a, g, queries, 0.0f);
        EXPECT_EQ(gpu_positions.size(), queries.size() * g.vertex_count);
        if (gpu_positions.size() != queries.size() * g.vertex_count) break;
        size_t q = 0;
        for (uint32_t f : frames) {
            const std::vector<glm::dvec3> exact = cpuSkin(model, source, frameTime(f));
            EXPECT_EQ(exact.size(), g.vertex_count);
            e.at_frames =
                std::max(e.at_frames, largestDifference(gpu_positions, q++ * g.vertex_count, exact) / diagonal);
            if (f == last) continue;
            std::vector<glm::dvec3> tween;
            if (path == Path::Bones) {
                tween = cpuTween(model, source, frameTime(f), frameTime(f + 1), 0.5);
            } else {
                const std::vector<glm::dvec3> next = cpuSkin(model, source, frameTime(f + 1));
                for (size_t v = 0; v < exact.size(); ++v) tween.push_back(exact[v] * 0.5 + next[v] * 0.5);
            }
            const size_t offset = q++ * g.vertex_count;
            e.vs_tween = std::max(e.vs_tween, largestDifference(gpu_positions, offset, tween) / diagonal);
            const double mid = 0.5 * (frameTime(f) + frameTime(f + 1));
            e.vs_exact =
                std::max(e.vs_exact, largestDifference(gpu_positions, offset, cpuSkin(model, source, mid)) / diagonal);
        }
    }
    g.release();
    return e;
}

uint32_t background(const std::vector<uint8_t>& rgba) {
    // The corner pixel is sky in every test scene.
    return uint32_t(rgba[0]) | uint32_t(rgba[1]) << 8 | uint32_t(rgba[2]) << 16;
}

struct PixelBox {
    int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
    size_t count = 0;
};

PixelBox foreground(const render::RenderOutput& img) {
    PixelBox b;
    const uint32_t sky = background(img.rgba);
    for (uint32_t y = 0; y < img.height; ++y)
        for (uint32_t x = 0; x < img.width; ++x) {
            const uint8_t* p = &img.rgba[(size_t(y) * img.width + x) * 4];
            if ((uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16) == sky) continue;
            b.x0 = std::min(b.x0, int(x));
            b.y0 = std::min(b.y0, int(y));
            b.x1 = std::max(b.x1, int(x));
            b.y1 = std::max(b.y1, int(y));
            ++b.count;
        }
    return b;
}

void savePng(const render::RenderOutput& img, const std::string& name) {
    const auto path = throng::test::scratchDir("png") / name;
    EXPECT_TRUE(gpu::writePng(path.string(), img.rgba, img.width, img.height).ok());
}

} // namespace

// An image given to allocate() as `dedicated` (what createImage does where the driver prefers
// memory of its own for it: NVIDIA's render targets) gets a block of exactly its size that
// nothing else shares, bound at offset 0, and the block goes back to the driver when the image's
// memory is released: the allocator's accounting returns to where it was.
TEST_F(Gpu, AnImageOfItsOwnHasAMemoryBlockOfItsOwn) {
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = VK_FORMAT_R16G16_SFLOAT;
    ici.extent = {320, 180, 1};
    ici.mipLevels = 1;
    ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    VkImage image = VK_NULL_HANDLE;
    ASSERT_EQ(vkCreateImage(context_->device, &ici, gpu::hostCallbacks(context_->device), &image), VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(context_->device, image, &req);
    const VkDeviceSize reserved = allocator_->reserved, in_use = allocator_->in_use;
    gpu::Allocation own = gpu::allocate(*allocator_, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, image);
    EXPECT_EQ(own.offset, 0u);
    EXPECT_EQ(allocator_->reserved, reserved + req.size);
    EXPECT_EQ(allocator_->in_use, in_use + req.size);
    ASSERT_LT(own.block, allocator_->blocks.size());
    EXPECT_TRUE(allocator_->blocks[own.block].dedicated);
    EXPECT_EQ(allocator_->blocks[own.block].size, req.size);
    EXPECT_EQ(vkBindImageMemory(context_->device, image, own.memory, own.offset), VK_SUCCESS);
    // An ordinary allocation of the same type does not land in it.
    gpu::Allocation other = gpu::allocate(*allocator_, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    EXPECT_NE(other.memory, own.memory);
    gpu::release(*allocator_, other);
    vkDestroyImage(context_->device, image, gpu::hostCallbacks(context_->device));
    const uint32_t block = own.block;
    gpu::release(*allocator_, own);
    EXPECT_EQ(allocator_->blocks[block].memory, VkDeviceMemory(VK_NULL_HANDLE)); // given back
    EXPECT_EQ(allocator_->in_use, in_use);
    // What stays reserved is at most the ordinary block the other allocation may have opened.
    EXPECT_TRUE(allocator_->reserved == reserved || allocator_->reserved == reserved + allocator_->block_size)
        << allocator_->reserved - reserved;
}

// Between frames the shader tweens (blends two frames' matrices), which differs from the exact
// pose by an amount set by the motion and the bake rate, not by the GPU: the tests require the
// GPU to tween exactly as the CPU would, and print the cost of tweening against the exact pose
// (docs/BENCHMARKS.md lists it per model).
TEST_F(Gpu, WalkerSkinningMatchesCpuReference) {
    const Model model = makeWalker();
    const Errors f = compareWithCpu(*allocator_, model, bakeModel(model, Precision::Float32));
    std::printf("builtin:walker float: %.2e at frames; between frames %.2e vs tweening, %.2e vs exact\n", f.at_frames,
                f.vs_tween, f.vs_exact);
    EXPECT_LE(f.at_frames, 1e-5);
    EXPECT_LE(f.vs_tween, 1e-5);
    EXPECT_LE(f.vs_exact, 2e-3); // measured 1.8e-3 at 30 fps: the walk swings fast
    const Errors h = compareWithCpu(*allocator_, model, bakeModel(model, Precision::Float16));
    std::printf("builtin:walker half:  %.2e at frames; between frames %.2e vs tweening, %.2e vs exact\n", h.at_frames,
                h.vs_tween, h.vs_exact);
    EXPECT_LE(h.at_frames, 1e-3);
    EXPECT_LE(h.vs_tween, 1e-3);
}

TEST_F(Gpu, SharedModelsSkinningMatchesCpuReference) {
    for (const char* relative : test::kSharedModels) {
        THRONG_ASSET(path, relative);
        const Model model = loadModel(path);
        if (model.meshes.empty()) continue;
        const Errors f = compareWithCpu(*allocator_, model, bakeModel(model, Precision::Float32));
        const Errors h = compareWithCpu(*allocator_, model, bakeModel(model, Precision::Float16));
        std::printf("%-55s float %.2e (tween %.2e, exact %.2e)  half %.2e (tween %.2e)\n", relative, f.at_frames,
                    f.vs_tween, f.vs_exact, h.at_frames, h.vs_tween);
        EXPECT_LE(f.at_frames, 1e-5) << relative;
        EXPECT_LE(f.vs_tween, 1e-5) << relative;
        EXPECT_LE(h.at_frames, 1e-3) << relative;
        EXPECT_LE(h.vs_tween, 1e-3) << relative;
    }
}

// Past the image limits the animation goes to a texel buffer, and past that to a storage buffer
// (which can also be asked for: AnimationStorage::StorageBuffer): same texels, same results.
TEST_F(Gpu, BufferPathsMatchCpuReference) {
    const Model model = makeWalker();
    for (render::AnimationStorage storage :
         {render::AnimationStorage::TexelBuffer, render::AnimationStorage::StorageBuffer})
        for (Precision p : {Precision::Float32, Precision::Float16}) {
            const BakedAsset baked = bakeModel(model, p);
            const Errors e = compareWithCpu(*allocator_, model, baked, Path::Bones, storage);
            std::printf("%s, %s: %.2e at frames, %.2e vs tweening\n", toString(storage), toString(p), e.at_frames,
                        e.vs_tween);
            EXPECT_LE(e.at_frames, p == Precision::Float32 ? 1e-5 : 1e-3);
            EXPECT_LE(e.vs_tween, p == Precision::Float32 ? 1e-5 : 1e-3);
            Result<render::GpuAsset> g = render::uploadAsset(*allocator_, baked, storage);
            ASSERT_TRUE(g.ok());
            EXPECT_EQ(g.value().animation_storage, storage);
            g.value().release();
        }
}

TEST_F(Gpu, WalkerVatMatchesCpuReference) {
    const Model model = makeWalker();
    const Errors f = compareWithCpu(*allocator_, model, bakeModel(model, Precision::Float32, true), Path::Vertices);
    std::printf("vat builtin:walker float: %.2e at frames; between frames %.2e vs lerp, %.2e vs exact\n", f.at_frames,
                f.vs_tween, f.vs_exact);
    EXPECT_LE(f.at_frames, 1e-5);
    EXPECT_LE(f.vs_tween, 1e-5);
    const Errors h = compareWithCpu(*allocator_, model, bakeModel(model, Precision::Float16, true), Path::Vertices);
    std::printf("vat builtin:walker half:  %.2e at frames; between frames %.2e vs lerp\n", h.at_frames, h.vs_tween);
    EXPECT_LE(h.at_frames, 1e-3);
    EXPECT_LE(h.vs_tween, 1e-3);
}

TEST_F(Gpu, SharedModelVatMatchesCpuReference) {
    THRONG_ASSET(path, "CesiumMan/CesiumMan.glb");
    const Model model = loadModel(path);
    ASSERT_FALSE(model.meshes.empty());
    const Errors f = compareWithCpu(*allocator_, model, bakeModel(model, Precision::Float32, true), Path::Vertices);
    std::printf("vat CesiumMan float: %.2e at frames; between frames %.2e vs lerp, %.2e vs exact\n", f.at_frames,
                f.vs_tween, f.vs_exact);
    EXPECT_LE(f.at_frames, 1e-5);
    EXPECT_LE(f.vs_tween, 1e-5);
}

// Cross-fading vertex animation is linear too: the blended vertex is the blend of the two.
TEST_F(Gpu, VatWithoutVertexAnimationIsAClearError) {
    const BakedAsset baked = bakeModel(makeWalker(), Precision::Float32);
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, baked);
    ASSERT_TRUE(g.ok());
    EXPECT_FALSE(g.value().has_vat);
    EXPECT_TRUE(render::skinVatOnGpu(*allocator_, g.value(), {render::singleInstance(0, 0.0f)}, 0.0f).empty());
    const render::Crowd crowd = oneMember(baked);
    render::RenderSettings s;
    s.technique = "vat";
    const Result<render::RenderOutput> r = render::renderCrowd(*allocator_, g.value(), crowd, glm::mat4(1.0f), s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "technique vat needs vertex animation data: bake with --vat");
    g.value().release();
}

// Cross-fading clip A into clip B by w gives (1 - w) A + w B: blending matrices (bones) or
// positions (vat) is linear, so the blended vertex is the blend of the two vertices.
double crossFadeError(gpu::Allocator& a, const BakedAsset& baked, Path path) {
    Result<render::GpuAsset> g = render::uploadAsset(a, baked);
    EXPECT_TRUE(g.ok());
    if (!g) return 1e300;
    auto skin = [&](const gpu::shader::InstanceRecord& r) {
        return path == Path::Bones ? render::skinOnGpu(a, g.value(), {r}, 0.0f)
                                   : render::skinVatOnGpu(a, g.value(), {r}, 0.0f);
    };
    const float t = 0.4f;
    const auto clip_a = skin(render::singleInstance(0, t));
    const auto clip_b = skin(render::singleInstance(1, t));
    const auto mix = skin(render::singleInstance(0, t, 1, 0.25f));
    EXPECT_EQ(clip_a.size(), baked.vertices.size());
    double worst = clip_a.empty() ? 1e300 : 0.0;
    for (size_t v = 0; v < clip_a.size(); ++v)
        worst = std::max(worst, double(glm::length(mix[v] - (clip_a[v] * 0.75f + clip_b[v] * 0.25f))));
    g.value().release();
    return worst;
}

TEST_F(Gpu, CrossFadeBlendsTwoClips) {
    const Model model = makeWalker();
    EXPECT_LE(crossFadeError(*allocator_, bakeModel(model, Precision::Float32), Path::Bones),
              1e-5 * bindPoseBounds(model).diagonal());
}

TEST_F(Gpu, VatCrossFadeBlendsTwoClips) {
    const Model model = makeWalker();
    EXPECT_LE(crossFadeError(*allocator_, bakeModel(model, Precision::Float32, true), Path::Vertices),
              1e-5 * bindPoseBounds(model).diagonal());
}

// A seeded crowd of `count` and the settings for a `width` x `height` picture of it at `time`
// (after `frames` frames), with the camera framing it.
struct CrowdShot {
    render::Crowd crowd;
    render::RenderSettings settings;
    glm::mat4 view_projection{1.0f};
};

CrowdShot crowdShot(const BakedAsset& baked, uint32_t count, uint32_t width, uint32_t height, float time,
                    uint32_t frames = 1, float cross_fade_share = 0.25f) {
    CrowdShot shot;
    render::CrowdLayout co;
    co.count = count;
    co.cross_fade_share = cross_fade_share;
    shot.crowd = render::makeCrowd(baked, co);
    shot.settings.width = width;
    shot.settings.height = height;
    shot.settings.frames = frames;
    shot.settings.time = time;
    shot.view_projection = render::frameBounds(shot.crowd.bounds, float(width) / float(height));
    return shot;
}

TEST_F(Gpu, SameSceneRendersIdenticallyTwice) {
    const BakedAsset baked = bakeModel(makeWalker(), Precision::Float32);
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, baked);
    ASSERT_TRUE(g.ok());
    const CrowdShot shot = crowdShot(baked, 64, 320, 200, 0.7f);
    const render::Crowd& crowd = shot.crowd;
    const render::RenderSettings& s = shot.settings;
    const glm::mat4& vp = shot.view_projection;
    const render::RenderOutput a = render::renderCrowd(*allocator_, g.value(), crowd, vp, s).value();
    const render::RenderOutput b = render::renderCrowd(*allocator_, g.value(), crowd, vp, s).value();
    EXPECT_TRUE(a.rgba == b.rgba);
    const PixelBox box = foreground(a);
    const double covered = double(box.count) / (double(a.width) * a.height);
    std::printf("64 walkers cover %.1f%% of the image\n", 100.0 * covered);
    EXPECT_GT(covered, 0.05);
    EXPECT_LT(covered, 0.95);
    savePng(a, "crowd64.png");
    g.value().release();
}

TEST_F(Gpu, SilhouetteIsWhereTheCpuProjectionSaysItIs) {
    THRONG_ASSET(path, "RiggedSimple/RiggedSimple.glb");
    const Model model = loadModel(path);
    const BakedAsset baked = bakeModel(model, Precision::Float32);
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, baked);
    ASSERT_TRUE(g.ok());
    // A baked frame time, so the GPU and the CPU pose agree to float precision.
    const BakedClip& clip = baked.clips[0];
    const float t = clip.duration * 20.0f / float(clip.frame_count - 1);
    render::Crowd crowd;
    crowd.instances = {render::singleInstance(0, t)};
    crowd.bounds = baked.bind_bounds;
    for (const Bounds& b : clip.frame_bounds) {
        crowd.bounds.min = glm::min(crowd.bounds.min, b.min);
        crowd.bounds.max = glm::max(crowd.bounds.max, b.max);
    }
    render::RenderSettings s;
    s.width = 400;
    s.height = 300;
    s.frames = 1;
    s.time = 0.0f;
    const glm::mat4 vp = render::frameBounds(crowd.bounds, float(s.width) / float(s.height));
    const render::RenderOutput img = render::renderCrowd(*allocator_, g.value(), crowd, vp, s).value();
    savePng(img, "rigged_simple.png");
    const PixelBox pixels = foreground(img);
    ASSERT_GT(pixels.count, 100u);
    double x0 = 1e30, y0 = 1e30, x1 = -1e30, y1 = -1e30;
    for (const glm::dvec3& p : cpuSkin(model, &model.clips[0], t)) {
        const glm::dvec4 c = glm::dmat4(vp) * glm::dvec4(p, 1.0);
        const double x = (c.x / c.w * 0.5 + 0.5) * s.width, y = (c.y / c.w * 0.5 + 0.5) * s.height;
        x0 = std::min(x0, x);
        y0 = std::min(y0, y);
        x1 = std::max(x1, x);
        y1 = std::max(y1, y);
    }
    // Pixel i covers [i, i + 1): the covered pixels span floor(min) .. ceil(max) - 1, within rounding.
    EXPECT_NEAR(pixels.x0, x0, 2.0);
    EXPECT_NEAR(pixels.y0, y0, 2.0);
    EXPECT_NEAR(pixels.x1 + 1, x1, 2.0);
    EXPECT_NEAR(pixels.y1 + 1, y1, 2.0);
    g.value().release();
}

TEST_F(Gpu, AnimationBeyondEveryLimitIsAClearError) {
    BakedAsset baked = bakeModel(makeWalker(), Precision::Float32);
    baked.joint_count = context_->properties.limits.maxImageDimension2D; // 3x too wide for an image
    const Result<render::GpuAsset> image = render::uploadAsset(*allocator_, baked, render::AnimationStorage::Image);
    ASSERT_FALSE(image.ok());
    EXPECT_NE(image.error().message.find("exceeds this device's image limits"), std::string::npos)
        << image.error().message;
    baked.max_frames = context_->properties.limits.maxTexelBufferElements; // and far too many texels for a buffer
    const Result<render::GpuAsset> any = render::uploadAsset(*allocator_, baked);
    ASSERT_FALSE(any.ok());
    EXPECT_NE(any.error().message.find("texel buffer limit"), std::string::npos) << any.error().message;
    EXPECT_NE(any.error().message.find("storage buffer range"), std::string::npos) << any.error().message;
}

namespace {

// Share of pixels whose colour differs by more than `tolerance` (0..255, any channel).
double differingShare(const render::RenderOutput& a, const render::RenderOutput& b, int tolerance) {
    size_t differ = 0;
    for (size_t i = 0; i < a.rgba.size(); i += 4)
        for (int c = 0; c < 3; ++c)
            if (std::abs(int(a.rgba[i + c]) - int(b.rgba[i + c])) > tolerance) {
                ++differ;
                break;
            }
    return double(differ) / double(a.rgba.size() / 4);
}

render::RenderOutput renderFish(gpu::Allocator& a, const render::GpuAsset& g, const BakedAsset& baked,
                                const std::string& technique, float time) {
    CrowdShot shot = crowdShot(baked, 16, 256, 160, time);
    shot.settings.technique = technique;
    return render::renderCrowd(a, g, shot.crowd, shot.view_projection, shot.settings).value();
}

} // namespace

TEST_F(Gpu, ProceduralFishSwimAndStaticStandsStill) {
    const BakedAsset baked = bakeModel(makeFish(), Precision::Float32);
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, baked);
    ASSERT_TRUE(g.ok());
    const render::RenderOutput swim0 = renderFish(*allocator_, g.value(), baked, "procedural", 0.0f);
    const render::RenderOutput swim1 = renderFish(*allocator_, g.value(), baked, "procedural", 0.2f);
    const render::RenderOutput still0 = renderFish(*allocator_, g.value(), baked, "static", 0.0f);
    const render::RenderOutput still1 = renderFish(*allocator_, g.value(), baked, "static", 0.2f);
    const render::RenderOutput baked0 = renderFish(*allocator_, g.value(), baked, "baked", 0.0f);
    savePng(swim1, "fish_procedural.png");
    const double covered = double(foreground(swim0).count) / (256.0 * 160.0);
    EXPECT_GT(covered, 0.02);
    EXPECT_LT(covered, 0.9);
    EXPECT_GT(differingShare(swim0, swim1, 8), 0.005) << "the fish did not move";
    EXPECT_TRUE(still0.rgba == still1.rgba) << "static must not animate";
    // The fish has no clips: baked plays its rest pose, the same picture as static.
    EXPECT_LE(differingShare(still0, baked0, 8), 0.005);
    g.value().release();
}

TEST_F(Gpu, UnknownTechniqueIsAClearError) {
    const BakedAsset baked = bakeModel(makeFish(), Precision::Float32);
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, baked);
    ASSERT_TRUE(g.ok());
    const render::Crowd crowd = oneMember(baked);
    render::RenderSettings s;
    s.technique = "teleport";
    const Result<render::RenderOutput> r = render::renderCrowd(*allocator_, g.value(), crowd, glm::mat4(1.0f), s);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("unknown technique 'teleport' (available: cpu, palette, palette-ubo, bonetex, "
                                     "baked, pose, vat, procedural, static)"),
              std::string::npos)
        << r.error().message;
    g.value().release();
}

// Every skeletal technique poses the same crowd the same way: the pictures agree.
TEST_F(Gpu, SkeletalTechniquesDrawTheSamePicture) {
    const Model model = makeWalker();
    const BakedAsset baked = bakeModel(model, Precision::Float32, true);
    ASSERT_FALSE(baked.source.empty());
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, baked);
    ASSERT_TRUE(g.ok());
    CrowdShot shot = crowdShot(baked, 36, 320, 200, 0.9f, 2);
    const render::Crowd& crowd = shot.crowd;
    render::RenderSettings& s = shot.settings;
    s.baked = &baked;
    // Full detail: palette-ubo draws every member at LOD 0 (its batches cannot be culled), and
    // which level a member gets is the culling tests' concern (cull_test.cpp).
    s.cull.lod = false;
    const glm::mat4& vp = shot.view_projection;
    auto draw = [&](const char* technique, JointEncoding encoding) {
        s.technique = technique;
        s.encoding = encoding;
        Result<render::RenderOutput> r = render::renderCrowd(*allocator_, g.value(), crowd, vp, s);
        EXPECT_TRUE(r.ok()) << technique << ": " << (r.ok() ? "" : r.error().message);
        return r.ok() ? std::move(r).value() : render::RenderOutput{};
    };
    const render::RenderOutput reference = draw("baked", JointEncoding::Matrix);
    savePng(reference, "same_baked.png");
    const double covered = double(foreground(reference).count) / (320.0 * 200.0);
    EXPECT_GT(covered, 0.05);
    struct Variant {
        const char* name;
        JointEncoding encoding;
        Precision bones;
    };
    for (const Variant v : {Variant{"palette", JointEncoding::Matrix, Precision::Float32},
                            Variant{"palette", JointEncoding::Quaternion, Precision::Float32},
                            Variant{"palette-ubo", JointEncoding::Matrix, Precision::Float32},     // 3 batches of 16
                            Variant{"palette-ubo", JointEncoding::Quaternion, Precision::Float32}, // 2 of 24
                            Variant{"bonetex", JointEncoding::Matrix, Precision::Float32},
                            Variant{"bonetex", JointEncoding::Matrix, Precision::Float16},
                            Variant{"cpu", JointEncoding::Matrix, Precision::Float32},
                            Variant{"vat", JointEncoding::Matrix, Precision::Float32}}) {
        const char* name = v.name;
        const JointEncoding encoding = v.encoding;
        s.bone_precision = v.bones;
        const render::RenderOutput img = draw(name, encoding);
        ASSERT_EQ(img.rgba.size(), reference.rgba.size());
        const double differ = differingShare(reference, img, 24);
        std::printf("%s (%s, %s) vs baked: %.3f%% of pixels differ by more than 24/255\n", name,
                    encoding == JointEncoding::Matrix ? "mat" : "quat", toString(v.bones), 100.0 * differ);
        EXPECT_LE(differ, 0.005) << name;
    }
    g.value().release();
}

// What each technique's vertex shader really computed: the capture variants store every
// vertex's world position, compared here with the double-precision reference (each instance's
// clip or cross-fade at its own time, skinned, then placed by its decoded transform).
struct CaptureCase {
    const char* technique;
    JointEncoding encoding;
    Precision bones;
    double limit;      // largest world-space difference / bind-pose diagonal, one clip playing
    double fade_limit; // the same while cross-fading two clips
    const char* why;
    uint32_t batch = 0; // cpu: pretend storage buffers hold this many instances (forces batches)
    Skinning skinning = Skinning::Linear;
    bool local_fade = true; // cross-fades blended in local space (poses from the source); false: baked, vat
};

// The reference world positions of instance `inst` at crowd time `time`; `skinned`: false for
// `static` (bind pose).
std::vector<glm::dvec3> referenceWorld(const Model& model, const gpu::shader::InstanceRecord& inst, float time,
                                       bool skinned, bool dual_quaternion = false, bool local_fade = false) {
    std::vector<glm::dvec3> local = test::referenceModelSpace(model, inst, time, skinned, dual_quaternion, local_fade);
    // The shader's placement, in double: rotate by the quaternion as decoded from halves, scale, move.
    const glm::vec2 xy = glm::unpackHalf2x16(inst.orientation.x), zw = glm::unpackHalf2x16(inst.orientation.y);
    const glm::dvec3 qv(xy.x, xy.y, zw.x);
    const double qw = zw.y;
    for (glm::dvec3& p : local) {
        const glm::dvec3 t = 2.0 * glm::cross(qv, p);
        p = (p + qw * t + glm::cross(qv, t)) * double(inst.position_scale.w) + glm::dvec3(inst.position_scale);
    }
    return local;
}

// `tween_limit`: baked and vat, which tween 30 fps frames (their cost per model is measured by
// compareWithCpu: walker 1.8e-3, Fox 1.9e-2 at midpoints).
void expectCapturedPositionsMatch(gpu::Allocator& a, const Model& model, const BakedAsset& baked, const char* label,
                                  double tween_limit) {
    Result<render::GpuAsset> g = render::uploadAsset(a, baked);
    ASSERT_TRUE(g.ok()) << (g.ok() ? "" : g.error().message);
    CrowdShot shot = crowdShot(baked, 12, 64, 64, 0.37f, 1, 0.5f);
    const render::Crowd& crowd = shot.crowd;
    render::RenderSettings& s = shot.settings;
    s.baked = &baked;
    s.capture = true;
    const glm::mat4& vp = shot.view_projection;
    const double diagonal = bindPoseBounds(model).diagonal();
    std::vector<bool> referenced(baked.vertices.size(),
                                 false); // the vertices some triangle uses: the ones the shader must write
    for (uint32_t i : baked.indices) referenced[i] = true;
    // Per member: cross-fades of skinning matrices (baked, vat) or of local joints (the techniques
    // that pose from the source), each with linear or dual-quaternion blending of the joints.
    std::vector<std::vector<glm::dvec3>> skinned, still, dual, exact, exact_dual;
    for (const auto& inst : crowd.instances) {
        skinned.push_back(referenceWorld(model, inst, s.time, true));
        still.push_back(referenceWorld(model, inst, s.time, false));
        dual.push_back(referenceWorld(model, inst, s.time, true, true));
        exact.push_back(referenceWorld(model, inst, s.time, true, false, true));
        exact_dual.push_back(referenceWorld(model, inst, s.time, true, true, true));
    }
    // The techniques that pose members from the source blend a cross-fade per joint in local
    // space, so its skinning matrices are rigid and the quaternion encodings (palette quat,
    // bonetex) store them exactly, as they do one clip. (Blending skinning matrices instead, as
    // before, their one rotation per joint missed the blend by 9.5e-3 of the walker's size and
    // 2.4e-2 of the Fox's.)
    const CaptureCase cases[] = {
        {"cpu", JointEncoding::Matrix, Precision::Float32, 1e-5, 1e-5, "float skinning of the same matrices"},
        {"cpu", JointEncoding::Matrix, Precision::Float32, 1e-5, 1e-5, "in batches of 5 instances, a buffer each", 5},
        {"palette", JointEncoding::Matrix, Precision::Float32, 1e-5, 1e-5, "float matrices"},
        {"palette", JointEncoding::Quaternion, Precision::Float32, 1e-5, 1e-5, "rigid joints stored as rotations"},
        {"palette-ubo", JointEncoding::Matrix, Precision::Float32, 1e-5, 1e-5, "float matrices"},
        {"palette-ubo", JointEncoding::Quaternion, Precision::Float32, 1e-5, 1e-5, "as palette quat"},
        {"bonetex", JointEncoding::Matrix, Precision::Float32, 1e-5, 1e-5, "as palette quat"},
        {"bonetex", JointEncoding::Matrix, Precision::Float16, 1e-3, 1e-3, "as palette quat, in halves"},
        {"pose", JointEncoding::Matrix, Precision::Float32, 1e-5, 1e-5, "posed on the GPU from the keys"},
        {"baked", JointEncoding::Matrix, Precision::Float32, tween_limit, tween_limit,
         "matrices tweened between 30 fps frames", 0, Skinning::Linear, false},
        {"vat", JointEncoding::Matrix, Precision::Float32, tween_limit, tween_limit,
         "positions lerped between 30 fps frames", 0, Skinning::Linear, false},
        {"static", JointEncoding::Matrix, Precision::Float32, 1e-5, 1e-5, "bind pose"},
        // Dual quaternions against the double reference of the same blend (throng/anim.h).
        {"palette", JointEncoding::Matrix, Precision::Float32, 1e-5, 1e-5, "dual quaternions from float matrices", 0,
         Skinning::DualQuaternion},
        {"palette-ubo", JointEncoding::Quaternion, Precision::Float32, 1e-5, 1e-5,
         "dual quaternions from quat palettes", 0, Skinning::DualQuaternion},
        {"pose", JointEncoding::Matrix, Precision::Float32, 1e-5, 1e-5, "dual quaternions from the pass's matrices", 0,
         Skinning::DualQuaternion},
        {"baked", JointEncoding::Matrix, Precision::Float32, tween_limit, tween_limit,
         "dual quaternions of matrices tweened between 30 fps frames", 0, Skinning::DualQuaternion, false},
    };
    for (const CaptureCase& c : cases) {
        s.technique = c.technique;
        s.encoding = c.encoding;
        s.bone_precision = c.bones;
        s.skinning = c.skinning;
        s.hooks.storage_buffer_limit = uint64_t(c.batch) * g.value().vertex_count * 24;
        Result<render::RenderOutput> r = render::renderCrowd(a, g.value(), crowd, vp, s);
        ASSERT_TRUE(r.ok()) << c.technique << ": " << (r.ok() ? "" : r.error().message);
        const std::vector<glm::vec4>& gpu = r.value().positions;
        ASSERT_EQ(gpu.size(), crowd.instances.size() * g.value().vertex_count);
        const bool is_static = std::string_view(c.technique) == "static";
        if (c.batch > 0) {
            EXPECT_NE(r.value().technique.find("batches"), std::string::npos) << r.value().technique;
        }
        double worst = 0.0, worst_fading = 0.0;
        size_t written = 0, missing = 0, not_finite = 0;
        for (size_t i = 0; i < crowd.instances.size(); ++i) {
            const bool dq = c.skinning == Skinning::DualQuaternion;
            const std::vector<glm::dvec3>& ref = is_static      ? still[i]
                                                 : c.local_fade ? (dq ? exact_dual[i] : exact[i])
                                                                : (dq ? dual[i] : skinned[i]);
            ASSERT_EQ(ref.size(), g.value().vertex_count);
            const bool fading =
                crowd.instances[i].blend > 0.0f && gpu::shader::throngClipA(crowd.instances[i].clips) !=
                                                       gpu::shader::throngClipB(crowd.instances[i].clips);
            for (size_t v = 0; v < ref.size(); ++v) {
                const glm::vec4 p = gpu[i * ref.size() + v];
                if (std::isnan(p.w)) { // the shader never ran for it
                    missing += referenced[v] ? 1 : 0;
                    continue;
                }
                ++written;
                if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
                    ++not_finite;
                    continue;
                }
                double& w = fading ? worst_fading : worst;
                w = std::max(w, glm::length(glm::dvec3(p) - ref[v]) / diagonal);
            }
        }
        std::printf("%-14s %-62s %.2e one clip, %.2e cross-fading (of the diagonal; %zu/%zu vertices drawn): %s\n",
                    label, r.value().technique.c_str(), worst, worst_fading, written, gpu.size(), c.why);
        EXPECT_EQ(missing, 0u) << r.value().technique
                               << ": vertices of drawn triangles never reached the vertex shader";
        EXPECT_EQ(not_finite, 0u) << r.value().technique;
        EXPECT_GT(written, 0u);
        EXPECT_LE(worst, c.limit) << r.value().technique << " (" << c.why << ")";
        EXPECT_LE(worst_fading, c.fade_limit) << r.value().technique << " (" << c.why << ")";
    }
    g.value().release();
}

TEST_F(Gpu, EveryTechniquePlacesVerticesWhereTheCpuReferenceDoes) {
    if (!context_->vertex_stores) GTEST_SKIP() << "the device lacks vertexPipelineStoresAndAtomics (capture shaders)";
    const Model walker = makeWalker();
    expectCapturedPositionsMatch(*allocator_, walker, bakeModel(walker, Precision::Float32, true), "builtin:walker",
                                 5e-3);
    THRONG_ASSET(path, "CesiumMan/CesiumMan.glb");
    const Model cesium = loadModel(path);
    expectCapturedPositionsMatch(*allocator_, cesium, bakeModel(cesium, Precision::Float32, true), "CesiumMan", 5e-3);
    THRONG_ASSET(fox_path, "Fox/Fox.glb"); // three clips: cross-fades on a real model
    const Model fox = loadModel(fox_path);
    expectCapturedPositionsMatch(*allocator_, fox, bakeModel(fox, Precision::Float32, true), "Fox", 2e-2);
}

// The three places the baked animation can live give the same picture, pixel for pixel (the
// same texels, read exactly).
TEST_F(Gpu, BakedDrawsTheSameFromImageTexelBufferAndStorageBuffer) {
    const BakedAsset baked = bakeModel(makeWalker(), Precision::Float16);
    const CrowdShot shot = crowdShot(baked, 25, 240, 160, 0.6f);
    const render::Crowd& crowd = shot.crowd;
    const render::RenderSettings& s = shot.settings;
    const glm::mat4& vp = shot.view_projection;
    std::vector<render::RenderOutput> images;
    for (render::AnimationStorage storage : {render::AnimationStorage::Image, render::AnimationStorage::TexelBuffer,
                                             render::AnimationStorage::StorageBuffer}) {
        Result<render::GpuAsset> g = render::uploadAsset(*allocator_, baked, storage);
        ASSERT_TRUE(g.ok()) << (g.ok() ? "" : g.error().message);
        Result<render::RenderOutput> r = render::renderCrowd(*allocator_, g.value(), crowd, vp, s);
        ASSERT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
        EXPECT_EQ(r.value().technique, storage == render::AnimationStorage::Image
                                           ? "baked"
                                           : std::string("baked (") + toString(storage) + ")");
        images.push_back(std::move(r).value());
        g.value().release();
    }
    EXPECT_GT(double(foreground(images[0]).count) / (240.0 * 160.0), 0.05);
    EXPECT_EQ(differingShare(images[0], images[1], 0), 0.0);
    EXPECT_EQ(differingShare(images[0], images[2], 0), 0.0);
}

// The CPU side of palette/bonetex/cpu: per-instance skinning matrices against the double reference.
TEST(CrowdPose, MatchesTheDoubleReference) {
    const Model model = makeWalker();
    const BakedAsset baked = bakeModel(model, Precision::Float32);
    ASSERT_FALSE(baked.source.empty());
    std::vector<gpu::shader::InstanceRecord> instances = {
        render::singleInstance(0, 0.1f), render::singleInstance(1, 2.5f), render::singleInstance(0, 0.7f, 1, 0.3f)};
    instances[1].speed = 1.3f;
    const float time = 0.45f;
    const size_t joints = baked.source.palette.size();
    std::vector<render::MatrixRows> rows(instances.size() * joints);
    render::sampleCrowdPoses(render::poseSources(&baked.source), instances, time, rows);
    for (size_t i = 0; i < instances.size(); ++i) {
        const auto& inst = instances[i];
        const double local = double(time) * inst.speed + inst.time_offset;
        // The cross-fade blended per joint in local space.
        const ReferenceLayer fade{&model.clips[gpu::shader::throngClipB(inst.clips)], local,
                                  std::vector<double>(model.skeleton.size(), double(inst.blend))};
        const auto blended = referenceBlendedSkinningMatrices(model, &model.clips[gpu::shader::throngClipA(inst.clips)],
                                                              local, {&fade, 1}, true);
        for (size_t j = 0; j < joints; ++j) {
            const glm::dmat4& m = blended[j];
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 4; ++c)
                    EXPECT_NEAR(rows[i * joints + j].rows[r][c], m[c][r], 1e-5) << "instance " << i << " joint " << j;
        }
    }
}

// The uniform-buffer palette has a bone limit: 341 joints as matrices, 512 as quaternions.
TEST_F(Gpu, PaletteUboEnforcesItsBoneLimit) {
    THRONG_ASSET(path, "RecursiveSkeletons/RecursiveSkeletons.glb"); // 840 palette joints
    const Model model = loadModel(path);
    const BakedAsset baked = bakeModel(model, Precision::Float32);
    Result<render::GpuAsset> g = render::uploadAsset(*allocator_, baked);
    ASSERT_TRUE(g.ok());
    const render::Crowd crowd = oneMember(baked);
    render::RenderSettings s;
    s.technique = "palette-ubo";
    s.baked = &baked;
    s.frames = 1;
    s.width = s.height = 32;
    for (auto [encoding, limit] :
         {std::pair{JointEncoding::Matrix, "341"}, std::pair{JointEncoding::Quaternion, "512"}}) {
        s.encoding = encoding;
        const Result<render::RenderOutput> r = render::renderCrowd(*allocator_, g.value(), crowd, glm::mat4(1.0f), s);
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error().message.find(std::string("at most ") + limit + " joints"), std::string::npos)
            << r.error().message;
        EXPECT_NE(r.error().message.find("this model has " + std::to_string(baked.joint_count)), std::string::npos)
            << r.error().message;
    }
    s.technique = "palette"; // the storage-buffer palette has no such limit
    EXPECT_TRUE(render::renderCrowd(*allocator_, g.value(), crowd, glm::mat4(1.0f), s).ok());
    g.value().release();
}
