// The .throng file and BakedAsset helpers: IEEE half conversion (exhaustive), bit-exact round
// trips, atomic writes, and a reader that rejects every kind of damaged or hostile file with
// its own message. Hostile files are written here from docs/FORMAT.md alone (a second writer).
#include "test_util.h"

#include <throng/bake.h>
#include <throng/builtin.h>
#include <throng/format.h>

#include <gtest/gtest.h>
#include <zstd.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <random>

namespace fs = std::filesystem;
using namespace throng;

namespace {

using Bytes = std::vector<uint8_t>;

// --- Half ----------------------------------------------------------------------------------

TEST(Half, EveryHalfRoundTripsThroughFloat) {
    for (uint32_t h = 0; h < 65536; ++h) {
        const float f = halfToFloat(uint16_t(h));
        ASSERT_EQ(floatToHalf(f), h) << std::hex << h;
        const bool nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
        EXPECT_EQ(std::isnan(f), nan) << std::hex << h;
    }
}

TEST(Half, KnownValues) {
    EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
    EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
    EXPECT_EQ(floatToHalf(0.0f), 0x0000);
    EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
    EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
    EXPECT_EQ(floatToHalf(65519.996f), 0x7bff);
    EXPECT_EQ(floatToHalf(65520.0f), 0x7c00); // ties to even: infinity
    EXPECT_EQ(floatToHalf(1e10f), 0x7c00);
    EXPECT_EQ(floatToHalf(-INFINITY), 0xfc00);
    EXPECT_EQ(floatToHalf(0x1p-14f), 0x0400); // smallest normal
    EXPECT_EQ(floatToHalf(0x1p-24f), 0x0001); // smallest subnormal
    EXPECT_EQ(floatToHalf(0x1p-25f), 0x0000); // tie to even: zero
    EXPECT_EQ(floatToHalf(std::nextafter(0x1p-25f, 1.0f)), 0x0001);
    EXPECT_EQ(floatToHalf(1e-30f), 0x0000);
    EXPECT_EQ(floatToHalf(-1e-30f), 0x8000);
    EXPECT_EQ(floatToHalf(std::bit_cast<float>(0x7f800001u)) & 0x7c00u, 0x7c00u); // payload in dropped bits: still NaN
    EXPECT_NE(floatToHalf(std::bit_cast<float>(0x7f800001u)) & 0x3ffu, 0u);
    EXPECT_EQ(halfToFloat(0x3555), 0x1.554p-2f);
    EXPECT_EQ(halfToFloat(0x0001), 0x1p-24f);
    EXPECT_EQ(halfToFloat(0x03ff), 0x3ffp-24f);
}

// Rounding at every boundary: the midpoint between neighbouring halves goes to the even one,
// a float ulp either side goes to the nearer one.
TEST(Half, RoundsToNearestEvenAtEveryMidpoint) {
    for (uint32_t sign : {0u, 0x8000u})
        for (uint32_t h = 0; h < 0x7bff; ++h) {
            const uint16_t lo = uint16_t(sign | h), hi = uint16_t(sign | (h + 1));
            const float mid = (halfToFloat(lo) + halfToFloat(hi)) * 0.5f; // exact: 12 significant bits
            ASSERT_EQ(floatToHalf(mid), (h & 1u) ? hi : lo) << std::hex << h;
            const float towards_lo = std::nextafter(mid, halfToFloat(lo)),
                        towards_hi = std::nextafter(mid, halfToFloat(hi));
            ASSERT_EQ(floatToHalf(towards_lo), lo) << std::hex << h;
            ASSERT_EQ(floatToHalf(towards_hi), hi) << std::hex << h;
        }
}

#if defined(__FLT16_MAX__)
TEST(Half, MatchesTheCompilersFloat16) {
    std::mt19937 rng(7);
    for (int i = 0; i < 2000000; ++i) {
        const float f = std::bit_cast<float>(uint32_t(rng()));
        if (std::isnan(f)) continue;
        const _Float16 h = static_cast<_Float16>(f);
        ASSERT_EQ(floatToHalf(f), std::bit_cast<uint16_t>(h)) << f;
    }
}
#endif

// --- Assets --------------------------------------------------------------------------------

// The source animation of tinyAsset: 3 joints, 2 palette entries, clip "a" with a STEP, a
// CUBICSPLINE and a LINEAR track (values with odd bit patterns: -0, a subnormal), clip "b" empty.
AnimationSource tinySource() {
    AnimationSource src;
    src.skeleton.names = {"root", "arm", "hand"};
    src.skeleton.parents = {kNoParent, 0, 1};
    src.skeleton.rest = {
        Transform{}, Transform{glm::vec3(0.0f, 1.0f, -0.0f), glm::quat(0.6f, 0.0f, 0.8f, 0.0f), glm::vec3(1.0f)},
        Transform{glm::vec3(0.25f, 0.5f, 1e-40f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f), glm::vec3(2.0f, 1.0f, 0.5f)}};
    glm::mat4 ibm(1.0f);
    ibm[3] = glm::vec4(0.0f, -1.0f, 0.1f, 1.0f);
    src.palette = {PaletteEntry{1, ibm}, PaletteEntry{2, glm::mat4(0.5f)}};
    Clip a{"a", 0.5f, {}};
    a.tracks.push_back(Track{0,
                             TrackTarget::Translation,
                             Interpolation::Step,
                             {0.0f, 0.25f},
                             {glm::vec4(0.0f, -0.0f, 1e-40f, 0.0f), glm::vec4(2.0f, 0.0f, 0.0f, 7.0f)}});
    a.tracks.push_back(Track{1,
                             TrackTarget::Rotation,
                             Interpolation::CubicSpline,
                             {0.0f, 0.5f},
                             {glm::vec4(0.1f, -0.2f, 0.3f, 0.4f), glm::vec4(0.0f, 0.0f, 0.0f, 1.0f),
                              glm::vec4(-0.0f, 3.0f, 1e-38f, -5.0f), glm::vec4(0.5f), glm::vec4(0.0f, 0.6f, 0.0f, 0.8f),
                              glm::vec4(0.0f)}});
    a.tracks.push_back(Track{2,
                             TrackTarget::Scale,
                             Interpolation::Linear,
                             {0.125f, 0.25f, 0.375f},
                             {glm::vec4(1.0f), glm::vec4(1.5f, 1.0f, 0.75f, 0.0f), glm::vec4(1.0f)}});
    src.clips = {a, Clip{"b", 0.0f, {}}};
    return src;
}

// A small asset with every feature: two precisions, textures (one empty, one incompressible),
// a source animation with every interpolation.
BakedAsset tinyAsset(Precision precision) {
    BakedAsset a;
    a.name = "tiny";
    a.precision = precision;
    a.fps = 24.0f;
    a.joint_count = 2;
    a.max_frames = 3;
    a.clips = {BakedClip{"a", 0.5f, 3, true, {}}, BakedClip{"b", 0.0f, 1, false, {}}};
    for (BakedClip& c : a.clips)
        for (uint32_t f = 0; f < c.frame_count; ++f)
            c.frame_bounds.push_back(Bounds{glm::vec3(-1.0f - f), glm::vec3(1.5f + f)});
    const size_t n = a.texelCount() * 4;
    for (size_t i = 0; i < n; ++i) {
        const float v = std::sin(float(i)) * 3.0f;
        if (precision == Precision::Float16)
            a.animation_f16.push_back(floatToHalf(v));
        else
            a.animation_f32.push_back(v);
    }
    for (int v = 0; v < 4; ++v) {
        BakedVertex x{{float(v), 0.1f * v, -0.3f}, {0, 1, 0},   {0.25f, 0.75f}, {255, 128, 0, 255},
                      {uint16_t(v % 2), 0, 0, 0},  {1, 0, 0, 0}};
        a.vertices.push_back(x);
    }
    a.indices = {0, 1, 2, 2, 1, 3};
    a.submeshes = {BakedSubmesh{0, 3, glm::vec4(1, 0.5f, 0.25f, 1), 1}, BakedSubmesh{3, 3, glm::vec4(1), -1}};
    std::mt19937 rng(3);
    BakedTexture noise{"image/png", {}};
    for (int i = 0; i < 3000; ++i) noise.encoded.push_back(uint8_t(rng()));
    a.textures = {BakedTexture{"image/jpeg", {}}, noise};
    a.bind_bounds = Bounds{glm::vec3(0.0f, 0.0f, -0.3f), glm::vec3(3.0f, 0.3f, -0.3f)};
    a.source = tinySource();
    return a;
}

// tinyAsset with a second level of detail: triangle (0, 1, 3) for submesh 0, nothing for submesh 1.
BakedAsset withLods(BakedAsset a) {
    a.indices.insert(a.indices.end(), {0, 1, 3});
    a.lods = {BakedLod{0.0f, {{0, 3}, {3, 3}}}, BakedLod{0.25f, {{6, 3}, {9, 0}}}};
    return a;
}

template <class T> bool sameBytes(const std::vector<T>& a, const std::vector<T>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
bool sameBits(float a, float b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }
bool sameBits(const Bounds& a, const Bounds& b) { return std::memcmp(&a, &b, sizeof(Bounds)) == 0; }
template <class T> bool sameBits(const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

// Bit for bit: skeleton, palette, every key time and value of every track.
void expectIdentical(const AnimationSource& a, const AnimationSource& b) {
    EXPECT_EQ(a.skeleton.names, b.skeleton.names);
    EXPECT_EQ(a.skeleton.parents, b.skeleton.parents);
    ASSERT_EQ(a.skeleton.rest.size(), b.skeleton.rest.size());
    for (size_t j = 0; j < a.skeleton.rest.size(); ++j) {
        EXPECT_TRUE(sameBits(a.skeleton.rest[j].translation, b.skeleton.rest[j].translation)) << "joint " << j;
        EXPECT_TRUE(sameBits(a.skeleton.rest[j].rotation, b.skeleton.rest[j].rotation)) << "joint " << j;
        EXPECT_TRUE(sameBits(a.skeleton.rest[j].scale, b.skeleton.rest[j].scale)) << "joint " << j;
    }
    ASSERT_EQ(a.palette.size(), b.palette.size());
    for (size_t k = 0; k < a.palette.size(); ++k) {
        EXPECT_EQ(a.palette[k].joint, b.palette[k].joint);
        EXPECT_TRUE(sameBits(a.palette[k].inverse_bind, b.palette[k].inverse_bind)) << "palette entry " << k;
    }
    ASSERT_EQ(a.clips.size(), b.clips.size());
    for (size_t c = 0; c < a.clips.size(); ++c) {
        EXPECT_EQ(a.clips[c].name, b.clips[c].name);
        EXPECT_TRUE(sameBits(a.clips[c].duration, b.clips[c].duration));
        ASSERT_EQ(a.clips[c].tracks.size(), b.clips[c].tracks.size());
        for (size_t t = 0; t < a.clips[c].tracks.size(); ++t) {
            const Track &x = a.clips[c].tracks[t], &y = b.clips[c].tracks[t];
            EXPECT_EQ(x.joint, y.joint);
            EXPECT_EQ(x.target, y.target);
            EXPECT_EQ(x.interpolation, y.interpolation);
            EXPECT_TRUE(sameBytes(x.times, y.times)) << "clip " << c << " track " << t;
            EXPECT_TRUE(sameBytes(x.values, y.values)) << "clip " << c << " track " << t;
        }
    }
}

void expectIdentical(const BakedAsset& a, const BakedAsset& b) {
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.precision, b.precision);
    EXPECT_TRUE(sameBits(a.fps, b.fps));
    EXPECT_EQ(a.joint_count, b.joint_count);
    EXPECT_EQ(a.max_frames, b.max_frames);
    ASSERT_EQ(a.clips.size(), b.clips.size());
    for (size_t c = 0; c < a.clips.size(); ++c) {
        EXPECT_EQ(a.clips[c].name, b.clips[c].name);
        EXPECT_TRUE(sameBits(a.clips[c].duration, b.clips[c].duration));
        EXPECT_EQ(a.clips[c].frame_count, b.clips[c].frame_count);
        EXPECT_EQ(a.clips[c].loop, b.clips[c].loop);
        EXPECT_TRUE(sameBytes(a.clips[c].frame_bounds, b.clips[c].frame_bounds)) << "clip " << c;
    }
    EXPECT_TRUE(sameBytes(a.animation_f32, b.animation_f32));
    EXPECT_TRUE(sameBytes(a.animation_f16, b.animation_f16));
    EXPECT_TRUE(sameBytes(a.vertices, b.vertices));
    EXPECT_TRUE(sameBytes(a.indices, b.indices));
    ASSERT_EQ(a.submeshes.size(), b.submeshes.size());
    for (size_t s = 0; s < a.submeshes.size(); ++s) {
        EXPECT_EQ(a.submeshes[s].first_index, b.submeshes[s].first_index);
        EXPECT_EQ(a.submeshes[s].index_count, b.submeshes[s].index_count);
        EXPECT_EQ(std::memcmp(&a.submeshes[s].base_color, &b.submeshes[s].base_color, sizeof(glm::vec4)), 0);
        EXPECT_EQ(a.submeshes[s].texture, b.submeshes[s].texture);
    }
    ASSERT_EQ(a.textures.size(), b.textures.size());
    for (size_t t = 0; t < a.textures.size(); ++t) {
        EXPECT_EQ(a.textures[t].mime_type, b.textures[t].mime_type);
        EXPECT_TRUE(sameBytes(a.textures[t].encoded, b.textures[t].encoded));
    }
    EXPECT_TRUE(sameBits(a.bind_bounds, b.bind_bounds));
    ASSERT_EQ(a.lods.size(), b.lods.size());
    for (size_t l = 0; l < a.lods.size(); ++l) {
        EXPECT_TRUE(sameBits(a.lods[l].error, b.lods[l].error)) << "LOD " << l;
        EXPECT_EQ(a.lods[l].submeshes, b.lods[l].submeshes) << "LOD " << l;
    }
    EXPECT_TRUE(sameBytes(a.vat_f32, b.vat_f32));
    EXPECT_TRUE(sameBytes(a.vat_f16, b.vat_f16));
    expectIdentical(a.source, b.source);
}

Bytes slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), {});
}
void spit(const fs::path& p, const Bytes& b) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

TEST(Throng, ChecksumIsFnv1a64) {
    EXPECT_EQ(throngChecksum("", 0), 0xcbf29ce484222325ull);
    EXPECT_EQ(throngChecksum("a", 1), 0xaf63dc4c8601ec8cull);
    EXPECT_EQ(throngChecksum("foobar", 6), 0x85944171f73967e8ull);
    EXPECT_EQ(throngChecksum("bar", 3, throngChecksum("foo", 3)), 0x85944171f73967e8ull);
}

TEST(Throng, TinyRoundTripIsExact) {
    const auto dir = test::scratchDir("tiny");
    for (Precision p : {Precision::Float32, Precision::Float16}) {
        const BakedAsset a = tinyAsset(p);
        ASSERT_TRUE(validate(a).ok()) << validate(a).message;
        const std::string path = (dir / "tiny.throng").string();
        ASSERT_TRUE(writeThrong(a, path).ok());
        Result<BakedAsset> b = readThrong(path);
        ASSERT_TRUE(b.ok()) << b.error().message;
        expectIdentical(a, b.value());
    }
}

TEST(Throng, LodsRoundTripExactly) {
    const auto dir = test::scratchDir("lods");
    for (Precision p : {Precision::Float32, Precision::Float16}) {
        const BakedAsset a = withLods(tinyAsset(p));
        ASSERT_TRUE(validate(a).ok()) << validate(a).message;
        const std::string path = (dir / "tiny-lods.throng").string();
        ASSERT_TRUE(writeThrong(a, path).ok());
        Result<BakedAsset> b = readThrong(path);
        ASSERT_TRUE(b.ok()) << b.error().message;
        expectIdentical(a, b.value());
    }
}

TEST(Throng, WalkerRoundTripIsExact) {
    const auto dir = test::scratchDir("walker");
    for (Precision p : {Precision::Float32, Precision::Float16}) {
        Result<BakedAsset> a = bake(makeWalker(), BakeOptions{30.0f, p, {}});
        ASSERT_TRUE(a.ok()) << a.error().message;
        const std::string path = (dir / (std::string("walker-") + toString(p) + ".throng")).string();
        ASSERT_TRUE(writeThrong(a.value(), path).ok());
        Result<BakedAsset> b = readThrong(path);
        ASSERT_TRUE(b.ok()) << b.error().message;
        expectIdentical(a.value(), b.value());
        EXPECT_GE(b.value().lods.size(), 5u); // the LOD chain, bit for bit (expectIdentical)
        // Half texels take half the bytes, and zstd shrinks the whole well below the raw size.
        EXPECT_LT(fs::file_size(path), a.value().texelCount() * 16 + a.value().vertices.size() * 60);
    }
}

// The walker with a STEP translation track and a CUBICSPLINE rotation track (tangents made up,
// some of them -0 and subnormal), baked: the source round-trips bit for bit.
TEST(Throng, SourceWithEveryInterpolationRoundTripsExactly) {
    Model model = makeWalker();
    Clip& walk = model.clips[0];
    Track& hips = walk.tracks[0];
    ASSERT_EQ(hips.target, TrackTarget::Translation);
    hips.interpolation = Interpolation::Step;
    Track& spine = walk.tracks[1];
    ASSERT_EQ(spine.target, TrackTarget::Rotation);
    spine.interpolation = Interpolation::CubicSpline;
    std::vector<glm::vec4> cubic;
    for (size_t k = 0; k < spine.values.size(); ++k) {
        cubic.push_back(glm::vec4(0.01f * float(k), -0.0f, 1e-40f, -0.5f));
        cubic.push_back(spine.values[k]);
        cubic.push_back(glm::vec4(-0.02f, 0.03f * float(k), 0.0f, 1e-39f));
    }
    spine.values = cubic;
    ASSERT_TRUE(validate(model).ok()) << validate(model).message;
    Result<BakedAsset> a = bake(model, BakeOptions{30.0f, Precision::Float16, {}});
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_EQ(a.value().source.clips[0].tracks[1].values.size(), 3 * a.value().source.clips[0].tracks[1].times.size());
    const std::string path = (test::scratchDir("mixed") / "mixed.throng").string();
    ASSERT_TRUE(writeThrong(a.value(), path).ok());
    Result<BakedAsset> b = readThrong(path);
    ASSERT_TRUE(b.ok()) << b.error().message;
    expectIdentical(a.value(), b.value());
    EXPECT_EQ(b.value().source.clips[0].tracks[0].interpolation, Interpolation::Step);
    EXPECT_EQ(b.value().source.clips[0].tracks[1].interpolation, Interpolation::CubicSpline);
}

TEST(Throng, WriterRefusesAnInvalidAsset) {
    BakedAsset a = tinyAsset(Precision::Float32);
    a.indices[2] = 99;
    const Status s = writeThrong(a, (test::scratchDir("invalid") / "x.throng").string());
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message.find("index 2 = 99 out of range"), std::string::npos) << s.message;
}

TEST(BakedAsset, ValidateNamesTheProblem) {
    auto expectInvalid = [](BakedAsset a, const std::string& words) {
        const Status s = validate(a);
        ASSERT_FALSE(s.ok()) << words;
        EXPECT_NE(s.message.find(words), std::string::npos) << s.message;
    };
    BakedAsset a = tinyAsset(Precision::Float32);
    EXPECT_TRUE(validate(a).ok());
    a.clips.clear();
    expectInvalid(a, "no clips");
    a = tinyAsset(Precision::Float32);
    a.clips[0].frame_bounds.pop_back();
    expectInvalid(a, "clip 0 'a': 2 frame bounds for 3 frames");
    a = tinyAsset(Precision::Float32);
    a.max_frames = 4;
    expectInvalid(a, "max_frames");
    a = tinyAsset(Precision::Float32);
    a.animation_f32.pop_back();
    expectInvalid(a, "float32 animation has");
    a = tinyAsset(Precision::Float32);
    a.animation_f32[5] = NAN;
    expectInvalid(a, "animation value 5 is NaN");
    a = tinyAsset(Precision::Float32);
    a.vertices[1].joints[2] = 2;
    expectInvalid(a, "vertex 1: joint 2 out of range");
    a = tinyAsset(Precision::Float32);
    a.vertices[3].weights[0] = 0.5f;
    expectInvalid(a, "vertex 3: weights sum to");
    a = tinyAsset(Precision::Float32);
    a.submeshes[1].texture = 2;
    expectInvalid(a, "submesh 1: texture 2 out of range");
    a = tinyAsset(Precision::Float32);
    a.joint_count = 0;
    expectInvalid(a, "joint count 0 out of range");
    a = tinyAsset(Precision::Float16);
    a.animation_f16[0] = 0x7c00;
    expectInvalid(a, "animation value 0 is NaN or infinite");
}

TEST(BakedAsset, ValidateChecksTheSource) {
    auto expectInvalid = [](const BakedAsset& a, const std::string& words) {
        const Status s = validate(a);
        ASSERT_FALSE(s.ok()) << words;
        EXPECT_NE(s.message.find(words), std::string::npos) << s.message;
    };
    BakedAsset a = tinyAsset(Precision::Float32);
    a.source = AnimationSource{};
    EXPECT_TRUE(validate(a).ok()); // no source at all is fine
    a.source.clips = tinySource().clips;
    expectInvalid(a, "source: palette or clips without a skeleton");
    a = tinyAsset(Precision::Float32);
    a.source.palette.pop_back();
    expectInvalid(a, "source: 1 palette entries for joint count 2");
    a = tinyAsset(Precision::Float32);
    a.source.palette[1].joint = 3;
    expectInvalid(a, "source palette entry 1: joint 3 out of range (3 joints)");
    a = tinyAsset(Precision::Float32);
    a.source.palette[0].inverse_bind[2][1] = INFINITY;
    expectInvalid(a, "source palette entry 0: inverse bind matrix is NaN or infinite");
    a = tinyAsset(Precision::Float32);
    a.source.skeleton.parents[1] = 2;
    expectInvalid(a, "source joint 1 'arm': parent 2 comes after its child");
    a = tinyAsset(Precision::Float32);
    a.source.skeleton.parents[2] = -7;
    expectInvalid(a, "source joint 2 'hand': parent -7 out of range");
    a = tinyAsset(Precision::Float32);
    a.source.skeleton.names.pop_back();
    expectInvalid(a, "source skeleton: names, parents and rest pose differ in length");
    a = tinyAsset(Precision::Float32);
    a.source.skeleton.rest[1].rotation.w = NAN;
    expectInvalid(a, "source joint 1 'arm': rest transform is NaN or infinite");
    a = tinyAsset(Precision::Float32);
    a.source.clips.pop_back();
    expectInvalid(a, "source: 1 clips for 2 baked clips");
    a = tinyAsset(Precision::Float32);
    a.source.clips[1].name = "x";
    expectInvalid(a, "source clip 1 'x': name differs from baked clip 1 'b'");
    a = tinyAsset(Precision::Float32);
    a.source.clips[0].duration = 0.5001f;
    expectInvalid(a, "source clip 0 'a': duration 0.500100 differs from the baked 0.500000");
    a = tinyAsset(Precision::Float32);
    a.source.clips[0].duration = std::nextafter(0.5f, 1.0f); // within 1e-6 relative: the same
    EXPECT_TRUE(validate(a).ok()) << validate(a).message;
    a = tinyAsset(Precision::Float32);
    a.source.clips[0].tracks[2].joint = 9;
    expectInvalid(a, "source clip 0 'a' track 2: targets joint 9, which does not exist (3 joints)");
    a = tinyAsset(Precision::Float32);
    a.source.clips[0].tracks[1].values.pop_back();
    expectInvalid(a, "source clip 0 'a' track 1: 5 values for 2 keys (CUBICSPLINE)");
    a = tinyAsset(Precision::Float32);
    a.source.clips[0].tracks[2].times[2] = 0.25f;
    expectInvalid(a, "source clip 0 'a' track 2: key times not increasing at key 2");
    a = tinyAsset(Precision::Float32);
    a.source.clips[0].tracks[2].times[2] = 0.6f;
    expectInvalid(a, "source clip 0 'a' track 2: key after the clip's end");
    a = tinyAsset(Precision::Float32);
    a.source.clips[0].tracks[0].values[1].y = NAN;
    expectInvalid(a, "source clip 0 'a' track 0: value 1 is NaN or infinite");
    a = tinyAsset(Precision::Float32);
    a.source.clips[0].tracks[0].times.clear();
    a.source.clips[0].tracks[0].values.clear();
    expectInvalid(a, "source clip 0 'a' track 0: has no keys");
    a = tinyAsset(Precision::Float32);
    a.source.clips[0].tracks[1].interpolation = Interpolation::Linear;
    a.source.clips[0].tracks[1].values.resize(2, glm::vec4(0.0f, 0.0f, 0.0f, 2.0f));
    expectInvalid(a, "source clip 0 'a' track 1: rotation key 0 is not a unit quaternion");
    a = tinyAsset(Precision::Float32);
    a.source.clips[0].tracks[1].interpolation = Interpolation(3);
    expectInvalid(a, "source clip 0 'a' track 1: unknown target or interpolation");
}

TEST(BakedAsset, ValidateChecksTheLods) {
    auto expectInvalid = [](const BakedAsset& a, const std::string& words) {
        const Status s = validate(a);
        ASSERT_FALSE(s.ok()) << words;
        EXPECT_NE(s.message.find(words), std::string::npos) << s.message;
    };
    const BakedAsset good = withLods(tinyAsset(Precision::Float32));
    EXPECT_TRUE(validate(good).ok()) << validate(good).message;
    BakedAsset a = good;
    a.lods[1].submeshes[0].first_index = 7;
    expectInvalid(a, "LOD 1 submesh 0: index range 7 + 3 out of bounds (9 indices)");
    a = good;
    a.lods[1].submeshes[0].first_index = 0xfffffffeu;
    expectInvalid(a, "LOD 1 submesh 0: index range 4294967294 + 3 out of bounds (9 indices)");
    a = good;
    a.lods[1].submeshes[0].index_count = 2;
    expectInvalid(a, "LOD 1 submesh 0: index range 6 + 2: count not a multiple of 3");
    a = good;
    a.lods[1].submeshes.pop_back();
    expectInvalid(a, "LOD 1: 1 ranges for 2 submeshes");
    a = good;
    a.lods[1].error = NAN;
    expectInvalid(a, "LOD 1: error nan is NaN, infinite or negative");
    a.lods[1].error = INFINITY;
    expectInvalid(a, "LOD 1: error inf is NaN, infinite or negative");
    a.lods[1].error = -1.0f;
    expectInvalid(a, "LOD 1: error -1.000000 is NaN, infinite or negative");
    a = good;
    a.lods.push_back(BakedLod{0.125f, {{6, 3}, {9, 0}}});
    expectInvalid(a, "LOD 2: error 0.125000 is below LOD 1's 0.250000");
    a = good;
    a.lods[0].error = 0.5f;
    expectInvalid(a, "LOD 0: error 0.500000, not 0");
    a = good;
    a.lods[0].submeshes[1] = {6, 3};
    expectInvalid(a, "LOD 0 submesh 1: index range 6 + 3 differs from the submesh's");
    a = good;
    a.lods.resize(kMaxBakedLods + 1, a.lods[1]);
    expectInvalid(a, "9 LODs, more than the limit of 8");
    // No LODs at all: one level, the mesh.
    a = tinyAsset(Precision::Float32);
    EXPECT_TRUE(validate(a).ok());
    const std::vector<BakedLod> one = lodLevels(a);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].error, 0.0f);
    EXPECT_EQ(one[0].submeshes, (std::vector<BakedLodRange>{{0, 3}, {3, 3}}));
    EXPECT_EQ(one[0].triangleCount(), 2u);
    EXPECT_EQ(lodLevels(good).size(), 2u);
    EXPECT_EQ(lodLevels(good)[1].triangleCount(), 1u);
}

TEST(BakedAsset, ClipBoundsAreTheUnionOfTheFrames) {
    const BakedAsset a = tinyAsset(Precision::Float32);
    // Clip "a": frames f = 0..2 with bounds (-1 - f) .. (1.5 + f).
    const Bounds b = clipBounds(a.clips[0]);
    EXPECT_EQ(b.min, glm::vec3(-3.0f));
    EXPECT_EQ(b.max, glm::vec3(3.5f));
    BakedClip mixed{"m", 1.0f, 2, true, {Bounds{{0, -2, 1}, {1, 0, 2}}, Bounds{{-1, 0, 3}, {0, 5, 4}}}};
    const Bounds m = clipBounds(mixed);
    EXPECT_EQ(m.min, glm::vec3(-1, -2, 1));
    EXPECT_EQ(m.max, glm::vec3(1, 5, 4));
}

TEST(BakedAsset, TexelAndFrameTiming) {
    const BakedAsset a = tinyAsset(Precision::Float32);
    EXPECT_EQ(bakedTexel(a, 1, 2, 1, 2),
              glm::vec4(a.animation_f32[((1 * 3 + 2) * 6 + 5) * 4], a.animation_f32[((1 * 3 + 2) * 6 + 5) * 4 + 1],
                        a.animation_f32[((1 * 3 + 2) * 6 + 5) * 4 + 2],
                        a.animation_f32[((1 * 3 + 2) * 6 + 5) * 4 + 3]));
    EXPECT_EQ(bakedFrameCount(1.1f, 30.0f), 34u);
    EXPECT_EQ(bakedFrameCount(0.0f, 30.0f), 1u);
    EXPECT_EQ(bakedFrameCount(0.001f, 30.0f), 2u); // at least one interval
    EXPECT_EQ(bakedFrameCount(1e30f, 1000.0f), UINT32_MAX);
    BakedClip clip{"x", 1.1f, 34, true, {}};
    EXPECT_EQ(bakedFrameTime(clip, 0), 0.0);
    EXPECT_EQ(bakedFrameTime(clip, 33), double(1.1f));
    EXPECT_NEAR(bakedFrameTime(clip, 3), 0.1, 1e-7);
}

// --- A second writer, from docs/FORMAT.md ------------------------------------------------------

struct Section {
    std::string type; // four characters
    uint32_t flags = 0;
    Bytes stored;
    uint64_t raw = 0;
    std::optional<uint64_t> offset, stored_size, checksum; // overrides
};

// Not inlined: inlined into the tests' lambdas, GCC 12 (-O2) loses track of the resize and
// reports a false -Wstringop-overflow on the copy.
template <class T> [[gnu::noinline]] void put(Bytes& b, size_t at, T v) {
    if (b.size() < at + sizeof(T)) b.resize(at + sizeof(T));
    std::memcpy(b.data() + at, &v, sizeof(T));
}
template <class T> T get(const Bytes& b, size_t at) {
    T v{};
    std::memcpy(&v, b.data() + at, sizeof(T));
    return v;
}

Bytes build(const std::vector<Section>& sections, uint32_t version = kThrongFormatVersion) {
    Bytes f(48 + 40 * sections.size(), 0);
    std::memcpy(f.data(), "THRONG\0\0", 8);
    put<uint32_t>(f, 8, version);
    put<uint32_t>(f, 12, uint32_t(sections.size()));
    for (size_t i = 0; i < sections.size(); ++i) {
        const Section& s = sections[i];
        const size_t e = 48 + 40 * i;
        std::memcpy(f.data() + e, s.type.data(), 4);
        put<uint32_t>(f, e + 4, s.flags);
        put<uint64_t>(f, e + 8, s.offset.value_or(f.size()));
        put<uint64_t>(f, e + 16, s.stored_size.value_or(s.stored.size()));
        put<uint64_t>(f, e + 24, s.raw);
        put<uint64_t>(f, e + 32, s.checksum.value_or(throngChecksum(s.stored.data(), s.stored.size())));
        f.insert(f.end(), s.stored.begin(), s.stored.end());
    }
    put<uint64_t>(f, 16, f.size());
    const uint64_t sum = throngChecksum(f.data() + 48, 40 * sections.size(), throngChecksum(f.data(), 24));
    put<uint64_t>(f, 24, sum);
    return f;
}

Section rawSection(const std::string& type, Bytes payload) {
    Section s{type, 0, std::move(payload), 0, {}, {}, {}};
    s.raw = s.stored.size();
    return s;
}

Section zstdSection(const std::string& type, const Bytes& payload, uint64_t claimed_raw) {
    Bytes packed(ZSTD_compressBound(payload.size()));
    packed.resize(ZSTD_compress(packed.data(), packed.size(), payload.data(), payload.size(), 3));
    return Section{type, 1, packed, claimed_raw, {}, {}, {}};
}

// The raw payloads of a file written by writeThrong, by type, decompressed.
std::map<std::string, Bytes> payloads(const Bytes& file) {
    std::map<std::string, Bytes> out;
    const uint32_t n = get<uint32_t>(file, 12);
    for (uint32_t i = 0; i < n; ++i) {
        const size_t e = 48 + 40 * i;
        const std::string type(reinterpret_cast<const char*>(file.data() + e), 4);
        const uint32_t flags = get<uint32_t>(file, e + 4);
        const uint64_t offset = get<uint64_t>(file, e + 8), stored = get<uint64_t>(file, e + 16),
                       raw = get<uint64_t>(file, e + 24);
        Bytes bytes(file.begin() + ptrdiff_t(offset), file.begin() + ptrdiff_t(offset + stored));
        if (flags & 1u) {
            Bytes plain(raw);
            EXPECT_EQ(ZSTD_decompress(plain.data(), plain.size(), bytes.data(), bytes.size()), raw);
            bytes = plain;
        }
        out[type] = bytes;
    }
    return out;
}

class ThrongReader : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = test::scratchDir("reader");
        good_ = (dir_ / "good.throng").string();
        ASSERT_TRUE(writeThrong(tinyAsset(Precision::Float16), good_).ok());
        file_ = slurp(good_);
        raw_ = payloads(file_);
        ASSERT_EQ(raw_.size(), 9u);
    }
    // All sections uncompressed, in the writer's order.
    std::vector<Section> sections() const {
        std::vector<Section> out;
        for (const char* t : {"META", "CLIP", "ANIM", "VERT", "INDX", "SUBM", "TEXR", "SKEL", "TRAK"})
            out.push_back(rawSection(t, raw_.at(t)));
        return out;
    }
    std::string expectRejected(const Bytes& bytes, const std::string& words) {
        const std::string path = (dir_ / ("bad" + std::to_string(count_++) + ".throng")).string();
        spit(path, bytes);
        Result<BakedAsset> r = readThrong(path);
        EXPECT_FALSE(r.ok()) << words;
        if (r.ok()) return {};
        EXPECT_NE(r.error().message.find(words), std::string::npos) << "got: " << r.error().message;
        EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
        return r.error().message;
    }
    Section& find(std::vector<Section>& s, const std::string& type) {
        for (Section& x : s)
            if (x.type == type) return x;
        throw std::runtime_error("no section " + type);
    }

    fs::path dir_;
    std::string good_;
    Bytes file_;
    std::map<std::string, Bytes> raw_;
    int count_ = 0;
};

// LODS of withLods(), from the layout on the page: level count, submesh count, then per level
// its error and (first_index, index_count) per submesh.
Bytes pageLods() {
    Bytes b;
    put<uint32_t>(b, 0, 2);
    put<uint32_t>(b, 4, 2);
    put<float>(b, 8, 0.0f);
    for (uint32_t i = 0; i < 4; ++i) put<uint32_t>(b, 12 + 4 * i, i == 0 ? 0 : 3);
    put<float>(b, 28, 0.25f);
    for (uint32_t i = 0; i < 4; ++i) put<uint32_t>(b, 32 + 4 * i, std::array<uint32_t, 4>{6, 3, 9, 0}[i]);
    return b;
}

TEST_F(ThrongReader, TheSecondWriterAgreesWithTheFirst) {
    // Uncompressed sections, an unknown section (skipped) and another order all read back the same.
    std::vector<Section> s = sections();
    std::swap(s[0], s[5]);
    s.insert(s.begin() + 2, rawSection("FUTR", Bytes(100, 7)));
    const std::string path = (dir_ / "second.throng").string();
    spit(path, build(s));
    Result<BakedAsset> r = readThrong(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectIdentical(tinyAsset(Precision::Float16), r.value());
    // With levels of detail: INDX gains the second level's indices, LODS its ranges.
    Bytes indx;
    const uint32_t indices[] = {0, 1, 2, 2, 1, 3, 0, 1, 3};
    put<uint32_t>(indx, 0, 9);
    for (uint32_t i = 0; i < 9; ++i) put<uint32_t>(indx, 4 + 4 * i, indices[i]);
    find(s, "INDX") = rawSection("INDX", indx);
    s.push_back(rawSection("LODS", pageLods()));
    spit(path, build(s));
    r = readThrong(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectIdentical(withLods(tinyAsset(Precision::Float16)), r.value());
    ASSERT_TRUE(writeThrong(withLods(tinyAsset(Precision::Float16)), path).ok());
    EXPECT_EQ(payloads(slurp(path)).at("LODS"), pageLods());
}

// A file of version 1 (before LODS): one level, the mesh. A LODS section in it was unknown to
// version 1 and is skipped, whatever it holds.
TEST_F(ThrongReader, Version1FilesReadWithOneLod) {
    const std::string path = (dir_ / "v1.throng").string();
    spit(path, build(sections(), 1));
    Result<BakedAsset> r = readThrong(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectIdentical(tinyAsset(Precision::Float16), r.value());
    EXPECT_TRUE(r.value().lods.empty());
    const std::vector<BakedLod> levels = lodLevels(r.value());
    ASSERT_EQ(levels.size(), 1u);
    EXPECT_EQ(levels[0].submeshes, (std::vector<BakedLodRange>{{0, 3}, {3, 3}}));
    EXPECT_EQ(levels[0].error, 0.0f);
    std::vector<Section> s = sections();
    s.push_back(rawSection("LODS", Bytes(100, 7)));
    spit(path, build(s, 1));
    r = readThrong(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(r.value().lods.empty());
    expectRejected(build(s, 2), "section 'LODS': LOD count 117901063 out of range (1 .. 8)");
    // What the writer of version 1 wrote, byte for byte but the version: the same file.
    ASSERT_TRUE(writeThrong(tinyAsset(Precision::Float16), path).ok());
    Bytes v1 = slurp(path);
    EXPECT_EQ(get<uint32_t>(v1, 8), kThrongFormatVersion);
    put<uint32_t>(v1, 8, 1);
    put<uint64_t>(v1, 24, throngChecksum(v1.data() + 48, 40 * get<uint32_t>(v1, 12), throngChecksum(v1.data(), 24)));
    spit(path, v1);
    r = readThrong(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectIdentical(tinyAsset(Precision::Float16), r.value());
}

TEST_F(ThrongReader, HostileLods) {
    // withLods: INDX of 9 indices; LODS as pageLods() lays it out (count at 0, submeshes at 4,
    // LOD 0's error at 8 and ranges at 12, LOD 1's error at 28 and ranges at 32).
    Bytes indx;
    const uint32_t indices[] = {0, 1, 2, 2, 1, 3, 0, 1, 3};
    put<uint32_t>(indx, 0, 9);
    for (uint32_t i = 0; i < 9; ++i) put<uint32_t>(indx, 4 + 4 * i, indices[i]);
    auto with = [&](size_t at, auto value) {
        std::vector<Section> s = sections();
        find(s, "INDX") = rawSection("INDX", indx);
        Bytes lods = pageLods();
        put(lods, at, value);
        s.push_back(rawSection("LODS", lods));
        return build(s);
    };
    const std::string path = (dir_ / "lods.throng").string();
    spit(path, with(0, uint32_t(2)));
    Result<BakedAsset> r = readThrong(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectIdentical(withLods(tinyAsset(Precision::Float16)), r.value());

    expectRejected(with(0, uint32_t(0xffffffff)), "section 'LODS': LOD count 4294967295 out of range (1 .. 8)");
    expectRejected(with(0, uint32_t(0)), "section 'LODS': LOD count 0 out of range (1 .. 8)");
    expectRejected(with(0, uint32_t(3)), "section 'LODS': truncated: 3 LODs of 2 submeshes need 68 bytes");
    expectRejected(with(0, uint32_t(1)), "section 'LODS': 20 unexpected bytes after the content");
    expectRejected(with(4, uint32_t(1000000)), "section 'LODS': 1000000 submeshes, section 'SUBM' has 2");
    expectRejected(with(32, uint32_t(8)), "LOD 1 submesh 0: index range 8 + 3 out of bounds (9 indices)");
    expectRejected(with(32, uint32_t(0xfffffffe)), "LOD 1 submesh 0: index range 4294967294 + 3 out of bounds");
    expectRejected(with(44, uint32_t(0x7fffffff)), "LOD 1 submesh 1: index range 9 + 2147483647 out of bounds");
    expectRejected(with(36, uint32_t(2)), "LOD 1 submesh 0: index range 6 + 2: count not a multiple of 3");
    expectRejected(with(28, std::numeric_limits<float>::quiet_NaN()), "LOD 1: error nan is NaN, infinite or negative");
    expectRejected(with(28, std::numeric_limits<float>::infinity()), "LOD 1: error inf is NaN, infinite or negative");
    expectRejected(with(8, 0.5f), "LOD 0: error 0.500000, not 0");
    expectRejected(with(12, uint32_t(3)), "LOD 0 submesh 0: index range 3 + 3 differs from the submesh's");
    // A compressed LODS claiming more than 8 levels could need: refused before inflating.
    std::vector<Section> s = sections();
    find(s, "INDX") = rawSection("INDX", indx);
    s.push_back(zstdSection("LODS", pageLods(), uint64_t(1) << 30));
    expectRejected(build(s), "section 'LODS': 1073741824 bytes, more than 8 LODs of 2 submeshes take (168)");
    s.back() = rawSection("LODS", pageLods());
    s.push_back(s.back());
    expectRejected(build(s), "section 'LODS' appears twice");
}

TEST_F(ThrongReader, WrongMagic) {
    Bytes b = file_;
    b[0] = 'X';
    expectRejected(b, "not a .throng file (bad magic)");
    expectRejected(Bytes{'P', 'K', 3, 4}, "not a .throng file (bad magic)");
    expectRejected(Bytes{}, "truncated: file has 0 bytes");
}

TEST_F(ThrongReader, NewerVersion) {
    Bytes b = file_;
    put<uint32_t>(b, 8, kThrongFormatVersion + 1);
    expectRejected(b, "format version " + std::to_string(kThrongFormatVersion + 1) +
                          " is newer than this build reads (" + std::to_string(kThrongFormatVersion) + ")");
    expectRejected(build(sections(), 0), "format version 0 is not valid");
}

TEST_F(ThrongReader, FlippedByteInEachSectionNamesIt) {
    const uint32_t n = get<uint32_t>(file_, 12);
    for (uint32_t i = 0; i < n; ++i) {
        const size_t e = 48 + 40 * i;
        const std::string type(reinterpret_cast<const char*>(file_.data() + e), 4);
        const uint64_t offset = get<uint64_t>(file_, e + 8), stored = get<uint64_t>(file_, e + 16);
        for (uint64_t at : {offset, offset + stored / 2, offset + stored - 1}) {
            Bytes b = file_;
            b[size_t(at)] ^= 0x10;
            expectRejected(b, "section '" + type + "': checksum mismatch");
        }
    }
    Bytes b = file_;
    b[48 + 40 + 9] ^= 1; // the table: an offset
    expectRejected(b, "header: checksum mismatch");
}

TEST_F(ThrongReader, Truncated) {
    const uint64_t first = get<uint64_t>(file_, 48 + 8);
    for (size_t len : {size_t(4), size_t(20), size_t(47), size_t(48), size_t(60), size_t(48 + 40 * 7 - 1)})
        expectRejected(Bytes(file_.begin(), file_.begin() + ptrdiff_t(len)), "truncated");
    for (size_t len : {size_t(first), size_t(first + 5), file_.size() / 2, file_.size() - 1})
        expectRejected(Bytes(file_.begin(), file_.begin() + ptrdiff_t(len)),
                       "truncated: header says " + std::to_string(file_.size()) + " bytes, file has " +
                           std::to_string(len));
    Bytes longer = file_;
    longer.push_back(0);
    expectRejected(longer, "header says " + std::to_string(file_.size()));
}

TEST_F(ThrongReader, HostileTable) {
    std::vector<Section> s = sections();
    find(s, "ANIM").stored_size = uint64_t(1) << 40;
    expectRejected(build(s), "truncated: section 'ANIM' ends at byte");
    s = sections();
    find(s, "VERT").offset = UINT64_MAX - 3;
    expectRejected(build(s), "truncated: section 'VERT' ends past 2^64");
    s = sections();
    s.erase(s.begin() + 6);
    expectRejected(build(s), "missing section 'TEXR'");
    s = sections();
    s.push_back(s[1]);
    expectRejected(build(s), "section 'CLIP' appears twice");
    s = sections();
    find(s, "SUBM").flags = 6;
    expectRejected(build(s), "section 'SUBM': unknown flags 6");
    s = sections();
    find(s, "INDX").raw += 1;
    expectRejected(build(s), "section 'INDX': stored uncompressed in");
    Bytes b = build(sections());
    put<uint32_t>(b, 12, 0xffffffffu);
    expectRejected(b, "section count 4294967295 out of range");
    put<uint32_t>(b, 12, 4000);
    expectRejected(b, "truncated: section table ends at byte 160048");
}

TEST_F(ThrongReader, HostileCompression) {
    std::vector<Section> s = sections();
    find(s, "VERT") = zstdSection("VERT", raw_.at("VERT"), uint64_t(1) << 40);
    expectRejected(build(s), "section 'VERT': size 1099511627776 out of range");
    // Within the size limit but a lie the ratio gives away: refused before anything is inflated.
    find(s, "VERT") = zstdSection("VERT", raw_.at("VERT"), uint64_t(4) << 30);
    expectRejected(build(s),
                   "compressed bytes claim to inflate to 4294967296, more than 1024 times (refused before inflating)");
    // The frame states its size, and the table must agree with it.
    find(s, "VERT") = zstdSection("VERT", raw_.at("VERT"), raw_.at("VERT").size() - 1);
    expectRejected(build(s), "section 'VERT': zstd frame says " + std::to_string(raw_.at("VERT").size()) +
                                 " bytes, the table says " + std::to_string(raw_.at("VERT").size() - 1));
    Section garbage = zstdSection("VERT", raw_.at("VERT"), raw_.at("VERT").size());
    garbage.stored.resize(garbage.stored.size() / 2);
    find(s, "VERT") = garbage;
    expectRejected(build(s), "section 'VERT': ");
    garbage.stored = Bytes(64, 0xab);
    find(s, "VERT") = garbage;
    expectRejected(build(s), "section 'VERT': corrupt zstd data");
    Section trailing = zstdSection("VERT", raw_.at("VERT"), raw_.at("VERT").size());
    trailing.stored.push_back(0);
    find(s, "VERT") = trailing;
    expectRejected(build(s), "section 'VERT': data after the end of the zstd frame");
}

TEST_F(ThrongReader, HostileCounts) {
    auto with = [&](const std::string& type, size_t at, auto value) {
        std::vector<Section> s = sections();
        Bytes payload = raw_.at(type);
        put(payload, at, value);
        find(s, type) = rawSection(type, payload);
        return build(s);
    };
    expectRejected(with("CLIP", 0, uint32_t(0)), "section 'CLIP': clip count is 0");
    expectRejected(with("CLIP", 0, uint32_t(0xffffffff)), "section 'CLIP': clip count 4294967295 out of range");
    // Clip 0: name length 4 + "a" (1), duration 4, then its frame count.
    expectRejected(with("CLIP", 4 + 4 + 1 + 4, uint32_t(0)), "section 'CLIP': clip 0 has frame count 0");
    expectRejected(with("CLIP", 4 + 4 + 1 + 4, uint32_t(0x7fffffff)),
                   "section 'CLIP': clip 0 frame count 2147483647 out of range");
    expectRejected(with("CLIP", 4, uint32_t(0xfffffff0)), "section 'CLIP': truncated");
    expectRejected(with("META", 8, uint32_t(0x10000000)), "section 'META': joint count 268435456 out of range");
    expectRejected(with("META", 8, uint32_t(3)),
                   "section 'ANIM': 288 bytes, expected 432 for 2 clips x 3 frames x 9 texels (half)");
    expectRejected(with("META", 12, uint32_t(7)), "section 'META': max frames 7 differs from the longest clip (3)");
    expectRejected(with("META", 0, uint32_t(9)), "section 'META': unknown precision 9");
    expectRejected(with("VERT", 0, uint32_t(0xffffffff)), "section 'VERT': vertex count 4294967295 out of range");
    expectRejected(with("VERT", 0, uint32_t(3)), "section 'VERT': 60 unexpected bytes after the content");
    expectRejected(with("INDX", 0, uint32_t(0x40000000)), "section 'INDX': index count 1073741824 out of range");
    expectRejected(with("INDX", 4 + 4 * 4, uint32_t(4)), "index 4 = 4 out of range (4 vertices)");
    expectRejected(with("SUBM", 0, uint32_t(0x20000000)), "section 'SUBM': submesh count 536870912 out of range");
    expectRejected(with("SUBM", 4 + 4, uint32_t(0xfffffffd)), "submesh 0: index range out of bounds");
    expectRejected(with("TEXR", 0, uint32_t(0xffffffff)), "section 'TEXR': texture count 4294967295 out of range");
    // Texture 0: mime length 4 + "image/jpeg" (10), then its byte count.
    expectRejected(with("TEXR", 4 + 4 + 10, uint32_t(0xffffff00)),
                   "section 'TEXR': texture of 4294967040 bytes runs past");
    expectRejected(with("CLIP", 4 + 4 + 1 + 4 + 4, uint32_t(2)), "section 'CLIP': clip 0 has unknown flags 2");
}

TEST_F(ThrongReader, WithoutTheSourceSectionsTheSourceIsEmpty) {
    // A file as a writer from before SKEL and TRAK wrote it: everything else reads the same.
    std::vector<Section> s = sections();
    s.erase(s.begin() + 7, s.end());
    const std::string path = (dir_ / "no-source.throng").string();
    spit(path, build(s));
    Result<BakedAsset> r = readThrong(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_TRUE(r.value().source.empty());
    EXPECT_TRUE(r.value().source.palette.empty() && r.value().source.clips.empty());
    BakedAsset expected = tinyAsset(Precision::Float16);
    expected.source = AnimationSource{};
    expectIdentical(expected, r.value());
    // The writer leaves them out for an asset without a source.
    ASSERT_TRUE(writeThrong(expected, path).ok());
    EXPECT_EQ(get<uint32_t>(slurp(path), 12), 7u);
    // One without the other is an error.
    s = sections();
    s.erase(s.begin() + 8);
    expectRejected(build(s), "section 'SKEL' without section 'TRAK'");
    s = sections();
    s.erase(s.begin() + 7);
    expectRejected(build(s), "section 'TRAK' without section 'SKEL'");
    s = sections();
    s.push_back(s[8]);
    expectRejected(build(s), "section 'TRAK' appears twice");
}

TEST_F(ThrongReader, HostileSourceCounts) {
    auto with = [&](const std::string& type, size_t at, auto value) {
        std::vector<Section> s = sections();
        Bytes payload = raw_.at(type);
        put(payload, at, value);
        find(s, type) = rawSection(type, payload);
        return build(s);
    };
    // SKEL: joint count, 3 joints ("root", "arm", "hand": 4 + name + 4 + 40 bytes each), then
    // the palette count and 2 entries of 68 bytes.
    const size_t skel_palette = raw_.at("SKEL").size() - 2 * 68 - 4;
    ASSERT_EQ(skel_palette, 4u + 52 + 51 + 52);
    expectRejected(with("SKEL", 0, uint32_t(0)), "section 'SKEL': joint count is 0");
    expectRejected(with("SKEL", 0, uint32_t(0xffffffff)), "section 'SKEL': joint count 4294967295 out of range");
    expectRejected(with("SKEL", 0, uint32_t(4)), "section 'SKEL': palette entry count");
    expectRejected(with("SKEL", 4, uint32_t(0xfffffff0)), "section 'SKEL': truncated");
    expectRejected(with("SKEL", skel_palette, uint32_t(0xffffffff)),
                   "section 'SKEL': palette entry count 4294967295 out of range");
    expectRejected(with("SKEL", skel_palette, uint32_t(3)), "section 'SKEL': palette entry count 3 out of range");
    expectRejected(with("SKEL", skel_palette, uint32_t(1)), "section 'SKEL': 68 unexpected bytes after the content");
    expectRejected(with("SKEL", 4 + 52 + 4 + 3, int32_t(2)), "source joint 1 'arm': parent 2 comes after its child");
    expectRejected(with("SKEL", skel_palette + 4 + 68, uint32_t(3)),
                   "source palette entry 1: joint 3 out of range (3 joints)");
    // TRAK: clip count; clip 0: name length 4 + "a" (1), duration 4, track count 4; its track 0:
    // joint (at 17), target (21), interpolation (22), key count (23).
    expectRejected(with("TRAK", 0, uint32_t(0xffffffff)), "section 'TRAK': clip count 4294967295 out of range");
    expectRejected(with("TRAK", 0, uint32_t(1)), "section 'TRAK': 13 unexpected bytes after the content");
    expectRejected(with("TRAK", 0, uint32_t(3)), "section 'TRAK': truncated");
    expectRejected(with("TRAK", 0, uint32_t(100)), "section 'TRAK': clip count 100 out of range");
    expectRejected(with("TRAK", 4, uint32_t(0xfffffff0)), "section 'TRAK': truncated");
    expectRejected(with("TRAK", 13, uint32_t(0xffffffff)),
                   "section 'TRAK': clip 0 track count 4294967295 out of range");
    expectRejected(with("TRAK", 13, uint32_t(0x10000000)), "section 'TRAK': clip 0 track count 268435456 out of range");
    expectRejected(with("TRAK", 17, uint32_t(5)), "source clip 0 'a' track 0: targets joint 5, which does not exist");
    expectRejected(with("TRAK", 21, uint8_t(3)), "section 'TRAK': clip 0 track 0 has unknown target 3");
    expectRejected(with("TRAK", 22, uint8_t(200)), "section 'TRAK': clip 0 track 0 has unknown interpolation 200");
    expectRejected(with("TRAK", 23, uint32_t(0xffffffff)),
                   "section 'TRAK': clip 0 track 0 key count 4294967295 out of range");
    expectRejected(with("TRAK", 23, uint32_t(0x40000000)),
                   "section 'TRAK': clip 0 track 0 key count 1073741824 out of range");
    expectRejected(with("TRAK", 9, 0.75f), "source clip 0 'a': duration 0.750000 differs from the baked 0.500000");
    expectRejected(with("TRAK", 27 + 4, 0.0f), "source clip 0 'a' track 0: key times not increasing at key 1");
}

TEST_F(ThrongReader, TexelLimit) {
    // 1 clip x 1400 frames x 65536 joints x 3 = 275 M texels, over the limit, in a 34 KB file.
    std::vector<Section> s = sections();
    Bytes meta = raw_.at("META");
    put<uint32_t>(meta, 8, 65536);
    put<uint32_t>(meta, 12, 1400);
    find(s, "META") = rawSection("META", meta);
    Bytes clip;
    put<uint32_t>(clip, 0, 1);
    put<uint32_t>(clip, 4, 1);
    clip.push_back('a');
    put<float>(clip, 9, 1.0f);
    put<uint32_t>(clip, 13, 1400);
    put<uint32_t>(clip, 17, 1);
    clip.resize(21 + 1400 * 24, 0);
    find(s, "CLIP") = rawSection("CLIP", clip);
    expectRejected(build(s),
                   "animation of 1 clips x 1400 frames x 196608 texels out of range (limit 268435456 texels)");
}

TEST_F(ThrongReader, RandomBytesNeverCrash) {
    std::mt19937 rng(11);
    for (int i = 0; i < 200; ++i) {
        Bytes b(size_t(rng() % 600));
        for (uint8_t& x : b) x = uint8_t(rng());
        if (i % 2 == 0 && b.size() >= 8) std::memcpy(b.data(), "THRONG\0\0", 8);
        const std::string path = (dir_ / "random.throng").string();
        spit(path, b);
        EXPECT_FALSE(readThrong(path).ok());
    }
    // Random damage to a good file, with the checksums recomputed so the parsers see it.
    for (int i = 0; i < 300; ++i) {
        std::vector<Section> s = sections();
        Section& victim = s[rng() % s.size()];
        if (!victim.stored.empty())
            for (int k = 0; k < 4; ++k) victim.stored[rng() % victim.stored.size()] = uint8_t(rng());
        const std::string path = (dir_ / "damaged.throng").string();
        spit(path, build(s));
        Result<BakedAsset> r = readThrong(path);
        if (r.ok()) {
            EXPECT_TRUE(validate(r.value()).ok());
        }
    }
}

TEST_F(ThrongReader, MissingFileAndDirectory) {
    Result<BakedAsset> r = readThrong((dir_ / "nope.throng").string());
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("cannot open: no such file"), std::string::npos) << r.error().message;
    r = readThrong(dir_.string());
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("is a directory"), std::string::npos) << r.error().message;
}

// --- Atomic writes -------------------------------------------------------------------------

size_t filesIn(const fs::path& dir) {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
    return n;
}

TEST(ThrongWrite, MissingDirectoryFailsCleanly) {
    const auto dir = test::scratchDir("write");
    const Status s = writeThrong(tinyAsset(Precision::Float32), (dir / "no" / "such" / "x.throng").string());
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message.find("the folder does not exist"), std::string::npos) << s.message;
    EXPECT_EQ(filesIn(dir), 0u);
}

TEST(ThrongWrite, ReplacesAnExistingFileWhole) {
    const auto dir = test::scratchDir("write");
    const std::string path = (dir / "x.throng").string();
    spit(path, Bytes(1 << 20, 0x55)); // larger than what replaces it: no old tail may remain
    const BakedAsset a = tinyAsset(Precision::Float32);
    ASSERT_TRUE(writeThrong(a, path).ok());
    EXPECT_LT(fs::file_size(path), size_t(1) << 20);
    Result<BakedAsset> r = readThrong(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectIdentical(a, r.value());
    EXPECT_EQ(filesIn(dir), 1u);
}

TEST(ThrongWrite, FailedWriteLeavesTheTargetAndNoTemporary) {
    const auto dir = test::scratchDir("write");
    const fs::path target = dir / "x.throng";
    fs::create_directories(target / "inside");
    const Status s = writeThrong(tinyAsset(Precision::Float32), target.string());
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message.find("is a directory, not a regular file: refusing to replace it"), std::string::npos)
        << s.message;
    EXPECT_TRUE(fs::is_directory(target / "inside"));
    EXPECT_EQ(filesIn(dir), 1u); // no x.throng.tmp-* left behind
}

} // namespace

// --- Vertex animation (VATX) ---------------------------------------------------------------

namespace {

// tinyAsset with vertex animation texels (odd values, -0 among them) in its precision.
BakedAsset withVat(BakedAsset a) {
    const size_t n = size_t(a.vatTexelCount()) * 4;
    for (size_t i = 0; i < n; ++i) {
        const float v = i == 5 ? -0.0f : std::cos(float(i)) * 2.0f;
        if (a.precision == Precision::Float16)
            a.vat_f16.push_back(floatToHalf(v));
        else
            a.vat_f32.push_back(v);
    }
    return a;
}

} // namespace

TEST(Throng, VatRoundTripIsExact) {
    const auto dir = test::scratchDir("vat");
    for (Precision p : {Precision::Float32, Precision::Float16}) {
        const BakedAsset a = withVat(tinyAsset(p));
        ASSERT_TRUE(a.hasVat());
        ASSERT_TRUE(validate(a).ok()) << validate(a).message;
        const std::string path = (dir / "tiny-vat.throng").string();
        ASSERT_TRUE(writeThrong(a, path).ok());
        EXPECT_EQ(get<uint32_t>(slurp(path), 12), 10u); // the nine sections and VATX
        Result<BakedAsset> b = readThrong(path);
        ASSERT_TRUE(b.ok()) << b.error().message;
        EXPECT_TRUE(b.value().hasVat());
        expectIdentical(a, b.value());
    }
    BakeOptions o;
    o.vat = true;
    Result<BakedAsset> walker = bake(makeWalker(), o);
    ASSERT_TRUE(walker.ok()) << walker.error().message;
    const std::string path = (dir / "walker-vat.throng").string();
    ASSERT_TRUE(writeThrong(walker.value(), path).ok());
    Result<BakedAsset> b = readThrong(path);
    ASSERT_TRUE(b.ok()) << b.error().message;
    expectIdentical(walker.value(), b.value());
}

TEST(BakedAsset, ValidateChecksTheVertexAnimation) {
    const BakedAsset good = withVat(tinyAsset(Precision::Float32));
    BakedAsset a = good;
    a.vat_f32.pop_back();
    EXPECT_NE(validate(a).message.find("float32 vertex animation has 191 values, expected 192"), std::string::npos)
        << validate(a).message;
    a = good;
    a.vat_f32[7] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_NE(validate(a).message.find("vertex animation value 7 is NaN or infinite"), std::string::npos)
        << validate(a).message;
    a = good;
    a.vat_f16.push_back(0);
    EXPECT_NE(validate(a).message.find("(and none of the other precision)"), std::string::npos) << validate(a).message;
    a = withVat(tinyAsset(Precision::Float16));
    a.vat_f16[3] = 0x7c00u;
    EXPECT_NE(validate(a).message.find("vertex animation value 3 is NaN or infinite"), std::string::npos)
        << validate(a).message;
}

TEST_F(ThrongReader, HostileVat) {
    // tinyAsset: 2 clips x 3 frames x (2 x 4 vertices) texels of half = 48 texels, 384 bytes.
    const BakedAsset vat = withVat(tinyAsset(Precision::Float16));
    ASSERT_TRUE(writeThrong(vat, good_).ok());
    const Bytes vatx = payloads(slurp(good_)).at("VATX");
    ASSERT_EQ(vatx.size(), 384u);
    std::vector<Section> s = sections();
    s.push_back(rawSection("VATX", vatx));
    const std::string path = (dir_ / "vat.throng").string();
    spit(path, build(s));
    Result<BakedAsset> r = readThrong(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    expectIdentical(vat, r.value());
    // Short, long, twice, and a zstd frame that claims gigabytes: rejected before decompressing.
    s.back() = rawSection("VATX", Bytes(vatx.begin(), vatx.end() - 8));
    expectRejected(build(s), "section 'VATX': 376 bytes, expected 384 for 2 clips x 3 frames x 8 texels (half)");
    Bytes longer = vatx;
    longer.push_back(0);
    s.back() = rawSection("VATX", longer);
    expectRejected(build(s), "section 'VATX': 385 bytes, expected 384");
    s.back() = zstdSection("VATX", vatx, uint64_t(1) << 32);
    expectRejected(build(s), "section 'VATX': 4294967296 bytes, expected 384");
    s.back() = rawSection("VATX", vatx);
    s.push_back(s.back());
    expectRejected(build(s), "section 'VATX' appears twice");
    // A non-finite value is caught by validate.
    s.pop_back();
    Bytes inf = vatx;
    put<uint16_t>(inf, 10, uint16_t(0x7c00));
    s.back() = rawSection("VATX", inf);
    expectRejected(build(s), "vertex animation value 5 is NaN or infinite");
}

namespace {

// tinyAsset (2 clips) with impostors of 2 x 2 texels, one view, one picture per clip.
BakedAsset withImpostors(BakedAsset a) {
    BakedImpostors& im = a.impostors;
    im.tile = 2;
    im.azimuths = 1;
    im.elevations = 1;
    im.fps = 1.0f;
    im.center = glm::vec3(0.0f, 0.5f, 0.0f);
    im.radius = 1.0f;
    im.frames = {1, 1};
    im.max_frames = 1;
    for (size_t i = 0; i < im.bytesPerImage(); ++i) {
        im.color.push_back(uint8_t(i * 7));
        im.normal.push_back(uint8_t(255 - i));
    }
    return a;
}

} // namespace

TEST_F(ThrongReader, HostileImpostors) {
    const BakedAsset im = withImpostors(tinyAsset(Precision::Float32));
    ASSERT_TRUE(validate(im).ok()) << validate(im).message;
    ASSERT_TRUE(writeThrong(im, good_).ok());
    const Bytes imps = payloads(slurp(good_)).at("IMPS");
    ASSERT_EQ(imps.size(), 4u * 9 + 8 + 2 * 32); // header, two frame counts, two images of 2 x 2 x 2 clips x 4 bytes
    std::vector<Section> s = sections();
    s.push_back(rawSection("IMPS", imps));
    const std::string path = (dir_ / "impostors.throng").string();
    spit(path, build(s));
    Result<BakedAsset> r = readThrong(path);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r.value().impostors.color, im.impostors.color);
    EXPECT_EQ(r.value().impostors.normal, im.impostors.normal);
    EXPECT_EQ(r.value().impostors.frames, im.impostors.frames);
    // Short images, absurd sizes, a clip count that is not CLIP's, too many pictures: one line each.
    s.back() = rawSection("IMPS", Bytes(imps.begin(), imps.end() - 1));
    expectRejected(build(s), "section 'IMPS': truncated: two images of 32 bytes expected");
    Bytes bad = imps;
    put<uint32_t>(bad, 0, 100000u);
    s.back() = rawSection("IMPS", bad);
    expectRejected(build(s), "section 'IMPS': tile 100000, 1 x 1 views out of range");
    bad = imps;
    put<uint32_t>(bad, 32, 3u);
    s.back() = rawSection("IMPS", bad);
    expectRejected(build(s), "section 'IMPS': 3 clips, section 'CLIP' has 2");
    bad = imps;
    put<uint32_t>(bad, 36, 10000u);
    s.back() = rawSection("IMPS", bad);
    expectRejected(build(s), "section 'IMPS': a clip of 10000 pictures of 2 texels");
    bad = imps;
    put<float>(bad, 28, -1.0f);
    s.back() = rawSection("IMPS", bad);
    expectRejected(build(s), "impostors: sphere not finite or empty");
    s.back() = rawSection("IMPS", imps);
    s.push_back(s.back());
    expectRejected(build(s), "section 'IMPS' appears twice");
}
