// The hostile-input corpus: files and command lines made here, by code, each run through
// `throng info`, `throng bake` and `throng render`. Each must give one `throng: error:` line and
// exit 1 (2 for a usage mistake) — or load, where the file is legal — within 10 s and 2 GB, and
// leave every file that existed before untouched (the input and the outputs it would replace).
#include "gltf_builder.h"
#include "test_util.h"

#include <throng/format.h>

#include <gtest/gtest.h>
#include <zstd.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

namespace fs = std::filesystem;
using namespace throng;
using test::CliRun;
using test::GltfBuilder;
using test::kFloat;
using test::kUShort;

namespace {

using Bytes = std::vector<uint8_t>;

// What a case may do: fail with one line (the usual), load (a legal file), or either (a legal
// file that may exceed a device limit; it must still say so in one line).
enum class Expect { Error, Loads, Either };

struct Case {
    std::string name;
    fs::path input;
    Expect expect = Expect::Error;
    std::string words; // a fragment the error line must contain (empty: any)
};

Bytes slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const fs::path& path, const Bytes& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

void spit(const fs::path& path, const std::string& text) { spit(path, Bytes(text.begin(), text.end())); }

template <class T> void put(Bytes& b, size_t at, T v) { std::memcpy(b.data() + at, &v, sizeof v); }
template <class T> T get(const Bytes& b, size_t at) {
    T v;
    std::memcpy(&v, b.data() + at, sizeof v);
    return v;
}

// Recomputes the header checksum of a .throng after its table was edited (docs/FORMAT.md).
void resealHeader(Bytes& f) {
    const uint32_t n = get<uint32_t>(f, 12);
    put<uint64_t>(f, 24, throngChecksum(f.data() + 48, 40 * size_t(n), throngChecksum(f.data(), 24)));
}

// Largest resident set of any finished child so far, in bytes.
uint64_t childrenPeakRss() {
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return uint64_t(usage.ru_maxrss) * 1024;
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = std::min(text.find('\n', start), text.size());
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

// These bounds catch hangs and runaway work, not speed (tests assert no timings): 10 s is what
// a release build promises on an idle machine, and CI machines are shared and loaded, so the
// release bound is 30 s; the ASan + UBSan Debug build runs about ten times slower (19 s for the
// 100,000-deep chain alone, 64 s on a loaded 2-core machine), so there it is 300 s.
constexpr double kSecondsLimit = test::kAddressSanitizer ? 300.0 : 30.0;

// One run: the exit code and stderr must match the case; time and memory stay bounded.
void check(const std::string& label, const CliRun& r, double seconds, Expect expect, const std::string& words) {
    SCOPED_TRACE(label);
    EXPECT_LT(seconds, kSecondsLimit) << "took " << seconds << " s";
    EXPECT_LT(childrenPeakRss(), uint64_t(2) << 30) << "a run needed more than 2 GB";
    std::vector<std::string> errors, others;
    for (const std::string& l : lines(r.err)) {
        if (l.rfind("throng: error: ", 0) == 0)
            errors.push_back(l);
        else if (l.rfind("throng: warning: ", 0) != 0 && l.rfind("bake: ", 0) != 0 && l.rfind("render: ", 0) != 0)
            others.push_back(l); // progress is fine
    }
    EXPECT_TRUE(others.empty()) << "unexpected stderr: " << r.err;
    if (r.exit_code == 0) {
        EXPECT_NE(expect, Expect::Error) << "loaded, expected an error; stdout: " << r.out;
        EXPECT_TRUE(errors.empty()) << r.err;
        return;
    }
    EXPECT_NE(expect, Expect::Loads) << "failed, expected to load: " << r.err;
    EXPECT_EQ(r.exit_code, 1) << r.err;
    ASSERT_EQ(errors.size(), 1u) << r.err;
    if (!words.empty()) {
        EXPECT_NE(errors[0].find(words), std::string::npos) << errors[0];
    }
}

class Hostile : public ::testing::Test {
  protected:
    void SetUp() override { dir_ = test::scratchDir("corpus"); }

    fs::path file(const std::string& name) const { return dir_ / name; }

    // info, bake and render of the case; the outputs exist beforehand and must survive failures.
    void runCase(const Case& c) {
        SCOPED_TRACE(c.name);
        const fs::path out_throng = dir_ / "out" / "previous.throng", out_png = dir_ / "out" / "previous.png";
        fs::create_directories(dir_ / "out");
        const Bytes previous = {'k', 'e', 'e', 'p'};
        spit(out_throng, previous);
        spit(out_png, previous);
        std::error_code ec;
        const bool regular = fs::is_regular_file(c.input, ec);
        const Bytes input_before = regular ? slurp(c.input) : Bytes{};
        const std::string in = "'" + c.input.string() + "'";
        const std::string commands[] = {"info " + in, "bake " + in + " -o " + out_throng.string(),
                                        "render --model " + in + " --instances 2 --size 32x32 --frames 1 --out " +
                                            out_png.string()};
        // bake reads models, not baked files: a .throng is refused there with one line (its
        // damage, if any, is what info and render report).
        const bool baked = c.input.extension() == ".throng";
        for (const std::string& command : commands) {
            const bool reads_models = command.rfind("bake", 0) == 0;
            const auto start = std::chrono::steady_clock::now();
            const CliRun r = test::runThrong(command);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            check(c.name + ": throng " + command.substr(0, command.find(' ')), r, seconds,
                  baked && reads_models ? Expect::Error : c.expect, baked && reads_models ? "" : c.words);
            if (r.exit_code != 0) {
                EXPECT_EQ(slurp(out_throng), previous) << command;
                EXPECT_EQ(slurp(out_png), previous) << command;
            }
            spit(out_throng, previous);
            spit(out_png, previous);
        }
        if (regular) {
            EXPECT_EQ(slurp(c.input), input_before) << "the input was changed";
        }
        for (const auto& e : fs::directory_iterator(dir_ / "out"))
            EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << "temporary left: " << e.path();
    }

    fs::path dir_;
};

// A good glTF rig (tests/gltf_builder.h) with `edit` applied to its JSON, written as .gltf.
fs::path rig(const fs::path& path, const std::function<void(GltfBuilder&)>& edit, bool glb = false) {
    GltfBuilder b = test::makeRig();
    edit(b);
    if (glb)
        b.writeGlb(path.string());
    else
        b.writeGltf(path.string());
    return path;
}

// The rig's JSON with the buffer written as given (so edits to "buffers" survive).
void writeRaw(const fs::path& path, GltfBuilder& b) { std::ofstream(path) << b.json.dump(); }

} // namespace

// --- Empty, tiny and damaged files ---------------------------------------------------------

TEST_F(Hostile, EmptyAndOneByteFiles) {
    for (const char* ext : {".glb", ".gltf", ".throng", ".dae", ".fbx"}) {
        spit(file(std::string("empty") + ext), Bytes{});
        runCase({std::string("empty") + ext, file(std::string("empty") + ext), Expect::Error, "empty"});
        spit(file(std::string("one") + ext), Bytes{'{'});
        runCase({std::string("one byte") + ext, file(std::string("one") + ext)});
    }
}

TEST_F(Hostile, TruncatedAndBitFlippedThrongFiles) {
    const fs::path good = file("good.throng");
    const CliRun made = test::runThrong("bake builtin:fish -o " + good.string());
    ASSERT_EQ(made.exit_code, 0) << made.err;
    const Bytes bytes = slurp(good);
    ASSERT_GT(bytes.size(), 1000u);
    runCase({"the good file itself", good, Expect::Loads});
    const size_t n = bytes.size();
    for (size_t cut : {size_t(1), size_t(7), size_t(24), size_t(47), size_t(48 + 40), n / 3, n / 2, n - 1}) {
        const fs::path p = file("cut" + std::to_string(cut) + ".throng");
        spit(p, Bytes(bytes.begin(), bytes.begin() + ptrdiff_t(cut)));
        runCase({"truncated at " + std::to_string(cut), p, Expect::Error, "truncated"});
    }
    for (size_t at : {size_t(0), size_t(9), size_t(13), size_t(17), size_t(30), size_t(60), n / 4, n / 2, n - 2}) {
        Bytes flipped = bytes;
        flipped[at] ^= 0x10;
        const fs::path p = file("flip" + std::to_string(at) + ".throng");
        spit(p, flipped);
        runCase({"bit flipped at " + std::to_string(at), p});
    }
}

// A compressed section that would inflate to 1 GiB from a few KB, with honest checksums and a
// frame that states its size: refused before inflating, by the ratio.
TEST_F(Hostile, ThrongSectionInflatingPastWhatTheHeaderJustifies) {
    const fs::path good = file("good.throng");
    ASSERT_EQ(test::runThrong("bake builtin:fish -o " + good.string()).exit_code, 0);
    Bytes f = slurp(good);
    // 1 GiB of zeros as one zstd frame, compressed in pieces (never held whole).
    const uint64_t raw = uint64_t(1) << 30;
    std::unique_ptr<ZSTD_CCtx, size_t (*)(ZSTD_CCtx*)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
    ZSTD_CCtx_setPledgedSrcSize(cctx.get(), raw);
    const Bytes zeros(1 << 20, 0);
    Bytes frame(1 << 20);
    size_t produced = 0;
    for (uint64_t done = 0; done < raw; done += zeros.size()) {
        ZSTD_inBuffer in{zeros.data(), zeros.size(), 0};
        const ZSTD_EndDirective mode = done + zeros.size() >= raw ? ZSTD_e_end : ZSTD_e_continue;
        size_t left = 0;
        do {
            if (frame.size() - produced < (1 << 16)) frame.resize(frame.size() * 2);
            ZSTD_outBuffer out{frame.data(), frame.size(), produced};
            left = ZSTD_compressStream2(cctx.get(), &out, &in, mode);
            ASSERT_FALSE(ZSTD_isError(left));
            produced = out.pos;
        } while (mode == ZSTD_e_end ? left != 0 : in.pos < in.size);
    }
    frame.resize(produced);
    ASSERT_LT(frame.size(), size_t(1) << 20);
    // Replace VERT (entry 3 in the writer's order) with the frame, appended at the end.
    const size_t e = 48 + 40 * 3;
    ASSERT_EQ(std::string(reinterpret_cast<const char*>(f.data() + e), 4), "VERT");
    while (f.size() % 16 != 0) f.push_back(0);
    put<uint32_t>(f, e + 4, 1u);
    put<uint64_t>(f, e + 8, f.size());
    put<uint64_t>(f, e + 16, frame.size());
    put<uint64_t>(f, e + 24, raw);
    put<uint64_t>(f, e + 32, throngChecksum(frame.data(), frame.size()));
    f.insert(f.end(), frame.begin(), frame.end());
    put<uint64_t>(f, 16, f.size());
    resealHeader(f);
    spit(file("bomb.throng"), f);
    runCase({"zstd bomb", file("bomb.throng"), Expect::Error, "refused before inflating"});
}

// --- glTF and GLB with hostile content ------------------------------------------------------

TEST_F(Hostile, HugeDeclaredCounts) {
    runCase({"2^31 vertices",
             rig(
                 file("verts.glb"), [](GltfBuilder& b) { b.json["accessors"][0]["count"] = uint64_t(1) << 31; }, true),
             Expect::Error, "do not fit"});
    runCase({"10 million keyframes",
             rig(file("keys.gltf"),
                 [](GltfBuilder& b) {
                     const int in = b.json["animations"][0]["samplers"][0]["input"];
                     b.json["accessors"][in]["count"] = 10'000'000;
                 }),
             Expect::Error, "do not fit"});
    // An accessor without a bufferView is zeros: 2^28 of them is refused before any is made.
    runCase({"2^28 MAT4 without data",
             rig(file("ibm.gltf"),
                 [](GltfBuilder& b) {
                     const int ibm = b.json["skins"][0]["inverseBindMatrices"];
                     b.json["accessors"][ibm].erase("bufferView");
                     b.json["accessors"][ibm]["count"] = 1 << 28;
                 }),
             Expect::Error, "absurd for an accessor without data"});
    runCase({"2^28 VEC3 without data",
             rig(file("pos.gltf"),
                 [](GltfBuilder& b) {
                     b.json["accessors"][0].erase("bufferView");
                     b.json["accessors"][0]["count"] = 1 << 28;
                 }),
             Expect::Error, "absurd for an accessor without data"});
    // Many primitives sharing one accessor: within each, far past the import's budget together.
    {
        GltfBuilder b = test::makeRig(test::RigOptions{.skin = false});
        b.json["accessors"][0].erase("bufferView");
        b.json["accessors"][0]["count"] = 4 << 20;
        nlohmann::json prims = nlohmann::json::array();
        for (int i = 0; i < 64; ++i) prims.push_back(b.json["meshes"][0]["primitives"][0]);
        b.json["meshes"][0]["primitives"] = prims;
        b.writeGltf(file("shared.gltf").string());
        runCase(
            {"a 4M-vertex accessor shared by 64 primitives", file("shared.gltf"), Expect::Error, "the import's limit"});
    }
    // 10,000 joints in one skin (a flat list under the root): legal, or one line naming a limit.
    runCase({"10,000 joints",
             rig(file("joints.gltf"),
                 [](GltfBuilder& b) {
                     std::vector<float> ibm;
                     for (int j = 0; j < 10000; ++j) {
                         const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
                         ibm.insert(ibm.end(), m, m + 16);
                     }
                     const int acc = b.addAccessor(ibm, kFloat, 10000, "MAT4");
                     nlohmann::json joints = {0, 1};
                     for (int j = 2; j < 10000; ++j) {
                         b.json["nodes"].push_back({{"name", "j" + std::to_string(j)}});
                         b.json["nodes"][1]["children"].push_back(b.json["nodes"].size() - 1);
                         joints.push_back(b.json["nodes"].size() - 1);
                     }
                     b.json["skins"][0]["joints"] = joints;
                     b.json["skins"][0]["inverseBindMatrices"] = acc;
                 }),
             Expect::Either, ""});
    // A 65536 x 65536 PNG header (a few bytes) as the texture: never decoded.
    runCase({"65536x65536 image",
             rig(file("image.gltf"),
                 [](GltfBuilder& b) {
                     const uint8_t png[] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 0,    0,    0,
                                            13,   'I', 'H', 'D', 'R',  0,    1,    0,    0,    0,    1,
                                            0,    0,   8,   6,   0,    0,    0,    0x1f, 0x15, 0xc4, 0x89};
                     const int view = b.addView(png, sizeof png);
                     b.json["images"] = {{{"bufferView", view}, {"mimeType", "image/png"}}};
                     b.json["textures"] = {{{"source", 0}}};
                     b.json["materials"] = {{{"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 0}}}}}}};
                     b.json["meshes"][0]["primitives"][0]["material"] = 0;
                 }),
             Expect::Loads, ""});
}

TEST_F(Hostile, BadIndicesAndReferences) {
    runCase({"index 0xffffffff",
             rig(file("index.gltf"),
                 [](GltfBuilder& b) {
                     const std::vector<uint32_t> idx = {0, 1, 0xffffffffu};
                     b.json["meshes"][0]["primitives"][0]["indices"] = b.addAccessor(idx, 5125, 3, "SCALAR");
                 }),
             Expect::Error, "out of range"});
    runCase({"negative mesh index", rig(file("negmesh.gltf"), [](GltfBuilder& b) { b.json["nodes"][2]["mesh"] = -5; }),
             Expect::Error, ""});
    runCase({"child index 2^40",
             rig(file("child.gltf"), [](GltfBuilder& b) { b.json["nodes"][0]["children"] = {uint64_t(1) << 40}; }),
             Expect::Error, ""});
    runCase({"joint index past the skin",
             rig(file("joint.gltf"),
                 [](GltfBuilder& b) {
                     const std::vector<uint8_t> j(24, 200);
                     b.json["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"] =
                         b.addAccessor(j, test::kUByte, 6, "VEC4");
                 }),
             Expect::Error, ""});
    runCase({"skin joint is a missing node",
             rig(file("skinnode.gltf"),
                 [](GltfBuilder& b) {
                     b.json["skins"][0]["joints"] = {0, 77};
                 }),
             Expect::Error, "does not exist"});
    runCase({"self-referencing skin",
             rig(file("selfskin.gltf"),
                 [](GltfBuilder& b) {
                     b.json["skins"][0]["joints"] = {0, 2}; // the skinned mesh's own node is a joint
                     b.json["skins"][0]["skeleton"] = 2;
                 }),
             Expect::Either, ""});
    runCase({"cyclic hierarchy", rig(file("cycle.gltf"), [](GltfBuilder& b) { b.json["nodes"][1]["children"] = {0}; }),
             Expect::Error, "cycle"});
    runCase({"node is its own child",
             rig(file("selfchild.gltf"), [](GltfBuilder& b) { b.json["nodes"][2]["children"] = {2}; }), Expect::Error,
             "cycle"});
}

TEST_F(Hostile, NanAndInfinity) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    test::makeRig(test::RigOptions{.nan_weight = true}).writeGltf(file("w.gltf").string());
    runCase({"NaN weight", file("w.gltf"), Expect::Error, "NaN"});
    runCase({"NaN key time",
             rig(file("time.gltf"),
                 [&](GltfBuilder& b) {
                     const int in = b.json["animations"][0]["samplers"][0]["input"];
                     b.json["accessors"][in]["bufferView"] = b.addView(std::vector<float>{0, nan, 2}.data(), 12);
                 }),
             Expect::Error, ""});
    runCase({"infinite inverse bind matrix",
             rig(file("ibm.gltf"),
                 [&](GltfBuilder& b) {
                     std::vector<float> m = {1,   0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0,  0, 1,
                                             inf, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1};
                     b.json["skins"][0]["inverseBindMatrices"] = b.addAccessor(m, kFloat, 2, "MAT4");
                 }),
             Expect::Error, "NaN or infinite"});
    runCase({"NaN position",
             rig(file("pos.gltf"),
                 [&](GltfBuilder& b) {
                     std::vector<float> p = {0, 0, 0, 1, 0, 0, 0, nan, 0, 1, 1, 0, 0, 2, 0, 1, 2, 0};
                     b.json["meshes"][0]["primitives"][0]["attributes"]["POSITION"] =
                         b.addAccessor(p, kFloat, 6, "VEC3");
                 }),
             Expect::Error, "NaN or infinite"});
    // JSON has no NaN; 1e999 is how a file spells infinity.
    const std::string text = [&] {
        GltfBuilder b = test::makeRig();
        b.json["nodes"][1]["translation"] = {0, 12345, 0};
        b.writeGltf(file("t.gltf").string());
        std::ifstream in(file("t.gltf"));
        std::string s((std::istreambuf_iterator<char>(in)), {});
        s.replace(s.find("12345"), 5, "1e999");
        return s;
    }();
    spit(file("inf.gltf"), text);
    runCase({"infinite translation", file("inf.gltf"), Expect::Error, ""});
    runCase({"NaN rotation",
             rig(file("rot.gltf"),
                 [&](GltfBuilder& b) {
                     const int out = b.json["animations"][0]["samplers"][0]["output"];
                     std::vector<float> r = {0, 0, 0, 1, 0, 0, nan, nan, 0, 0, 0, 1};
                     b.json["accessors"][out]["bufferView"] = b.addView(r.data(), r.size() * 4);
                 }),
             Expect::Error, ""});
}

TEST_F(Hostile, DeepAndLongHierarchies) {
    // 100,000 nodes in one chain (each the child of the one before), the mesh skinned to two of them.
    runCase({"node chain 100,000 deep",
             rig(file("chain.gltf"),
                 [](GltfBuilder& b) {
                     for (int i = 0; i < 100000; ++i) {
                         b.json["nodes"].push_back({{"name", "c" + std::to_string(i)}});
                         const size_t me = b.json["nodes"].size() - 1;
                         const size_t parent = i == 0 ? 0 : me - 1;
                         b.json["nodes"][parent]["children"].push_back(me);
                     }
                 }),
             Expect::Either, ""});
    // 1,000 nested arrays in "extras": refused before the recursive JSON parser sees them.
    std::string deep =
        R"({"asset":{"version":"2.0","extras":)" + std::string(1000, '[') + std::string(1000, ']') + "}}";
    spit(file("deep.gltf"), deep);
    runCase({"JSON 1,000 deep", file("deep.gltf"), Expect::Error, "JSON nested deeper than 128 levels"});
    // The same inside a GLB's JSON chunk, 30,000 deep (what crashed tinygltf's parser).
    deep = R"({"asset":{"version":"2.0","extras":)" + std::string(30000, '[') + std::string(30000, ']') + "}}";
    while (deep.size() % 4) deep.push_back(' ');
    Bytes glb = {'g', 'l', 'T', 'F', 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'J', 'S', 'O', 'N'};
    put<uint32_t>(glb, 8, uint32_t(20 + deep.size()));
    put<uint32_t>(glb, 12, uint32_t(deep.size()));
    glb.insert(glb.end(), deep.begin(), deep.end());
    spit(file("deep.glb"), glb);
    runCase({"GLB JSON 30,000 deep", file("deep.glb"), Expect::Error, "JSON nested deeper than 128 levels"});
}

TEST_F(Hostile, BuffersThatAreMissingOrLie) {
    GltfBuilder b = test::makeRig();
    b.json["buffers"] = {{{"byteLength", b.bin.size()}, {"uri", "missing.bin"}}};
    writeRaw(file("missing.gltf"), b);
    runCase({"missing external buffer", file("missing.gltf"), Expect::Error, ""});

    ASSERT_EQ(::mkfifo(file("fifo.bin").c_str(), 0644), 0);
    b.json["buffers"] = {{{"byteLength", b.bin.size()}, {"uri", "fifo.bin"}}};
    writeRaw(file("fifo.gltf"), b);
    runCase({"external buffer is a FIFO", file("fifo.gltf"), Expect::Error, ""});

    // A data URI whose decoded bytes are fewer than the buffer's byteLength says.
    b.json["buffers"] = {{{"byteLength", b.bin.size() * 4},
                          {"uri", "data:application/octet-stream;base64," + GltfBuilder::base64(b.bin)}}};
    writeRaw(file("lie.gltf"), b);
    runCase({"data URI shorter than byteLength", file("lie.gltf"), Expect::Error, ""});
    b.json["buffers"] = {
        {{"byteLength", 8}, {"uri", "data:application/octet-stream;base64," + GltfBuilder::base64(b.bin)}}};
    writeRaw(file("lie2.gltf"), b);
    runCase({"data URI longer than byteLength", file("lie2.gltf"), Expect::Either, ""});
    b.json["buffers"] = {
        {{"byteLength", b.bin.size()}, {"uri", "data:application/octet-stream;base64,@@@@not base64"}}};
    writeRaw(file("bad64.gltf"), b);
    runCase({"data URI that is not base64", file("bad64.gltf"), Expect::Error, ""});
    // A GLB whose BIN chunk is shorter than its buffer says.
    GltfBuilder g = test::makeRig();
    g.writeGlb(file("short.glb").string());
    Bytes bytes = slurp(file("short.glb"));
    bytes.resize(bytes.size() - 16);
    put<uint32_t>(bytes, 8, uint32_t(bytes.size()));
    spit(file("short.glb"), bytes);
    runCase({"GLB BIN chunk shorter than its buffer", file("short.glb"), Expect::Error, ""});
}

// --- Inputs that are not files --------------------------------------------------------------

TEST_F(Hostile, DirectoriesFifosAndLinksAsInputs) {
    fs::create_directories(file("folder.glb"));
    runCase({"a directory", file("folder.glb"), Expect::Error, "is a directory"});
    ASSERT_EQ(::mkfifo(file("pipe.glb").c_str(), 0644), 0);
    runCase({"a FIFO", file("pipe.glb"), Expect::Error, "is a FIFO"});
    ASSERT_EQ(::mkfifo(file("pipe.throng").c_str(), 0644), 0);
    runCase({"a FIFO named .throng", file("pipe.throng"), Expect::Error, "is a FIFO"});
    fs::create_symlink("pipe.glb", file("to_pipe.glb"));
    runCase({"a link to a FIFO", file("to_pipe.glb"), Expect::Error, "is a FIFO"});
    fs::create_symlink("nothing.glb", file("dangling.glb"));
    runCase({"a dangling link", file("dangling.glb"), Expect::Error, "no such file"});
    runCase({"/dev/zero", "/dev/zero", Expect::Error, "is a character device"});
    test::makeRig().writeGlb(file("rig.glb").string());
    fs::create_symlink("rig.glb", file("to_rig.glb"));
    runCase({"a link to a good file", file("to_rig.glb"), Expect::Loads, ""});
    ASSERT_EQ(::chmod(file("rig.glb").c_str(), 0), 0);
    if (::geteuid() != 0) runCase({"unreadable", file("rig.glb"), Expect::Error, "Permission denied"});
    ::chmod(file("rig.glb").c_str(), 0644);
}

// --- Command lines -------------------------------------------------------------------------

// Every numeric flag with 0, negative, NaN, Inf and overflowing values, and empty or unknown
// lists: exit 2 and one line, before any work.
TEST_F(Hostile, NumericFlagsAndLists) {
    struct Flag {
        std::string command, flag;
        bool zero_ok;
    };
    const Flag flags[] = {{"render --out x.png", "--instances", false},
                          {"render --out x.png", "--time", true},
                          {"render --out x.png", "--seed", true},
                          {"render --out x.png", "--frames", false},
                          {"render --out x.png", "--fps", false},
                          {"bench", "--frames", false},
                          {"bench", "--warmup", true},
                          {"bench", "--seed", true},
                          {"view", "--instances", false},
                          {"view", "--frames", false},
                          {"view", "--fps", false},
                          {"view", "--seed", true},
                          {"bake builtin:fish -o x.throng", "--fps", false},
                          {"animate builtin:fish", "--frames", false}};
    int runs = 0;
    for (const Flag& f : flags) {
        for (const char* value : {"0", "-1", "nan", "inf", "-inf", "1e999", "99999999999999999999999", "", "x"}) {
            if (std::string(value) == "0" && f.zero_ok) continue;
            if (std::string(value) == "-1" && f.flag == "--time") continue; // a time before 0 is a time
            const std::string args = f.command + " " + f.flag + " '" + value + "'";
            const CliRun r = test::runThrong(args);
            SCOPED_TRACE(args);
            EXPECT_EQ(r.exit_code, 2) << r.err;
            EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
            EXPECT_EQ(r.err.rfind("throng: error: ", 0), 0u) << r.err;
            EXPECT_TRUE(r.out.empty()) << r.out;
            ++runs;
        }
    }
    for (const std::string& args :
         {std::string("bench --techniques ''"), std::string("bench --techniques ,,,"),
          std::string("bench --techniques nope"), std::string("bench --instances ''"),
          std::string("bench --instances 1,,x"), std::string("bench --techniques baked@nope"),
          std::string("render --swim ''x=1"), std::string("render --size 10x10"), std::string("render --size 99999x2"),
          std::string("render --technique ''"), std::string("render --encoding nope"),
          std::string("render --animation nope"), std::string("view --technique nope"), std::string("render --bogus"),
          std::string("frobnicate")}) {
        const CliRun r = test::runThrong(args);
        SCOPED_TRACE(args);
        EXPECT_EQ(r.exit_code, 2) << r.err;
        EXPECT_EQ(lines(r.err).size(), 1u) << r.err;
        ++runs;
    }
    EXPECT_GE(runs, 100);
}

// Options the technique or input ignores: one warning line each, and the run still works.
TEST_F(Hostile, IgnoredOptionsWarn) {
    const fs::path good = file("fish.throng");
    ASSERT_EQ(test::runThrong("bake builtin:fish -o " + good.string()).exit_code, 0);
    const CliRun r = test::runThrong(
        "render --model " + good.string() +
        " --technique static --swim side=0.1 --encoding quat --animation image --fps 60 --precision half"
        " --instances 1 --size 32x32 --frames 1 --out " +
        file("w.png").string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const char* flag : {"--swim", "--encoding", "--animation", "--fps", "--precision"})
        EXPECT_NE(r.err.find(std::string("throng: warning: ") + flag + " is ignored"), std::string::npos)
            << flag << ": " << r.err;
    EXPECT_EQ(lines(r.err).size(), 5u) << r.err;
}
