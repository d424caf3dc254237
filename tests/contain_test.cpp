// The contained importer (src/import/contain.*) and the Model wire format it uses
// (src/import/model_wire.*): exact round trips, damaged bytes, children that abort, crash, hang or
// allocate without bound, and Collada files made here that crash assimp 5.2.5 in process.
#include "test_util.h"

#include "../src/import/contain.h"
#include "../src/import/model_wire.h"

#include <throng/builtin.h>
#include <throng/import.h>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <thread>

namespace throng {
namespace {

using detail::ContainLimits;
using detail::decodeModel;
using detail::encodeModel;
using detail::runContained;

constexpr bool kAsan = test::kAddressSanitizer;

constexpr const char* kFbx = "AnimationWithSkeleton_FBX/animation_with_skeleton.fbx";
constexpr const char* kCollada = "RiggedSimple_Collada/RiggedSimple.dae";
constexpr uint64_t kMiB = uint64_t(1) << 20;
constexpr ContainLimits kSmall{256 * kMiB, 30.0};

// --- comparing Models bit for bit ----------------------------------------------------------------

template <class T> bool sameBits(const T& a, const T& b) {
    static_assert(std::is_trivially_copyable_v<T>);
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T> bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
    static_assert(std::is_trivially_copyable_v<T>);
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

void expectSameModel(const Model& a, const Model& b) {
    EXPECT_EQ(a.source, b.source);
    EXPECT_EQ(a.format, b.format);
    EXPECT_EQ(a.skeleton.names, b.skeleton.names);
    EXPECT_EQ(a.skeleton.parents, b.skeleton.parents);
    ASSERT_EQ(a.skeleton.rest.size(), b.skeleton.rest.size());
    for (size_t j = 0; j < a.skeleton.rest.size(); ++j) {
        SCOPED_TRACE("rest " + std::to_string(j));
        EXPECT_TRUE(sameBits(a.skeleton.rest[j].translation, b.skeleton.rest[j].translation));
        EXPECT_TRUE(sameBits(a.skeleton.rest[j].rotation, b.skeleton.rest[j].rotation));
        EXPECT_TRUE(sameBits(a.skeleton.rest[j].scale, b.skeleton.rest[j].scale));
    }
    ASSERT_EQ(a.skins.size(), b.skins.size());
    for (size_t s = 0; s < a.skins.size(); ++s) {
        EXPECT_EQ(a.skins[s].name, b.skins[s].name);
        EXPECT_EQ(a.skins[s].joints, b.skins[s].joints);
    }
    ASSERT_EQ(a.palette.size(), b.palette.size());
    for (size_t p = 0; p < a.palette.size(); ++p) {
        EXPECT_EQ(a.palette[p].joint, b.palette[p].joint) << "palette " << p;
        EXPECT_TRUE(sameBits(a.palette[p].inverse_bind, b.palette[p].inverse_bind)) << "palette " << p;
    }
    ASSERT_EQ(a.meshes.size(), b.meshes.size());
    for (size_t m = 0; m < a.meshes.size(); ++m) {
        SCOPED_TRACE("mesh " + std::to_string(m));
        const Mesh &x = a.meshes[m], &y = b.meshes[m];
        EXPECT_EQ(x.name, y.name);
        EXPECT_TRUE(sameBits(x.positions, y.positions));
        EXPECT_TRUE(sameBits(x.normals, y.normals));
        EXPECT_TRUE(sameBits(x.uvs, y.uvs));
        EXPECT_TRUE(sameBits(x.colors, y.colors));
        EXPECT_TRUE(sameBits(x.joints, y.joints));
        EXPECT_TRUE(sameBits(x.weights, y.weights));
        EXPECT_EQ(x.indices, y.indices);
        ASSERT_EQ(x.submeshes.size(), y.submeshes.size());
        for (size_t s = 0; s < x.submeshes.size(); ++s) {
            EXPECT_EQ(x.submeshes[s].first_index, y.submeshes[s].first_index);
            EXPECT_EQ(x.submeshes[s].index_count, y.submeshes[s].index_count);
            EXPECT_EQ(x.submeshes[s].material, y.submeshes[s].material);
        }
        EXPECT_EQ(x.skin, y.skin);
        EXPECT_EQ(x.rigid_joint, y.rigid_joint);
    }
    ASSERT_EQ(a.materials.size(), b.materials.size());
    for (size_t m = 0; m < a.materials.size(); ++m) {
        EXPECT_EQ(a.materials[m].name, b.materials[m].name);
        EXPECT_TRUE(sameBits(a.materials[m].base_color, b.materials[m].base_color)) << "material " << m;
        EXPECT_EQ(a.materials[m].texture, b.materials[m].texture);
    }
    ASSERT_EQ(a.textures.size(), b.textures.size());
    for (size_t t = 0; t < a.textures.size(); ++t) {
        EXPECT_EQ(a.textures[t].name, b.textures[t].name);
        EXPECT_EQ(a.textures[t].mime_type, b.textures[t].mime_type);
        EXPECT_EQ(a.textures[t].uri, b.textures[t].uri);
        EXPECT_EQ(a.textures[t].encoded, b.textures[t].encoded);
    }
    ASSERT_EQ(a.clips.size(), b.clips.size());
    for (size_t c = 0; c < a.clips.size(); ++c) {
        SCOPED_TRACE("clip " + std::to_string(c));
        EXPECT_EQ(a.clips[c].name, b.clips[c].name);
        EXPECT_TRUE(sameBits(a.clips[c].duration, b.clips[c].duration));
        ASSERT_EQ(a.clips[c].tracks.size(), b.clips[c].tracks.size());
        for (size_t t = 0; t < a.clips[c].tracks.size(); ++t) {
            const Track &x = a.clips[c].tracks[t], &y = b.clips[c].tracks[t];
            EXPECT_EQ(x.joint, y.joint) << "track " << t;
            EXPECT_EQ(x.target, y.target) << "track " << t;
            EXPECT_EQ(x.interpolation, y.interpolation) << "track " << t;
            EXPECT_TRUE(sameBits(x.times, y.times)) << "track " << t;
            EXPECT_TRUE(sameBits(x.values, y.values)) << "track " << t;
        }
    }
    ASSERT_EQ(a.parts.size(), b.parts.size());
    for (size_t p = 0; p < a.parts.size(); ++p) {
        EXPECT_EQ(a.parts[p].name, b.parts[p].name);
        EXPECT_EQ(a.parts[p].slot, b.parts[p].slot);
        EXPECT_TRUE(sameBits(a.parts[p].share, b.parts[p].share));
        EXPECT_EQ(a.parts[p].first_mesh, b.parts[p].first_mesh);
        EXPECT_EQ(a.parts[p].mesh_count, b.parts[p].mesh_count);
    }
    ASSERT_EQ(a.looks.size(), b.looks.size());
    for (size_t l = 0; l < a.looks.size(); ++l) {
        EXPECT_EQ(a.looks[l].name, b.looks[l].name);
        EXPECT_EQ(a.looks[l].materials, b.looks[l].materials);
        EXPECT_TRUE(sameBits(a.looks[l].colors, b.looks[l].colors));
        EXPECT_TRUE(sameBits(a.looks[l].shares, b.looks[l].shares));
        EXPECT_EQ(a.looks[l].textures, b.looks[l].textures);
    }
    EXPECT_EQ(a.warnings, b.warnings);
}

void expectRoundTrip(const Model& model) {
    const std::vector<uint8_t> bytes = encodeModel(model);
    Result<Model> back = decodeModel(bytes);
    ASSERT_TRUE(back.ok()) << back.error().message;
    expectSameModel(model, back.value());
    EXPECT_EQ(encodeModel(back.value()), bytes);
}

Model importedInProcess(const std::string& path) {
    Result<Model> r = importAssimp(path);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r).value() : Model{};
}

float floatWithBits(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// Not a valid Model (the wire does not care): every field set, odd floats, every enumerator.
Model everyField() {
    const float nan_payload = floatWithBits(0x7fc12345u), negative_zero = -0.0f;
    const float inf = std::numeric_limits<float>::infinity(), tiny = std::numeric_limits<float>::denorm_min();
    Model m;
    m.source = "memory:every field";
    m.format = "hand-made \xe2\x9c\x93";
    m.skeleton.names = {"root", "", "arm"};
    m.skeleton.parents = {kNoParent, 0, 1};
    m.skeleton.rest.resize(3);
    m.skeleton.rest[1].translation = {nan_payload, negative_zero, inf};
    m.skeleton.rest[2].rotation = glm::quat(0.5f, -0.5f, 0.5f, tiny);
    m.skeleton.rest[2].scale = {2.0f, -1.0f, 1e-30f};
    m.skins = {Skin{"skin a", {0, 2}}, Skin{"", {}}};
    m.palette = {PaletteEntry{2, glm::mat4(1.0f)}, PaletteEntry{0, glm::mat4(nan_payload)}};
    Mesh mesh;
    mesh.name = "body";
    mesh.positions = {{0, 0, 0}, {1, 0, negative_zero}, {0, 1, tiny}};
    mesh.normals = {{0, 0, 1}, {0, 0, 1}, {nan_payload, 0, 1}};
    mesh.uvs = {{0, 0}, {1, 0}, {0, 1}};
    mesh.colors = {{1, 0, 0, 1}, {0, 1, 0, 0.5f}, {0, 0, 1, inf}};
    mesh.joints = {{0, 1, 0, 0}, {1, 0, 0, 0}, {65535, 0, 0, 0}};
    mesh.weights = {{0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    mesh.indices = {0, 1, 2, 2, 1, 0};
    mesh.submeshes = {Submesh{0, 3, 1}, Submesh{3, 3, -1}};
    mesh.skin = 0;
    Mesh rigid;
    rigid.name = "rigid";
    rigid.positions = {{1, 2, 3}};
    rigid.normals = {{0, 1, 0}};
    rigid.joints = {{1, 0, 0, 0}};
    rigid.weights = {{1, 0, 0, 0}};
    rigid.rigid_joint = 2;
    m.meshes = {mesh, rigid, Mesh{}};
    m.materials = {Material{"plain", glm::vec4(1.0f), -1}, Material{"textured", {0.25f, nan_payload, 0, 1}, 0}};
    Texture embedded{"*0", "image/png", "", {0x89, 'P', 'N', 'G', 0, 255}};
    Texture external{"skin.jpg", "image/jpeg", "textures/skin.jpg", {}};
    m.textures = {embedded, external};
    Clip clip;
    clip.name = "walk";
    clip.duration = 1.25f;
    clip.tracks.push_back(
        Track{1, TrackTarget::Translation, Interpolation::Step, {0.0f, 1.0f}, {{1, 2, 3, 0}, {4, 5, 6, 0}}});
    clip.tracks.push_back(Track{2, TrackTarget::Rotation, Interpolation::Linear, {0.5f}, {{0, 0, 0, 1}}});
    clip.tracks.push_back(Track{0,
                                TrackTarget::Scale,
                                Interpolation::CubicSpline,
                                {0.0f},
                                {{0, 0, 0, 0}, {1, 1, 1, 0}, {nan_payload, 0, 0, 0}}});
    m.clips = {clip, Clip{"empty", 0.0f, {}}};
    m.parts = {Part{"hat", "head", 0.25f, 0, 1}, Part{"bag", "", 1.0f, 1, 1}};
    m.looks = {Look{"top", {0, 1}, {{0.5f, 0.25f, 1.0f}, {nan_payload, 0.0f, 2.0f}}, {0.75f, 0.25f}, {0, 0}},
               Look{"skin", {2}, {{1.0f, 0.8f, 0.6f}}, {}}};
    m.warnings = {"first warning", "second: \"quoted\""};
    return m;
}

// --- the wire format ------------------------------------------------------------------------------

TEST(ModelWire, EveryFieldRoundTripsBitForBit) { expectRoundTrip(everyField()); }

TEST(ModelWire, EmptyModelRoundTrips) { expectRoundTrip(Model{}); }

TEST(ModelWire, BuiltinsRoundTrip) {
    for (const char* name : {"walker", "fish"}) {
        SCOPED_TRACE(name);
        Result<Model> model = makeBuiltin(name);
        ASSERT_TRUE(model.ok()) << model.error().message;
        expectRoundTrip(model.value());
    }
}

TEST(ModelWire, SharedModelsRoundTrip) {
    THRONG_ASSET(dae, kCollada);
    THRONG_ASSET(fbx, kFbx);
    THRONG_ASSET(glb, "CesiumMan/CesiumMan.glb"); // through assimp: an embedded JPEG
    for (const std::string& path : {dae, fbx, glb}) {
        SCOPED_TRACE(path);
        const Model model = importedInProcess(path);
        ASSERT_FALSE(model.meshes.empty());
        expectRoundTrip(model);
    }
}

void expectDamaged(std::span<const uint8_t> bytes, const std::string& words) {
    Result<Model> r = decodeModel(bytes);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message.rfind("the importer's result is damaged: ", 0), 0u) << r.error().message;
    EXPECT_NE(r.error().message.find(words), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
}

TEST(ModelWire, EveryTruncationIsAnError) {
    const std::vector<uint8_t> bytes = encodeModel(everyField());
    for (size_t keep = 0; keep < bytes.size(); ++keep) {
        SCOPED_TRACE(keep);
        expectDamaged(std::span(bytes.data(), keep), "");
    }
    Result<Model> walker = makeBuiltin("walker");
    ASSERT_TRUE(walker.ok());
    const std::vector<uint8_t> big = encodeModel(walker.value());
    for (size_t keep = 0; keep < big.size(); keep += big.size() / 97 + 1)
        expectDamaged(std::span(big.data(), keep), "");
}

TEST(ModelWire, LeftoverBytesAndForeignBytesAreErrors) {
    std::vector<uint8_t> bytes = encodeModel(everyField());
    bytes.push_back(0);
    expectDamaged(bytes, "left over");
    bytes = encodeModel(everyField());
    bytes[0] ^= 0x20;
    expectDamaged(bytes, "does not start with a model");
}

TEST(ModelWire, HugeCountsAreRefusedBeforeAllocating) {
    // The warnings come last: their count is the final 8 bytes of a Model without warnings.
    std::vector<uint8_t> bytes = encodeModel(Model{});
    ASSERT_GE(bytes.size(), 8u);
    for (uint64_t count : {std::numeric_limits<uint64_t>::max(), uint64_t(1) << 62, uint64_t(1000000000)}) {
        std::memcpy(bytes.data() + bytes.size() - 8, &count, 8);
        expectDamaged(bytes, "a count of " + std::to_string(count) + " runs past the end");
    }
}

TEST(ModelWire, UnknownEnumeratorsAreErrors) {
    Model m;
    m.clips.push_back(Clip{"c", 1.0f, {Track{0xabcdef12u, TrackTarget::Rotation, Interpolation::CubicSpline, {}, {}}}});
    const std::vector<uint8_t> good = encodeModel(m);
    const uint8_t marker[4] = {0x12, 0xef, 0xcd, 0xab};
    const auto at = std::search(good.begin(), good.end(), marker, marker + 4) - good.begin();
    ASSERT_LT(size_t(at), good.size());
    std::vector<uint8_t> bytes = good;
    bytes[at + 4] = 3;
    expectDamaged(bytes, "a track has target 3");
    bytes = good;
    bytes[at + 5] = 9;
    expectDamaged(bytes, "a track has interpolation 9");
}

// Every byte overwritten with each of a few values: an error or some Model, never a crash (ASan
// and UBSan watch) or a huge allocation.
TEST(ModelWire, CorruptBytesNeverCrash) {
    const std::vector<uint8_t> good = encodeModel(everyField());
    size_t errors = 0;
    for (size_t i = 0; i < good.size(); ++i)
        for (uint8_t value : {uint8_t(0x00), uint8_t(0x7f), uint8_t(0xff)}) {
            std::vector<uint8_t> bytes = good;
            bytes[i] = value;
            Result<Model> r = decodeModel(bytes);
            if (!r.ok()) {
                ++errors;
                EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
            }
        }
    EXPECT_GT(errors, good.size() / 4);
}

// --- the child process ----------------------------------------------------------------------------

// Under ASan a crash or an exhausted allocator ends the child through ASan's report (exit status
// 1) rather than the signal or std::bad_alloc of a plain build.
void expectStopped(const Result<Model>& r, const std::string& plain_build_message) {
    ASSERT_FALSE(r.ok());
    const std::string& m = r.error().message;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
    if (kAsan)
        EXPECT_TRUE(m == plain_build_message || m == "the importer stopped (exit status 1)") << m;
    else
        EXPECT_EQ(m, plain_build_message);
}

TEST(Contain, ModelComesBack) {
    const Model model = everyField();
    Result<Model> r = runContained([&] { return model; }, kSmall);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectSameModel(model, r.value());
}

// More than a pipe's buffer, so that the parent reads while the child writes.
TEST(Contain, LargeModelComesBack) {
    Model model = everyField();
    std::mt19937 rng(3);
    model.textures[0].encoded.resize(24 * kMiB);
    for (uint8_t& b : model.textures[0].encoded) b = uint8_t(rng());
    Result<Model> r = runContained([&] { return model; }, kSmall);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectSameModel(model, r.value());
}

TEST(Contain, ErrorComesBackAsOneLine) {
    Result<Model> r = runContained([] { return Result<Model>(Error{"no meshes"}); }, kSmall);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "no meshes");
    r = runContained([] { return Result<Model>(Error{"two\nlines"}); }, kSmall);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
}

TEST(Contain, ExceptionIsAnError) {
    Result<Model> r = runContained([]() -> Result<Model> { throw std::runtime_error("bad"); }, kSmall);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "the importer failed: bad");
}

TEST(Contain, AbortIsOneLine) {
    expectStopped(runContained([]() -> Result<Model> { std::abort(); }, kSmall),
                  "the importer stopped (signal 6: abort)");
}

TEST(Contain, SegmentationFaultIsOneLine) {
    expectStopped(runContained(
                      []() -> Result<Model> {
                          std::raise(SIGSEGV);
                          return Model{};
                      },
                      kSmall),
                  "the importer stopped (signal 11: segmentation fault)");
}

TEST(Contain, ExitWithoutResult) {
    Result<Model> r = runContained([]() -> Result<Model> { ::_exit(0); }, kSmall);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "the importer stopped without a result");
    r = runContained([]() -> Result<Model> { ::_exit(3); }, kSmall);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "the importer stopped (exit status 3)");
}

TEST(Contain, HangIsKilledAtTheTimeLimit) {
    const auto start = std::chrono::steady_clock::now();
    Result<Model> r = runContained(
        []() -> Result<Model> {
            for (;;) ::pause();
        },
        ContainLimits{256 * kMiB, 0.5});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message, "the importer stopped (time limit of 0.5 s)");
    EXPECT_GE(seconds, 0.45);
    EXPECT_LT(seconds, 10.0);
}

// Keeps every allocation and touches it, as assimp's value-initialised vectors do.
Result<Model> allocateForever() {
    std::vector<std::unique_ptr<char[]>> kept;
    for (;;) {
        kept.emplace_back(new char[16 * kMiB]);
        std::memset(kept.back().get(), 1, 16 * kMiB);
    }
}

TEST(Contain, UnboundedAllocationStopsAtTheMemoryLimit) {
    expectStopped(runContained(allocateForever, kSmall), "out of memory while importing (memory limit of 256 MiB)");
}

TEST(Contain, DeathAfterAFailedAllocationNamesTheMemoryLimit) {
    expectStopped(runContained(
                      []() -> Result<Model> {
                          try {
                              (void)allocateForever();
                          } catch (const std::bad_alloc&) {
                              std::abort(); // as a library that does not expect bad_alloc might
                          }
                          return Model{};
                      },
                      kSmall),
                  "the importer stopped (memory limit of 256 MiB)");
}

// The child's chatter never reaches our stdout/stderr, and what we had buffered is printed once.
TEST(Contain, ChildOutputGoesNowhereAndOursIsNotDuplicated) {
    const auto dir = test::scratchDir("contain_output");
    const std::string out = (dir / "out.txt").string();
    std::fflush(stdout);
    const int saved = ::dup(1);
    ASSERT_GE(saved, 0);
    const int file = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(file, 0);
    ::dup2(file, 1);
    ::close(file);
    std::printf("before;"); // buffered: stdout is a file now
    Result<Model> r = runContained(
        [] {
            std::printf("child printf\n");
            std::fprintf(stderr, "child stderr\n");
            (void)!::write(1, "child write\n", 12);
            return Model{};
        },
        kSmall);
    std::printf("after");
    std::fflush(stdout);
    ::dup2(saved, 1);
    ::close(saved);
    EXPECT_TRUE(r.ok());
    std::ifstream in(out);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "before;after");
}

TEST(Contain, ConcurrentImports) {
    std::vector<std::thread> threads;
    std::vector<std::string> got(4);
    for (size_t i = 0; i < got.size(); ++i)
        threads.emplace_back([i, &got] {
            Result<Model> r = runContained(
                [i] {
                    Model m;
                    m.source = "thread " + std::to_string(i);
                    return m;
                },
                kSmall);
            got[i] = r.ok() ? r.value().source : r.error().message;
        });
    for (std::thread& t : threads) t.join();
    for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], "thread " + std::to_string(i));
}

// With SIGCHLD ignored the kernel reaps the child itself: its message still counts.
TEST(Contain, ChildReapedElsewhere) {
    struct sigaction ignore {
    }, previous{};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ASSERT_EQ(::sigaction(SIGCHLD, &ignore, &previous), 0);
    Result<Model> ok = runContained([] { return everyField(); }, kSmall);
    Result<Model> crashed = runContained([]() -> Result<Model> { std::abort(); }, kSmall);
    ::sigaction(SIGCHLD, &previous, nullptr);
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    expectSameModel(everyField(), ok.value());
    ASSERT_FALSE(crashed.ok());
    EXPECT_EQ(crashed.error().message, "the importer stopped (its exit status was lost)");
}

// --- limits ---------------------------------------------------------------------------------------

// Sets an environment variable for one scope.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        ::setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }

  private:
    const char* name_;
    std::optional<std::string> old_;
};

TEST(ContainLimits, Defaults) {
    const ContainLimits d = detail::defaultContainLimits();
    EXPECT_GT(d.memory_bytes, 0u);
    EXPECT_LE(d.memory_bytes, uint64_t(8) << 30);
    EXPECT_EQ(d.seconds, 120.0);
}

TEST(ContainLimits, Environment) {
    {
        ScopedEnv memory("THRONG_IMPORT_MEMORY_MB", "512");
        ScopedEnv seconds("THRONG_IMPORT_SECONDS", "2.5");
        Result<ContainLimits> l = detail::containLimitsFromEnvironment();
        ASSERT_TRUE(l.ok()) << l.error().message;
        EXPECT_EQ(l.value().memory_bytes, 512 * kMiB);
        EXPECT_EQ(l.value().seconds, 2.5);
    }
    {
        ScopedEnv memory("THRONG_IMPORT_MEMORY_MB", "0");
        ScopedEnv seconds("THRONG_IMPORT_SECONDS", "0");
        Result<ContainLimits> l = detail::containLimitsFromEnvironment();
        ASSERT_TRUE(l.ok()) << l.error().message;
        EXPECT_EQ(l.value().memory_bytes, 0u);
        EXPECT_EQ(l.value().seconds, 0.0);
    }
    for (const char* bad : {"", "abc", "-1", "12MB", "1.5", "99999999999999999999"}) {
        ScopedEnv memory("THRONG_IMPORT_MEMORY_MB", bad);
        Result<ContainLimits> l = detail::containLimitsFromEnvironment();
        ASSERT_FALSE(l.ok()) << bad;
        EXPECT_EQ(l.error().message.rfind("THRONG_IMPORT_MEMORY_MB must be", 0), 0u) << l.error().message;
    }
    for (const char* bad : {"", "soon", "-1", "nan", "inf", "1e10", "3s"}) {
        ScopedEnv seconds("THRONG_IMPORT_SECONDS", bad);
        Result<ContainLimits> l = detail::containLimitsFromEnvironment();
        ASSERT_FALSE(l.ok()) << bad;
        EXPECT_EQ(l.error().message.rfind("THRONG_IMPORT_SECONDS must be", 0), 0u) << l.error().message;
    }
}

// --- assimp contained -----------------------------------------------------------------------------

TEST(ContainAssimp, SameModelAsInProcess) {
    THRONG_ASSET(dae, kCollada);
    THRONG_ASSET(fbx, kFbx);
    for (const std::string& path : {dae, fbx}) {
        SCOPED_TRACE(path);
        const Model in_process = importedInProcess(path);
        Result<Model> contained = detail::importContained(path, detail::defaultContainLimits());
        ASSERT_TRUE(contained.ok()) << contained.error().message;
        expectSameModel(in_process, contained.value());
        Result<Model> through_import_model = importModel(path);
        ASSERT_TRUE(through_import_model.ok()) << through_import_model.error().message;
        expectSameModel(in_process, through_import_model.value());
    }
}

TEST(ContainAssimp, ErrorsKeepTheirWords) {
    const auto dir = test::scratchDir("contain_errors");
    const std::string path = (dir / "noise.dae").string();
    std::ofstream(path) << "<COLLADA> not really";
    Result<Model> in_process = importAssimp(path);
    Result<Model> contained = detail::importContained(path, kSmall);
    ASSERT_FALSE(in_process.ok());
    ASSERT_FALSE(contained.ok());
    EXPECT_EQ(contained.error().message, in_process.error().message);
}

// A skinned triangle in Collada with two joints; the arguments replace its <vertex_weights>.
std::string skinnedTriangle(const std::string& weight_count = "3", const std::string& vcount = "1 1 1",
                            const std::string& v = "0 0 1 0 0 1") {
    const std::string identity = "1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1";
    return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><up_axis>Y_UP</up_axis></asset>
  <library_geometries>
    <geometry id="mesh" name="mesh"><mesh>
      <source id="pos"><float_array id="pos-array" count="9">0 0 0 1 0 0 0 1 0</float_array>
        <technique_common><accessor source="#pos-array" count="3" stride="3"><param name="X" type="float"/>
          <param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
      <vertices id="verts"><input semantic="POSITION" source="#pos"/></vertices>
      <triangles count="1"><input semantic="VERTEX" source="#verts" offset="0"/><p>0 1 2</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_controllers>
    <controller id="skin"><skin source="#mesh">
      <bind_shape_matrix>)" +
           identity + R"(</bind_shape_matrix>
      <source id="joints"><Name_array id="joints-array" count="2">root tip</Name_array>
        <technique_common><accessor source="#joints-array" count="2" stride="1">
          <param name="JOINT" type="name"/></accessor></technique_common></source>
      <source id="binds"><float_array id="binds-array" count="32">)" +
           identity + " " + identity + R"(</float_array>
        <technique_common><accessor source="#binds-array" count="2" stride="16">
          <param name="TRANSFORM" type="float4x4"/></accessor></technique_common></source>
      <source id="weights"><float_array id="weights-array" count="2">1 0.5</float_array>
        <technique_common><accessor source="#weights-array" count="2" stride="1">
          <param name="WEIGHT" type="float"/></accessor></technique_common></source>
      <joints><input semantic="JOINT" source="#joints"/><input semantic="INV_BIND_MATRIX" source="#binds"/></joints>
      <vertex_weights count=")" +
           weight_count + R"("><input semantic="JOINT" source="#joints" offset="0"/>
        <input semantic="WEIGHT" source="#weights" offset="1"/>
        <vcount>)" +
           vcount + "</vcount><v>" + v + R"(</v></vertex_weights>
    </skin></controller>
  </library_controllers>
  <library_visual_scenes><visual_scene id="scene">
    <node id="root" name="root" sid="root" type="JOINT">
      <node id="tip" name="tip" sid="tip" type="JOINT"><matrix sid="transform">1 0 0 0 0 1 0 1 0 0 1 0 0 0 0 1</matrix></node>
    </node>
    <node id="body" name="body" type="NODE"><instance_controller url="#skin"><skeleton>#root</skeleton></instance_controller></node>
  </visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)";
}

std::string writeCollada(const std::string& name, const std::string& text) {
    const auto path = test::scratchDir("contain_collada") / (name + ".dae");
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

TEST(ContainAssimp, GeneratedTriangleImports) {
    const std::string path = writeCollada("good", skinnedTriangle());
    Result<Model> r = detail::importContained(path, kSmall);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(vertexCount(r.value()), 3u);
    EXPECT_EQ(skinJointCount(r.value()), 2u);
}

// assimp 5.2.5 reads a weight through ColladaLoader::ReadFloat, whose ai_assert on the index
// aborts the process (Debian builds keep ai_assert).
TEST(ContainAssimp, WeightIndexOutOfRangeAborts) {
    const std::string path = writeCollada("weight_index", skinnedTriangle("3", "1 1 1", "0 0 1 7 0 1"));
    expectStopped(detail::importContained(path, kSmall), "the importer stopped (signal 6: abort)");
}

// A joint index indexes a std::vector of bones unchecked: a push_back through a wild address.
TEST(ContainAssimp, JointIndexOutOfRangeCrashes) {
    const std::string path = writeCollada("joint_index", skinnedTriangle("3", "1 1 1", "0 0 4000000000 0 0 1"));
    expectStopped(detail::importContained(path, kSmall), "the importer stopped (signal 11: segmentation fault)");
}

// <vertex_weights count> sizes a value-initialised std::vector<size_t> (16 GB for 2e9), each
// <vcount> entry adds to a std::vector<std::pair<size_t, size_t>> (16 GB for 1e9): in process
// both are written before assimp finds the data missing.
TEST(ContainAssimp, HugeWeightCountsStopAtTheMemoryLimit) {
    const ContainLimits limits{512 * kMiB, 60.0};
    for (const auto& [name, text] : {std::pair{"weight_count", skinnedTriangle("2000000000")},
                                     std::pair{"vcount", skinnedTriangle("3", "1000000000 1 1")}}) {
        SCOPED_TRACE(name);
        expectStopped(detail::importContained(writeCollada(name, text), limits),
                      "out of memory while importing (memory limit of 512 MiB)");
    }
}

TEST(ContainAssimp, ImportModelIsContained) {
    ScopedEnv memory("THRONG_IMPORT_MEMORY_MB", "512");
    expectStopped(importModel(writeCollada("weight_index", skinnedTriangle("3", "1 1 1", "0 0 1 7 0 1"))),
                  "the importer stopped (signal 6: abort)");
    expectStopped(importModel(writeCollada("vcount", skinnedTriangle("3", "1000000000 1 1"))),
                  "out of memory while importing (memory limit of 512 MiB)");
    ScopedEnv bad("THRONG_IMPORT_SECONDS", "soon");
    Result<Model> r = importModel(writeCollada("good", skinnedTriangle()));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().message.rfind("THRONG_IMPORT_SECONDS must be", 0), 0u) << r.error().message;
}

// --- the CLI --------------------------------------------------------------------------------------

TEST(ContainCli, CrashIsOneErrorLineAndExit1) {
    const std::string path = writeCollada("weight_index", skinnedTriangle("3", "1 1 1", "0 0 1 7 0 1"));
    const test::CliRun r = test::runThrong("info " + path);
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "throng: error: " + path + ": the importer stopped (signal 6: abort)\n");
}

TEST(ContainCli, MemoryBombIsOneErrorLine) {
    const std::string path = writeCollada("vcount", skinnedTriangle("3", "1000000000 1 1"));
    const test::CliRun r = test::runThrong("info " + path, "THRONG_IMPORT_MEMORY_MB=512");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
    if (kAsan)
        EXPECT_EQ(r.err.rfind("throng: error: " + path + ": ", 0), 0u) << r.err;
    else
        EXPECT_EQ(r.err, "throng: error: " + path + ": out of memory while importing (memory limit of 512 MiB)\n");
}

TEST(ContainCli, InfoJsonIsOnlyJson) {
    THRONG_ASSET(dae, kCollada);
    const test::CliRun r = test::runThrong("info --json " + dae);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out); // throws on anything but JSON
    EXPECT_TRUE(j.is_object());
    EXPECT_EQ(r.err, "");
}

} // namespace
} // namespace throng
