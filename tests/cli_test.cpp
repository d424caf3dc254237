// The CLI as a user runs it: `throng info` text and JSON, and the one-line error contract.
#include "gltf_builder.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <stb/stb_image.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace {

using throng::test::CliRun;

CliRun run(const std::string& args) { return throng::test::runThrong(args); }

} // namespace

TEST(Cli, InfoBuiltinWalker) {
    const CliRun r = run("info builtin:walker");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("builtin:walker"), std::string::npos);
    EXPECT_NE(r.out.find("walk"), std::string::npos);
    EXPECT_NE(r.out.find("idle"), std::string::npos);
    EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(Cli, InfoJsonIsOneObjectWithTheFacts) {
    const CliRun r = run("info builtin:walker --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["source"], "builtin:walker");
    EXPECT_GE(j["joints"].get<int>(), 15);
    EXPECT_GE(j["vertices"].get<int>(), 2000);
    EXPECT_EQ(j["clips"].size(), 2u);
    EXPECT_TRUE(j["bounds"]["diagonal"].get<double>() > 0.0);
    EXPECT_TRUE(j["warnings"].is_array());
}

TEST(Cli, InfoSharedModelJson) {
    THRONG_ASSET(path, "Fox/Fox.glb");
    const CliRun r = run("info --json " + path);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["joints"], 24);
    EXPECT_EQ(j["vertices"], 1728);
    ASSERT_EQ(j["clips"].size(), 3u);
    EXPECT_EQ(j["clips"][0]["name"], "Survey");
    EXPECT_NEAR(j["clips"][0]["duration"].get<double>(), 3.417, 1e-3);
    EXPECT_GT(j["clips"][0]["keyframes"].get<int>(), 0);
}

// Kits end to end (issue #25): info lists builtin:kit's parts; a kit file bakes into a .throng
// file that keeps its parts and renders; a bad kit file is one line and exit 1.
TEST(Cli, KitFilesBakeAndRender) {
    const CliRun info = run("info builtin:kit --json");
    ASSERT_EQ(info.exit_code, 0) << info.err;
    const nlohmann::json j = nlohmann::json::parse(info.out);
    ASSERT_EQ(j["parts"].size(), 16u);
    EXPECT_EQ(j["parts"][0]["slot"], "hair");

    const auto dir = throng::test::scratchDir("cli_kit");
    const std::string kit = (dir / "kit.json").string(), baked = (dir / "kit.throng").string(),
                      png = (dir / "kit.png").string(), bad = (dir / "bad.json").string();
    std::ofstream(kit) << R"({"base": "builtin:walker", "parts": [
        {"model": "builtin:hat", "slot": "hat", "share": 0.5, "joint": "head", "offset": [0, 0.2, 0]},
        {"model": "builtin:sword", "share": 0.4, "joint": "hand_r"}]})";
    const CliRun bake = run("bake " + kit + " -o " + baked);
    ASSERT_EQ(bake.exit_code, 0) << bake.err;
    const CliRun back = run("info --json " + baked);
    ASSERT_EQ(back.exit_code, 0) << back.err;
    const nlohmann::json b = nlohmann::json::parse(back.out);
    ASSERT_EQ(b["parts"].size(), 2u);
    EXPECT_EQ(b["parts"][0]["slot"], "hat");
    EXPECT_EQ(b["parts"][1]["share"], 0.4f);
    const CliRun render = run("render " + baked + " --instances 20 --size 96x54 --view street --validate --out " + png);
    ASSERT_EQ(render.exit_code, 0) << render.err;

    std::ofstream(bad) << R"({"base": "builtin:walker", "parts": [{"model": "builtin:hat", "joint": "tail"}]})";
    const CliRun refused = run("render " + bad + " --out " + png);
    EXPECT_EQ(refused.exit_code, 1);
    EXPECT_NE(refused.err.find("no skinning joint 'tail' in the base"), std::string::npos) << refused.err;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
}

TEST(Cli, ErrorIsOneLineAndExitsOne) {
    const auto dir = throng::test::scratchDir("cli_error");
    const std::string empty = (dir / "empty.glb").string();
    std::ofstream(empty).close();
    for (const std::string& source : {empty, (dir / "missing.fbx").string(), std::string("builtin:nope")}) {
        const CliRun r = run("info " + source);
        EXPECT_EQ(r.exit_code, 1) << source;
        EXPECT_EQ(r.err.rfind("throng: error: " + source + ": ", 0), 0u) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_TRUE(r.out.empty());
    }
}

TEST(Cli, AnimateChecksTheFloatPathAgainstTheReference) {
    const CliRun r = run("animate builtin:walker --frames 4");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("walk"), std::string::npos);
    EXPECT_NE(r.out.find("max error"), std::string::npos);
    const CliRun bad = run("animate builtin:walker --clip nope");
    EXPECT_EQ(bad.exit_code, 1);
    EXPECT_NE(bad.err.find("no clip named 'nope'"), std::string::npos);
}

TEST(Cli, UsageErrorsDoNotCrash) {
    EXPECT_NE(run("").exit_code, 0);
    EXPECT_NE(run("info").exit_code, 0);
    EXPECT_NE(run("frobnicate").exit_code, 0);
    EXPECT_EQ(run("--version").exit_code, 0);
}

TEST(Cli, BenchWritesAReportForEveryConfiguration) {
    const auto dir = throng::test::scratchDir("bench");
    const std::string json = (dir / "bench.json").string(), csv = (dir / "bench.csv").string();
    const CliRun r = run("bench --techniques baked,static,palette,palette-ubo --instances 3,5 --frames 2 --warmup 1 "
                         "--size 64x48 --validate --json " +
                         json + " --csv " + csv);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The CSV went to its file: standard output is a table, a line per series under its header.
    EXPECT_EQ(r.out.find("technique,variant"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("frame ms"), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 9) << r.out;
    std::ifstream in(json);
    const nlohmann::json report = nlohmann::json::parse(in);
    EXPECT_FALSE(report["device"].get<std::string>().empty());
    EXPECT_FALSE(report["cpu"].get<std::string>().empty());
    ASSERT_EQ(report["results"].size(), 8u);
    for (const nlohmann::json& result : report["results"]) {
        EXPECT_FALSE(result.contains("error")) << result.dump();
        // Every pass of the frame by name, in order; the crowd is drawn (the default --raster
        // auto) by the `draw` pass (members at LOD 0 with large triangles) and the compute
        // rasterizer's `raster`, `resolve` and `composite` (the rest, and all of palette-ubo, whose
        // own draws take every member: the compute rasterizer culls it).
        ASSERT_FALSE(result["passes"].empty()) << result.dump();
        const std::string last = result["passes"].back()["name"];
        EXPECT_TRUE(last == "draw" || last == "composite") << last;
        EXPECT_EQ(result["raster"], "auto") << result.dump();
        for (const nlohmann::json& pass : result["passes"]) {
            EXPECT_GE(pass["p95"].get<double>(), pass["median"].get<double>());
            EXPECT_EQ(result["gpu_ms"][pass["name"].get<std::string>()]["median"], pass["median"]);
        }
        const bool ubo = result["technique"].get<std::string>().find("palette-ubo") != std::string::npos;
        EXPECT_EQ(result["gpu_ms"].contains("draw"), !ubo) << result.dump();
        EXPECT_GT(result["gpu_ms"][ubo ? "raster" : "draw"]["median"].get<double>(), 0.0);
        EXPECT_GT(result["triangles"].get<uint64_t>(), 0u);
    }
    // palette uploads joints x 48 bytes per instance; baked and static upload nothing per frame.
    EXPECT_EQ(report["results"][2]["upload_bytes_per_frame"].get<uint64_t>(), 3u * 21u * 48u);
    EXPECT_EQ(report["results"][0]["upload_bytes_per_frame"].get<uint64_t>(), 0u);
    std::ifstream csv_in(csv);
    const std::string text((std::istreambuf_iterator<char>(csv_in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 9); // header + 8 rows
    // 15 fields and two per pass name (median, p95) on every line; palette-ubo's variant holds a
    // comma and is quoted.
    size_t pass_names = 0;
    for (const nlohmann::json& result : report["results"]) pass_names = std::max(pass_names, result["passes"].size());
    EXPECT_NE(text.find("gpu_draw_median_ms,gpu_draw_p95_ms"), std::string::npos) << text;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        int fields = 1;
        bool quoted = false;
        for (char c : line) {
            if (c == '"') quoted = !quoted;
            if (c == ',' && !quoted) ++fields;
        }
        EXPECT_EQ(fields, int(15 + 2 * pass_names)) << line;
    }
    EXPECT_NE(text.find("\"palette-ubo, "), std::string::npos) << text;
    EXPECT_NE(r.err.find("bench: [8/8]"), std::string::npos) << "no progress shown";
}

TEST(Cli, BenchComparesVariantsOfATechnique) {
    const auto dir = throng::test::scratchDir("bench_variants");
    const std::string json = (dir / "variants.json").string();
    const CliRun r =
        run("bench --techniques baked,baked@buffer,baked@texel-buffer,palette@quat,bonetex@half,baked@dq --instances 4 "
            "--frames 1 --warmup 0 --size 32x32 --validate --json " +
            json);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(json);
    const nlohmann::json report = nlohmann::json::parse(in);
    ASSERT_EQ(report["results"].size(), 6u);
    const char* labels[] = {"baked", "baked@buffer", "baked@texel-buffer", "palette@quat", "bonetex@half", "baked@dq"};
    const char* variants[] = {"baked",          "baked (buffer)", "baked (texel-buffer)",
                              "palette (quat)", "bonetex (half)", "baked (dual-quaternion)"};
    for (size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(report["results"][i]["technique"], labels[i]);
        EXPECT_EQ(report["results"][i]["variant"], variants[i]);
    }
    EXPECT_EQ(report["results"][3]["upload_bytes_per_frame"].get<uint64_t>(),
              4u * 21u * 32u); // quaternions: 32 B per joint
}

// Usage mistakes: exit 2, one line, before any work.
TEST(Cli, BenchRejectsBadArguments) {
    EXPECT_EQ(run("bench --techniques teleport").exit_code, 2);
    const CliRun variant = run("bench --techniques bonetex@quat");
    EXPECT_EQ(variant.exit_code, 2);
    EXPECT_NE(variant.err.find("unknown variant 'bonetex@quat'"), std::string::npos) << variant.err;
    EXPECT_EQ(run("bench --techniques vat@dq").exit_code, 2);
    EXPECT_EQ(run("render --skinning quadratic").exit_code, 2);
    EXPECT_EQ(run("bench --instances 10,zero").exit_code, 2);
    for (const char* settle : {"-1", "nan", "inf", "61", "soon"}) {
        const CliRun bad = run(std::string("bench --instances 1 --frames 1 --settle ") + settle);
        EXPECT_EQ(bad.exit_code, 2) << settle;
        EXPECT_NE(bad.err.find("--settle"), std::string::npos) << bad.err;
        EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
    }
    const CliRun empty = run("bench --techniques ''");
    EXPECT_EQ(empty.exit_code, 2);
    EXPECT_EQ(empty.err, "throng: error: --techniques: empty list (give NAME[,NAME...] or all)\n");
    const CliRun r = run("render --technique teleport --instances 1");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown technique 'teleport'"), std::string::npos) << r.err;
}

// Crowds too large for the device fail at once with one line, before allocating anything big.
TEST(Cli, AbsurdCrowdsAreAClearError) {
    const CliRun palette =
        run("render --technique palette --instances 1000000 --size 32x32 --frames 1 --validate --out x.png");
    EXPECT_EQ(palette.exit_code, 1);
    EXPECT_NE(palette.err.find("technique palette: 1000000 instances x 21 joints x 48 B"), std::string::npos)
        << palette.err;
    EXPECT_NE(palette.err.find("maxStorageBufferRange"), std::string::npos) << palette.err;
    const CliRun cpu = run("render --technique cpu --instances 1000000 --size 32x32 --frames 1 --validate --out x.png");
    EXPECT_EQ(cpu.exit_code, 1);
    EXPECT_NE(cpu.err.find("of host-visible memory"), std::string::npos) << cpu.err;
    for (const CliRun* r : {&palette, &cpu}) {
        EXPECT_EQ(std::count(r->err.begin(), r->err.end(), '\n'), 1) << r->err;
        EXPECT_EQ(r->err.find("validation"), std::string::npos) << r->err;
    }
}

TEST(Cli, RenderProceduralSwimAmountsAreParameters) {
    const auto dir = throng::test::scratchDir("swim");
    const std::string a = (dir / "calm.png").string(), b = (dir / "wild.png").string();
    const CliRun calm =
        run("render --model builtin:fish --technique procedural --instances 4 --size 96x64 --frames 1 --validate "
            "--swim side=0,pivot=0,wave=0,twist=0 --out " +
            a);
    ASSERT_EQ(calm.exit_code, 0) << calm.err;
    const CliRun wild =
        run("render --model builtin:fish --technique procedural --instances 4 --size 96x64 --frames 1 --validate "
            "--swim side=0.3,pivot=0.5,wave=0.4,twist=0.8 --out " +
            b);
    ASSERT_EQ(wild.exit_code, 0) << wild.err;
    std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
    const std::string pa((std::istreambuf_iterator<char>(fa)), {}), pb((std::istreambuf_iterator<char>(fb)), {});
    EXPECT_FALSE(pa.empty());
    EXPECT_NE(pa, pb) << "the swim amounts changed nothing";
    const CliRun bad = run("render --model builtin:fish --technique procedural --swim fins=2 --out " + a);
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--swim: 'fins=2'"), std::string::npos) << bad.err;
}

// --raster auto is the default: the members at LOD 0 through the hardware, the rest through the
// compute rasterizer (its passes in the report), said in the status line; a device without 64-bit
// buffer atomics draws the same command through the hardware alone without a word; a crowd the
// compute rasterizer cannot read (technique cpu past one storage buffer) through the hardware
// with a warning, where --raster compute is refused.
TEST(Cli, RasterAutoIsTheDefault) {
    const auto dir = throng::test::scratchDir("auto");
    const std::string png = (dir / "auto.png").string();
    const CliRun r = run("render --instances 60 --size 160x90 --frames 1 --validate --out " + png);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("raster auto"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" resolve "), std::string::npos) << "no compute rasterizer passes\n" << r.out;
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
    const CliRun masked =
        throng::test::runThrong("render --instances 60 --size 160x90 --frames 1 --validate --out " + png,
                                "THRONG_MASK_FEATURES=shaderBufferInt64Atomics");
    ASSERT_EQ(masked.exit_code, 0) << masked.err;
    EXPECT_NE(masked.out.find("raster hardware"), std::string::npos) << masked.out;
    EXPECT_EQ(masked.out.find(" resolve "), std::string::npos) << masked.out;
    EXPECT_EQ(masked.err.find("warning"), std::string::npos) << "the default's fallback is quiet\n" << masked.err;
    // lavapipe's storage buffers hold 128 MiB: 1,051 walkers' CPU-skinned vertices are past one.
    const std::string big = "render --technique cpu --instances 1100 --size 64x36 --frames 1 --lod off --out " + png;
    const CliRun noted = run(big);
    ASSERT_EQ(noted.exit_code, 0) << noted.err;
    if (noted.out.find("raster hardware") != std::string::npos) { // where storage buffers are that small
        EXPECT_NE(noted.err.find("throng: warning: --raster auto: technique cpu's skinned vertices span several"),
                  std::string::npos)
            << noted.err;
        const CliRun refused = run(big + " --raster compute");
        EXPECT_EQ(refused.exit_code, 1) << refused.err;
        EXPECT_NE(refused.err.find("several buffers"), std::string::npos) << refused.err;
    }
}

// Motion vectors through the CLI: `render --velocity FILE` writes their picture beside the
// crowd's (coloured where members move, black where nothing does), says its scale, and refuses
// a directory as that file with one line before drawing anything, and the crowd's own file as it
// (a usage error).
TEST(Cli, RenderWritesTheMotionVectorsPicture) {
    const auto dir = throng::test::scratchDir("velocity");
    const std::string png = (dir / "crowd.png").string(), vectors = (dir / "vectors.png").string();
    const CliRun r = run("render --instances 40 --size 160x90 --frames 2 --view street --validate --out " + png +
                         " --velocity " + vectors);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("motion vectors of the last frame in " + vectors), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(" history "), std::string::npos) << "no history pass\n" << r.out;
    int width = 0, height = 0, channels = 0;
    stbi_uc* pixels = stbi_load(vectors.c_str(), &width, &height, &channels, 4);
    ASSERT_NE(pixels, nullptr);
    EXPECT_EQ(width, 160);
    EXPECT_EQ(height, 90);
    size_t moving = 0, still = 0;
    for (size_t i = 0; i < size_t(width) * height * 4; i += 4)
        (pixels[i] | pixels[i + 1] | pixels[i + 2]) ? ++moving : ++still;
    stbi_image_free(pixels);
    EXPECT_GT(moving, 100u) << "the walkers' limbs move between the frames";
    EXPECT_GT(still, 100u) << "the sky does not";
    const CliRun refused =
        run("render --instances 40 --size 160x90 --frames 2 --out " + png + " --velocity " + dir.string());
    EXPECT_EQ(refused.exit_code, 1);
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
    // The same file for both: a usage error before anything is drawn or written.
    std::filesystem::remove(png);
    const CliRun same =
        run("render --instances 40 --size 160x90 --out " + png + " --velocity " + (dir / "." / "crowd.png").string());
    EXPECT_EQ(same.exit_code, 2) << same.err;
    EXPECT_NE(same.err.find("the same file as --out"), std::string::npos) << same.err;
    EXPECT_FALSE(std::filesystem::exists(png));
}

// render --members: the members drawn, the camera and the light as JSON (examples/godot-crowd
// reads it; tests/godot_crowd_test.cpp compares the pictures); refusals before anything is drawn.
TEST(Cli, MembersFileHoldsTheCrowdDrawn) {
    const auto dir = throng::test::scratchDir("members");
    const std::string png = (dir / "crowd.png").string(), json = (dir / "crowd.json").string();
    const CliRun r = run("render --instances 9 --size 96x54 --frames 1 --time 2.5 --camera 4,3,8:0,1,0:35 --out " +
                         png + " --members " + json);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(std::ifstream(json));
    EXPECT_EQ(j["format"], "throng-members");
    EXPECT_EQ(j["version"], 1);
    EXPECT_EQ(j["time"].get<double>(), 2.5);
    EXPECT_EQ(j["size"], nlohmann::json::array({96, 54}));
    EXPECT_EQ(j["camera"]["eye"], nlohmann::json::array({4.0, 3.0, 8.0}));
    EXPECT_EQ(j["camera"]["fov_y_degrees"].get<double>(), 35.0);
    EXPECT_GT(j["camera"]["far"].get<double>(), j["camera"]["near"].get<double>()); // fitted to the crowd
    ASSERT_EQ(j["view_projection"].size(), 16u);
    ASSERT_EQ(j["members"].size(), 9u);
    for (const auto& m : j["members"]) {
        double length = 0.0;
        for (const auto& q : m["rotation"]) length += q.get<double>() * q.get<double>();
        EXPECT_NEAR(length, 1.0, 2e-3) << "a unit quaternion (stored as halves)";
        EXPECT_LT(m["clip"].get<int>(), 2);
        EXPECT_GE(m["speed"].get<double>(), 0.8);
        EXPECT_LE(m["speed"].get<double>(), 1.2);
        EXPECT_EQ(m["position"][1].get<double>(), 0.0) << "walkers stand on the ground";
    }
    // A crowd of two models: each member's clips are its own model's (two each, not the
    // library's 0..3).
    const CliRun mixed = run("render builtin:walker builtin:strider --instances 12 --size 96x54 --frames 1 --out " +
                             png + " --members " + json);
    ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
    const nlohmann::json two = nlohmann::json::parse(std::ifstream(json));
    EXPECT_EQ(two["models"], nlohmann::json::array({"builtin:walker", "builtin:strider"}));
    int striders = 0;
    for (const auto& m : two["members"]) {
        striders += m["model"].get<int>() == 1;
        EXPECT_LT(m["clip"].get<int>(), 2);
        EXPECT_LT(m["blend_clip"].get<int>(), 2);
    }
    EXPECT_GT(striders, 0);
    // Usage mistakes (exit 2, nothing written): the picture's own file, a simulated crowd.
    std::filesystem::remove(png);
    const CliRun same = run("render --instances 9 --size 96x54 --out " + png + " --members " + png);
    EXPECT_EQ(same.exit_code, 2) << same.err;
    EXPECT_NE(same.err.find("--members " + png + ": the same file as --out"), std::string::npos) << same.err;
    const CliRun simulated = run("render --instances 9 --size 96x54 --simulate --out " + png + " --members " + json);
    EXPECT_EQ(simulated.exit_code, 2) << simulated.err;
    EXPECT_FALSE(std::filesystem::exists(png));
    // A folder where the file should go: one line, exit 1, before anything is drawn.
    const CliRun folder = run("render --instances 9 --size 96x54 --out " + png + " --members " + dir.string());
    EXPECT_EQ(folder.exit_code, 1);
    EXPECT_EQ(std::count(folder.err.begin(), folder.err.end(), '\n'), 1) << folder.err;
    EXPECT_FALSE(std::filesystem::exists(png));
}

// --aa and --ground on the command line: render draws the TAA pass after the crowd's and the
// ground under it by default, leaves the ground out with --ground off; bench times the `taa`
// pass of every series with --aa taa.
TEST(Cli, AntiAliasingAndTheGround) {
    const auto dir = throng::test::scratchDir("taa");
    const std::string png = (dir / "crowd.png").string(), json = (dir / "bench.json").string();
    const CliRun taa = run("render --instances 40 --size 160x90 --frames 2 --aa taa --validate --out " + png);
    ASSERT_EQ(taa.exit_code, 0) << taa.err;
    EXPECT_NE(taa.out.find(", taa "), std::string::npos) << "no taa pass\n" << taa.out;
    EXPECT_NE(taa.out.find(" ground "), std::string::npos) << "no ground by default\n" << taa.out;
    const CliRun bare = run("render --instances 40 --size 160x90 --frames 2 --ground off --validate --out " + png);
    ASSERT_EQ(bare.exit_code, 0) << bare.err;
    EXPECT_EQ(bare.out.find(" ground "), std::string::npos) << bare.out;
    EXPECT_EQ(bare.out.find(", taa "), std::string::npos) << bare.out;
    const CliRun bench = run("bench --techniques baked,static --instances 30 --frames 2 --warmup 1 --size 160x90 "
                             "--aa taa --validate --json " +
                             json);
    ASSERT_EQ(bench.exit_code, 0) << bench.err;
    std::ifstream in(json);
    const nlohmann::json report = nlohmann::json::parse(in);
    ASSERT_EQ(report["results"].size(), 2u);
    for (const nlohmann::json& result : report["results"]) {
        ASSERT_FALSE(result.contains("error")) << result.dump();
        std::vector<std::string> names;
        for (const nlohmann::json& p : result["passes"]) names.push_back(p["name"]);
        ASSERT_FALSE(names.empty());
        EXPECT_EQ(names.back(), "taa") << result.dump();
        EXPECT_NE(std::find(names.begin(), names.end(), "ground"), names.end()) << result.dump();
    }
    const CliRun wrong = run("render --instances 4 --size 160x90 --aa msaa --out " + png);
    EXPECT_EQ(wrong.exit_code, 2) << wrong.err;
}

// The GPU-driven crowd through the CLI: a simulated, culled street view with its passes named in
// the report, the members in view and per LOD, and a simulated crowd refused by the techniques
// that sample poses on the CPU.
TEST(Cli, BenchReportsSimulatedCulledStreetView) {
    const auto dir = throng::test::scratchDir("bench");
    const std::string json = (dir / "bench.json").string();
    const CliRun r = run("bench --techniques baked,procedural --instances 40 --frames 3 --warmup 1 --size 160x90 "
                         "--view street --simulate --raster hardware "
                         "--validate --json " +
                         json);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(json);
    const nlohmann::json report = nlohmann::json::parse(in);
    EXPECT_EQ(report["view"], "street");
    EXPECT_EQ(report["simulate"], true);
    for (const nlohmann::json& result : report["results"]) {
        ASSERT_FALSE(result.contains("error")) << result.dump();
        std::vector<std::string> names;
        for (const nlohmann::json& p : result["passes"]) names.push_back(p["name"]);
        ASSERT_GE(names.size(), 2u) << result.dump();
        // The targets' clear by compute (render/target_clear.h), then the simulation.
        EXPECT_EQ(names[0], "clear");
        EXPECT_EQ(names[1], "simulate");
        // Occlusion culling (through the hardware rasterizer): cull (early), draw, pyramid,
        // cull-late, draw-late.
        const std::vector<std::string> tail = {"cull", "draw", "pyramid", "cull-late", "draw-late"};
        ASSERT_GE(names.size(), tail.size() + 1) << result.dump();
        EXPECT_TRUE(std::equal(tail.begin(), tail.end(), names.end() - long(tail.size()))) << result.dump();
        const nlohmann::json& visible = result["visible"];
        EXPECT_EQ(visible["members"], 40);
        uint64_t drawn = 0;
        for (const nlohmann::json& n : visible["per_lod"]) drawn += n.get<uint64_t>();
        EXPECT_EQ(drawn + visible["occluded"].get<uint64_t>(), visible["in_frustum"].get<uint64_t>());
        EXPECT_LE(result["triangles"].get<uint64_t>(), result["submitted_triangles"].get<uint64_t>());
    }
}

// The compute rasterizer through the CLI: its passes and rate in the report (pose's own pass
// before them, and the vertex cache of those it skins: baked, pose, palette, bonetex); a device
// without 64-bit buffer atomics refused with one line.
TEST(Cli, BenchReportsTheComputeRasterizer) {
    const auto dir = throng::test::scratchDir("bench");
    const std::string json = (dir / "bench.json").string();
    const CliRun r =
        run("bench --techniques baked,static,pose,palette,bonetex --instances 30 --frames 2 --warmup 1 --size 160x90 "
            "--raster compute --validate --json " +
            json);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(json);
    const nlohmann::json report = nlohmann::json::parse(in);
    EXPECT_EQ(report["raster"], "compute");
    for (const nlohmann::json& result : report["results"]) {
        ASSERT_FALSE(result.contains("error")) << result.dump();
        std::vector<std::string> names;
        for (const nlohmann::json& p : result["passes"]) names.push_back(p["name"]);
        ASSERT_GE(names.size(), 2u) << result.dump();
        // Occlusion culling's late phase (on by default) between the early raster and the resolve,
        // which shades in compute; the composite writes its pixels into the targets.
        EXPECT_NE(std::find(names.begin(), names.end(), "raster"), names.end());
        EXPECT_EQ(names[names.size() - 3], "raster-late");
        EXPECT_EQ(names[names.size() - 2], "resolve");
        EXPECT_EQ(names.back(), "composite");
        EXPECT_GT(result["raster_triangles_per_second"].get<double>(), 0.0);
        const std::string technique = result["technique"];
        EXPECT_EQ(result.contains("vertex_cache"), technique != "static") << result.dump();
        if (technique == "pose") {
            EXPECT_LT(std::find(names.begin(), names.end(), "pose"), std::find(names.begin(), names.end(), "cache"));
        }
    }
    EXPECT_EQ(report["results"].size(), 5u);
    // Without 64-bit buffer atomics: refused with one line.
    const CliRun refused = throng::test::runThrong("render --technique bonetex --raster compute --out x.png",
                                                   "THRONG_MASK_FEATURES=shaderBufferInt64Atomics");
    EXPECT_EQ(refused.exit_code, 1) << refused.err;
    EXPECT_NE(refused.err.find("--raster compute"), std::string::npos) << refused.err;
    EXPECT_NE(refused.err.find("64-bit buffer atomics"), std::string::npos) << refused.err;
    EXPECT_EQ(run("render --raster sideways --out x.png").exit_code, 2);
    EXPECT_EQ(run("render --hardware-triangles -1 --out x.png").exit_code, 2);
    EXPECT_EQ(run("render --hardware-triangles nan --out x.png").exit_code, 2);
}

TEST(Cli, SimulationNeedsATechniqueThatReadsMembersOnTheGpu) {
    for (const char* technique : {"cpu", "palette", "palette-ubo", "bonetex"}) {
        const CliRun r = run(std::string("render --technique ") + technique + " --simulate --out x.png");
        EXPECT_EQ(r.exit_code, 2) << technique << ": " << r.err;
        EXPECT_NE(r.err.find("--simulate"), std::string::npos) << r.err;
    }
    EXPECT_EQ(run("bench --techniques baked,cpu --simulate").exit_code, 2);
    EXPECT_EQ(run("render --lod-error -1 --out x.png").exit_code, 2);
    EXPECT_EQ(run("render --view sideways --out x.png").exit_code, 2);
    EXPECT_EQ(run("render --cull maybe --out x.png").exit_code, 2);
}

// One convention (issue #12, part 4): the model first and positional in every subcommand
// (--model an alias, not both), -o/--out for the output everywhere, defaults in --help, an
// unknown subcommand named as such, a model's own technique by default, files by content.
TEST(Cli, OneConventionForEverySubcommand) {
    const auto dir = throng::test::scratchDir("cli_convention");
    const std::string png = (dir / "fish.png").string(), baked = (dir / "walker.throng").string();
    const CliRun fish = run("render builtin:fish --instances 8 --size 64x36 --frames 1 -o " + png);
    ASSERT_EQ(fish.exit_code, 0) << fish.err;
    EXPECT_NE(fish.out.find("(procedural,"), std::string::npos) << "builtin:fish swims by default: " << fish.out;
    EXPECT_TRUE(std::filesystem::exists(png));
    const CliRun both = run("render builtin:fish --model builtin:walker --out " + png);
    EXPECT_EQ(both.exit_code, 2) << both.err;
    EXPECT_NE(both.err.find("excludes"), std::string::npos) << both.err;

    ASSERT_EQ(run("bake builtin:walker --lods 1 --out " + baked).exit_code, 0);
    const std::string renamed = (dir / "walker.bin").string();
    std::filesystem::copy_file(baked, renamed, std::filesystem::copy_options::overwrite_existing);
    const CliRun info = run("info " + renamed + " --json"); // a .throng file by its content
    ASSERT_EQ(info.exit_code, 0) << info.err;
    const nlohmann::json j = nlohmann::json::parse(info.out);
    EXPECT_EQ(j["format"], "throng");
    EXPECT_EQ(j["joints"], 21);
    EXPECT_EQ(j["clips"].size(), 2u);
    const CliRun animated = run("animate " + renamed + " --frames 2"); // its source animation on the CPU
    ASSERT_EQ(animated.exit_code, 0) << animated.err;
    EXPECT_NE(animated.out.find("walk"), std::string::npos) << animated.out;
    EXPECT_NE(animated.out.find("max error"), std::string::npos) << animated.out;
    const CliRun walker = run("render " + renamed + " --instances 4 --size 64x36 --frames 1 -o " + png);
    ASSERT_EQ(walker.exit_code, 0) << walker.err;
    EXPECT_NE(walker.out.find("(baked,"), std::string::npos) << walker.out;

    const CliRun unknown = run("frobnicate builtin:walker");
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("unknown subcommand 'frobnicate'"), std::string::npos) << unknown.err;
    EXPECT_EQ(std::count(unknown.err.begin(), unknown.err.end(), '\n'), 1) << unknown.err;
    const CliRun help = run("render --help");
    ASSERT_EQ(help.exit_code, 0);
    EXPECT_NE(help.out.find("=1280x720"), std::string::npos) << "defaults shown: " << help.out;
    EXPECT_NE(help.out.find("-o,--out"), std::string::npos) << help.out;
    const CliRun version = run("--version");
    EXPECT_EQ(version.out.back(), '\n');
}

// A texture a model names but that is not beside it: the same words from info, bake and render.
TEST(Cli, MissingTextureIsWordedTheSameEverywhere) {
    const auto dir = throng::test::scratchDir("cli_texture");
    std::ofstream(dir / "quad.mtl") << "newmtl gone\nKd 1 1 1\nmap_Kd missing.png\n";
    std::ofstream(dir / "quad.obj") << "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nvn 0 0 1\nvt 0 0\n"
                                       "usemtl gone\nf 1/1/1 2/1/1 3/1/1\n";
    const std::string obj = (dir / "quad.obj").string();
    const std::string words = "texture 'missing.png': image file 'missing.png' not found next to the model; drawn "
                              "without it (its base colour shows)";
    const CliRun info = run("info " + obj);
    EXPECT_NE(info.out.find(words), std::string::npos) << info.out;
    const CliRun bake = run("bake " + obj + " -o " + (dir / "quad.throng").string());
    EXPECT_NE(bake.err.find(words), std::string::npos) << bake.err;
    const CliRun render =
        run("render " + obj + " --instances 2 --size 32x32 --frames 1 -o " + (dir / "q.png").string());
    EXPECT_EQ(render.exit_code, 0) << render.err;
    EXPECT_NE(render.err.find(words), std::string::npos) << render.err;
    EXPECT_EQ(render.err.find("could not be decoded"), std::string::npos) << render.err;
}

// A crowd of several models through `render`: MODEL@SHARE% each, the summary naming them with
// their shares, the picture written; bad shares and what cannot draw such a crowd are one line.
TEST(Cli, RenderDrawsSeveralModelsAsOneCrowd) {
    const auto dir = throng::test::scratchDir("mixed");
    const std::string png = (dir / "mixed.png").string();
    const CliRun r = run("render builtin:walker@60% builtin:fish builtin:strider --instances 40 --size 160x90 "
                         "--frames 2 --validate --out " +
                         png);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("builtin:walker 60% + builtin:fish 20% + builtin:strider 20% x 40"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("raster auto"), std::string::npos) << r.out; // the compute rasterizer takes it
    EXPECT_TRUE(std::filesystem::file_size(png) > 1000);
    struct Bad {
        const char* args;
        const char* message;
    };
    const Bad bad[] = {
        {"builtin:walker@0% builtin:fish", "'builtin:walker@0%': a model's share is a percentage above 0"},
        {"builtin:walker@70% builtin:fish@40%", "the models' shares take 110%, more than all"},
        {"builtin:walker@100% builtin:fish",
         "the models' shares take 100%, leaving nothing for the models without one"},
        {"@50% builtin:fish", "'@50%': no model before the share"},
        {"builtin:walker builtin:fish --model-size -1", "--model-size: -1 is out of range (0 .. 1e+06)"},
    };
    for (const Bad& b : bad) {
        const CliRun refused = run(std::string("render ") + b.args + " --out " + png);
        EXPECT_EQ(refused.exit_code, 2) << b.args;
        EXPECT_NE(refused.err.find(b.message), std::string::npos) << refused.err;
        EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
    }
    const CliRun simulated = run("render builtin:walker builtin:strider --simulate --instances 30 --size 96x54 "
                                 "--frames 2 --time 2 --validate --out " +
                                 png);
    ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
    EXPECT_NE(simulated.out.find("simulated"), std::string::npos) << simulated.out;
    const CliRun sized = run("render builtin:walker builtin:strider --model-size 3 --simulate --instances 30 "
                             "--size 96x54 --frames 2 --time 2 --validate --out " +
                             png);
    ASSERT_EQ(sized.exit_code, 0) << sized.err;
    EXPECT_NE(sized.out.find("simulated"), std::string::npos) << sized.out;
    const CliRun pose = run("render builtin:walker builtin:strider --technique pose --out " + png);
    EXPECT_EQ(pose.exit_code, 1);
    EXPECT_NE(pose.err.find("throng: error: builtin:walker + builtin:strider: technique pose poses members from one "
                            "model's keys on the GPU"),
              std::string::npos)
        << pose.err;
}

// `info` on the models of a crowd: each in turn; JSON as an array of their objects.
TEST(Cli, InfoDescribesEveryModelGiven) {
    const CliRun text = run("info builtin:walker builtin:fish");
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("builtin:walker"), std::string::npos);
    EXPECT_NE(text.out.find("builtin:fish"), std::string::npos);
    const CliRun json = run("info builtin:walker builtin:fish --json");
    ASSERT_EQ(json.exit_code, 0) << json.err;
    const nlohmann::json j = nlohmann::json::parse(json.out);
    ASSERT_TRUE(j.is_array());
    ASSERT_EQ(j.size(), 2u);
    EXPECT_EQ(j[1]["source"], "builtin:fish");
    const CliRun missing = run("info builtin:walker no-such-file.glb");
    EXPECT_EQ(missing.exit_code, 1);
    EXPECT_NE(missing.err.find("throng: error: no-such-file.glb: "), std::string::npos) << missing.err;
}

// `bench` of a crowd of several models: each model with its share and what its data take on the
// GPU in the report, and what a member costs in each result.
TEST(Cli, BenchReportsEachModelOfACrowd) {
    const auto dir = throng::test::scratchDir("bench-models");
    const std::string json = (dir / "bench.json").string();
    const CliRun r = run("bench builtin:walker@75% builtin:fish --techniques baked --instances 8 --frames 2 "
                         "--warmup 1 --size 64x48 --validate --json " +
                         json);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("bench: builtin:walker + builtin:fish on "), std::string::npos) << r.err;
    std::ifstream in(json);
    const nlohmann::json report = nlohmann::json::parse(in);
    ASSERT_EQ(report["models"].size(), 2u);
    EXPECT_EQ(report["models"][0]["model"], "builtin:walker");
    EXPECT_DOUBLE_EQ(report["models"][0]["share"].get<double>(), 0.75);
    EXPECT_DOUBLE_EQ(report["models"][1]["share"].get<double>(), 0.25);
    // The walker's vertices alone take 5,321 x 60 bytes.
    EXPECT_GT(report["models"][0]["asset_bytes"].get<uint64_t>(), 5321u * 60u);
    EXPECT_LT(report["models"][1]["asset_bytes"], report["models"][0]["asset_bytes"]);
    ASSERT_EQ(report["results"].size(), 1u);
    const nlohmann::json& result = report["results"][0];
    EXPECT_FALSE(result.contains("error")) << result.dump();
    EXPECT_EQ(result["raster"], "auto") << "the compute rasterizer draws several models";
    EXPECT_DOUBLE_EQ(result["gpu_memory_bytes_per_member"].get<double>(),
                     result["gpu_memory_bytes"].get<double>() / 8.0);
}

// The README's usage block ("## Using throng") against each subcommand's --help: the same long
// options, so neither can drift from the other (an alias, whose help reads "The same as ...",
// may be left out of the README).
TEST(Cli, ReadmeUsageNamesEveryOptionOfHelp) {
    // "--name" at `at` in `text`: the dashes, then letters, digits and dashes.
    auto longOptionAt = [](const std::string& text, size_t at) {
        size_t end = at + 2;
        while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-')) ++end;
        return text.substr(at, end - at);
    };
    std::ifstream readme(std::string(THRONG_SOURCE_DIR) + "/README.md");
    ASSERT_TRUE(readme) << "README.md not found under " << THRONG_SOURCE_DIR;
    std::map<std::string, std::set<std::string>> documented; // subcommand -> options
    std::string line, current;
    bool in_usage = false, in_block = false;
    while (std::getline(readme, line)) {
        if (line.rfind("## ", 0) == 0) in_usage = line == "## Using throng";
        if (!in_usage) continue;
        if (line.rfind("```", 0) == 0) {
            if (in_block) break;
            in_block = true;
            continue;
        }
        if (!in_block) continue;
        std::istringstream words(line);
        std::string first, second;
        words >> first >> second;
        if (first == "throng") current = second;
        for (size_t at = line.find("--"); at != std::string::npos; at = line.find("--", at + 2))
            if (const std::string name = longOptionAt(line, at); name.size() > 2) documented[current].insert(name);
        for (size_t at = 1; at + 1 < line.size(); ++at) // a short option, "-o", after a space or "["
            if (line[at] == '-' && (line[at - 1] == ' ' || line[at - 1] == '[') &&
                std::isalpha(static_cast<unsigned char>(line[at + 1])) &&
                (at + 2 == line.size() || !std::isalnum(static_cast<unsigned char>(line[at + 2]))))
                documented[current].insert(line.substr(at, 2));
    }
    ASSERT_GE(documented.size(), 6u) << "no usage block under \"## Using throng\"";
    for (const auto& [subcommand, options] : documented) {
        const CliRun help = run(subcommand + " --help");
        ASSERT_EQ(help.exit_code, 0) << subcommand << ": " << help.err;
        std::vector<std::string> lines;
        std::istringstream text(help.out);
        while (std::getline(text, line)) lines.push_back(line);
        // "  -o,--out TEXT=...", "  --instances UINT:N=...": an option's first line; its help
        // follows on the same line or the next.
        auto optionAt = [&](size_t i) {
            const size_t start = lines[i].find_first_not_of(' ');
            return start != std::string::npos && start <= 2 && lines[i][start] == '-' &&
                   lines[i].find("--", start) != std::string::npos;
        };
        std::set<std::string> offered;
        std::map<std::string, std::string> shorts; // "--out" -> "-o"
        for (size_t i = 0; i < lines.size(); ++i) {
            if (!optionAt(i)) continue;
            const std::string name = longOptionAt(lines[i], lines[i].find("--"));
            // "-o,--out": the README may name either.
            const size_t start = lines[i].find_first_not_of(' ');
            const std::string short_name =
                lines[i].compare(start + 2, 1, ",") == 0 && lines[i][start + 1] != '-' ? lines[i].substr(start, 2) : "";
            const bool alias =
                lines[i].find("The same as") != std::string::npos ||
                (i + 1 < lines.size() && !optionAt(i + 1) && lines[i + 1].find("The same as") != std::string::npos);
            if (name == "--help" || alias) continue;
            offered.insert(name);
            if (!short_name.empty()) shorts[name] = short_name;
        }
        std::set<std::string> offered_shorts;
        for (const auto& [name, short_name] : shorts) offered_shorts.insert(short_name);
        for (const std::string& o : offered)
            EXPECT_TRUE(options.count(o) || (shorts.count(o) && options.count(shorts[o])))
                << "README's usage of throng " << subcommand << " lacks " << o;
        for (const std::string& o : options)
            EXPECT_TRUE(offered.count(o) || offered_shorts.count(o))
                << "README's usage of throng " << subcommand << " names " << o << ", which --help does not offer";
    }
}

// `--camera EYE:TARGET[:FOV]` (throng/camera.h) in render and bench: a camera looking at the crowd
// sees it, one looking away sees only the background (the ground off); bench reports it; a bad
// camera is a usage mistake, one line.
TEST(Cli, CameraOfTheUsersChoosing) {
    const auto dir = throng::test::scratchDir("camera");
    const std::string png = (dir / "crowd.png").string(), json = (dir / "bench.json").string();
    auto crowdPixels = [&](const std::string& camera, std::string& out) {
        const CliRun r = run("render --instances 40 --size 160x90 --frames 1 --ground off --validate --camera " +
                             camera + " --out " + png);
        out = r.out + r.err;
        if (r.exit_code != 0) return -1;
        int w = 0, h = 0, n = 0;
        unsigned char* pixels = stbi_load(png.c_str(), &w, &h, &n, 4);
        if (pixels == nullptr) return -1;
        int covered = 0; // pixels not the background's clear colour (173, 196, 218)
        for (int i = 0; i < w * h; ++i)
            if (std::abs(pixels[4 * i] - 173) > 2 || std::abs(pixels[4 * i + 1] - 196) > 2 ||
                std::abs(pixels[4 * i + 2] - 218) > 2)
                ++covered;
        stbi_image_free(pixels);
        return covered;
    };
    std::string out;
    const int toward = crowdPixels("0,6,12:0,0.5,0:45", out);
    ASSERT_GE(toward, 0) << out;
    EXPECT_NE(out.find("camera 0,6,12:0,0.5,0:45"), std::string::npos) << out;
    EXPECT_GT(toward, 200) << "the crowd is not in the picture\n" << out;
    const int away = crowdPixels("0,1,60:0,1,200", out);
    ASSERT_GE(away, 0) << out;
    EXPECT_EQ(away, 0) << "looking away, the crowd is in the picture\n" << out;
    const CliRun bench = run("bench --techniques baked --instances 30 --frames 2 --warmup 1 --size 160x90 --camera "
                             "0,25,40:0,0,0 --validate --json " +
                             json);
    ASSERT_EQ(bench.exit_code, 0) << bench.err;
    std::ifstream in(json);
    const nlohmann::json report = nlohmann::json::parse(in);
    EXPECT_EQ(report["view"], "camera");
    EXPECT_EQ(report["camera"], "0,25,40:0,0,0");
    for (const char* bad : {"1,2,3", "0,0,0:0,0,0", "0,5,0:0,0,0", "1,2,3:4,5,6:200"}) {
        const CliRun r = run(std::string("render --instances 4 --size 64x64 --camera ") + bad + " --out " + png);
        EXPECT_EQ(r.exit_code, 2) << bad << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
}
