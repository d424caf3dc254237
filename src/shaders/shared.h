// Constants and structs shared by C++ and GLSL. Every mirrored struct has static_asserts on
// its size and member offsets (C++ side, bottom of this file); GLSL reads them with std430.
#ifndef THRONG_SHADERS_SHARED_H
#define THRONG_SHADERS_SHARED_H

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
namespace throng::gpu::shader {
using vec4 = glm::vec4;
using uvec2 = glm::uvec2;
using uvec4 = glm::uvec4;
using vec2 = glm::vec2;
using ivec2 = glm::ivec2;
using mat4 = glm::mat4;
using uint = uint32_t;
#define THRONG_FN inline
#else
#define THRONG_FN
#endif

// Descriptor bindings (set 0).
#define THRONG_BINDING_INSTANCES 0        // storage buffer: InstanceRecord[]
#define THRONG_BINDING_CLIPS 1            // storage buffer: ClipRecord[]
#define THRONG_BINDING_ANIMATION 2        // sampled image array: baked joint matrices (texelFetch only)
#define THRONG_BINDING_TEXTURE 3          // combined image sampler: base colour texture (white when none)
#define THRONG_BINDING_CHECK_OUTPUT 5     // compute check: vec4 per (query, vertex)
#define THRONG_BINDING_ANIMATION_BUFFER 6 // uniform texel buffer: the same texels, when the image would exceed limits
#define THRONG_BINDING_SWIM 7             // uniform buffer: SwimParams (technique procedural)
// Storage buffer: per-instance skinning palettes, member-major, 3 vec4 rows per entry (2 where
// technique palette encodes quaternions): technique palette's; technique pose's pass writes them
// (3 rows). The compute rasterizer's palette variants read both.
#define THRONG_BINDING_PALETTE 8
#define THRONG_BINDING_BONES 9    // sampled image: per-instance quaternion + translation texels (technique bonetex)
#define THRONG_BINDING_SKINNED 10 // storage buffer: CPU-skinned positions then normals, 3 floats each (technique cpu)
#define THRONG_BINDING_PALETTE_UBO 13 // dynamic uniform buffer: one batch of palettes (technique palette-ubo)
#define THRONG_BINDING_ANIMATION_WORDS                                                                                 \
    15 // storage buffer: the same texels as 32-bit words (AnimationStorage::StorageBuffer)
#define THRONG_BINDING_CAPTURE                                                                                         \
    14                        // storage buffer: world position per (instance, vertex), capture shader variants (tests)
#define THRONG_UBO_VEC4S 1024 // vec4 in that block: 16 KiB, the guaranteed maxUniformBufferRange
#define THRONG_BINDING_VERTICES                                                                                        \
    11                        // storage buffer: BakedVertex[] as words, pulled by gl_VertexIndex (every mesh technique)
#define THRONG_BINDING_VAT 12 // sampled image array: vertex animation, position + normal per vertex (technique vat)
#define THRONG_BINDING_VISIBLE 16 // storage buffer: uint member per slot of the visible list (member.glsl)
// Shadows (src/render/shadows.h), in the mesh techniques' sets when the crowd casts shadows and
// in the ground's set. Past the compute rasterizer's bindings: one numbering for all of set 0.
#define THRONG_BINDING_SHADOW_MAP 32    // combined image sampler: the shadow map (depth, reversed Z)
#define THRONG_BINDING_SHADOW_PARAMS 33 // storage buffer: ShadowParams per frame slot

// The compute rasterizer (raster_*.comp, resolve_*.comp, composite.frag; src/render/compute_raster.h,
// docs/FAR_FIELD.md),
// set 0 of its own layouts, beside the bindings above that the skinning includes read (the baked
// animation's; THRONG_BINDING_PALETTE in the palette variants).
#define THRONG_BINDING_RASTER_PARAMS 17 // storage buffer: RasterParams
#define THRONG_BINDING_CLUSTERS                                                                                        \
    18 // storage buffer: uvec4 per cluster (first vertex, vertex count, first triangle, triangle count)
#define THRONG_BINDING_CLUSTER_VERTICES 19  // storage buffer: uint global vertex id, per cluster
#define THRONG_BINDING_CLUSTER_TRIANGLES 20 // storage buffer: uint per chain triangle, three 8-bit local vertex indices
#define THRONG_BINDING_VISIBILITY                                                                                      \
    21 // storage buffer: uint64 per pixel (depth key << 40 | member << 16 | chain triangle)
#define THRONG_BINDING_CULL_COUNTS 22 // storage buffer: the culling pass's counts (THRONG_COUNT_*)
#define THRONG_BINDING_RESOLVE_TRIANGLES                                                                               \
    23                                    // storage buffer: uvec4 per chain triangle (three global vertex ids, submesh)
#define THRONG_BINDING_SUBMESH_SHADING 24 // storage buffer: SubmeshShading per submesh
#define THRONG_BINDING_RASTER_PLAN 25 // storage buffer: RasterPlan (indirect dispatches per LOD), then RasterRegion[]
#define THRONG_BINDING_VERTEX_CACHE                                                                                    \
    26 // storage buffer: uvec2 per cached vertex (model-space position, 21 bits per axis in the cache box)
#define THRONG_BINDING_MEMBER_SLOTS                                                                                    \
    27 // storage buffer: uint per member, its cached-member index in the frame's cache (stale unless checked)
#define THRONG_BINDING_LOD_VERTICES                                                                                    \
    28 // storage buffer: each LOD's vertices once (ClusterChain::lod_vertices) as the cache pass reads them,
       // THRONG_CACHE_VERTEX_WORDS each
#define THRONG_BINDING_VERTEX_SLOTS 29 // storage buffer: uint per cluster vertex, its index among its LOD's vertices
#define THRONG_BINDING_CACHE_NORMALS                                                                                   \
    30 // storage buffer: uint per cached vertex (model-space normal, octahedral, 2 x snorm16)
#define THRONG_BINDING_TRIANGLE_SLOTS                                                                                  \
    31 // storage buffer: uvec4 per chain triangle (its vertices' indices among its LOD's vertices, 0)
#define THRONG_BINDING_SUBMESH_PROPS                                                                                   \
    34 // storage buffer: uint per submesh, its wear selector and THRONG_DRAW_UNTINTED as DrawConstants::draw_bits
       // carries them (0: the model's, drawn on every member)
#define THRONG_BINDING_RESOLVED                                                                                        \
    35 // storage buffer: uvec4 per pixel, what the resolve shaded: linear colour (3 float bits), depth (float bits;
       // THRONG_RESOLVED_NONE: nothing), which the composite draw writes into the frame's targets
#define THRONG_RESOLVED_NONE 0xffffffffu
#define THRONG_BINDING_LOOKS 38 // storage buffer: uint[], the looks table (THRONG_LOOK_SALT)
// storage buffer: uvec4[], the raster's work per member where a model has parts (raster_body.glsl):
// per (model, LOD) its slot records (first work item, first part record, part count, most
// clusters of a part), then the part records (wear selector, first cluster within the level,
// cluster count, 0). A member's work is the body's clusters, then per slot as many items as the
// slot's largest part has clusters: item j of a slot is cluster j of the part the member wears
// there (none: the item does nothing), so unworn parts' clusters are not launched at all.
#define THRONG_BINDING_RASTER_SLOTS 39
#define THRONG_BINDING_SPLATS 50 // storage buffer: SplatModel per model of the crowd (docs/IN_MOTION.md)
// Motion vectors (docs/IN_MOTION.md, render/history.h): the members' records as the last frame drew
// them (InstanceRecord[]; a placeholder without velocity), and the resolve's per-pixel motion
// (uint[]: packHalf2x16 of this frame's pixel position minus the last frame's, in pixels, y down),
// written where it writes THRONG_BINDING_RESOLVED, read by the composite.
#define THRONG_BINDING_PREVIOUS_INSTANCES 51
#define THRONG_BINDING_VELOCITY 52
#define THRONG_BINDING_MOTION 53 // storage buffer: MotionParams per frame slot (the hardware passes' motion vectors)
#define THRONG_BINDING_PREVIOUS_PALETTE_UBO                                                                            \
    57 // dynamic uniform buffer: technique palette-ubo's blocks as the last frame drew them (motion vectors; the
       // same dynamic offset as THRONG_BINDING_PALETTE_UBO's)
#define THRONG_BINDING_PREVIOUS_BONES                                                                                  \
    56 // sampled image: technique bonetex's texels as the last frame drew them, laid out as THRONG_BINDING_BONES's
       // (motion vectors)
#define THRONG_BINDING_PREVIOUS_SKINNED                                                                                \
    55 // storage buffer: technique cpu's positions as the last frame drew them, laid out as THRONG_BINDING_SKINNED's
       // (motion vectors; its normals' places unused)
#define THRONG_BINDING_PREVIOUS_PALETTE                                                                                \
    54 // storage buffer: the palettes as the last frame drew them, laid out as THRONG_BINDING_PALETTE's (motion
       // vectors of the palette variants; render::ComputePalettes::previous)
#define THRONG_BINDING_RASTER_MODELS 37 // storage buffer: RasterModel per model of the crowd (RasterParams::models)
#define THRONG_BINDING_RESOLVE_TILES                                                                                   \
    36 // storage buffer: the composite's draw (VkDrawIndirectCommand: 6 vertices per tile listed, one instance),
       // then a uint per resolve tile (1: the resolve shaded a pixel of it), then the listed tiles' indices
#define THRONG_RESOLVE_TILES_FLAGS 4u // the word of tile 0's flag; the list starts after every tile's flag
#define THRONG_CACHE_VERTEX_WORDS                                                                                      \
    11 // position (3 floats), normal (octahedral snorm16 x 2), joints (4 x u16), weights (4 floats), wear selector
#define THRONG_CACHE_MAX_JOINTS 128 // the cache pass keeps a member's palette in shared memory; more joints: no cache
#define THRONG_RASTER_LOCAL_SIZE 64 // threads per (member, cluster) workgroup: one per cluster vertex
#define THRONG_CACHE_LOCAL_SIZE 128 // threads per workgroup of the vertex cache pass: one workgroup per cached member
// The shadow map's slope-scaled depth bias, away from the light: the depth draw's pipeline
// (mesh_pass.cpp) and the compute rasterizer's shadow pass (raster_body.glsl) subtract this times
// the triangle's largest depth slope per texel (reversed Z).
#define THRONG_SHADOW_BIAS_SLOPE 1.5
#define THRONG_CACHE_STEPS 2097151u // 2^21 - 1: steps per axis of a cached position across the cache box
#define THRONG_RASTER_ROW 65535u    // workgroups per row of a raster dispatch (portable maxComputeWorkGroupCount[0])

#define THRONG_BANDWIDTH_LOCAL_SIZE 256 // bandwidth.comp (src/gpu/bandwidth.h)

// Animated impostors (impostor.vert, impostor.frag; src/render/impostors.h), set 0 of their layout.
#define THRONG_IMPOSTOR_BINDING_PARAMS 0    // storage buffer: ImpostorParams
#define THRONG_IMPOSTOR_BINDING_INSTANCES 1 // storage buffer: InstanceRecord[]
#define THRONG_IMPOSTOR_BINDING_VISIBLE 2   // storage buffer: the visible list (impostor region)
#define THRONG_IMPOSTOR_BINDING_CLIPS 3     // storage buffer: ClipRecord[]
#define THRONG_IMPOSTOR_BINDING_FRAMES 4    // storage buffer: uint pictures per clip
#define THRONG_IMPOSTOR_BINDING_COLOR 5     // sampled image array: colour + coverage tiles (BakedImpostors)
#define THRONG_IMPOSTOR_BINDING_NORMAL 6    // sampled image array: normal + look tiles
#define THRONG_IMPOSTOR_BINDING_LOOKS 7     // storage buffer: uint[], the looks table (THRONG_LOOK_SALT)
#define THRONG_IMPOSTOR_BINDING_PREVIOUS 8  // storage buffer: InstanceRecord[] as the last frame drew them (velocity)
#define THRONG_IMPOSTOR_BINDING_MOTION 9    // storage buffer: MotionParams of the set's frame slot (velocity)

// The culling pass (cull.comp, then draws.comp; src/render/crowd_gpu.h), set 0 of its own layout.
#define THRONG_CULL_BINDING_PARAMS                                                                                     \
    0 // storage buffer: CullParams (not a uniform buffer: lavapipe (Mesa 22.3) leaks ~350 KB per compute dispatch that
      // reads one)
#define THRONG_CULL_BINDING_INSTANCES 1 // storage buffer: InstanceRecord[]
#define THRONG_CULL_BINDING_BOUNDS                                                                                     \
    2 // storage buffer: vec4 min, vec4 max per clip (model space, conservative), then part tables
      // (render/part_culling.h)
#define THRONG_CULL_BINDING_VISIBLE 3     // storage buffer: uint[] the visible list
#define THRONG_CULL_BINDING_COUNTS 4      // storage buffer: uint[THRONG_COUNTS] (THRONG_COUNT_* below)
#define THRONG_CULL_BINDING_RANGES 5      // storage buffer: uvec2 (first index, index count) per (submesh, LOD)
#define THRONG_CULL_BINDING_DRAWS 6       // storage buffer: DrawCommand per (submesh, LOD slot)
#define THRONG_CULL_BINDING_DRAW_COUNTS 7 // storage buffer: uint per (phase, submesh), the draws of that submesh
#define THRONG_CULL_BINDING_PYRAMID 0     // set 1 (cull_late.comp only): sampled image, the depth pyramid, every level
#define THRONG_CULL_BINDING_DRAWN 9 // storage buffer: uint per member, 1 when the last occlusion-culled frame drew it
#define THRONG_CULL_BINDING_IMPOSTOR_DRAW                                                                              \
    10 // storage buffer: the impostors' DrawCommand (6 indices of a quad, the members, first slot)
#define THRONG_CULL_BINDING_ASSETS 11 // storage buffer: CullAsset per model of the crowd (CullParams::assets)
#define THRONG_MAX_LODS 8
// Whether LOD `lod` is skinned coarsely under a DrawConstants/RasterParams `coarse_lods` word
// (first coarse LOD in bits 0-15, the end, exclusive, in bits 16-31). C++ and GLSL alike.
#define THRONG_COARSE_LOD(lod, coarse_lods) ((lod) >= ((coarse_lods)&0xffffu) && (lod) < ((coarse_lods) >> 16))
#define THRONG_CULL_LOCAL_SIZE 64
// The phases of culling (push constant of cull.comp, cull_late.comp and draws.comp). ALL: one
// pass, no occlusion. EARLY: the members the last frame drew, frustum only. LATE: every member
// against the frustum and this frame's depth pyramid; draws those EARLY did not.
#define THRONG_CULL_PHASE_ALL 0u
#define THRONG_CULL_PHASE_EARLY 1u
#define THRONG_CULL_PHASE_LATE 2u
// The light's view (shadows.h): like ALL, into the light's regions of the visible list and the
// third region of the draws; no impostors, no counts for the host.
#define THRONG_CULL_PHASE_SHADOW 3u
// The counts the culling pass keeps: members drawn at LOD l in [l] (both phases), members in the
// frustum in [THRONG_COUNT_IN_FRUSTUM] (all members when the frustum test is off), members in the
// frustum that occlusion culling hid in [THRONG_COUNT_OCCLUDED], and at [THRONG_COUNT_EARLY + l]
// the members the early phase drew at LOD l (where the late phase's draws of LOD l begin).
#define THRONG_COUNT_IN_FRUSTUM THRONG_MAX_LODS
#define THRONG_COUNT_OCCLUDED (THRONG_MAX_LODS + 1)
#define THRONG_COUNT_IMPOSTORS (THRONG_MAX_LODS + 2) // members drawn as impostors (both phases)
// LOD 0's members the technique's draws take where CullParams::hardware_px is set (auto): at the
// end of LOD 0's region, the last slot first; counts[0] then counts the compute rasterizer's.
#define THRONG_COUNT_HARDWARE (THRONG_MAX_LODS + 3)
#define THRONG_COUNT_HARDWARE_EARLY (THRONG_MAX_LODS + 4) // THRONG_COUNT_HARDWARE after the early phase
// Members drawn as splats (CullParams::splat_px; both phases), from the end of the impostor region,
// the last slot first; and how many the early phase drew.
#define THRONG_COUNT_SPLATS (THRONG_MAX_LODS + 5)
#define THRONG_COUNT_SPLATS_EARLY (THRONG_MAX_LODS + 6)
#define THRONG_SPLAT_LEVEL 0xfdu    // chooseLevel's answer for a member drawn as a splat
#define THRONG_HARDWARE_LEVEL 0xfeu // chooseLevel's answer for a member at LOD 0 the hardware draws (hardware_px)
#define THRONG_IMPOSTOR_LEVEL 0xffu // chooseLevel's answer for a member drawn as an impostor
#define THRONG_COUNT_EARLY 16
#define THRONG_COUNTS 32
// A crowd of several models (CullParams::assets > 1) also counts per model and LOD: the members
// of model a at LOD l in [THRONG_COUNTS + a * THRONG_MAX_LODS + l] (its slot in its sub-region),
// and the early phase's in the same place of the next assets * THRONG_MAX_LODS words.
THRONG_FN uint throngRegionCount(uint asset, uint lod) { return THRONG_COUNTS + asset * THRONG_MAX_LODS + lod; }
THRONG_FN uint throngRegionEarly(uint assets, uint asset, uint lod) {
    return THRONG_COUNTS + (assets + asset) * THRONG_MAX_LODS + lod;
}
// And auto's hardware share (THRONG_HARDWARE_LEVEL) per model, at the end of the model's
// sub-region of LOD 0's region: its members in [throngRegionHardware], the early phase's in
// [throngRegionHardwareEarly] (THRONG_COUNT_HARDWARE keeps the crowd's total).
THRONG_FN uint throngRegionHardware(uint assets, uint asset) {
    return THRONG_COUNTS + 2u * assets * THRONG_MAX_LODS + asset;
}
THRONG_FN uint throngRegionHardwareEarly(uint assets, uint asset) {
    return THRONG_COUNTS + (2u * THRONG_MAX_LODS + 1u) * assets + asset;
}

// The depth pyramid (pyramid.comp; src/render/depth_pyramid.h): level 0 the depth image, level
// k + 1 the minimum (reversed Z: the farthest) of 2x2 texels of level k, sizes rounded up.
#define THRONG_PYRAMID_BINDING_SOURCE 0     // sampled image: the depth image or the level below
#define THRONG_PYRAMID_BINDING_TARGET 1     // storage image r32f: the level written
#define THRONG_PYRAMID_BINDING_VISIBILITY 2 // storage buffer: the compute rasterizer's visibility buffer (level 0)
#define THRONG_PYRAMID_LOCAL_SIZE 8
#define THRONG_MAX_PYRAMID_LEVELS 16

// Specialization constant 0 of every shader that skins from baked animation: where the texels
// are read from (the other bindings then hold a 1-texel placeholder).
#define THRONG_SPEC_ANIMATION_PATH 0
#define THRONG_ANIMATION_PATH_IMAGE 0        // sampled image array, texelFetch
#define THRONG_ANIMATION_PATH_TEXEL_BUFFER 1 // uniform texel buffer, texelFetch
#define THRONG_ANIMATION_PATH_WORDS 2        // storage buffer, plain loads
// Specialization constant 2 of the same shaders: 1 when the texels are IEEE halves (the words
// path unpacks them itself; the other paths get floats from the texture unit).
#define THRONG_SPEC_ANIMATION_HALF 2
// Specialization constant 1 of palette.vert: 1 reads quaternion + translation palettes (2 vec4 per
// joint), 0 reads 3x4 matrices (3 vec4 per joint, the rows).
#define THRONG_SPEC_PALETTE_QUATERNION 1
// Specialization constant 3 of the shaders that blend joints (palette, baked): 1 blends them as
// dual quaternions (dual_quaternion.glsl, --skinning dual-quaternion), 0 as matrices.
#define THRONG_SPEC_DUAL_QUATERNION 3
// The compute rasterizer's palette variants read the palettes from an image (technique bonetex's
// texture) instead of a storage buffer.
#define THRONG_SPEC_PALETTE_IMAGE 4
// pose.comp: the skeleton's depth + 1 (its stack of model matrices, one per level of the path
// from a root to the node being posed).
#define THRONG_SPEC_POSE_DEPTH 5

#define THRONG_VERTEX_WORDS 15 // sizeof(BakedVertex) / 4
#define THRONG_CHECK_LOCAL_SIZE 64

// One crowd member: 48 bytes.
struct InstanceRecord {
    vec4 position_scale; // xyz: position on the field, w: uniform scale
    uvec2 orientation;   // quaternion (x, y, z, w) as four halves: packHalf2x16(x, y), packHalf2x16(z, w)
    uint clips;          // clip A, clip B (the cross-fade target) and the member's asset: throngClips
    uint color;          // RGBA8 tint (unpackUnorm4x8)
    float time_offset;   // seconds: phase, added to time * speed
    float speed;         // playback rate
    float blend;         // weight of clip B in [0, 1]
    uint key;            // stable per member, for its seeded choices (props: THRONG_CARRIES); 0: its index
};

// InstanceRecord::clips: clip A in bits 0-11, clip B in bits 12-23, the member's asset in bits
// 24-31 (a crowd of several assets, issue #25: docs/MIXED_CROWDS.md; 0 until then). Clips are
// the asset's own; an asset of more clips than THRONG_MAX_CLIPS has the later ones refused where
// a crowd is built.
#define THRONG_MAX_CLIPS 4096u
#define THRONG_MAX_ASSETS 256u
THRONG_FN uint throngClips(uint clip_a, uint clip_b, uint asset) {
    return (clip_a & 0xfffu) | (clip_b & 0xfffu) << 12u | (asset & 0xffu) << 24u;
}
THRONG_FN uint throngClipA(uint clips) { return clips & 0xfffu; }
THRONG_FN uint throngClipB(uint clips) { return (clips >> 12u) & 0xfffu; }
THRONG_FN uint throngAssetOf(uint clips) { return clips >> 24u; }

// DrawConstants::draw_bits: bit 0 the submesh's texture is bound; bit 1 the submesh keeps its
// own colours (a prop: not tinted by the member); bits 2-7 the frame slot; bits 8-31 the
// submesh's wear selector (below; 0: every member draws it).
#define THRONG_DRAW_TEXTURED 1u
#define THRONG_DRAW_UNTINTED 2u
#define THRONG_DRAW_SLOT_SHIFT 2u
#define THRONG_DRAW_SLOT_MASK 0x3fu
#define THRONG_DRAW_WEAR_SHIFT 8u
// Props and kit parts (throng/attach.h): which members draw a submesh. A wear selector (24 bits)
// holds a salt (bits 0-6, 1 .. THRONG_MAX_PROPS; 0: every member) and an interval [lo, hi) of
// 256ths (lo bits 7-14, hi bits 15-23, 0 .. 256): member key k wears the submesh when the top 8
// bits of throngPropHash(k, salt) lie in it. A prop alone has its own number as salt and [0,
// share); the parts of a slot share their slot's salt (its first part's number) and take
// adjacent intervals, so a member wears at most one part of a slot, each as often as its weight.
// The same integer hash on the CPU and the GPU.
#define THRONG_MAX_PROPS 127u
THRONG_FN uint throngPropHash(uint key, uint prop) {
    uint h = key * 747796405u + prop * 2891336453u + 1u;
    h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
    return (h >> 22u) ^ h;
}
THRONG_FN bool throngCarries(uint key, uint prop, uint share) { return (throngPropHash(key, prop) >> 24u) < share; }
THRONG_FN uint throngWear(uint salt, uint lo, uint hi) {
    return (salt & 0x7fu) | (lo & 0xffu) << 7u | (hi & 0x1ffu) << 15u;
}
// The members a wear selector takes, in 256ths (256: every member).
THRONG_FN uint throngWearShare(uint wear) {
    uint lo = (wear >> 7u) & 0xffu, hi = (wear >> 15u) & 0x1ffu;
    return (wear & 0x7fu) == 0u ? 256u : hi - (lo < hi ? lo : hi);
}
THRONG_FN bool throngWears(uint key, uint wear) {
    uint salt = wear & 0x7fu;
    if (salt == 0u) return true;
    uint h = throngPropHash(key, salt) >> 24u;
    return h >= ((wear >> 7u) & 0xffu) && h < ((wear >> 15u) & 0x1ffu);
}
// Looks (issue #25's colour variation, throng/looks.h): the looks table (THRONG_BINDING_LOOKS,
// THRONG_IMPOSTOR_BINDING_LOOKS; uint[]) holds the look count L, then look l's record for l < L
// (BakedAsset::looks' order; impostor pictures name looks so), then a record per look: its salt
// | its colour count << 8, then two words per colour: packHalf2x16(red, green), and the low half of
// packHalf2x16(blue, 0) | the colour's bound << 16. A submesh's look word (DrawConstants::look,
// SubmeshShading::look) is its look's record (0: none); the member of key k takes the first colour
// whose bound (in 256ths, ascending, the last 256) exceeds the top 8 bits of throngPropHash(k,
// salt). Look l of a model has salt THRONG_LOOK_SALT + l (props and parts take 1 .. 127).
// A look with texture variants (THRONG_LOOK_TEXTURED in its first word) samples layer c of its
// submeshes' texture array for colour c, and its record goes on with two more words per colour,
// packed alike without bounds: the colour times its texture's mean, which impostors draw (their
// pictures hold those submeshes untextured: a texture's detail is below an impostor's texel).
#define THRONG_LOOK_SALT 128u
#define THRONG_MAX_LOOK_COLORS 64u
#define THRONG_LOOK_TEXTURED 0x10000u
THRONG_FN uint throngLookPick(uint key, uint salt) { return throngPropHash(key, salt) >> 24u; }

// A crowd of several models deals member i its model by throngPropHash(i, THRONG_MODEL_SALT)
// (render/crowd.h dealModel; props use 1 .. THRONG_MAX_PROPS).
#define THRONG_MODEL_SALT 255u

// Per baked clip: 32 bytes.
struct ClipRecord {
    float duration;   // seconds
    float last_frame; // frame_count - 1
    uint loop;        // 1: wrap time, 0: clamp
    uint first_texel; // texel-buffer path: index of the clip's frame 0, joint 0, row 0
    uint row_texels;  // texel-buffer path: texels per frame (3 * joints)
    // Vertex animation: the first vertex of the clip's model (0 but in a crowd of several models:
    // asset_library.h): vertex v's texels are at column 2 * (v - first_vertex).
    uint first_vertex;
    uint reserved1;
    uint reserved2;
};

// Push constants of the draw: 128 bytes (the guaranteed maximum).
struct DrawConstants {
    mat4 view_projection;
    vec4 light_direction; // xyz: direction the light travels (world), w: ambient level
    vec4 base_color;      // submesh colour (multiplies vertex and instance colour)
    float time;           // seconds since the crowd started
    uint joint_count;     // palette entries per instance (palette, bonetex)
    uint draw_bits;       // four things a draw's shaders need, packed: THRONG_DRAW_TEXTURED (the submesh's texture is
                          // bound), THRONG_DRAW_UNTINTED (a prop's colours), the frame slot at THRONG_DRAW_SLOT_SHIFT
                          // (6 bits: ShadowParams) and the submesh's wear selector at THRONG_DRAW_WEAR_SHIFT (0: every
                          // member's)
    uint vertex_count;    // vertices per instance (cpu: pre-skinned vertices are instance-major)
    uint look;            // the submesh's look: its record in the looks table (THRONG_LOOK_SALT; 0: none)
    uint first_instance;  // palette-ubo: first instance of the batch being drawn
    uint lod_stride;  // slots per LOD region of the visible list: gl_InstanceIndex / lod_stride is the LOD (0: unknown)
    uint coarse_lods; // baked: LODs (bits 0-15) up to (bits 16-31, exclusive) are skinned coarsely (coarse_skinning.h)
};

// Motion vectors of the hardware passes (render/history.h; std430, one per frame slot, indexed
// by the slot the draw's constants carry): 80 bytes.
struct MotionParams {
    mat4 previous_view_projection; // the last frame's camera, unjittered
    vec2 viewport;                 // the targets' pixels
    float previous_time;           // the last frame's draw time
    uint reserved;
};

// The fish swim of technique `procedural` (std140 uniform): 32 bytes. Amounts in model units
// (side, wave) and radians (pivot, twist); see procedural.vert for the motions.
struct SwimParams {
    float side;             // side-to-side translation amplitude
    float pivot;            // yaw amplitude about the body's centre
    float wave;             // travelling-wave amplitude
    float twist;            // roll amplitude
    float frequency;        // wave number along z (radians per unit length)
    float beats_per_second; // tail beats per second at speed 1
    float mask_head;        // z in front of which the wave and twist vanish (head at +z)...
    float mask_tail;        // ...and z behind which they act fully; mask_tail < mask_head
};

// The light of a frame with shadows (std430, one per frame slot): 80 bytes.
struct ShadowParams {
    mat4 light_view_projection; // world to the shadow map's clip space (orthographic, reversed Z)
    vec4 settings;              // x: one texel in uv, y: normal offset (world units), z: depth bias, w: 0
};

// Push constants of the ground (ground.vert/ground.frag): 112 bytes.
struct GroundConstants {
    mat4 view_projection;
    vec4 light_direction; // as DrawConstants
    vec4 rect;            // world x-z rectangle: min x, min z, max x, max z
    float height;         // world y of the ground
    uint slot;            // frame slot: index of its ShadowParams
    uint reserved0;
    uint reserved1;
};

// Push constants of the targets' clear by compute (clear_targets.comp; src/render/target_clear.h):
// 32 bytes.
struct ClearConstants {
    vec4 color;   // the colour target's clear value as its R8G8B8A8_UNORM storage view stores it (sRGB encoded)
    uvec2 extent; // the targets' size in pixels
    uint reserved0;
    uint reserved1;
};
#define THRONG_CLEAR_BINDING_COLOR 0    // storage image rgba8: the colour target's R8G8B8A8_UNORM view
#define THRONG_CLEAR_BINDING_VELOCITY 1 // storage image r32ui: the velocity target's R32_UINT view (THRONG_VELOCITY)
#define THRONG_CLEAR_LOCAL_SIZE 16

// What the culling pass needs to know about the view: 288 bytes, the same in std140 and std430.
struct CullParams {
    vec4 planes[6];  // frustum planes (xyz normal inward, w), world space, normalized
    vec4 depth_row;  // row 3 of the view-projection: dot(depth_row, vec4(p, 1)) is p's view depth
    vec4 reserved_a; // (each model's level errors are in its CullAsset)
    vec4 reserved_b;
    float pixels_per_unit; // screen pixels of one unit at view depth 1 (height / (2 tan(fovy / 2)))
    float lod_error_px;    // the coarsest LOD whose error projects to at most this many pixels
    uint members;
    uint lod_count; // LODs to choose from (1: LOD 0 only)
    uint frustum;   // 1: drop members outside the frustum
    uint submeshes;
    uint row_width;       // members per row of the 2D dispatch
    uint visible_stride;  // slots per LOD region of the visible list (>= members)
    uint identity_base;   // slot of the identity region (member i at identity_base + i)
    uint pyramid_levels;  // levels of the depth pyramid (occlusion culling only)
    uint draw_lods;       // the indirect draws cover LODs below this (the compute rasterizer draws the rest)
    float impostor_px;    // members less than this many pixels tall on screen are drawn as impostors (0: none)
    mat4 view_projection; // world to clip space (occlusion culling projects each member's box)
    vec2 viewport;        // pixels; level 0 of the depth pyramid has this size
    uint impostor_base;   // slot of the impostor region of the visible list
    uint visible_base;    // added to every LOD region's first slot (the light's view: its own regions)
    // With draw_lods 1 (--raster auto): the indirect draws take of LOD 0 only the members whose
    // sphere is at least this many pixels across (THRONG_COUNT_HARDWARE), the compute rasterizer
    // the rest of LOD 0 as of every other; 0: all of LOD 0.
    float hardware_px;
    // The crowd's models (CullAsset, asset_library.h): 1, the visible list as it always was; more,
    // each LOD region split into one sub-region per model and a count per (model, LOD)
    // (throngRegionCount).
    uint assets;
    // Members less than this many pixels across (their sphere, as impostor_px) are drawn as splats
    // by the compute rasterizer (docs/IN_MOTION.md; 0: none), below impostor_px.
    float splat_px;
    uint reserved2;
};

// Per model of a crowd, what culling and the indirect draws read through a member's model
// (throngAssetOf(InstanceRecord::clips)): 64 bytes.
struct CullAsset {
    vec4 lod_errors[2]; // geometric error of the model's LOD l (model units) in component l % 4 of [l / 4]
    uint lod_count;     // the model's levels (the crowd may have more: a member never takes those)
    uint first_slot;    // its sub-region's first slot in each LOD region of the visible list (0 for one model)
    uint capacity;      // the sub-region's slots: the model's members (CullParams::visible_stride for one model)
    uint first_submesh; // its submeshes, [first_submesh, first_submesh + submesh_count) of the crowd's
    uint submesh_count;
    // Auto's hardware share: a member of this model at LOD 0 goes to the hardware from
    // CullParams::hardware_px times this across: 1 for one model; for several, the square root of
    // its LOD 0's triangles, hardware_px then being autoShare's for one triangle (crowd_gpu.h).
    float hardware_scale;
    // Kit parts and props (render/part_culling.h): how many the model has (0: its clip boxes hold
    // every vertex), and where its table starts in the bounds buffer (vec4s).
    uint parts;
    uint part_table;
};

// Push constants of the culling shaders: 16 bytes.
struct CullPhase {
    uint phase; // THRONG_CULL_PHASE_*
    uint reserved0;
    uint reserved1;
    uint reserved2;
};

// What the compute rasterizer needs to know (std430 storage buffer): 256 bytes. What differs per
// model of the crowd (its levels' clusters, its cache box) is in its RasterModel.
struct RasterParams {
    mat4 view_projection;
    vec4 light_direction; // as DrawConstants
    vec2 viewport;        // pixels
    float time;           // the draw time (the motion's clock)
    uint lod_stride;      // slots per LOD region of the visible list
    // Nonzero: this frame skins each model's coarse levels coarsely (RasterModel::coarse_lods); 0: none.
    uint coarse_lods;
    uint culled; // 1: members come from the culling pass's regions; 0: every member at LOD 0 from the identity region
    uint members;
    uint identity_base;
    uint models;         // RasterModel entries (THRONG_BINDING_RASTER_MODELS): the crowd's models, at least 1
    uint joint_count;    // palette entries per member (the palettes' layout: the crowd's largest skeleton)
    uint cache_lods;     // 0: no vertex cache this frame; else each model's levels below its RasterModel::cache_lods
    uint cache_capacity; // vertices the cache holds (8 + 4 bytes each); members that do not fit are skinned per cluster
    uint frame_slot;     // the frame slot these parameters are for (the resolve's ShadowParams)
    uint vertex_count;   // the model's vertices (technique cpu's skinned vertices: that many per member)
    // Where the palettes are (render::ComputePalettes): in batches of palette_batch members whose
    // first rows lie palette_batch_stride vec4s apart (0: one run); in an image palette_image_width
    // texels wide (THRONG_SPEC_PALETTE_IMAGE).
    uint palette_batch;
    uint palette_batch_stride;
    uint palette_image_width;
    // Added to every LOD region's first slot of the visible list when culled: 0 for the camera's
    // view, CrowdGpu::lightBase() for the light's (ComputeRaster's shadow pass).
    uint visible_base;
    // Splats (raster_splat.comp): the slot of the visible list holding splat 0 (the impostor
    // region's last; splat s at splat_slot - s), and the screen pixels of one unit at view depth 1.
    uint splat_slot;
    float pixels_per_unit;
    vec4 eye; // xyz: the camera's position, world space (the direction a splat is seen from)
    // Motion vectors (velocity 1): the last frame's unjittered view-projection and draw time, which
    // the resolve places and animates the members' previous records with (THRONG_BINDING_PREVIOUS_INSTANCES).
    mat4 previous_view_projection;
    float previous_time;
    uint velocity; // 1: the resolve writes THRONG_BINDING_VELOCITY (and shades cached members itself)
    uint pad0, pad1;
};

// Per model of the crowd (one for a crowd of one model), what the compute rasterizer reads
// through a member's model (throngAssetOf(InstanceRecord::clips)): 320 bytes. Its levels are
// its own clusters of the chain (render::ClusterChain::models); the visibility buffer names
// its triangles from first_triangle, so each model has 65,535 of its own.
struct RasterModel {
    uvec4 lod_clusters[8]; // per LOD (THRONG_MAX_LODS): first cluster, cluster count (0: no such level), first chain
                           // triangle, chain triangles
    uvec4 lod_vertices[8]; // per LOD: first entry of its vertex list (THRONG_BINDING_LOD_VERTICES), vertex count, the
                           // raster's work per member (THRONG_BINDING_RASTER_SLOTS; 0: one per cluster), its first
                           // slot record
    vec4 cache_origin;     // xyz: its cache box's corner (model space; every pose of its clips lies inside)
    vec4 cache_step;       // xyz: the box's size / THRONG_CACHE_STEPS per axis
    uint first_triangle;   // its first chain triangle: the visibility buffer holds chain triangle - first_triangle
    uint first_slot;       // its sub-region of each LOD region of the visible list (CullAsset::first_slot)
    uint capacity;         // the sub-region's slots (CullAsset::capacity)
    uint joint_count;      // its skeleton's joints (the cache pass blends these)
    uint coarse_lods;      // its coarse-skinned levels as DrawConstants::coarse_lods, where the frame skins coarsely
    uint cache_lods;       // the cache holds its levels below this where the frame skins coarsely (cachedLevels)
    uint cache_lods_full;  // and where it does not
    uint reserved0;
};

// What the resolve shades a submesh with (std430): 32 bytes. The submesh's base colour
// multiplies vertex and member colour as DrawConstants::base_color does; `texture` is the asset's
// texture it samples (the resolve draws once per texture bound: ComputeRaster::recordResolve),
// THRONG_NO_TEXTURE for none.
#define THRONG_NO_TEXTURE 0xffffffffu
struct SubmeshShading {
    vec4 base_color;
    uint texture;
    uint look; // its record in the looks table (THRONG_LOOK_SALT; 0: none)
    // What a splat averages (src/render/splats.h): the submesh's mean colour (vertex colour times
    // base colour times its texture's mean, linear RGB; the texture's mean left out where its look
    // varies the texture) and its area over its model's body area, as halves: (r, g), (b, area).
    uint mean_rg;
    uint mean_b_area;
};

// The compute rasterizer's dispatches, written on the GPU from the culling counts (raster_plan.comp):
// per LOD the indirect dispatches (x, y, z) of each kind of work over every model's members at
// that level, padded to 16 bytes, then the vertex cache's totals and the resolve's counts and
// dispatches: 592 bytes. A RasterRegion per (LOD, model) follows in the same buffer.
struct RasterPlan {
    uvec4 dispatches[8];        // per LOD: the per-cluster raster of the members the cache does not hold (skinned in
                                // full, or the bind pose)
    uvec4 coarse_dispatches[8]; // per LOD: the same for the models whose level is skinned coarsely
    uvec4 cache_dispatches[8]; // per LOD: the cache pass, one workgroup per cached member, in rows of THRONG_RASTER_ROW
    uvec4 cached_dispatches[8]; // per LOD: the rasterizer's workgroups for the cached members' clusters
    uvec4 totals;         // cached vertices, cached members, members at cached LODs skinned per cluster (no room), 0
    uvec4 resolve_counts; // members per resolve variant: cached, skinned fully (or the bind pose), coarse-skinned; all
    // Per resolve variant (as resolve_counts): its indirect dispatch, a workgroup per
    // THRONG_RESOLVE_TILE x THRONG_RESOLVE_TILE pixels, none when it counts no member.
    uvec4 resolve_dispatches[3];
    // The splat pass's indirect dispatch (x, y, 1: a thread per splat in rows of THRONG_RASTER_ROW
    // workgroups of THRONG_SPLAT_LOCAL_SIZE) and in w the first splat this phase draws.
    uvec4 splat_dispatch;
};
#define THRONG_SPLAT_LOCAL_SIZE 64
// The triangle field of a splat's id in the visibility buffer (a model's levels have at most
// 65,535 triangles, 0 .. 65,534: compute_raster.cpp).
#define THRONG_SPLAT_TRIANGLE 0xffffu
// A model's splat table (src/render/splats.h): the model drawn from THRONG_SPLAT_AZIMUTHS x
// THRONG_SPLAT_ELEVATIONS directions; view (e, a) looks from model-space direction
// (sin(A) cos(E), sin(E), cos(A) cos(E)), A = a * 360 / azimuths degrees, E = -90 + e * 180 /
// (elevations - 1) degrees. Per view four vec4: (silhouette area in model units^2, mean visible
// normal xyz), (E[n n^T] xx, yy, zz, xy), (xz, yz, 0, 0), the normals turned toward the viewer;
// (the mean colour it shows over the body's whole surface's, per channel; 0).
#define THRONG_SPLAT_AZIMUTHS 8
#define THRONG_SPLAT_ELEVATIONS 7
#define THRONG_SPLAT_VIEWS 56
struct SplatModel {
    vec4 center;        // xyz: the model's centre (model space) a splat is placed at; w: 0
    uint first_submesh; // the model's submeshes, whose means (SubmeshShading::mean_*) a splat's colour averages
    uint submesh_count;
    uint reserved0;
    uint reserved1;
    vec4 views[224]; // THRONG_SPLAT_VIEWS x 4
};

// One model's members at one LOD in this frame's plan (after RasterPlan, at [lod * models + model]):
// 48 bytes. A workgroup of a LOD's dispatch finds its model as the last whose first workgroup of
// that kind is at most its own (vertex_cache.glsl's modelOfGroup).
struct RasterRegion {
    uint members;  // slots of the model's sub-region of the LOD region this phase covers
    uint first;    // the first slot the per-cluster raster draws: after the cached ones (late: the early phase's)
    uint cached;   // its first `cached` slots are in the vertex cache (the early phase's layout, kept for the resolve)
    uint vertices; // vertices a cached member holds (the model's level's)
    uint cache_vertex; // the cache's first vertex of its cached members
    uint cached_index; // the cached-member index of its first cached member (THRONG_BINDING_MEMBER_SLOTS)
    uint group_cache;  // its first workgroup in its level's cache dispatch,
    uint group_cached; // in the cached raster's,
    uint group_full;   // the full per-cluster raster's
    uint group_coarse; // and the coarse one's (a model's level is skinned one way: no workgroups in the other)
    uint reserved0;
    uint reserved1;
};
#define THRONG_RESOLVE_TILE 8

// The resolve's tiles across and down a picture of `viewport` pixels (its dispatches, its list
// of shaded tiles and the composite's quads).
THRONG_FN uvec2 throngResolveTiles(uvec2 viewport) {
    return (viewport + uint(THRONG_RESOLVE_TILE - 1)) / uint(THRONG_RESOLVE_TILE);
}

// What the impostor pass needs to know (std430 storage buffer): 128 bytes.
struct ImpostorParams {
    mat4 view_projection;
    vec4 light_direction; // as DrawConstants
    vec4 camera_position; // xyz: the eye, world space
    vec4 sphere;          // xyz: the centre every tile frames (model space), w: its radius
    float time;           // the draw time (the motion's clock)
    uint azimuths;        // BakedImpostors' views: azimuths x elevations
    uint elevations;
    uint max_frames; // rows of tiles per layer
    // Motion vectors (impostor_velocity.*): the last frame's camera, draw time and the targets' size.
    mat4 previous_view_projection;
    vec2 viewport;
    float previous_time;
    uint reserved;
};

// Push constants of pyramid.comp: 16 bytes.
struct PyramidConstants {
    ivec2 source_size; // texels of the level read
    ivec2 target_size; // texels of the level written
};

// Technique `pose` (pose.comp; src/render/pose_gpu.h): a compute pass samples every member's
// clips from the model's source tracks, blends them per joint in local space (the cross-fade,
// then each layer the member carries, under its joint mask) and writes its skinning palette
// (3 vec4 rows per entry at THRONG_BINDING_PALETTE, as technique `palette` reads it).
#define THRONG_BINDING_POSE_NODES 40  // storage buffer: PoseNode per skeleton node (parents first)
#define THRONG_BINDING_POSE_TABLE 41  // storage buffer: uint per (clip, node, target): its track + 1, 0: none
#define THRONG_BINDING_POSE_TRACKS 42 // storage buffer: PoseTrack per track
#define THRONG_BINDING_POSE_TIMES 43  // storage buffer: float key times of every track
#define THRONG_BINDING_POSE_VALUES 44 // storage buffer: vec4 key values (cubic splines: in, value, out per key)
#define THRONG_BINDING_POSE_JOINTS 45 // storage buffer: PoseJoint per palette entry, in the steps' order
#define THRONG_BINDING_POSE_LAYERS 46 // storage buffer: PoseLayer per layer
#define THRONG_BINDING_POSE_MASKS 47  // storage buffer: float weight per (layer, node): the layer's joint mask
#define THRONG_BINDING_POSE_STEPS                                                                                      \
    48 // storage buffer: PoseStep per skeleton node, depth first (parents before children)
#define THRONG_BINDING_POSE_CLIPS 49 // storage buffer: float duration per clip (seconds; clips loop)
#define THRONG_POSE_LOCAL_SIZE 64    // pose.comp: members per workgroup (a thread per member)
#define THRONG_POSE_MAX_DEPTH 256    // skeleton levels pose.comp's stack holds (48 bytes each, per thread)
// pose_nodes.comp: a workgroup of this many threads, a thread per (member, node), the members'
// model matrices in shared memory (48 bytes each: 12 KB); larger skeletons take pose.comp.
#define THRONG_POSE_GROUP_NODES 256
#define THRONG_MAX_LAYERS 8 // layers a crowd may have (each member carries any of them)
// Member key k carries layer l when throngCarries(k, THRONG_LAYER_SALT + l, share): the props'
// hash with numbers no prop has, so which members wave is independent of who carries a sword.
#define THRONG_LAYER_SALT 4096u
#define THRONG_POSE_STEP 0u
#define THRONG_POSE_LINEAR 1u
#define THRONG_POSE_CUBIC 2u

struct PoseNode {
    int parent; // -1: a root
    uint reserved0;
    uint reserved1;
    uint reserved2;
    vec4 translation; // the rest pose (joints no track moves keep it)
    vec4 rotation;    // quaternion (x, y, z, w)
    vec4 scale;
};

struct PoseTrack {
    uint first_time;    // index of its first key time
    uint count;         // keys
    uint first_value;   // index of its first value (cubic splines: 3 per key)
    uint interpolation; // THRONG_POSE_STEP, _LINEAR, _CUBIC
};

// pose.comp walks the skeleton depth first, keeping only the model matrices of the path from a
// root (a stack indexed by depth), and writes each node's palette entries as it leaves it.
struct PoseStep {
    uint node;        // the skeleton node posed at this step
    uint depth;       // 0: a root; its parent is the last node of depth - 1 before it
    uint first_joint; // its palette entries: PoseJoint first_joint .. first_joint + joints - 1
    uint joints;
};

struct PoseJoint {
    uint node;  // the skeleton node whose model matrix it multiplies
    uint entry; // its index in the palette (the joints buffer is in the steps' order)
    uint reserved1;
    uint reserved2;
    vec4 inverse_bind[3]; // rows of the 3x4 inverse bind matrix
};

struct PoseLayer {
    uint clip;    // the layer's clip, played on the member's own clock
    uint share;   // 0 .. 256: members carrying it (throngCarries)
    float weight; // in [0, 1], times the mask's weight per node
    uint reserved;
};

// Push constants of the pose pass: 32 bytes.
struct PoseConstants {
    float time; // seconds since the crowd started
    uint members;
    uint nodes;
    uint joints;
    uint layers;
    uint reserved0;
    uint reserved1;
    uint reserved2;
};

// One indexed indirect draw, laid out as VkDrawIndexedIndirectCommand: 20 bytes.
struct DrawCommand {
    uint index_count;
    uint instance_count;
    uint first_index;
    int vertex_offset;
    uint first_instance;
};

// Push constants of the compute check: 16 bytes.
struct CheckConstants {
    uint vertex_count;
    uint query_count;
    float time;
    uint reserved;
};

#ifdef __cplusplus
static_assert(sizeof(SubmeshShading) == 32);
static_assert(sizeof(PoseNode) == 64);
static_assert(offsetof(PoseNode, translation) == 16);
static_assert(sizeof(PoseTrack) == 16);
static_assert(sizeof(PoseStep) == 16);
static_assert(sizeof(PoseJoint) == 64);
static_assert(offsetof(PoseJoint, inverse_bind) == 16);
static_assert(sizeof(PoseLayer) == 16);
static_assert(sizeof(PoseConstants) == 32);
static_assert(sizeof(InstanceRecord) == 48);
static_assert(offsetof(InstanceRecord, position_scale) == 0);
static_assert(offsetof(InstanceRecord, orientation) == 16);
static_assert(offsetof(InstanceRecord, clips) == 24);
static_assert(offsetof(InstanceRecord, color) == 28);
static_assert(offsetof(InstanceRecord, time_offset) == 32);
static_assert(offsetof(InstanceRecord, speed) == 36);
static_assert(offsetof(InstanceRecord, blend) == 40);
static_assert(sizeof(ClipRecord) == 32);
static_assert(offsetof(ClipRecord, last_frame) == 4);
static_assert(offsetof(ClipRecord, loop) == 8);
static_assert(offsetof(ClipRecord, first_texel) == 12);
static_assert(offsetof(ClipRecord, row_texels) == 16);
static_assert(sizeof(DrawConstants) == 128);
static_assert(offsetof(DrawConstants, vertex_count) == 108);
static_assert(offsetof(DrawConstants, look) == 112);
static_assert(offsetof(DrawConstants, first_instance) == 116);
static_assert(offsetof(DrawConstants, coarse_lods) == 124);
static_assert(offsetof(DrawConstants, light_direction) == 64);
static_assert(offsetof(DrawConstants, base_color) == 80);
static_assert(offsetof(DrawConstants, time) == 96);
static_assert(offsetof(DrawConstants, joint_count) == 100);
static_assert(offsetof(DrawConstants, draw_bits) == 104);
static_assert(sizeof(CheckConstants) == 16);
static_assert(sizeof(ShadowParams) == 80);
static_assert(offsetof(ShadowParams, settings) == 64);
static_assert(sizeof(GroundConstants) == 112);
static_assert(sizeof(ClearConstants) == 32);
static_assert(offsetof(GroundConstants, height) == 96);
static_assert(offsetof(CullParams, visible_base) == 268);
static_assert(sizeof(CullParams) == 288);
static_assert(offsetof(CullParams, splat_px) == 280);
static_assert(sizeof(CullAsset) == 64);
static_assert(offsetof(CullParams, pyramid_levels) == 180);
static_assert(offsetof(CullParams, view_projection) == 192);
static_assert(offsetof(CullParams, viewport) == 256);
static_assert(sizeof(CullPhase) == 16);
static_assert(sizeof(ImpostorParams) == 208);
static_assert(offsetof(ImpostorParams, time) == 112);
static_assert(offsetof(RasterParams, identity_base) == 108);
static_assert(offsetof(RasterParams, models) == 112);
static_assert(offsetof(RasterParams, visible_base) == 148);
static_assert(offsetof(RasterParams, splat_slot) == 152);
static_assert(offsetof(RasterParams, eye) == 160);
static_assert(offsetof(RasterParams, previous_view_projection) == 176);
static_assert(sizeof(RasterParams) == 256);
static_assert(sizeof(SplatModel) == 32 + 224 * 16);
static_assert(sizeof(MotionParams) == 80);
static_assert(sizeof(RasterModel) == 320);
static_assert(offsetof(RasterModel, cache_origin) == 256);
static_assert(offsetof(RasterModel, first_triangle) == 288);
static_assert(sizeof(RasterPlan) == 608);
static_assert(offsetof(RasterPlan, splat_dispatch) == 592);
static_assert(offsetof(RasterPlan, cached_dispatches) == 384);
static_assert(offsetof(RasterPlan, totals) == 512);
static_assert(offsetof(RasterPlan, resolve_counts) == 528);
static_assert(sizeof(RasterRegion) == 48);
static_assert(sizeof(PyramidConstants) == 16);
static_assert(offsetof(CullParams, depth_row) == 96);
static_assert(offsetof(CullParams, pixels_per_unit) == 144);
static_assert(offsetof(CullParams, pixels_per_unit) == 144);
static_assert(offsetof(CullParams, members) == 152);
static_assert(offsetof(CullParams, identity_base) == 176);
static_assert(sizeof(DrawCommand) == 20);
static_assert(sizeof(SwimParams) == 32);
static_assert(offsetof(SwimParams, frequency) == 16);
static_assert(offsetof(SwimParams, mask_tail) == 28);
static_assert(offsetof(CheckConstants, time) == 8);
} // namespace throng::gpu::shader
#endif

#endif
