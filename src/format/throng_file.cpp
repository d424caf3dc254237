// throng_file.cpp — the .throng file (docs/FORMAT.md): a header, a section table, then
// checksummed, optionally zstd-compressed sections, all little-endian.
//
// The reader treats every byte as hostile: each count is checked against the bytes that hold it
// before anything is allocated, decompression grows its buffer only as output really arrives,
// and every failure is a one-line Error naming the section.
#include <throng/format.h>

#include "serial.h"

#include <throng/files.h>

#include <zstd.h>
#include <zstd_errors.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>

namespace throng {
namespace {

using detail::ByteReader;
using detail::Bytes;
using detail::ByteWriter;

constexpr char kMagic[8] = {'T', 'H', 'R', 'O', 'N', 'G', '\0', '\0'};
constexpr size_t kHeaderSize = 48;
constexpr size_t kEntrySize = 40;
constexpr size_t kChecksummedHeaderBytes = 24; // magic, version, section count, file size
constexpr uint32_t kMaxSections = 4096;
constexpr uint64_t kMaxSectionBytes = uint64_t(1) << 33; // 8 GiB decompressed
constexpr uint32_t kFlagZstd = 1u;
// A compressed section may inflate at most this many times its stored size (plus the slack, for
// tiny sections): checked before anything is inflated. The writer stores a section uncompressed
// where zstd would beat this ratio, so every file it writes is readable.
constexpr uint64_t kMaxInflation = 1024;
constexpr uint64_t kInflationSlack = 4096;
constexpr int kZstdLevel = 6;
constexpr size_t kSectionAlignment = 16;

constexpr uint32_t fourcc(const char (&s)[5]) {
    return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
           uint32_t(uint8_t(s[3])) << 24;
}
constexpr uint32_t kMeta = fourcc("META"), kClip = fourcc("CLIP"), kAnim = fourcc("ANIM"), kVert = fourcc("VERT"),
                   kIndx = fourcc("INDX"), kSubm = fourcc("SUBM"), kTexr = fourcc("TEXR");
constexpr uint32_t kRequired[] = {kMeta, kClip, kAnim, kVert, kIndx, kSubm, kTexr};
// Optional within version 1 (older readers skip them): the source animation, both or neither.
constexpr uint32_t kSkel = fourcc("SKEL"), kTrak = fourcc("TRAK");
// Optional too: vertex animation texels (technique `vat`), absent unless baked with --vat.
constexpr uint32_t kVatx = fourcc("VATX");
// Optional since version 2: levels of detail (index ranges into INDX). A version-1 file's LODS,
// should one exist, is an unknown section and skipped, as a version-1 reader did.
constexpr uint32_t kLods = fourcc("LODS");
constexpr uint32_t kLodsSince = 2;
// Optional within version 2 (older readers skip it): animated impostors (BakedImpostors).
constexpr uint32_t kImps = fourcc("IMPS");
// Optional within version 2 (older readers skip it and draw the clips in place): root motion
// (throng/root_motion.h).
constexpr uint32_t kRoot = fourcc("ROOT");
// Optional within version 2 (older readers skip it): animation events (throng/events.h).
constexpr uint32_t kEvnt = fourcc("EVNT");
// Optional within version 2, only beside IMPS and only when not linear (older readers skip it and
// take the pictures as they are): how the impostors' poses blend joints (BakedImpostors::skinning).
constexpr uint32_t kImsk = fourcc("IMSK");
// Optional within version 2 (issue #25's parts; older readers skip it and draw every part on
// every member): props and kit parts (BakedAsset::props).
constexpr uint32_t kPart = fourcc("PART");
// Optional within version 2 (issue #25's looks; older readers skip it and draw every member in
// the materials' own colours): colours that vary by member (BakedAsset::looks, throng/looks.h).
constexpr uint32_t kLook = fourcc("LOOK");
// Optional within version 2, after LOOK (texture variants; older readers skip it and draw the
// looks' materials with their own textures): each look's textures (BakedLook::textures).
constexpr uint32_t kLookTextures = fourcc("LKTX");
constexpr uint32_t kOptional[] = {kSkel, kTrak, kVatx, kLods, kImps, kRoot, kEvnt, kImsk, kPart, kLook, kLookTextures};
constexpr size_t kMinJointBytes = 4 + 4 + 40;     // name length, parent, TRS
constexpr size_t kPaletteEntryBytes = 4 + 64;     // joint, inverse bind
constexpr size_t kMinSourceClipBytes = 4 + 4 + 4; // name length, duration, track count
constexpr size_t kMinTrackBytes = 4 + 1 + 1 + 4;  // joint, target, interpolation, key count
static_assert(sizeof(glm::vec3) == 12 && sizeof(glm::vec4) == 16 && sizeof(glm::mat4) == 64,
              "vec3, vec4 and mat4 are stored as packed floats");

std::string typeName(uint32_t type) {
    std::string s;
    for (int i = 0; i < 4; ++i) {
        const char c = char((type >> (8 * i)) & 0xffu);
        s += (c >= 32 && c < 127) ? c : '?';
    }
    return s;
}

std::string sectionName(uint32_t type) { return "section '" + typeName(type) + "'"; }

struct Entry {
    uint32_t type = 0, flags = 0;
    uint64_t offset = 0, stored = 0, raw = 0, checksum = 0;
};

// --- Writing -----------------------------------------------------------------------------

Bytes metaSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.precision));
    w.f32(a.fps);
    w.u32(a.joint_count);
    w.u32(a.max_frames);
    w.bounds(a.bind_bounds);
    w.string(a.name);
    return std::move(w.out);
}

Bytes clipSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.clips.size()));
    for (const BakedClip& c : a.clips) {
        w.string(c.name);
        w.f32(c.duration);
        w.u32(c.frame_count);
        w.u32(c.loop ? 1u : 0u);
        for (const Bounds& b : c.frame_bounds) w.bounds(b);
    }
    return std::move(w.out);
}

Bytes animSection(const BakedAsset& a) {
    ByteWriter w;
    if (a.precision == Precision::Float16)
        w.array(a.animation_f16.data(), a.animation_f16.size());
    else
        w.array(a.animation_f32.data(), a.animation_f32.size());
    return std::move(w.out);
}

// VATX: like ANIM, no header: the vertex animation texels in the asset's precision.
Bytes vatxSection(const BakedAsset& a) {
    ByteWriter w;
    if (a.precision == Precision::Float16)
        w.array(a.vat_f16.data(), a.vat_f16.size());
    else
        w.array(a.vat_f32.data(), a.vat_f32.size());
    return std::move(w.out);
}

Bytes vertSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.vertices.size()));
    w.array(a.vertices.data(), a.vertices.size());
    return std::move(w.out);
}

Bytes indxSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.indices.size()));
    w.array(a.indices.data(), a.indices.size());
    return std::move(w.out);
}

Bytes submSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.submeshes.size()));
    for (const BakedSubmesh& s : a.submeshes) {
        w.u32(s.first_index);
        w.u32(s.index_count);
        for (int i = 0; i < 4; ++i) w.f32(s.base_color[i]);
        w.i32(s.texture);
    }
    return std::move(w.out);
}

Bytes texrSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.textures.size()));
    for (const BakedTexture& t : a.textures) {
        w.string(t.mime_type);
        w.u32(uint32_t(t.encoded.size()));
        w.array(t.encoded.data(), t.encoded.size());
    }
    return std::move(w.out);
}

// SKEL: the skeleton (names, parents, rest TRS) and the skinning palette.
Bytes skelSection(const AnimationSource& src) {
    ByteWriter w;
    w.u32(src.skeleton.size());
    for (uint32_t j = 0; j < src.skeleton.size(); ++j) {
        const Transform& t = src.skeleton.rest[j];
        w.string(src.skeleton.names[j]);
        w.i32(src.skeleton.parents[j]);
        const float trs[10] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x, t.rotation.y,
                               t.rotation.z,    t.rotation.w,    t.scale.x,       t.scale.y,    t.scale.z};
        w.array(trs, 10);
    }
    w.u32(uint32_t(src.palette.size()));
    for (const PaletteEntry& e : src.palette) {
        w.u32(e.joint);
        w.array(&e.inverse_bind, 1); // 16 floats, column-major as glm stores them
    }
    return std::move(w.out);
}

// TRAK: the source clips and their tracks, keys as stored (CubicSpline: 3 values per key).
Bytes trakSection(const AnimationSource& src) {
    ByteWriter w;
    w.u32(uint32_t(src.clips.size()));
    for (const Clip& c : src.clips) {
        w.string(c.name);
        w.f32(c.duration);
        w.u32(uint32_t(c.tracks.size()));
        for (const Track& t : c.tracks) {
            w.u32(t.joint);
            w.u8(uint8_t(t.target));
            w.u8(uint8_t(t.interpolation));
            w.u32(uint32_t(t.times.size()));
            w.array(t.times.data(), t.times.size());
            w.array(t.values.data(), t.values.size()); // x, y, z, w each
        }
    }
    return std::move(w.out);
}

// LODS: level count, submesh count, then per level its error and a range per submesh.
Bytes lodsSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.lods.size()));
    w.u32(uint32_t(a.submeshes.size()));
    for (const BakedLod& lod : a.lods) {
        w.f32(lod.error);
        for (const BakedLodRange& r : lod.submeshes) {
            w.u32(r.first_index);
            w.u32(r.index_count);
        }
    }
    return std::move(w.out);
}

// IMPS: tile, azimuths, elevations, fps, centre (3 floats), radius, clip count, frames per clip,
// then the colour image's bytes and the normal image's (baked.h, BakedImpostors).
Bytes impsSection(const BakedAsset& a) {
    const BakedImpostors& im = a.impostors;
    ByteWriter w;
    w.u32(im.tile);
    w.u32(im.azimuths);
    w.u32(im.elevations);
    w.f32(im.fps);
    for (int i = 0; i < 3; ++i) w.f32(im.center[i]);
    w.f32(im.radius);
    w.u32(uint32_t(im.frames.size()));
    w.array(im.frames.data(), im.frames.size());
    w.array(im.color.data(), im.color.size());
    w.array(im.normal.data(), im.normal.size());
    return std::move(w.out);
}

// IMSK: the impostors' skinning (0 linear, 1 dual quaternions).
Bytes imskSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.impostors.skinning));
    return std::move(w.out);
}

// ROOT: the joint's name, clip count, then per clip: pivot (x, z), frame count (the clip's, or 0:
// no curve), (d.x, d.z, yaw) per frame (throng/root_motion.h).
Bytes rootSection(const BakedAsset& a) {
    ByteWriter w;
    w.string(a.root_joint);
    w.u32(uint32_t(a.clips.size()));
    for (const BakedClip& c : a.clips) {
        w.f32(c.root_pivot.x);
        w.f32(c.root_pivot.y);
        w.u32(uint32_t(c.root_motion.size()));
        for (const glm::vec3& m : c.root_motion)
            for (int i = 0; i < 3; ++i) w.f32(m[i]);
    }
    return std::move(w.out);
}

// EVNT: clip count, then per clip: event count, (time, name) per event (throng/events.h).
Bytes evntSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.clips.size()));
    for (const BakedClip& c : a.clips) {
        w.u32(uint32_t(c.events.size()));
        for (const ClipEvent& e : c.events) {
            w.f32(e.time);
            w.string(e.name);
        }
    }
    return std::move(w.out);
}

// PART: prop count, then per prop: name, slot, share, joint, first submesh, submesh count, first
// vertex, vertex count, offset (16 floats, column-major).
Bytes partSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.props.size()));
    for (const BakedProp& p : a.props) {
        w.string(p.name);
        w.string(p.slot);
        w.f32(p.share);
        for (uint32_t v : {p.joint, p.first_submesh, p.submesh_count, p.first_vertex, p.vertex_count}) w.u32(v);
        w.array(&p.offset, 1);
    }
    return std::move(w.out);
}

// LOOK: look count, then per look: name, submesh count, the submeshes (u32 each), colour count,
// the colours (linear RGB, 3 f32 each), share count (0 or the colour count), the shares (f32).
// A look's number is its place in the section.
Bytes lookSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.looks.size()));
    for (const BakedLook& l : a.looks) {
        w.string(l.name);
        w.u32(uint32_t(l.submeshes.size()));
        w.array(l.submeshes.data(), l.submeshes.size());
        w.u32(uint32_t(l.colors.size()));
        w.array(l.colors.data(), l.colors.size());
        w.u32(uint32_t(l.shares.size()));
        w.array(l.shares.data(), l.shares.size());
    }
    return std::move(w.out);
}

// LKTX: look count (LOOK's), then per look: texture count (0 or its colour count), the textures
// (i32 each, indices into the asset's textures).
Bytes lookTextureSection(const BakedAsset& a) {
    ByteWriter w;
    w.u32(uint32_t(a.looks.size()));
    for (const BakedLook& l : a.looks) {
        w.u32(uint32_t(l.textures.size()));
        w.array(l.textures.data(), l.textures.size());
    }
    return std::move(w.out);
}

// Compressed when that saves bytes (encoded PNG/JPEG textures usually do not shrink) and stays
// within the reader's kMaxInflation.
Result<Bytes> storeSection(const Bytes& raw, uint32_t* flags) {
    *flags = 0;
    if (raw.empty()) return Bytes{};
    Bytes packed(ZSTD_compressBound(raw.size()));
    const size_t n = ZSTD_compress(packed.data(), packed.size(), raw.data(), raw.size(), kZstdLevel);
    if (ZSTD_isError(n)) return Error{std::string("zstd compression failed: ") + ZSTD_getErrorName(n)};
    if (n >= raw.size()) return raw;
    if (raw.size() > n * kMaxInflation + kInflationSlack) return raw; // the reader would refuse the ratio
    packed.resize(n);
    *flags = kFlagZstd;
    return packed;
}

// --- Reading -----------------------------------------------------------------------------

// Inflates one section into a buffer of exactly `raw_size` bytes, allocated once. loadSection has
// already bounded raw_size by kMaxInflation times the stored bytes, so a header that lies costs
// at most that; the frame's own content size, where it states one, must agree with the table.
Result<Bytes> decompress(const uint8_t* src, size_t size, uint64_t raw_size, const std::string& what) {
    const size_t frame = ZSTD_findFrameCompressedSize(src, size);
    if (ZSTD_isError(frame))
        return Error{what + (ZSTD_getErrorCode(frame) == ZSTD_error_srcSize_wrong
                                 ? std::string(": zstd data ends early")
                                 : ": corrupt zstd data (" + std::string(ZSTD_getErrorName(frame)) + ")")};
    if (frame != size) return Error{what + ": data after the end of the zstd frame"};
    const unsigned long long declared = ZSTD_getFrameContentSize(src, size);
    if (declared == ZSTD_CONTENTSIZE_ERROR) return Error{what + ": corrupt zstd data (no frame header)"};
    if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != raw_size)
        return Error{what + ": zstd frame says " + std::to_string(declared) + " bytes, the table says " +
                     std::to_string(raw_size)};
    std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> ctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
    if (!ctx) return Error{what + ": out of memory for zstd"};
    Bytes out(static_cast<size_t>(raw_size));
    const size_t n = ZSTD_decompressDCtx(ctx.get(), out.data(), out.size(), src, size);
    if (ZSTD_isError(n)) {
        if (ZSTD_getErrorCode(n) == ZSTD_error_dstSize_tooSmall)
            return Error{what + ": decompresses to more than the " + std::to_string(raw_size) +
                         " bytes the table says"};
        if (ZSTD_getErrorCode(n) == ZSTD_error_srcSize_wrong) return Error{what + ": zstd data ends early"};
        return Error{what + ": corrupt zstd data (" + ZSTD_getErrorName(n) + ")"};
    }
    if (n != raw_size)
        return Error{what + ": decompressed to " + std::to_string(n) + " bytes, the table says " +
                     std::to_string(raw_size)};
    return out;
}

// The raw bytes of one section whose checksum was verified.
Result<Bytes> loadSection(std::span<const uint8_t> file, const Entry& e) {
    const std::string what = sectionName(e.type);
    const uint8_t* stored = file.data() + e.offset;
    if ((e.flags & ~kFlagZstd) != 0) return Error{what + ": unknown flags " + std::to_string(e.flags)};
    if (e.raw > kMaxSectionBytes)
        return Error{what + ": size " + std::to_string(e.raw) + " out of range (limit " +
                     std::to_string(kMaxSectionBytes) + ")"};
    if ((e.flags & kFlagZstd) != 0 && e.raw > e.stored * kMaxInflation + kInflationSlack)
        return Error{what + ": " + std::to_string(e.stored) + " compressed bytes claim to inflate to " +
                     std::to_string(e.raw) + ", more than " + std::to_string(kMaxInflation) +
                     " times (refused before inflating)"};
    if ((e.flags & kFlagZstd) == 0) {
        if (e.raw != e.stored)
            return Error{what + ": stored uncompressed in " + std::to_string(e.stored) + " bytes, the table says " +
                         std::to_string(e.raw)};
        return Bytes(stored, stored + e.stored);
    }
    return decompress(stored, size_t(e.stored), e.raw, what);
}

Status parseMeta(ByteReader& r, BakedAsset& a) {
    const uint32_t precision = r.u32();
    a.fps = r.f32();
    a.joint_count = r.u32();
    a.max_frames = r.u32();
    a.bind_bounds = r.bounds();
    a.name = r.string();
    if (r.failed()) return r.status();
    if (precision > uint32_t(Precision::Float16))
        return Status::failure("section 'META': unknown precision " + std::to_string(precision));
    a.precision = Precision(precision);
    return r.finish();
}

Status parseClips(ByteReader& r, BakedAsset& a) {
    constexpr size_t kMinClipBytes = 16; // name length, duration, frame count, flags
    const uint32_t count = r.u32();
    if (r.failed()) return r.status();
    if (count == 0) return Status::failure("section 'CLIP': clip count is 0");
    if (!r.has(uint64_t(count) * kMinClipBytes))
        return Status::failure("section 'CLIP': clip count " + std::to_string(count) + " out of range");
    a.clips.resize(count);
    for (uint32_t c = 0; c < count; ++c) {
        BakedClip& clip = a.clips[c];
        clip.name = r.string();
        clip.duration = r.f32();
        clip.frame_count = r.u32();
        const uint32_t flags = r.u32();
        if (r.failed()) return r.status();
        if (flags > 1u)
            return Status::failure("section 'CLIP': clip " + std::to_string(c) + " has unknown flags " +
                                   std::to_string(flags));
        clip.loop = (flags & 1u) != 0;
        if (clip.frame_count == 0)
            return Status::failure("section 'CLIP': clip " + std::to_string(c) + " has frame count 0");
        if (!r.has(uint64_t(clip.frame_count) * 24))
            return Status::failure("section 'CLIP': clip " + std::to_string(c) + " frame count " +
                                   std::to_string(clip.frame_count) + " out of range");
        clip.frame_bounds.resize(clip.frame_count);
        for (Bounds& b : clip.frame_bounds) b = r.bounds();
    }
    return r.finish();
}

// Sizes from META and CLIP decide how large ANIM must be, before it is decompressed.
Result<uint64_t> animBytes(const BakedAsset& a) {
    if (a.joint_count == 0 || a.joint_count > kMaxBakedJoints)
        return Error{"section 'META': joint count " + std::to_string(a.joint_count) + " out of range"};
    uint32_t longest = 0;
    for (const BakedClip& c : a.clips) longest = std::max(longest, c.frame_count);
    if (a.max_frames != longest)
        return Error{"section 'META': max frames " + std::to_string(a.max_frames) + " differs from the longest clip (" +
                     std::to_string(longest) + ")"};
    const uint64_t texels = uint64_t(a.clips.size()) * a.max_frames * 3 * uint64_t(a.joint_count);
    if (texels > kMaxBakedTexels)
        return Error{"animation of " + std::to_string(a.clips.size()) + " clips x " + std::to_string(a.max_frames) +
                     " frames x " + std::to_string(3 * uint64_t(a.joint_count)) + " texels out of range (limit " +
                     std::to_string(kMaxBakedTexels) + " texels)"};
    return texels * 4 * (a.precision == Precision::Float16 ? 2 : 4);
}

Status parseAnim(ByteReader& r, BakedAsset& a) {
    const size_t components = size_t(a.texelCount()) * 4;
    if (a.precision == Precision::Float16) {
        a.animation_f16.resize(components);
        r.array(a.animation_f16.data(), components);
    } else {
        a.animation_f32.resize(components);
        r.array(a.animation_f32.data(), components);
    }
    return r.finish();
}

// Sizes from META, CLIP and VERT decide how large VATX must be, before it is decompressed.
Result<uint64_t> vatxBytes(const BakedAsset& a) {
    const uint64_t texels = a.vatTexelCount();
    if (texels > kMaxBakedTexels)
        return Error{"section 'VATX': vertex animation of " + std::to_string(a.clips.size()) + " clips x " +
                     std::to_string(a.max_frames) + " frames x " + std::to_string(a.vatTexelsPerRow()) +
                     " texels out of range (limit " + std::to_string(kMaxBakedTexels) + " texels)"};
    if (texels == 0) return Error{"section 'VATX': present but the asset has no vertices"};
    return texels * 4 * (a.precision == Precision::Float16 ? 2 : 4);
}

Status parseVat(ByteReader& r, BakedAsset& a) {
    const size_t components = size_t(a.vatTexelCount()) * 4;
    if (a.precision == Precision::Float16) {
        a.vat_f16.resize(components);
        r.array(a.vat_f16.data(), components);
    } else {
        a.vat_f32.resize(components);
        r.array(a.vat_f32.data(), components);
    }
    return r.finish();
}

// LODS bytes for `levels` levels of the asset's submeshes (header included).
uint64_t lodsBytes(const BakedAsset& a, uint64_t levels) { return 8 + levels * (4 + 8 * uint64_t(a.submeshes.size())); }

// The structure only (counts against SUBM and the bytes); validate() checks every range against
// INDX, LOD 0 against SUBM and the errors.
Status parseLods(ByteReader& r, BakedAsset& a) {
    const uint32_t count = r.u32(), submeshes = r.u32();
    if (r.failed()) return r.status();
    if (count == 0 || count > kMaxBakedLods)
        return Status::failure("section 'LODS': LOD count " + std::to_string(count) + " out of range (1 .. " +
                               std::to_string(kMaxBakedLods) + ")");
    if (submeshes != a.submeshes.size())
        return Status::failure("section 'LODS': " + std::to_string(submeshes) + " submeshes, section 'SUBM' has " +
                               std::to_string(a.submeshes.size()));
    if (!r.has(lodsBytes(a, count) - 8))
        return Status::failure("section 'LODS': truncated: " + std::to_string(count) + " LODs of " +
                               std::to_string(submeshes) + " submeshes need " + std::to_string(lodsBytes(a, count)) +
                               " bytes");
    a.lods.resize(count);
    for (BakedLod& lod : a.lods) {
        lod.error = r.f32();
        lod.submeshes.resize(submeshes);
        for (BakedLodRange& range : lod.submeshes) {
            range.first_index = r.u32();
            range.index_count = r.u32();
        }
    }
    return r.finish();
}

template <class T> Status parseCounted(ByteReader& r, std::vector<T>& out, const char* what) {
    const uint32_t count = r.u32();
    if (r.failed()) return r.status();
    if (!r.has(uint64_t(count) * sizeof(T)))
        return Status::failure(std::string("section '") + r.name() + "': " + what + " count " + std::to_string(count) +
                               " out of range");
    out.resize(count);
    r.array(out.data(), count);
    return r.finish();
}

Status parseSubmeshes(ByteReader& r, BakedAsset& a) {
    const uint32_t count = r.u32();
    if (r.failed()) return r.status();
    if (!r.has(uint64_t(count) * 28))
        return Status::failure("section 'SUBM': submesh count " + std::to_string(count) + " out of range");
    a.submeshes.resize(count);
    for (BakedSubmesh& s : a.submeshes) {
        s.first_index = r.u32();
        s.index_count = r.u32();
        for (int i = 0; i < 4; ++i) s.base_color[i] = r.f32();
        s.texture = r.i32();
    }
    return r.finish();
}

Status parseTextures(ByteReader& r, BakedAsset& a) {
    const uint32_t count = r.u32();
    if (r.failed()) return r.status();
    if (!r.has(uint64_t(count) * 8))
        return Status::failure("section 'TEXR': texture count " + std::to_string(count) + " out of range");
    a.textures.resize(count);
    for (BakedTexture& t : a.textures) {
        t.mime_type = r.string();
        const uint32_t size = r.u32();
        if (r.failed()) return r.status();
        if (!r.has(size))
            return Status::failure("section 'TEXR': texture of " + std::to_string(size) +
                                   " bytes runs past the section's end");
        t.encoded.resize(size);
        r.array(t.encoded.data(), size);
    }
    return r.finish();
}

Status parseSkeleton(ByteReader& r, AnimationSource& src) {
    const uint32_t joints = r.u32();
    if (r.failed()) return r.status();
    if (joints == 0) return Status::failure("section 'SKEL': joint count is 0");
    if (!r.has(uint64_t(joints) * kMinJointBytes))
        return Status::failure("section 'SKEL': joint count " + std::to_string(joints) + " out of range");
    Skeleton& sk = src.skeleton;
    sk.names.resize(joints);
    sk.parents.resize(joints);
    sk.rest.resize(joints);
    for (uint32_t j = 0; j < joints; ++j) {
        sk.names[j] = r.string();
        sk.parents[j] = r.i32();
        float trs[10];
        r.array(trs, 10);
        sk.rest[j].translation = glm::vec3(trs[0], trs[1], trs[2]);
        sk.rest[j].rotation = glm::quat(trs[6], trs[3], trs[4], trs[5]); // (w, x, y, z)
        sk.rest[j].scale = glm::vec3(trs[7], trs[8], trs[9]);
    }
    const uint32_t entries = r.u32();
    if (r.failed()) return r.status();
    if (!r.has(uint64_t(entries) * kPaletteEntryBytes))
        return Status::failure("section 'SKEL': palette entry count " + std::to_string(entries) + " out of range");
    src.palette.resize(entries);
    for (PaletteEntry& e : src.palette) {
        e.joint = r.u32();
        r.array(&e.inverse_bind, 1);
    }
    return r.finish();
}

Status parseTracks(ByteReader& r, AnimationSource& src) {
    const uint32_t count = r.u32();
    if (r.failed()) return r.status();
    if (!r.has(uint64_t(count) * kMinSourceClipBytes))
        return Status::failure("section 'TRAK': clip count " + std::to_string(count) + " out of range");
    src.clips.resize(count);
    for (uint32_t c = 0; c < count; ++c) {
        Clip& clip = src.clips[c];
        const std::string where = "section 'TRAK': clip " + std::to_string(c);
        clip.name = r.string();
        clip.duration = r.f32();
        const uint32_t tracks = r.u32();
        if (r.failed()) return r.status();
        if (!r.has(uint64_t(tracks) * kMinTrackBytes))
            return Status::failure(where + " track count " + std::to_string(tracks) + " out of range");
        clip.tracks.resize(tracks);
        for (uint32_t i = 0; i < tracks; ++i) {
            Track& t = clip.tracks[i];
            t.joint = r.u32();
            const uint8_t target = r.u8(), interpolation = r.u8();
            const uint32_t keys = r.u32();
            if (r.failed()) return r.status();
            const std::string tw = where + " track " + std::to_string(i);
            if (target > uint8_t(TrackTarget::Scale))
                return Status::failure(tw + " has unknown target " + std::to_string(target));
            if (interpolation > uint8_t(Interpolation::CubicSpline))
                return Status::failure(tw + " has unknown interpolation " + std::to_string(interpolation));
            t.target = TrackTarget(target);
            t.interpolation = Interpolation(interpolation);
            const uint64_t values = uint64_t(keys) * (t.interpolation == Interpolation::CubicSpline ? 3 : 1);
            if (!r.has(uint64_t(keys) * 4 + values * 16))
                return Status::failure(tw + " key count " + std::to_string(keys) + " out of range");
            t.times.resize(keys);
            r.array(t.times.data(), keys);
            t.values.resize(size_t(values));
            r.array(t.values.data(), size_t(values));
        }
    }
    return r.finish();
}

// The header and counts are checked before the images are allocated; validate() checks the rest.
Status parseImpostors(ByteReader& r, BakedAsset& a) {
    BakedImpostors im;
    im.tile = r.u32();
    im.azimuths = r.u32();
    im.elevations = r.u32();
    im.fps = r.f32();
    for (int i = 0; i < 3; ++i) im.center[i] = r.f32();
    im.radius = r.f32();
    const uint32_t clips = r.u32();
    if (r.failed()) return r.status();
    if (im.tile < 1 || im.tile > 256 || im.azimuths < 1 || im.azimuths > 64 || im.elevations < 1 || im.elevations > 16)
        return Status::failure("section 'IMPS': tile " + std::to_string(im.tile) + ", " + std::to_string(im.azimuths) +
                               " x " + std::to_string(im.elevations) + " views out of range");
    if (clips != a.clips.size())
        return Status::failure("section 'IMPS': " + std::to_string(clips) + " clips, section 'CLIP' has " +
                               std::to_string(a.clips.size()));
    if (!r.has(uint64_t(clips) * 4)) return Status::failure("section 'IMPS': truncated frame counts");
    im.frames.resize(clips);
    r.array(im.frames.data(), clips);
    for (uint32_t f : im.frames) {
        if (f == 0 || uint64_t(f) * im.tile > kMaxImpostorTexels)
            return Status::failure("section 'IMPS': a clip of " + std::to_string(f) + " pictures of " +
                                   std::to_string(im.tile) + " texels");
        im.max_frames = std::max(im.max_frames, f);
    }
    if (im.width() > kMaxImpostorTexels)
        return Status::failure("section 'IMPS': " + std::to_string(im.width()) + " texels wide");
    const uint64_t bytes = im.bytesPerImage();
    if (!r.has(2 * bytes))
        return Status::failure("section 'IMPS': truncated: two images of " + std::to_string(bytes) + " bytes expected");
    im.color.resize(size_t(bytes));
    im.normal.resize(size_t(bytes));
    r.array(im.color.data(), im.color.size());
    r.array(im.normal.data(), im.normal.size());
    im.skinning = a.impostors.skinning; // IMSK's, when it came first
    a.impostors = std::move(im);
    return r.finish();
}

Status parseImpostorSkinning(ByteReader& r, BakedAsset& a) {
    const uint32_t skinning = r.u32();
    if (r.failed()) return r.status();
    if (skinning > uint32_t(Skinning::DualQuaternion))
        return Status::failure("section 'IMSK': skinning " + std::to_string(skinning) + " is not 0 or 1");
    a.impostors.skinning = Skinning(skinning);
    return r.finish();
}

// Counts are checked against section 'CLIP' before anything is allocated; validate() checks values.
Status parseRoot(ByteReader& r, BakedAsset& a) {
    std::string joint = r.string();
    const uint32_t clips = r.u32();
    if (r.failed()) return r.status();
    if (joint.empty()) return Status::failure("section 'ROOT': no joint name");
    if (clips != a.clips.size())
        return Status::failure("section 'ROOT': " + std::to_string(clips) + " clips, section 'CLIP' has " +
                               std::to_string(a.clips.size()));
    for (BakedClip& c : a.clips) {
        c.root_pivot.x = r.f32();
        c.root_pivot.y = r.f32();
        const uint32_t frames = r.u32();
        if (r.failed()) return r.status();
        if (frames != 0 && frames != c.frame_count)
            return Status::failure("section 'ROOT': clip '" + c.name + "' has " + std::to_string(frames) +
                                   " entries for " + std::to_string(c.frame_count) + " frames");
        if (!r.has(uint64_t(frames) * 12)) return Status::failure("section 'ROOT': truncated curve");
        c.root_motion.resize(frames);
        for (glm::vec3& m : c.root_motion)
            for (int i = 0; i < 3; ++i) m[i] = r.f32();
    }
    a.root_joint = std::move(joint);
    return r.finish();
}

// Counts are checked before anything is allocated (each event takes at least 8 bytes); names
// and times by validate().
Status parseEvents(ByteReader& r, BakedAsset& a) {
    const uint32_t clips = r.u32();
    if (r.failed()) return r.status();
    if (clips != a.clips.size())
        return Status::failure("section 'EVNT': " + std::to_string(clips) + " clips, section 'CLIP' has " +
                               std::to_string(a.clips.size()));
    for (BakedClip& c : a.clips) {
        const uint32_t n = r.u32();
        if (r.failed()) return r.status();
        if (n > kMaxClipEvents || !r.has(uint64_t(n) * 8))
            return Status::failure("section 'EVNT': clip '" + c.name + "': " + std::to_string(n) +
                                   " events do not fit the section");
        c.events.resize(n);
        for (ClipEvent& e : c.events) {
            e.time = r.f32();
            const uint32_t length = r.u32();
            if (r.failed()) return r.status();
            if (length == 0 || length > kMaxEventName)
                return Status::failure("section 'EVNT': clip '" + c.name + "': an event name of " +
                                       std::to_string(length) + " bytes");
            if (!r.has(length)) return Status::failure("section 'EVNT': truncated");
            e.name.resize(length);
            r.array(e.name.data(), length);
        }
    }
    return r.finish();
}

// Counts and name lengths are checked before anything is allocated (a prop takes at least 96
// bytes); ranges, shares and slots by validate().
Status parseParts(ByteReader& r, BakedAsset& a) {
    const uint32_t count = r.u32();
    if (r.failed()) return r.status();
    if (count > kMaxParts || !r.has(uint64_t(count) * 96))
        return Status::failure("section 'PART': " + std::to_string(count) + " props do not fit the section (at most " +
                               std::to_string(kMaxParts) + ")");
    a.props.resize(count);
    for (BakedProp& p : a.props) {
        for (auto [text, limit] : {std::pair{&p.name, 4096u}, std::pair{&p.slot, 64u}}) {
            const uint32_t length = r.u32();
            if (r.failed()) return r.status();
            if (length > limit || !r.has(length))
                return Status::failure("section 'PART': a name of " + std::to_string(length) + " bytes");
            text->resize(length);
            r.array(text->data(), length);
        }
        p.share = r.f32();
        for (uint32_t* v : {&p.joint, &p.first_submesh, &p.submesh_count, &p.first_vertex, &p.vertex_count})
            *v = r.u32();
        r.array(&p.offset, 1);
    }
    return r.finish();
}

// One of a look's lists: a u32 count (at most `limit`, checked against what is left before
// anything is allocated), then the values.
template <class T>
Status readLookList(ByteReader& r, std::vector<T>& out, uint32_t limit, const char* what,
                    const char* section = "LOOK") {
    const uint32_t count = r.u32();
    if (r.failed()) return r.status();
    if (count > limit || !r.has(uint64_t(count) * sizeof(T)))
        return Status::failure(std::string("section '") + section + "': " + std::to_string(count) + " " + what +
                               " do not fit the section");
    out.resize(count);
    r.array(out.data(), count);
    return {};
}

// Counts are checked against what is left before anything is allocated (a look takes at least
// 16 bytes); submesh ranges, colours and shares by validate().
Status parseLooks(ByteReader& r, BakedAsset& a) {
    const uint32_t count = r.u32();
    if (r.failed()) return r.status();
    if (count > kMaxLooks || !r.has(uint64_t(count) * 16))
        return Status::failure("section 'LOOK': " + std::to_string(count) + " looks do not fit the section (at most " +
                               std::to_string(kMaxLooks) + ")");
    a.looks.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
        BakedLook& l = a.looks[i];
        l.number = i;
        const uint32_t length = r.u32();
        if (r.failed()) return r.status();
        if (length > 64 || !r.has(length))
            return Status::failure("section 'LOOK': a name of " + std::to_string(length) + " bytes");
        l.name.resize(length);
        r.array(l.name.data(), length);
        if (Status s = readLookList(r, l.submeshes, UINT32_MAX, "submeshes"); !s) return s;
        if (Status s = readLookList(r, l.colors, kMaxLookColors, "colours"); !s) return s;
        if (Status s = readLookList(r, l.shares, kMaxLookColors, "shares"); !s) return s;
    }
    return r.finish();
}

// After LOOK: as many looks as it has; texture counts and ranges by validate().
Status parseLookTextures(ByteReader& r, BakedAsset& a) {
    const uint32_t count = r.u32();
    if (r.failed()) return r.status();
    if (count != a.looks.size())
        return Status::failure("section 'LKTX': textures for " + std::to_string(count) + " looks, not the " +
                               std::to_string(a.looks.size()) + " of section 'LOOK' before it");
    for (BakedLook& l : a.looks)
        if (Status s = readLookList(r, l.textures, kMaxLookColors, "textures", "LKTX"); !s) return s;
    return r.finish();
}

Status parseSection(uint32_t type, ByteReader& r, BakedAsset& a) {
    switch (type) {
    case kMeta: return parseMeta(r, a);
    case kClip: return parseClips(r, a);
    case kAnim: return parseAnim(r, a);
    case kVert: return parseCounted(r, a.vertices, "vertex");
    case kIndx: return parseCounted(r, a.indices, "index");
    case kSubm: return parseSubmeshes(r, a);
    case kTexr: return parseTextures(r, a);
    case kSkel: return parseSkeleton(r, a.source);
    case kTrak: return parseTracks(r, a.source);
    case kVatx: return parseVat(r, a);
    case kLods: return parseLods(r, a);
    case kImps: return parseImpostors(r, a);
    case kRoot: return parseRoot(r, a);
    case kEvnt: return parseEvents(r, a);
    case kImsk: return parseImpostorSkinning(r, a);
    case kPart: return parseParts(r, a);
    case kLook: return parseLooks(r, a);
    case kLookTextures: return parseLookTextures(r, a);
    }
    return {};
}

Result<std::map<uint32_t, Entry>> readTable(std::span<const uint8_t> file) {
    const uint64_t size = file.size();
    if (size < sizeof(kMagic) || std::memcmp(file.data(), kMagic, sizeof(kMagic)) != 0) {
        if (size < sizeof(kMagic) && (size == 0 || std::memcmp(file.data(), kMagic, size_t(size)) == 0))
            return Error{"truncated: file has " + std::to_string(size) + " bytes, shorter than the " +
                         std::to_string(kHeaderSize) + "-byte header"};
        return Error{"not a .throng file (bad magic)"};
    }
    if (size < kHeaderSize)
        return Error{"truncated: file has " + std::to_string(size) + " bytes, shorter than the " +
                     std::to_string(kHeaderSize) + "-byte header"};
    ByteReader h(file.data(), kHeaderSize, "header");
    h.skip(sizeof(kMagic));
    const uint32_t version = h.u32(), count = h.u32();
    const uint64_t file_size = h.u64(), checksum = h.u64();
    if (version == 0) return Error{"format version 0 is not valid"};
    if (version > kThrongFormatVersion)
        return Error{"format version " + std::to_string(version) + " is newer than this build reads (" +
                     std::to_string(kThrongFormatVersion) + ")"};
    if (count > kMaxSections)
        return Error{"section count " + std::to_string(count) + " out of range (limit " + std::to_string(kMaxSections) +
                     ")"};
    const uint64_t table_end = kHeaderSize + uint64_t(count) * kEntrySize;
    if (table_end > size)
        return Error{"truncated: section table ends at byte " + std::to_string(table_end) + ", file has " +
                     std::to_string(size)};
    uint64_t sum = throngChecksum(file.data(), kChecksummedHeaderBytes);
    sum = throngChecksum(file.data() + kHeaderSize, size_t(table_end - kHeaderSize), sum);
    if (sum != checksum) return Error{"header: checksum mismatch"};
    if (file_size > size)
        return Error{"truncated: header says " + std::to_string(file_size) + " bytes, file has " +
                     std::to_string(size)};
    if (file_size < size)
        return Error{"file has " + std::to_string(size) + " bytes, header says " + std::to_string(file_size)};

    std::map<uint32_t, Entry> known;
    ByteReader t(file.data() + kHeaderSize, size_t(table_end - kHeaderSize), "table");
    for (uint32_t i = 0; i < count; ++i) {
        Entry e;
        e.type = t.u32();
        e.flags = t.u32();
        e.offset = t.u64();
        e.stored = t.u64();
        e.raw = t.u64();
        e.checksum = t.u64();
        if (e.offset > size || e.stored > size - e.offset) {
            const std::string end =
                e.offset > UINT64_MAX - e.stored ? "past 2^64" : "at byte " + std::to_string(e.offset + e.stored);
            return Error{"truncated: " + sectionName(e.type) + " ends " + end + ", file has " + std::to_string(size)};
        }
        if (std::find(std::begin(kRequired), std::end(kRequired), e.type) == std::end(kRequired) &&
            std::find(std::begin(kOptional), std::end(kOptional), e.type) == std::end(kOptional))
            continue;                                          // unknown: newer, optional
        if (e.type == kLods && version < kLodsSince) continue; // unknown in this file's version
        if (!known.emplace(e.type, e).second) return Error{sectionName(e.type) + " appears twice"};
    }
    for (uint32_t type : kRequired)
        if (known.count(type) == 0) return Error{"missing " + sectionName(type)};
    if (known.count(kSkel) != known.count(kTrak))
        return Error{known.count(kSkel) != 0 ? "section 'SKEL' without section 'TRAK'"
                                             : "section 'TRAK' without section 'SKEL'"};
    return known;
}

} // namespace

uint64_t throngChecksum(const void* data, size_t size, uint64_t seed) {
    const auto* p = static_cast<const uint8_t*>(data);
    uint64_t h = seed;
    for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

Status writeThrong(const BakedAsset& asset, const std::string& path) {
    if (Status s = validate(asset); !s) return Status::failure("cannot write an invalid asset: " + s.message);
    for (const BakedTexture& t : asset.textures)
        if (t.encoded.size() > UINT32_MAX || t.mime_type.size() > UINT32_MAX)
            return Status::failure("texture larger than 4 GiB");
    for (const Clip& c : asset.source.clips)
        for (const Track& t : c.tracks)
            if (t.times.size() > UINT32_MAX) return Status::failure("track of more than 2^32 - 1 keys");
    std::vector<std::pair<uint32_t, Bytes>> raw;
    raw.emplace_back(kMeta, metaSection(asset));
    raw.emplace_back(kClip, clipSection(asset));
    raw.emplace_back(kAnim, animSection(asset));
    raw.emplace_back(kVert, vertSection(asset));
    raw.emplace_back(kIndx, indxSection(asset));
    raw.emplace_back(kSubm, submSection(asset));
    raw.emplace_back(kTexr, texrSection(asset));
    if (!asset.source.empty()) {
        raw.emplace_back(kSkel, skelSection(asset.source));
        raw.emplace_back(kTrak, trakSection(asset.source));
    }
    if (asset.hasVat()) raw.emplace_back(kVatx, vatxSection(asset));
    if (!asset.lods.empty()) raw.emplace_back(kLods, lodsSection(asset));
    if (!asset.impostors.empty()) raw.emplace_back(kImps, impsSection(asset));
    if (!asset.impostors.empty() && asset.impostors.skinning != Skinning::Linear)
        raw.emplace_back(kImsk, imskSection(asset));
    if (!asset.root_joint.empty()) raw.emplace_back(kRoot, rootSection(asset));
    if (std::any_of(asset.clips.begin(), asset.clips.end(), [](const BakedClip& c) { return !c.events.empty(); }))
        raw.emplace_back(kEvnt, evntSection(asset));
    if (!asset.props.empty()) raw.emplace_back(kPart, partSection(asset));
    if (!asset.looks.empty()) raw.emplace_back(kLook, lookSection(asset));
    if (std::any_of(asset.looks.begin(), asset.looks.end(), [](const BakedLook& l) { return !l.textures.empty(); }))
        raw.emplace_back(kLookTextures, lookTextureSection(asset));
    const size_t n = raw.size();
    std::vector<Bytes> stored;
    std::vector<Entry> entries(n);
    uint64_t offset = kHeaderSize + n * kEntrySize;
    for (size_t i = 0; i < n; ++i) {
        Result<Bytes> s = storeSection(raw[i].second, &entries[i].flags);
        if (!s) return Status::failure(sectionName(raw[i].first) + ": " + s.error().message);
        offset = (offset + kSectionAlignment - 1) / kSectionAlignment * kSectionAlignment;
        stored.push_back(std::move(s).value());
        entries[i].type = raw[i].first;
        entries[i].offset = offset;
        entries[i].stored = stored.back().size();
        entries[i].raw = raw[i].second.size();
        entries[i].checksum = throngChecksum(stored.back().data(), stored.back().size());
        offset += stored.back().size();
    }
    ByteWriter table;
    for (const Entry& e : entries) {
        table.u32(e.type);
        table.u32(e.flags);
        table.u64(e.offset);
        table.u64(e.stored);
        table.u64(e.raw);
        table.u64(e.checksum);
    }
    ByteWriter header;
    header.array(kMagic, sizeof(kMagic));
    header.u32(kThrongFormatVersion);
    header.u32(uint32_t(n));
    header.u64(offset);
    const uint64_t sum =
        throngChecksum(table.out.data(), table.out.size(), throngChecksum(header.out.data(), header.out.size()));
    header.u64(sum);
    header.out.resize(kHeaderSize, 0); // reserved

    // Padding before each section, so sections start on kSectionAlignment boundaries.
    std::vector<Bytes> pads(n);
    std::vector<std::span<const uint8_t>> parts = {header.out, table.out};
    uint64_t at = kHeaderSize + table.out.size();
    for (size_t i = 0; i < n; ++i) {
        pads[i].resize(size_t(entries[i].offset - at), 0);
        parts.push_back(pads[i]);
        parts.push_back(stored[i]);
        at = entries[i].offset + entries[i].stored;
    }
    return io::writeFileAtomic(path, parts);
}

Result<BakedAsset> readThrong(const std::string& path) {
    Result<Bytes> file = io::readRegularFile(path);
    if (!file) return file.error();
    return readThrongBytes(file.value());
}

Result<BakedAsset> readThrongBytes(std::span<const uint8_t> bytes) {
    Result<std::map<uint32_t, Entry>> table = readTable(bytes);
    if (!table) return table.error();
    const std::map<uint32_t, Entry>& entries = table.value();
    // Checksums first, so a damaged file says "checksum" rather than whatever the damage mimics.
    for (const auto& [type, e] : entries)
        if (throngChecksum(bytes.data() + e.offset, size_t(e.stored)) != e.checksum)
            return Error{sectionName(type) + ": checksum mismatch"};

    BakedAsset asset;
    for (uint32_t type : kRequired) {
        const Entry& e = entries.at(type);
        if (type == kAnim) {
            Result<uint64_t> expected = animBytes(asset);
            if (!expected) return expected.error();
            if (e.raw != expected.value())
                return Error{"section 'ANIM': " + std::to_string(e.raw) + " bytes, expected " +
                             std::to_string(expected.value()) + " for " + std::to_string(asset.clips.size()) +
                             " clips x " + std::to_string(asset.max_frames) + " frames x " +
                             std::to_string(asset.texelsPerRow()) + " texels (" + toString(asset.precision) + ")"};
        }
        Result<Bytes> raw = loadSection(bytes, e);
        if (!raw) return raw.error();
        ByteReader r(raw.value().data(), raw.value().size(), typeName(type));
        if (Status s = parseSection(type, r, asset); !s) return Error{s.message};
    }
    for (uint32_t type : kOptional) {
        const auto e = entries.find(type);
        if (e == entries.end()) continue;
        if (type == kVatx) {
            Result<uint64_t> expected = vatxBytes(asset);
            if (!expected) return expected.error();
            if (e->second.raw != expected.value())
                return Error{"section 'VATX': " + std::to_string(e->second.raw) + " bytes, expected " +
                             std::to_string(expected.value()) + " for " + std::to_string(asset.clips.size()) +
                             " clips x " + std::to_string(asset.max_frames) + " frames x " +
                             std::to_string(asset.vatTexelsPerRow()) + " texels (" + toString(asset.precision) + ")"};
        }
        if (type == kLods && e->second.raw > lodsBytes(asset, kMaxBakedLods))
            return Error{"section 'LODS': " + std::to_string(e->second.raw) + " bytes, more than " +
                         std::to_string(kMaxBakedLods) + " LODs of " + std::to_string(asset.submeshes.size()) +
                         " submeshes take (" + std::to_string(lodsBytes(asset, kMaxBakedLods)) + ")"};
        Result<Bytes> raw = loadSection(bytes, e->second);
        if (!raw) return raw.error();
        ByteReader r(raw.value().data(), raw.value().size(), typeName(type));
        if (Status s = parseSection(type, r, asset); !s) return Error{s.message};
    }
    if (Status s = validate(asset); !s) return Error{s.message};
    return asset;
}

} // namespace throng
