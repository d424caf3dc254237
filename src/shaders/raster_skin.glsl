// The compute rasterizer's skinning of one cluster vertex, per technique: raster_baked.* and
// resolve_baked.comp define THRONG_RASTER_BAKED (the baked animation exactly as baked.vert at
// the levels it skins in full), raster_coarse.comp and resolve_coarse.comp THRONG_SKIN_COARSE
// too (as baked.vert at the coarse-skinned levels); raster_palette.comp and resolve_palette.comp
// (and the cache pass's raster_cache_palette.comp) define THRONG_RASTER_PALETTE (the palettes
// the technique wrote this frame, technique pose's pass or technique palette's CPU, blended as
// palette.vert does); the *_vat variants THRONG_RASTER_VAT (the vertex animation,
// tweened and cross-faded as vat.vert samples it); the *_procedural variants
// THRONG_RASTER_PROCEDURAL (the fish swim, swim.glsl, as procedural.vert moves the rest mesh);
// the *_vertices variants THRONG_RASTER_VERTICES (technique cpu's vertices, skinned on the CPU):
// one kind of skinning per shader, the lightest code for each; the static variants draw the bind
// pose as static.vert. The skeletal variants blend a vertex's joints linearly or, specialized with
// THRONG_SPEC_DUAL_QUATERNION (--skinning dual-quaternion), as dual quaternions
// (dual_quaternion.glsl), as the vertex shaders do; the coarse-skinned levels take the heaviest
// joint's matrix alone (nothing to blend) with either skinning, as baked.vert does there.
// Expects shared.h, vertex.glsl and instance.glsl first, and the block `raster` (RasterParams).

#ifdef THRONG_RASTER_BAKED
layout(std430, set = 0, binding = THRONG_BINDING_CLIPS) readonly buffer Clips { ClipRecord clips[]; };
layout(set = 0, binding = THRONG_BINDING_ANIMATION) uniform sampler2DArray animation;
layout(set = 0, binding = THRONG_BINDING_ANIMATION_BUFFER) uniform samplerBuffer animation_buffer;
layout(std430, set = 0, binding = THRONG_BINDING_ANIMATION_WORDS) readonly buffer AnimationWords { uint animation_words[]; };
#include "baked_skin.glsl"
#endif

#ifdef THRONG_RASTER_VAT
layout(std430, set = 0, binding = THRONG_BINDING_CLIPS) readonly buffer Clips { ClipRecord clips[]; };
layout(set = 0, binding = THRONG_BINDING_VAT) uniform sampler2DArray vat;
#include "vat_sample.glsl"
#endif

#ifdef THRONG_RASTER_PROCEDURAL
layout(std140, set = 0, binding = THRONG_BINDING_SWIM) uniform Swim { SwimParams swim; };
#include "swim.glsl"
#endif

#ifdef THRONG_RASTER_PALETTE
// Every member's palette (render::ComputePalettes): raster.joint_count entries, member-major, each
// 3 rows (the columns of a mat3x4 that vec4(p, 1) * m applies) or, specialized for the quaternion
// encoding (palette's --encoding quat, bonetex), 2 (palette_joint.glsl); in a storage buffer, in
// one run or in batches (palette-ubo's padded blocks: RasterParams::palette_batch), or,
// specialized with THRONG_SPEC_PALETTE_IMAGE, as the texels of bonetex's texture. The binding
// not read holds a placeholder.
layout(std430, set = 0, binding = THRONG_BINDING_PALETTE) readonly buffer Palettes { vec4 member_palettes[]; };
// The same as the last frame drew them (motion vectors: ComputePalettes::previous; where the
// technique keeps none, the binding holds this frame's).
layout(std430, set = 0, binding = THRONG_BINDING_PREVIOUS_PALETTE) readonly buffer PreviousPalettes { vec4 previous_palettes[]; };
layout(set = 0, binding = THRONG_BINDING_BONES) uniform sampler2D palette_image;
layout(set = 0, binding = THRONG_BINDING_PREVIOUS_BONES) uniform sampler2D previous_palette_image; // the same, last frame's
layout(constant_id = THRONG_SPEC_PALETTE_QUATERNION) const bool kQuaternionPalette = false;
layout(constant_id = THRONG_SPEC_PALETTE_IMAGE) const bool kImagePalette = false;
#include "palette_joint.glsl"
#include "dual_quaternion.glsl"

// Where row `row` of entry `joint` of member `member` lies (entries of `rows` rows): a vec4 index.
uint paletteRow(uint member, uint joint, uint rows, uint row) {
    uint batch = raster.palette_batch == 0u ? 0u : member / raster.palette_batch;
    uint first = batch * raster.palette_batch_stride;
    return first + ((member - batch * raster.palette_batch) * raster.joint_count + joint) * rows + row;
}

// Row `at` of this frame's palettes or (`previous`) the last frame's.
vec4 paletteVec4(uint at, bool previous) {
    if (kImagePalette) {
        uint w = raster.palette_image_width;
        ivec2 texel = ivec2(int(at % w), int(at / w));
        return previous ? texelFetch(previous_palette_image, texel, 0) : texelFetch(palette_image, texel, 0);
    }
    return previous ? previous_palettes[at] : member_palettes[at];
}

mat3x4 paletteJoint(uint member, uint joint, bool previous) {
    if (kQuaternionPalette)
        return quaternionPaletteJoint(paletteVec4(paletteRow(member, joint, 2u, 0u), previous),
                                      paletteVec4(paletteRow(member, joint, 2u, 1u), previous));
    uint at = paletteRow(member, joint, 3u, 0u);
    return mat3x4(paletteVec4(at, previous), paletteVec4(at + 1u, previous), paletteVec4(at + 2u, previous));
}

mat3x4 paletteSkin(uint member, MeshVertex vtx, bool previous) {
    JointBlend blend = beginJointBlend();
    for (int i = 0; i < 4; ++i)
        if (vtx.weights[i] != 0.0) addJoint(blend, paletteJoint(member, vtx.joints[i], previous), vtx.weights[i]);
    return endJointBlend(blend);
}
#endif

#ifdef THRONG_RASTER_VERTICES
// Technique cpu's vertices, skinned on the CPU this frame: per member (in member order) its
// raster.vertex_count positions, then as many normals, 3 floats each (as cpu.vert reads them).
layout(std430, set = 0, binding = THRONG_BINDING_SKINNED) readonly buffer Skinned { float skinned[]; };
// The positions as the last frame drew them, laid out the same (motion vectors; where the
// technique keeps none, the binding holds this frame's).
layout(std430, set = 0, binding = THRONG_BINDING_PREVIOUS_SKINNED) readonly buffer PreviousSkinned { float previous_skinned[]; };

vec3 skinnedVec3(uint index) { return vec3(skinned[3u * index], skinned[3u * index + 1u], skinned[3u * index + 2u]); }
vec3 previousSkinnedVec3(uint index) {
    return vec3(previous_skinned[3u * index], previous_skinned[3u * index + 1u], previous_skinned[3u * index + 2u]);
}
#endif

// Model-space position (xyz) and normal of vertex `vertex` (an index into the mesh's vertices,
// which every LOD shares; `vtx` its data) for member `member` (its record `inst`) drawn at LOD
// `lod` at draw time `time`. The palettes and technique cpu's vertices are this frame's whatever
// the record and time (skinVertexThen reads the last frame's).
void skinVertexAt(uint member, InstanceRecord inst, uint vertex, MeshVertex vtx, uint lod, float time,
                  out vec3 position, out vec3 normal) {
#if defined(THRONG_RASTER_VAT)
    VatVertex v = instanceVat(inst, vertex, time);
    position = v.position;
    normal = v.normal;
#elif defined(THRONG_RASTER_PROCEDURAL)
    position = vtx.position;
    normal = vtx.normal;
    swimVertex(inst, time, position, normal);
#elif defined(THRONG_RASTER_VERTICES)
    uint block = member * 2u * raster.vertex_count;
    position = skinnedVec3(block + vertex);
    normal = skinnedVec3(block + raster.vertex_count + vertex);
#elif defined(THRONG_RASTER_PALETTE)
    mat3x4 skin = paletteSkin(member, vtx, false);
    position = vec4(vtx.position, 1.0) * skin;
    normal = vec4(vtx.normal, 0.0) * skin;
#elif defined(THRONG_RASTER_BAKED)
#ifdef THRONG_SKIN_COARSE
    mat3x4 skin = coarseSkinning(inst, vtx.joints, vtx.weights, time);
#else
    mat3x4 skin = instanceSkinning(inst, vtx.joints, vtx.weights, time);
#endif
    position = vec4(vtx.position, 1.0) * skin;
    normal = vec4(vtx.normal, 0.0) * skin;
#else
    position = vtx.position;
    normal = vtx.normal;
#endif
}

// The model-space position of the same vertex as the last frame drew it (the motion vectors):
// from the member's last record `before` at the last frame's draw time, or the last frame's
// palettes or technique cpu's last positions.
vec3 skinVertexThen(uint member, InstanceRecord before, uint vertex, MeshVertex vtx, uint lod) {
#if defined(THRONG_RASTER_PALETTE)
    return vec4(vtx.position, 1.0) * paletteSkin(member, vtx, true);
#elif defined(THRONG_RASTER_VERTICES)
    return previousSkinnedVec3(member * 2u * raster.vertex_count + vertex);
#else
    vec3 position, unused;
    skinVertexAt(member, before, vertex, vtx, lod, raster.previous_time, position, unused);
    return position;
#endif
}

// The same at this frame's draw time.
void skinVertex(uint member, InstanceRecord inst, uint vertex, MeshVertex vtx, uint lod, out vec3 position,
                out vec3 normal) {
    skinVertexAt(member, inst, vertex, vtx, lod, raster.time, position, normal);
}
