// model_wire.cpp — Model <-> bytes for the contained importer; see model_wire.h.
//
// Layout: the magic "TMW1", then the Model's fields in declaration order. A vector is a u64 count
// followed by its elements; a string is serial.h's u32 length and bytes; glm vectors, quaternions
// and matrices are their raw floats; enumerations are one byte.
#include "model_wire.h"

#include "../format/serial.h"

#include <limits>
#include <string>
#include <type_traits>

namespace throng::detail {
namespace {

constexpr uint32_t kMagic = uint32_t('T') | uint32_t('M') << 8 | uint32_t('W') << 16 | uint32_t('1') << 24;

// Raw copies must not carry padding (its bytes are indeterminate) and must keep every float.
static_assert(sizeof(glm::vec2) == 8 && sizeof(glm::vec3) == 12 && sizeof(glm::vec4) == 16);
static_assert(sizeof(glm::quat) == 16 && sizeof(glm::mat4) == 64 && sizeof(glm::u16vec4) == 8);

// Tripwires: a field added to one of these structs changes its size; add it to the encoder, the
// decoder and contain_test's comparison, then update the number. Sizes are libstdc++'s.
#if defined(__GLIBCXX__) && (defined(__x86_64__) || defined(__aarch64__))
static_assert(sizeof(Transform) == 40 && sizeof(Skeleton) == 72 && sizeof(Skin) == 56);
static_assert(sizeof(PaletteEntry) == 68 && sizeof(Material) == 56 && sizeof(Texture) == 120);
static_assert(sizeof(Submesh) == 12 && sizeof(Mesh) == 232 && sizeof(Track) == 56 && sizeof(Clip) == 64);
static_assert(sizeof(Part) == 80 && sizeof(Look) == 128 && sizeof(Model) == 352);
#endif

// --- writing ----------------------------------------------------------------------------------

template <class T> void putRaw(ByteWriter& w, const std::vector<T>& values) {
    w.u64(values.size());
    w.array(values.data(), values.size());
}

template <class T, class Put> void putEach(ByteWriter& w, const std::vector<T>& values, Put put) {
    w.u64(values.size());
    for (const T& v : values) put(w, v);
}

void putString(ByteWriter& w, const std::string& s) { w.string(s); }

void putTransform(ByteWriter& w, const Transform& t) {
    w.array(&t.translation, 1);
    w.array(&t.rotation, 1);
    w.array(&t.scale, 1);
}

void putSkin(ByteWriter& w, const Skin& s) {
    w.string(s.name);
    putRaw(w, s.joints);
}

void putPaletteEntry(ByteWriter& w, const PaletteEntry& p) {
    w.u32(p.joint);
    w.array(&p.inverse_bind, 1);
}

void putSubmesh(ByteWriter& w, const Submesh& s) {
    w.u32(s.first_index);
    w.u32(s.index_count);
    w.i32(s.material);
}

void putMesh(ByteWriter& w, const Mesh& m) {
    w.string(m.name);
    putRaw(w, m.positions);
    putRaw(w, m.normals);
    putRaw(w, m.uvs);
    putRaw(w, m.colors);
    putRaw(w, m.joints);
    putRaw(w, m.weights);
    putRaw(w, m.indices);
    putEach(w, m.submeshes, putSubmesh);
    w.i32(m.skin);
    w.i32(m.rigid_joint);
}

void putMaterial(ByteWriter& w, const Material& m) {
    w.string(m.name);
    w.array(&m.base_color, 1);
    w.i32(m.texture);
}

void putTexture(ByteWriter& w, const Texture& t) {
    w.string(t.name);
    w.string(t.mime_type);
    w.string(t.uri);
    putRaw(w, t.encoded);
}

void putTrack(ByteWriter& w, const Track& t) {
    w.u32(t.joint);
    w.u8(uint8_t(t.target));
    w.u8(uint8_t(t.interpolation));
    putRaw(w, t.times);
    putRaw(w, t.values);
}

void putClip(ByteWriter& w, const Clip& c) {
    w.string(c.name);
    w.f32(c.duration);
    putEach(w, c.tracks, putTrack);
}

// --- reading ----------------------------------------------------------------------------------

// ByteReader plus the first semantic problem (an unknown enumeration value); after either kind
// of failure every read is a no-op, so decoding simply runs to the end and reports once.
class Reader {
  public:
    explicit Reader(std::span<const uint8_t> bytes) : in_(bytes.data(), bytes.size(), "model") {}

    bool failed() const { return in_.failed() || !problem_.empty(); }
    void fail(std::string why) {
        if (problem_.empty()) problem_ = std::move(why);
    }
    std::string problem() const {
        if (!problem_.empty()) return problem_;
        return in_.failed() ? "truncated" : "";
    }
    ByteReader& in() { return in_; }

    // A count of elements that each occupy at least `min_bytes` of the remaining input: refused
    // (0, failed) when the input cannot hold them, so nothing is allocated for a lying count.
    uint64_t count(uint64_t min_bytes) {
        const uint64_t n = in_.u64();
        if (failed()) return 0;
        if (n > std::numeric_limits<uint64_t>::max() / min_bytes || !in_.has(n * min_bytes)) {
            fail("a count of " + std::to_string(n) + " runs past the end");
            return 0;
        }
        return n;
    }

  private:
    ByteReader in_;
    std::string problem_;
};

template <class T> void getRaw(Reader& r, std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    const uint64_t n = r.count(sizeof(T));
    if (r.failed()) return;
    values.resize(size_t(n));
    r.in().array(values.data(), values.size());
}

// Elements appended one at a time, each after its bytes were read: the allocation follows the
// data actually present, whatever the count claims (the count check assumes a minimum of 4 bytes).
template <class T, class Get> void getEach(Reader& r, std::vector<T>& values, Get get) {
    const uint64_t n = r.count(4);
    for (uint64_t i = 0; i < n && !r.failed(); ++i) {
        T v{};
        get(r, v);
        if (!r.failed()) values.push_back(std::move(v));
    }
}

void getString(Reader& r, std::string& s) { s = r.in().string(); }

template <class T> void getValue(Reader& r, T& v) { r.in().array(&v, 1); }

void getTransform(Reader& r, Transform& t) {
    getValue(r, t.translation);
    getValue(r, t.rotation);
    getValue(r, t.scale);
}

void getSkin(Reader& r, Skin& s) {
    getString(r, s.name);
    getRaw(r, s.joints);
}

void getPaletteEntry(Reader& r, PaletteEntry& p) {
    p.joint = r.in().u32();
    getValue(r, p.inverse_bind);
}

void getSubmesh(Reader& r, Submesh& s) {
    s.first_index = r.in().u32();
    s.index_count = r.in().u32();
    s.material = r.in().i32();
}

void getMesh(Reader& r, Mesh& m) {
    getString(r, m.name);
    getRaw(r, m.positions);
    getRaw(r, m.normals);
    getRaw(r, m.uvs);
    getRaw(r, m.colors);
    getRaw(r, m.joints);
    getRaw(r, m.weights);
    getRaw(r, m.indices);
    getEach(r, m.submeshes, getSubmesh);
    m.skin = r.in().i32();
    m.rigid_joint = r.in().i32();
}

void getMaterial(Reader& r, Material& m) {
    getString(r, m.name);
    getValue(r, m.base_color);
    m.texture = r.in().i32();
}

void getTexture(Reader& r, Texture& t) {
    getString(r, t.name);
    getString(r, t.mime_type);
    getString(r, t.uri);
    getRaw(r, t.encoded);
}

void getTrack(Reader& r, Track& t) {
    t.joint = r.in().u32();
    const uint8_t target = r.in().u8(), interpolation = r.in().u8();
    if (target > uint8_t(TrackTarget::Scale)) r.fail("a track has target " + std::to_string(target));
    if (interpolation > uint8_t(Interpolation::CubicSpline))
        r.fail("a track has interpolation " + std::to_string(interpolation));
    t.target = TrackTarget(target);
    t.interpolation = Interpolation(interpolation);
    getRaw(r, t.times);
    getRaw(r, t.values);
}

void getClip(Reader& r, Clip& c) {
    getString(r, c.name);
    c.duration = r.in().f32();
    getEach(r, c.tracks, getTrack);
}

void putPart(ByteWriter& w, const Part& p) {
    w.string(p.name);
    w.string(p.slot);
    w.f32(p.share);
    w.u32(p.first_mesh);
    w.u32(p.mesh_count);
}

void getPart(Reader& r, Part& p) {
    getString(r, p.name);
    getString(r, p.slot);
    p.share = r.in().f32();
    p.first_mesh = r.in().u32();
    p.mesh_count = r.in().u32();
}

void putLook(ByteWriter& w, const Look& l) {
    w.string(l.name);
    putRaw(w, l.materials);
    putRaw(w, l.colors);
    putRaw(w, l.shares);
    putRaw(w, l.textures);
}

void getLook(Reader& r, Look& l) {
    getString(r, l.name);
    getRaw(r, l.materials);
    getRaw(r, l.colors);
    getRaw(r, l.shares);
    getRaw(r, l.textures);
}

} // namespace

std::vector<uint8_t> encodeModel(const Model& model) {
    ByteWriter w;
    w.u32(kMagic);
    w.string(model.source);
    w.string(model.format);
    putEach(w, model.skeleton.names, putString);
    putRaw(w, model.skeleton.parents);
    putEach(w, model.skeleton.rest, putTransform);
    putEach(w, model.skins, putSkin);
    putEach(w, model.palette, putPaletteEntry);
    putEach(w, model.meshes, putMesh);
    putEach(w, model.materials, putMaterial);
    putEach(w, model.textures, putTexture);
    putEach(w, model.clips, putClip);
    putEach(w, model.parts, putPart);
    putEach(w, model.looks, putLook);
    putEach(w, model.warnings, putString);
    return std::move(w.out);
}

Result<Model> decodeModel(std::span<const uint8_t> bytes) {
    Reader r(bytes);
    if (r.in().u32() != kMagic) return Error{"the importer's result is damaged: it does not start with a model"};
    Model model;
    getString(r, model.source);
    getString(r, model.format);
    getEach(r, model.skeleton.names, getString);
    getRaw(r, model.skeleton.parents);
    getEach(r, model.skeleton.rest, getTransform);
    getEach(r, model.skins, getSkin);
    getEach(r, model.palette, getPaletteEntry);
    getEach(r, model.meshes, getMesh);
    getEach(r, model.materials, getMaterial);
    getEach(r, model.textures, getTexture);
    getEach(r, model.clips, getClip);
    getEach(r, model.parts, getPart);
    getEach(r, model.looks, getLook);
    getEach(r, model.warnings, getString);
    if (r.failed()) return Error{"the importer's result is damaged: " + r.problem()};
    if (Status s = r.in().finish(); !s)
        return Error{"the importer's result is damaged: bytes left over after the model"};
    return model;
}

} // namespace throng::detail
