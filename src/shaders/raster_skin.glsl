// The compute rasterizer's skinning of one cluster vertex, per technique: raster_baked.* and
// resolve_baked.frag define THRONG_RASTER_BAKED (the baked animation exactly as baked.vert at
// the levels it skins in full), raster_coarse.comp and resolve_coarse.frag THRONG_SKIN_COARSE
// too (as baked.vert at the coarse-skinned levels): one kind of skinning per shader, the
// lightest code for each; the static variants draw the bind pose as static.vert.
// Expects shared.h, vertex.glsl and instance.glsl first, and the block `raster` (RasterParams).

#ifdef THRONG_RASTER_BAKED
layout(std430, set = 0, binding = THRONG_BINDING_CLIPS) readonly buffer Clips { ClipRecord clips[]; };
layout(set = 0, binding = THRONG_BINDING_ANIMATION) uniform sampler2DArray animation;
layout(set = 0, binding = THRONG_BINDING_ANIMATION_BUFFER) uniform samplerBuffer animation_buffer;
layout(std430, set = 0, binding = THRONG_BINDING_ANIMATION_WORDS) readonly buffer AnimationWords { uint animation_words[]; };
#include "baked_skin.glsl"
#endif

// Model-space position (xyz) and normal of `vtx` for member `inst` drawn at LOD `lod`.
void skinVertex(InstanceRecord inst, MeshVertex vtx, uint lod, out vec3 position, out vec3 normal) {
#ifdef THRONG_RASTER_BAKED
#ifdef THRONG_SKIN_COARSE
    mat3x4 skin = coarseSkinning(inst, vtx.joints, vtx.weights, raster.time);
#else
    mat3x4 skin = instanceSkinning(inst, vtx.joints, vtx.weights, raster.time);
#endif
    position = vec4(vtx.position, 1.0) * skin;
    normal = vec4(vtx.normal, 0.0) * skin;
#else
    position = vtx.position;
    normal = vtx.normal;
#endif
}

// World-space position of a model-space point of member `inst`.
vec3 placeMember(InstanceRecord inst, vec3 p) {
    return rotateByQuaternion(instanceOrientation(inst), p) * inst.position_scale.w + inst.position_scale.xyz;
}

// The LOD chain triangle `triangle` belongs to.
uint lodOfTriangle(uint triangle) {
    uint lod = 0u;
    for (uint l = 1u; l < THRONG_MAX_LODS; ++l)
        if (raster.lod_clusters[l].w > 0u && triangle >= raster.lod_clusters[l].z) lod = l;
    return lod;
}
