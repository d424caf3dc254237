// Error-bounded baking (issue #13, part 6; src/bake/rate.cpp): each clip baked with the fewest
// frames whose tweening stays within the bound. The achieved error is measured here again from
// the baked asset's stored matrices (what the GPU reads), not from the chooser's own numbers.
#include "test_util.h"

#include <throng/anim.h>
#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/import.h>

#include <gtest/gtest.h>

using namespace throng;

namespace {

double diagonal(const Model& model) {
    const Bounds b = bindPoseBounds(model);
    return double(glm::length(b.max - b.min));
}

// The stored matrices of frame f of clip c as 3x4 rows (double), palette order.
std::vector<glm::dmat4> storedMatrices(const BakedAsset& asset, uint32_t c, uint32_t f) {
    std::vector<glm::dmat4> m(asset.joint_count, glm::dmat4(1.0));
    for (uint32_t j = 0; j < asset.joint_count; ++j)
        for (uint32_t r = 0; r < 3; ++r) {
            const glm::vec4 row = bakedTexel(asset, c, f, j, r);
            for (int col = 0; col < 4; ++col) m[j][col][r] = double(row[col]);
        }
    return m;
}

std::vector<glm::dvec3> skinAll(const Model& model, const std::vector<glm::dmat4>& m) {
    std::vector<glm::dvec3> out;
    for (const Mesh& mesh : model.meshes) {
        const SkinnedVertices s = referenceSkin(mesh, m);
        out.insert(out.end(), s.positions.begin(), s.positions.end());
    }
    return out;
}

// The largest distance between the baked frames tweened (from the stored floats) and the exact
// pose, at the quarter points of every interval of clip c.
double achievedError(const Model& model, const BakedAsset& asset, uint32_t c) {
    const BakedClip& clip = asset.clips[c];
    double worst = 0.0;
    for (uint32_t f = 0; f + 1 < clip.frame_count; ++f) {
        const std::vector<glm::dmat4> a = storedMatrices(asset, c, f), b = storedMatrices(asset, c, f + 1);
        const double t0 = bakedFrameTime(clip, f), t1 = bakedFrameTime(clip, f + 1);
        for (const double s : {0.25, 0.5, 0.75}) {
            std::vector<glm::dmat4> blend(a.size());
            for (size_t k = 0; k < a.size(); ++k) blend[k] = a[k] * (1.0 - s) + b[k] * s;
            const auto tweened = skinAll(model, blend);
            const auto exact =
                skinAll(model, referenceSkinningMatrices(model, &model.clips[c], t0 + (t1 - t0) * s, false));
            for (size_t v = 0; v < exact.size(); ++v) worst = std::max(worst, glm::length(tweened[v] - exact[v]));
        }
    }
    return worst;
}

// Bakes `model` within `share` of its size and checks every clip: the bound met (measured from
// the stored floats, which add at most their rounding), the report consistent.
void checkModel(const Model& model, double share) {
    const double bound = share * diagonal(model);
    BakeOptions o;
    o.max_error = bound;
    o.lods = 1;
    BakeReport report;
    Result<BakedAsset> baked = bake(model, o, &report);
    ASSERT_TRUE(baked.ok()) << baked.error().message;
    const BakedAsset& asset = baked.value();
    ASSERT_EQ(report.rates.size(), asset.clips.size());
    for (uint32_t c = 0; c < asset.clips.size(); ++c) {
        const ClipRateReport& r = report.rates[c];
        SCOPED_TRACE(model.source + " clip " + asset.clips[c].name);
        EXPECT_EQ(r.frames, asset.clips[c].frame_count);
        EXPECT_TRUE(r.met);
        EXPECT_LE(r.error, bound);
        EXPECT_EQ(r.bytes, size_t(r.frames) * asset.texelsPerRow() * 4 * sizeof(float));
        EXPECT_EQ(r.fixed_frames, bakedFrameCount(asset.clips[c].duration, o.fps));
        // Measured again from what is stored: within the bound, plus float rounding.
        const double achieved = achievedError(model, asset, c);
        EXPECT_LE(achieved, bound + 1e-6 * diagonal(model)) << "chooser said " << r.error;
        // One frame fewer was measured over the bound (bisection ends between a count over it and
        // one within), unless the count is already the minimum.
        if (r.frames > 2) {
            EXPECT_GT(tweenError(model, &model.clips[c], asset.clips[c].duration, r.frames - 1), bound);
        }
        std::printf("%s '%s': %u frames (%.1f fps) error %.2e of the size; at 30 fps %u frames, %.2e\n",
                    model.source.c_str(), r.name.c_str(), r.frames, r.fps, r.error / diagonal(model), r.fixed_frames,
                    r.fixed_error / diagonal(model));
    }
}

} // namespace

TEST(Rate, WalkerMeetsTheBoundWithFewerFramesWhereItCan) {
    const Model model = makeWalker();
    checkModel(model, 1e-3);
    // At 30 fps the walker's tweening costs more than 0.1% of its size somewhere, so 0.1% needs
    // more frames there; a loose bound needs fewer than 30 fps.
    BakeOptions loose;
    loose.max_error = 1e-2 * diagonal(model);
    loose.lods = 1;
    BakeReport report;
    ASSERT_TRUE(bake(model, loose, &report).ok());
    for (const ClipRateReport& r : report.rates) EXPECT_LT(r.frames, r.fixed_frames) << r.name;
}

TEST(Rate, SharedModelsMeetTheBound) {
    for (const char* file : {"CesiumMan/CesiumMan.glb", "Fox/Fox.glb", "RiggedSimple/RiggedSimple.glb"}) {
        THRONG_ASSET(path, file);
        Result<Model> model = importModel(path);
        ASSERT_TRUE(model.ok()) << model.error().message;
        checkModel(model.value(), 1e-3);
    }
}

TEST(Rate, TheCliReportsEachClipAndRefusesBadBounds) {
    const auto dir = test::scratchDir("rate");
    const std::string out = (dir / "w.throng").string();
    const test::CliRun r = test::runThrong("bake builtin:walker --lods 1 --max-error 0.1% -o " + out);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("clip 'walk'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("at 30 fps"), std::string::npos) << r.err;
    for (const char* bad : {"0", "-1", "0%", "101%", "nan", "x"}) {
        const test::CliRun b = test::runThrong(std::string("bake builtin:walker --max-error ") + bad + " -o " + out);
        EXPECT_EQ(b.exit_code, 2) << bad << ": " << b.err;
    }
}
