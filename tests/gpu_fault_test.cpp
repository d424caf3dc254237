// GPU faults (issue #9 section 5), on lavapipe with the validation layers on:
//  - out of memory at the fault points of a whole headless render (gpu::faultPoint, every
//    allocation and object creation; which of them, each test says), per technique: in process
//    through the renderer API, and
//    through `throng render` with THRONG_FAIL_ALLOCATION=N: one line, exit code 1, no
//    validation errors (the layers report every object still alive at vkDestroyDevice, so a
//    leak fails the test);
//  - the same over technique switches in the viewer (xvfb-run): refused with one console line;
//  - a lost device at every submit and wait (THRONG_LOSE_DEVICE_AT=N);
//  - masked device features (THRONG_MASK_FEATURES): a working path or one line naming what is missing.
#include "../src/render/renderer.h"

#include <throng/bake.h>

#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <vector>

using namespace throng;

namespace {

// Every step below is times kStep: 1 in a normal build; the ASan build sets THRONG_FAULT_STEP=6,
// as every render is 4 to 8 times slower there and the normal build's run covers the points. The
// in-process sweeps fail every point or every other (sweepStep); the process sweeps (0.6 s a
// render, 1.7 s a viewer run on lavapipe) step through more coarsely, as each test says.
#ifndef THRONG_FAULT_STEP
#define THRONG_FAULT_STEP 1
#endif
constexpr uint64_t kStep = THRONG_FAULT_STEP;
// THRONG_TEST_ALL=1 (`make test-all`): every point of every technique, in process and through
// the CLI, and 25 viewer runs a phase instead of about 8.
bool testAll() { return std::getenv("THRONG_TEST_ALL") != nullptr; }
constexpr uint64_t kContextPoints = 2; // a render's first allocation points: the context's (docs/HARDENING.md)

const std::vector<std::string> kTechniques = {"cpu", "palette", "bonetex", "baked", "pose", "vat", "static"};

// The in-process out-of-memory sweep's step for a technique: every point of baked, bonetex and
// vat (their uploads differ: the baked textures, the bone texture, the vertex animation), every
// other point of cpu, palette, pose and static, whose renders fail through the same allocator,
// upload and frame code as those (at every point, those four sweeps took 7 to 17 s each in CI on
// 2 cores; the sanitizer build leaves them out). Every point of every technique under
// THRONG_TEST_ALL.
uint64_t sweepStep(const std::string& technique) {
    const bool own_upload = technique == "baked" || technique == "bonetex" || technique == "vat";
    return (own_upload || testAll() ? 1 : 2) * kStep;
}

// The walker as the sweeps draw it. With vertex animation at 6 frames a second rather than 30:
// the sweeps fail allocations, which the number of frames does not change, and every render of
// the sweep uploads the vertex animation (31 MB at 30 fps).
BakedAsset walker(bool vat) {
    BakeOptions o;
    o.vat = vat;
    if (vat) o.fps = 6.0f;
    Result<LoadedAsset> r = loadAsset("builtin:walker", o);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value().baked : BakedAsset{};
}

// What one whole render (context, asset, crowd, frames, readback, teardown) did.
struct Outcome {
    bool ok = false;
    std::string error;                    // the one message of a failed render
    ErrorKind kind = ErrorKind::BadInput; // and its kind
    bool threw = false;                   // the failure escaped as an exception instead of an Error
    uint32_t validation_errors = 0;
    std::string first_validation_error;
};

// A tiny render the way `throng render` does it (4 walkers at 32x32, 2 frames) on `ctx`: its own
// allocator, asset, crowd, frames, readback and teardown. The validation errors it caused are
// the context's count's growth.
Outcome renderOn(gpu::Context& ctx, const BakedAsset& asset, const std::string& technique,
                 render::RenderOutput* output = nullptr, bool capture = false) {
    Outcome run;
    const uint32_t errors_before = ctx.validation ? uint32_t(ctx.validation->errors) : 0u;
    gpu::Allocator allocator;
    gpu::createAllocator(allocator, ctx);
    std::optional<render::GpuAsset> gpu_asset;
    try {
        Result<render::GpuAsset> g = render::uploadAsset(allocator, asset);
        if (!g) {
            run.error = g.error().message;
            run.kind = g.error().kind;
        } else {
            gpu_asset = std::move(g).value();
            render::CrowdLayout co;
            co.count = 4;
            const render::Crowd crowd = render::makeCrowd(asset, co);
            render::RenderSettings s;
            s.technique = technique;
            s.width = s.height = 32;
            s.frames = capture ? 1 : 2;
            s.capture = capture;
            s.baked = &asset;
            Result<render::RenderOutput> out =
                render::renderCrowd(allocator, *gpu_asset, crowd, render::frameBounds(crowd.bounds, 1.0f), s);
            if (!out) {
                run.error = out.error().message;
                run.kind = out.error().kind;
            } else {
                run.ok = out.value().rgba.size() == 32 * 32 * 4;
            }
            if (out && output != nullptr) *output = std::move(out).value();
        }
    } catch (const gpu::GpuError& e) {
        run.error = e.what();
        run.kind = e.kind;
        run.threw = true;
    }
    if (gpu_asset) gpu_asset->release();
    gpu::destroyAllocator(allocator);
    if (ctx.validation) {
        run.validation_errors = uint32_t(ctx.validation->errors) - errors_before;
        std::lock_guard<std::mutex> lock(ctx.validation->mutex);
        if (run.validation_errors > 0) run.first_validation_error = ctx.validation->first_error;
    }
    return run;
}

// A context with validation on (features in `mask` treated as missing); null with the reason in
// `error` when none could be made.
std::unique_ptr<gpu::Context> validatedContext(std::string& error, const std::vector<std::string>& mask = {}) {
    gpu::ContextOptions options;
    options.validation = true;
    options.mask_features = mask;
    Result<std::unique_ptr<gpu::Context>> created = gpu::createContext(options);
    if (!created) {
        error = created.error().message;
        return nullptr;
    }
    return std::move(created).value();
}

// renderOn() a context of its own, destroyed after it (what it left undestroyed is a
// validation error then).
Outcome renderOnce(const BakedAsset& asset, const std::string& technique, const std::vector<std::string>& mask = {},
                   render::RenderOutput* output = nullptr, bool capture = false) {
    std::string error;
    std::unique_ptr<gpu::Context> ctx = validatedContext(error, mask);
    if (ctx == nullptr) {
        Outcome failed;
        failed.error = error;
        return failed;
    }
    Outcome run = renderOn(*ctx, asset, technique, output, capture);
    gpu::destroyContext(*ctx);
    // The context's own: every error is this render's, the teardown's included.
    run.validation_errors = ctx->validation->errors;
    run.first_validation_error = ctx->validation->first_error;
    return run;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<std::string> linesOf(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// "throng: fault points: F allocation, L device loss" (THRONG_FAIL_ALLOCATION=count) in `err`.
struct Counts {
    uint64_t allocation = 0, loss = 0;
};
Counts countsIn(const std::string& err) {
    Counts c;
    for (const std::string& line : linesOf(err))
        if (std::sscanf(line.c_str(), "throng: fault points: %" SCNu64 " allocation, %" SCNu64 " device loss",
                        &c.allocation, &c.loss) == 2)
            break;
    return c;
}

std::string renderArgs(const std::string& technique, const std::string& png) {
    return "render --model builtin:walker --instances 4 --size 32x32 --frames 2 --validate --technique " + technique +
           " --out " + png;
}

// A failed `throng render`: exit code 1, exactly one stderr line naming the model and containing
// `what` (validation errors, a crash or a second message would break this), no image written.
void expectOneLineFailure(const test::CliRun& r, const std::string& png, const std::string& what,
                          const std::string& where) {
    const std::vector<std::string> lines = linesOf(r.err);
    EXPECT_EQ(r.exit_code, 1) << where << "\n" << r.err;
    ASSERT_EQ(lines.size(), 1u) << where << "\n" << r.err;
    EXPECT_EQ(lines[0].rfind("throng: error: builtin:walker: ", 0), 0u) << where << ": " << lines[0];
    EXPECT_TRUE(contains(lines[0], what)) << where << ": " << lines[0];
    EXPECT_FALSE(std::filesystem::exists(png)) << where;
}

class Faults : public ::testing::TestWithParam<std::string> {
  protected:
    void TearDown() override {
        gpu::setFailAllocation(0);
        gpu::setLoseDeviceAt(0);
    }
};

std::string paramName(const ::testing::TestParamInfo<std::string>& p) { return p.param; }

// "xvfb-run -a ..." when it is installed; empty (and the test skips or fails) when not.
std::string virtualDisplay() {
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) return {};
    return "xvfb-run -a -s '-screen 0 640x480x24'";
}

#define REQUIRE_VIRTUAL_DISPLAY(var)                                                                                   \
    const std::string var = virtualDisplay();                                                                          \
    if (var.empty()) {                                                                                                 \
        if (::throng::test::kRequireAssets) FAIL() << "xvfb-run is missing (Debian: xvfb)";                            \
        GTEST_SKIP() << "xvfb-run not installed (Debian: xvfb): the viewer cannot open a window";                      \
    }

} // namespace

// ---- out of memory ---------------------------------------------------------------------------

// Every fault point of a whole render (every other one for some techniques: sweepStep) fails once,
// in turn: the render reports one "out of GPU memory" message (an Error, not an exception) and
// leaves nothing behind.
TEST_P(Faults, OutOfMemoryAtEveryFaultPointInProcess) {
    const std::string technique = GetParam();
    const BakedAsset asset = walker(technique == "vat");
    // One context for the sweep, each render with its own allocator (a render's points come
    // after the context's: setFailAllocation restarts the count; the context's own points,
    // vkCreateDevice and its command pool, fail through the CLI below, every point for baked).
    // What a failed render left behind shows as a validation error when the context goes,
    // checked after the sweep.
    std::string error;
    std::unique_ptr<gpu::Context> ctx = validatedContext(error);
    ASSERT_NE(ctx, nullptr) << error;
    gpu::setFailAllocation(0);
    const Outcome clean = renderOn(*ctx, asset, technique);
    ASSERT_TRUE(clean.ok) << clean.error;
    ASSERT_EQ(clean.validation_errors, 0u) << clean.first_validation_error;
    const uint64_t points = gpu::faultPoints();
    ASSERT_GT(points, 10u);
    const auto start = std::chrono::steady_clock::now();
    uint64_t runs = 0, survived = 0;
    const uint64_t step = sweepStep(technique);
    for (uint64_t n = 1 + (technique.size() + 1) % step; n <= points; n += step) {
        gpu::setFailAllocation(n);
        const Outcome r = renderOn(*ctx, asset, technique);
        ++runs;
        EXPECT_EQ(r.validation_errors, 0u) << "fault point " << n << ": " << r.first_validation_error;
        EXPECT_FALSE(r.threw) << "fault point " << n << ": " << r.error;
        if (r.ok) { // a fallback absorbed it (another memory type): fine, if nothing else went wrong
            ++survived;
            continue;
        }
        EXPECT_TRUE(contains(r.error, "out of GPU memory")) << "fault point " << n << ": " << r.error;
        EXPECT_EQ(r.kind, ErrorKind::OutOfDeviceMemory) << "fault point " << n << ": " << toString(r.kind);
        EXPECT_FALSE(contains(r.error, "\n")) << "fault point " << n << ": " << r.error;
    }
    gpu::setFailAllocation(0);
    const uint32_t errors = ctx->validation->errors;
    gpu::destroyContext(*ctx);
    EXPECT_EQ(uint32_t(ctx->validation->errors), errors) << "left behind: " << ctx->validation->first_error;
    std::printf("%s: %" PRIu64 " fault points in a render; %" PRIu64 " renders with one failing (%" PRIu64
                " completed anyway) in %.1f s\n",
                technique.c_str(), points, runs, survived, secondsSince(start));
}

// The same through `throng render` and THRONG_FAIL_ALLOCATION=N: exit code 1 and one line. The
// context's own points (vkCreateDevice and its command pool: the first two, which the sweeps in
// process cannot fail) for every technique, then every 20th point from a different first point
// per technique (for cpu, palette, pose and static on the parity their in-process sweep leaves
// out: the CLI's count is the in-process one plus the context's two): the sweeps in process above
// fail the same code's points, and this one checks
// what the executable adds (the message's one line, the exit code, no PNG left). `make
// test-all` (THRONG_TEST_ALL) fails every point of every technique here too.
TEST_P(Faults, OutOfMemoryThroughTheCli) {
    const std::string technique = GetParam();
    const std::string png = (test::scratchDir("cli") / "crowd.png").string();
    const test::CliRun counted = test::runThrong(renderArgs(technique, png), "THRONG_FAIL_ALLOCATION=count");
    ASSERT_EQ(counted.exit_code, 0) << counted.err;
    const uint64_t points = countsIn(counted.err).allocation;
    ASSERT_GT(points, 10u) << counted.err;
    std::filesystem::remove(png);
    const uint64_t step = (testAll() ? 1 : 20) * kStep;
    const uint64_t first = kContextPoints + 1 + (technique.size() % step);
    std::vector<uint64_t> failing;
    for (uint64_t n = 1; n <= kContextPoints; ++n) failing.push_back(n);
    for (uint64_t n = first; n <= points; n += step) failing.push_back(n);
    const auto start = std::chrono::steady_clock::now();
    uint64_t runs = 0;
    for (const uint64_t n : failing) {
        ++runs;
        expectOneLineFailure(test::runThrong(renderArgs(technique, png), "THRONG_FAIL_ALLOCATION=" + std::to_string(n)),
                             png, "out of GPU memory", "fault point " + std::to_string(n));
    }
    const test::CliRun after =
        test::runThrong(renderArgs(technique, png), "THRONG_FAIL_ALLOCATION=" + std::to_string(points + 1));
    EXPECT_EQ(after.exit_code, 0) << after.err; // past the last point: nothing fails
    EXPECT_TRUE(after.err.empty()) << after.err;
    std::printf("throng render --technique %s: %" PRIu64 " fault points; %" PRIu64 " runs with one failing in %.1f s\n",
                technique.c_str(), points, runs, secondsSince(start));
}

// ---- a lost device ---------------------------------------------------------------------------

// Every submit and wait of a render reports a lost device, in turn (and every one after it, as a
// lost device stays lost): one message, nothing left behind, no hang.
TEST_P(Faults, DeviceLostAtEveryLossPointInProcess) {
    const std::string technique = GetParam();
    const BakedAsset asset = walker(technique == "vat");
    gpu::setLoseDeviceAt(0);
    const Outcome clean = renderOnce(asset, technique);
    ASSERT_TRUE(clean.ok) << clean.error;
    const uint64_t points = gpu::lossPoints();
    ASSERT_GT(points, 4u);
    for (uint64_t n = 1; n <= points; n += kStep) {
        gpu::setLoseDeviceAt(n);
        const Outcome r = renderOnce(asset, technique);
        EXPECT_FALSE(r.ok) << "loss point " << n;
        EXPECT_FALSE(r.threw) << "loss point " << n << ": " << r.error;
        EXPECT_EQ(r.error.rfind("the GPU was lost (VK_ERROR_DEVICE_LOST): ", 0), 0u)
            << "loss point " << n << ": " << r.error;
        EXPECT_EQ(r.kind, ErrorKind::DeviceLost) << "loss point " << n << ": " << toString(r.kind);
        EXPECT_EQ(r.validation_errors, 0u) << "loss point " << n << ": " << r.first_validation_error;
    }
    std::printf("%s: %" PRIu64 " device-loss points in a render\n", technique.c_str(), points);
}

INSTANTIATE_TEST_SUITE_P(Techniques, Faults, ::testing::ValuesIn(kTechniques), paramName);

TEST(DeviceLost, ThroughTheCliAtEveryLossPoint) {
    const std::string png = (test::scratchDir("lost") / "crowd.png").string();
    const test::CliRun counted = test::runThrong(renderArgs("baked", png), "THRONG_LOSE_DEVICE_AT=count");
    ASSERT_EQ(counted.exit_code, 0) << counted.err;
    const uint64_t points = countsIn(counted.err).loss;
    ASSERT_GT(points, 4u) << counted.err;
    std::filesystem::remove(png);
    for (uint64_t n = 1; n <= points; n += kStep)
        expectOneLineFailure(test::runThrong(renderArgs("baked", png), "THRONG_LOSE_DEVICE_AT=" + std::to_string(n)),
                             png, "the GPU was lost (VK_ERROR_DEVICE_LOST)", "loss point " + std::to_string(n));
}

// ---- missing features ------------------------------------------------------------------------

// Optional features: the render works without them; required ones: one line naming what is missing.
TEST(MaskedFeatures, EachThroughTheCli) {
    const std::string png = (test::scratchDir("masked") / "crowd.png").string();
    for (const char* optional : {"timestamps", "vertexPipelineStoresAndAtomics", "shaderInt16", "hostQueryReset",
                                 "shaderFloat16", "swapchain", "subgroupCounts"}) {
        std::filesystem::remove(png);
        const test::CliRun r =
            test::runThrong(renderArgs("palette", png), std::string("THRONG_MASK_FEATURES=") + optional);
        EXPECT_EQ(r.exit_code, 0) << optional << ": " << r.err;
        EXPECT_TRUE(r.err.empty()) << optional << ": " << r.err;
        EXPECT_TRUE(std::filesystem::exists(png)) << optional;
        if (std::string(optional) == "timestamps") {
            EXPECT_FALSE(contains(r.out, " ms")) << r.out; // no GPU times to report
        }
    }
    const struct {
        const char* mask;
        const char* says;
    } required[] = {{"vulkan13", "lacks Vulkan 1.3 (has 1.2)"},
                    {"dynamicRendering", "lacks dynamicRendering"},
                    {"synchronization2", "lacks synchronization2"},
                    {"timestamps,dynamicRendering", "lacks dynamicRendering"},
                    {"warp-drive", "THRONG_MASK_FEATURES: unknown feature 'warp-drive' (known: vulkan13, "}};
    for (const auto& r : required) {
        std::filesystem::remove(png);
        expectOneLineFailure(test::runThrong(renderArgs("baked", png), std::string("THRONG_MASK_FEATURES=") + r.mask),
                             png, r.says, r.mask);
    }
}

// The kind a host reacts to (throng/result.h): a device without a feature throng requires is
// Unsupported (the sweeps above: a fault point is OutOfDeviceMemory, a loss DeviceLost); an
// unknown feature name is the caller's mistake.
TEST(MaskedFeatures, ARequiredFeatureMissingIsUnsupported) {
    for (const std::string feature : {"synchronization2", "dynamicRendering", "noSuchFeature"}) {
        gpu::ContextOptions options;
        options.validation = true;
        options.mask_features = {feature};
        Result<std::unique_ptr<gpu::Context>> created = gpu::createContext(options);
        ASSERT_FALSE(created.ok()) << feature;
        EXPECT_EQ(created.error().kind, feature == "noSuchFeature" ? ErrorKind::BadInput : ErrorKind::Unsupported)
            << feature << ": " << created.error().message;
    }
}

TEST(MaskedFeatures, NoTimestampsMeansNoGpuTimesButAnImage) {
    const BakedAsset asset = walker(false);
    render::RenderOutput out;
    const Outcome r = renderOnce(asset, "baked", {"timestamps"}, &out);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.validation_errors, 0u) << r.first_validation_error;
    EXPECT_FALSE(out.gpu_times);
    EXPECT_TRUE(out.passes.empty());
    EXPECT_EQ(out.frames.size(), 2u);
    EXPECT_EQ(out.frames[1].gpu_frame_ms, 0.0);
}

TEST(MaskedFeatures, NoVertexStoresRefusesCaptureOnly) {
    const BakedAsset asset = walker(false);
    const Outcome r = renderOnce(asset, "baked", {"vertexPipelineStoresAndAtomics"}, nullptr, true);
    EXPECT_EQ(r.error, "capture needs vertexPipelineStoresAndAtomics, which this device lacks");
    EXPECT_EQ(r.validation_errors, 0u) << r.first_validation_error;
    EXPECT_TRUE(renderOnce(asset, "baked", {"vertexPipelineStoresAndAtomics"}).ok);
}

// ---- the viewer --------------------------------------------------------------------------------

namespace {

const std::string kSwitches =
    "technique cpu; wait 1; technique palette; wait 1; technique bonetex; wait 1; technique baked; wait 1; "
    "technique vat; wait 1; technique static; wait 1; quit";

std::string viewArgs(const std::string& script) {
    return "view builtin:walker --instances 4 --size 64x64 --validate --frames 40 --exec \"" + script + "\"";
}

// `throng view` in the virtual display (test::runThrongInDisplay: again when xvfb-run failed around it).
test::CliRun runView(const std::string& script, const std::string& environment, const std::string& display) {
    return test::runThrongInDisplay(viewArgs(script), environment + " " + display);
}

size_t countLines(const std::string& text, const std::string& prefix) {
    size_t n = 0;
    for (const std::string& line : linesOf(text)) n += line.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
}

} // namespace

// Out of memory during a technique switch (a vat switch bakes and uploads the asset again): the
// switch is refused with one console line and the viewer goes on with the old crowd, switching
// to the next techniques; during start-up: exit code 1 and one line. Never a crash or a
// validation error. Start-up points every 12th, switch points every 8th, at most about 8 runs
// of each (25 in `make test-all`).
TEST(Viewer, OutOfMemoryDuringTechniqueSwitches) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const test::CliRun startup = runView("quit", "THRONG_FAIL_ALLOCATION=count", display);
    const test::CliRun all = runView(kSwitches, "THRONG_FAIL_ALLOCATION=count", display);
    ASSERT_EQ(all.exit_code, 0) << all.err << all.out;
    const uint64_t first_switch = countsIn(startup.err).allocation + 1, points = countsIn(all.err).allocation;
    ASSERT_GT(points, first_switch + 20) << startup.err << all.err;
    const auto start = std::chrono::steady_clock::now();
    uint64_t runs = 0;
    // Every 12th point of start-up and every 8th of the switches, but at most about 8 runs each
    // (25 under THRONG_TEST_ALL): every run starts the viewer and each switch builds the crowd on
    // the GPU; ViewState's sweep fails every point of a change in process.
    const uint64_t runs_each = testAll() ? 25 : 8;
    const uint64_t startup_step = std::max<uint64_t>(12 * kStep, first_switch / runs_each);
    const uint64_t switch_step = std::max<uint64_t>(8 * kStep, (points - first_switch) / runs_each);
    for (uint64_t n = 1; n <= points; n += (n < first_switch ? startup_step : switch_step), ++runs) {
        const test::CliRun r = runView(kSwitches, "THRONG_FAIL_ALLOCATION=" + std::to_string(n), display);
        const std::string where = "fault point " + std::to_string(n) + "\n" + r.err + r.out;
        EXPECT_EQ(r.exit_code, 1) << where; // failed start-up, or a scripted command that failed
        EXPECT_FALSE(contains(r.err, "validation")) << where;
        if (n < first_switch) {
            const std::vector<std::string> lines = linesOf(r.err);
            ASSERT_EQ(lines.size(), 1u) << where;
            EXPECT_EQ(lines[0].rfind("throng: error: builtin:walker: ", 0), 0u) << where;
            EXPECT_TRUE(contains(lines[0], "out of GPU memory")) << where;
            continue;
        }
        EXPECT_TRUE(r.err.empty()) << where;
        EXPECT_EQ(countLines(r.out, "error: "), 1u) << where;
        EXPECT_EQ(countLines(r.out, "error: out of GPU memory"), 1u) << where;
        EXPECT_TRUE(contains(r.out, "(nothing changed)")) << where;
        EXPECT_EQ(countLines(r.out, "technique: "), 5u) << where; // the other five switches happened
    }
    std::printf("viewer: %" PRIu64 " fault points (%" PRIu64 " at start-up); %" PRIu64
                " runs with one failing in %.1f s\n",
                points, first_switch - 1, runs, secondsSince(start));
}

// A lost device anywhere in the viewer (start-up, a switch, a frame's wait, acquire, submit or
// present): exit code 1 and one line, everything freed. Every point up to 10 (start-up and the
// first switch), then every 20th.
TEST(Viewer, DeviceLostEndsWithOneLine) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const test::CliRun all = runView(kSwitches, "THRONG_LOSE_DEVICE_AT=count", display);
    ASSERT_EQ(all.exit_code, 0) << all.err << all.out;
    const uint64_t points = countsIn(all.err).loss;
    ASSERT_GT(points, 20u) << all.err;
    for (uint64_t n = 1; n <= points; n += (n < 10 ? 1 : 20) * kStep) {
        const test::CliRun r = runView(kSwitches, "THRONG_LOSE_DEVICE_AT=" + std::to_string(n), display);
        const std::vector<std::string> lines = linesOf(r.err);
        EXPECT_EQ(r.exit_code, 1) << "loss point " << n << "\n" << r.err;
        ASSERT_EQ(lines.size(), 1u) << "loss point " << n << "\n" << r.err;
        EXPECT_TRUE(contains(lines[0], "throng: error: builtin:walker: the GPU was lost (VK_ERROR_DEVICE_LOST): "))
            << lines[0];
    }
}

// Without timestamps the viewer runs (no GPU bars in its ruler); without VK_KHR_swapchain it
// cannot, and says so in one line.
TEST(Viewer, MaskedFeatures) {
    REQUIRE_VIRTUAL_DISPLAY(display);
    const test::CliRun no_timestamps =
        runView("technique palette; wait 2; stats; quit", "THRONG_MASK_FEATURES=timestamps", display);
    EXPECT_EQ(no_timestamps.exit_code, 0) << no_timestamps.err << no_timestamps.out;
    EXPECT_TRUE(no_timestamps.err.empty()) << no_timestamps.err;
    EXPECT_TRUE(contains(no_timestamps.out, "stats: palette")) << no_timestamps.out;
    const test::CliRun no_swapchain = runView("quit", "THRONG_MASK_FEATURES=swapchain", display);
    EXPECT_EQ(no_swapchain.exit_code, 1);
    const std::vector<std::string> lines = linesOf(no_swapchain.err);
    ASSERT_EQ(lines.size(), 1u) << no_swapchain.err;
    EXPECT_TRUE(contains(lines[0], "lacks VK_KHR_swapchain")) << lines[0];
}
