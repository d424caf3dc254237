// throng/bake.h — offline: turn a Model into a BakedAsset.
//
// Offline code (links the animation runtime to sample clips); the GPU runtime never links it.
#pragma once

#include <throng/api.h>
#include <throng/baked.h>

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

THRONG_API_BEGIN
namespace throng {

// Animated impostors (BakedImpostors in baked.h): off unless `enabled`.
struct ImpostorOptions {
    bool enabled = false;
    uint32_t tile = 32;      // texels per side of one picture
    uint32_t azimuths = 8;   // directions around the model
    uint32_t elevations = 3; // rows from the horizon up (0, 30, 60 degrees for 3)
    float fps = 10.0f;       // pictures per second of clip time (fewer for clips too long for the image)
    // How the pictures' poses blend joints: as the crowd that draws them skins (CrowdOptions::skinning).
    Skinning skinning = Skinning::Linear;
};

struct BakeOptions {
    float fps = 30.0f; // 1 .. 1000
    Precision precision = Precision::Float32;
    // Called after each clip: (clips done, clips total). May be empty.
    std::function<void(size_t, size_t)> progress;
    // Also bake vertex animation (BakedAsset::vat_*, baked.h): every vertex's skinned position
    // and normal per frame, for technique `vat`. Costs 2 texels per vertex per frame.
    bool vat = false;
    // Levels of detail to build, LOD 0 included (0 or 1: the mesh only), at most kMaxBakedLods;
    // the chain may stop earlier (buildLods).
    uint32_t lods = kMaxBakedLods;
    ImpostorOptions impostors;
    // Error-bounded baking (> 0, model units): each clip gets the fewest frames whose tweening
    // stays within this of exact sampling for every vertex (clipRate below); `fps` is then only
    // the rate reported for comparison. 0: every clip at `fps`.
    double max_error = 0.0;
    // Root motion (throng/root_motion.h): empty: clips baked as they are; a joint name or "auto"
    // (rootMotionJoint): that joint's horizontal travel and yaw taken out of every clip and kept
    // as each clip's curve. "auto" finding no travelling joint bakes the clips as they are, with
    // a warning.
    std::string root_motion;
    // Animation events (throng/events.h): footsteps found in the frames (footstepEvents), and
    // events by clip name (parseEvents: the JSON sidecar), merged per clip.
    bool footsteps = false;
    std::map<std::string, std::vector<ClipEvent>> events;
};

// Per clip, with BakeOptions::max_error: what error-bounded baking chose, against `fps`.
struct ClipRateReport {
    std::string name;
    uint32_t frames = 1;       // chosen
    double fps = 0.0;          // (frames - 1) / duration; 0 for a one-frame clip
    double error = 0.0;        // tweening error of the chosen frames (model units)
    bool met = true;           // error <= max_error (false only when even 1000 fps cannot reach it)
    size_t bytes = 0;          // the clip's frames of bone matrices in the asset's precision
    uint32_t fixed_frames = 1; // at BakeOptions::fps
    double fixed_error = 0.0;
    size_t fixed_bytes = 0;
};

struct BakeReport {
    size_t bytes = 0;                                 // animation data bytes
    size_t vat_bytes = 0;                             // vertex animation bytes (0 without BakeOptions::vat)
    double max_half_error = 0.0;                      // Float16 only: largest |half - float| over every skinned
                                                      // vertex position and baked frame, relative to the bind
                                                      // bounding-box diagonal
    std::vector<std::string> warnings;                // one line each, e.g. a texture that names an external file
    size_t impostor_bytes = 0;                        // both impostor images (0 without BakeOptions::impostors)
    uint32_t impostor_width = 0, impostor_height = 0; // texels of one image layer
    std::vector<ClipRateReport> rates;                // with BakeOptions::max_error: per clip
    std::string root_joint;                           // with BakeOptions::root_motion: the joint taken, or empty
};

// The tweening error of `clip` baked as `frames` frames over `duration` (model units): the
// largest distance, over every vertex and the quarter points of every interval, between the
// vertex skinned by the two frames' matrices blended linearly (what the GPU does) and skinned by
// the exact matrices at that time. 0 for the rest pose, a zero duration or fewer than 2 frames.
double tweenError(const Model& model, const Clip* clip, float duration, uint32_t frames);

struct ClipRate {
    uint32_t frames = 1;
    double error = 0.0;
    bool met = true; // false: even bakedFrameCount(duration, 1000) frames exceed max_error
};
// The fewest frames (2 .. the count at 1000 fps; 1 for the rest pose or a zero duration) whose
// tweenError() is at most `max_error`, found by doubling and bisection; only a measured count is
// returned, and the count below it was measured over the bound. The error is not monotone in the
// count (frames landing on the source's keys do better), so a smaller count elsewhere may also
// meet the bound: the Fox's Walk gets 256 frames at 0.1% (rate.cpp).
ClipRate clipRate(const Model& model, const Clip* clip, float duration, double max_error);

// Samples every clip with the double-precision reference at the frame times of baked.h and
// stores the skinning matrices (double -> float -> half for Float16); copies the meshes
// (concatenated; colours to RGBA8, white when absent; uvs 0 when absent; zero-weight joint
// slots set to 0) and the textures' encoded bytes. Every clip is baked with loop = true: a
// Model does not say whether a clip loops, and crowds play clips in loops. A model without clips
// bakes its rest pose as one clip "rest" of 1 frame. A texture with only an external uri (no
// bytes) is kept with empty bytes and a warning: bake() reads no files.
// With options.vat, every vertex is also skinned by the reference (referenceSkin) at every frame
// and stored as vertex animation texels. The LOD chain is buildLods(asset, options.lods): `lods`
// always has at least LOD 0.
// Events: footsteps (options.footsteps) and options.events are put into the clips (addEvents).
// With options.root_motion, the clips are baked in place from a copy of the model that
// removeRootMotion changed, and each clip gets its curve (rootMotionOf at its frame times).
// Errors: fps outside 1 .. 1000 or not finite, options.lods above kMaxBakedLods, an invalid
// model (validate's message), a root motion joint the skeleton lacks, events addEvents refuses, more
// than kMaxBakedTexels texels (bone or, with vat, vertex animation), more than 2^32 - 1
// vertices, a half value out of range.
Result<BakedAsset> bake(const Model& model, const BakeOptions& options, BakeReport* report = nullptr);

// The LOD chain (src/bake/lod.cpp; baked.h, "Levels of detail"): sets asset.lods to LOD 0 (the
// ranges of `submeshes`, error 0) and up to `levels` - 1 coarser levels, whose indices it appends
// to asset.indices. Each level has about half the triangles of the one before, per submesh, by
// meshopt_simplify or meshopt_simplifySloppy (whichever strays less from LOD 0); its error is the
// largest distance measured between its surface and LOD 0's, in model units (lod.cpp says how).
// The chain stops early when a level would keep more than 80% of the one before, after a level
// of at most 2% of LOD 0's triangles, or where indices would pass 2^32 - 1. Deterministic.
// The submeshes of asset.props (parts) count in no level's error or triangles: each level
// simplifies a part only as far as its error stays within the level's, and leaves it out past
// partDrawnAt. Vertices are untouched. Contract (asserted):
// asset.lods is empty and `indices` holds only LOD 0's ranges (vertices, indices and submeshes as validate() wants
// them); levels <= kMaxBakedLods.
void buildLods(BakedAsset& asset, uint32_t levels);

// The impostor pictures (src/bake/impostor.cpp; baked.h, BakedImpostors): every clip at
// options.fps (fewer pictures where a clip would pass kMaxImpostorTexels rows), each skinned with
// the baked matrices tweened at its time (what `baked` draws then), LOD 0's triangles drawn from
// every view by a CPU rasterizer with 4 samples a texel (nearest surface wins), into asset.impostors.
// Textures are not sampled: colours are base colour times vertex colour. The sphere is the one
// around the union of the clips' frame bounds. Errors: options out of BakedImpostors' ranges.
// Contract: asset passes validate().
Status buildImpostors(BakedAsset& asset, const ImpostorOptions& options);

// The levels bake() would store for `model` (lods[0] = the mesh), without baking any animation:
// what `throng info` shows. Errors: an invalid model (validate's message), levels above
// kMaxBakedLods, more than 2^32 - 1 vertices.
Result<std::vector<BakedLod>> lodChain(const Model& model, uint32_t levels = kMaxBakedLods);

// What the renderers start from: a `.throng` file read as it is (readThrong), or any other
// source — a model file importModel reads, builtin:NAME — imported and baked with `options`.
// `model` keeps the imported model (empty for .throng files) for callers that bake it again.
struct LoadedAsset {
    std::optional<Model> model;
    BakedAsset baked;
};
Result<LoadedAsset> loadAsset(const std::string& source, const BakeOptions& options);

// Events from `--events` texts into `options` (BakeOptions::footsteps, BakeOptions::events): each
// `auto` (footsteps) or a JSON sidecar's path (read, at most 64 MiB, and parseEvents). Errors
// (one line, naming the file): an unreadable file, parseEvents' errors.
Status eventsFromText(std::span<const std::string> sources, BakeOptions& options);

// Props (throng/attach.h) from `--attach` texts (parseAttachment): each prop model loaded as
// importModel reads it (a model file, builtin:NAME), then attachProps. Errors (one line, `asset`
// unchanged): the first bad text, unreadable prop or refused attachment.
Status attachFromText(BakedAsset& asset, std::span<const std::string> attachments);

} // namespace throng
THRONG_API_END
