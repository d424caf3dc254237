// The vertex cache pass, one LOD (push constant), one workgroup per cached member (of any model:
// modelOfGroup). Skeletal
// variants: its threads first put the member's joint matrices in shared memory, once:
// THRONG_RASTER_BAKED (raster_cache.comp) blends them from the baked animation (the two frames
// around its time, tweened, and clip B cross-faded in, exactly as baked_skin.glsl's
// instanceSkinning does per vertex); THRONG_RASTER_PALETTE (raster_cache_palette.comp) copies the
// rows the technique wrote this frame (technique pose's pass; palette's, palette-ubo's or
// bonetex's CPU: as their vertex shaders read them; the quaternion encoding decoded into rows). Specialized for
// dual-quaternion skinning (THRONG_SPEC_DUAL_QUATERNION), each joint is then taken apart once into
// its dual quaternion and scale (dual_quaternion.glsl's jointDualQuaternion) in place of its rows.
// Then they blend each of the LOD's vertices' (up to) 4 joints from there, linearly or as dual
// quaternions, as the vertex shaders do. Per-vertex variants
// (THRONG_CACHE_PER_VERTEX: no joints), whose LOD vertex list holds vertex ids: each thread
// computes its vertices as the technique's vertex shader does, through raster_skin.glsl's
// skinVertex: THRONG_RASTER_VAT (raster_cache_vat.comp) samples the vertex animation,
// THRONG_RASTER_PROCEDURAL (raster_cache_procedural.comp) swims the rest mesh,
// THRONG_RASTER_VERTICES (raster_cache_vertices.comp) copies technique cpu's CPU-skinned vertices.
// Every variant stores the position and normal once for every cluster and pixel that uses them;
// the skeletal ones skip the vertices of parts the member does not wear (nothing reads them).
// The member's index among the cached members goes to member_slots for the resolve.
// Expects shared.h and one of the defines above.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#define THRONG_CACHE_WRITER
layout(local_size_x = THRONG_CACHE_LOCAL_SIZE) in;
#include "raster_bindings.glsl"
layout(push_constant) uniform Lod { uint lod; } pc;
#include "vertex.glsl"
#include "instance.glsl"
#include "raster_skin.glsl"
#include "vertex_cache.glsl"

#if defined(THRONG_RASTER_VAT) || defined(THRONG_RASTER_PROCEDURAL) || defined(THRONG_RASTER_VERTICES)
#define THRONG_CACHE_PER_VERTEX
#else
shared vec4 palette[3 * THRONG_CACHE_MAX_JOINTS];
#endif

void main() {
    uint group = gl_WorkGroupID.y * THRONG_RASTER_ROW + gl_WorkGroupID.x;
    uint model = modelOfGroup(pc.lod, group, THRONG_WORK_CACHE);
    RasterRegion region = regions[regionIndex(pc.lod, model)];
    uint slot = group - region.group_cache;
    if (slot >= region.cached) return;  // the whole workgroup
    uint member = memberAt(pc.lod, model, slot);
#if defined(THRONG_RASTER_PALETTE)
    uint joints = raster.joint_count; // the palettes' layout (one model)
#else
    uint joints = raster_models[model].joint_count;
#endif
#if defined(THRONG_CACHE_PER_VERTEX)
    InstanceRecord inst = instances[member];
#elif defined(THRONG_RASTER_PALETTE)
    if (kQuaternionPalette) {  // decoded once a joint
        for (uint joint = gl_LocalInvocationID.x; joint < raster.joint_count; joint += THRONG_CACHE_LOCAL_SIZE) {
            mat3x4 m = paletteJoint(member, joint, false);
            palette[3u * joint] = m[0];
            palette[3u * joint + 1u] = m[1];
            palette[3u * joint + 2u] = m[2];
        }
    } else {
        uint rows = 3u * raster.joint_count, first_row = paletteRow(member, 0u, 3u, 0u); // a member's rows are contiguous
        for (uint r = gl_LocalInvocationID.x; r < rows; r += THRONG_CACHE_LOCAL_SIZE) palette[r] = paletteVec4(first_row + r, false);
    }
#else
    InstanceRecord inst = instances[member];
    float local = raster.time * inst.speed + inst.time_offset;
    uint clip_a = throngClipA(inst.clips), clip_b = throngClipB(inst.clips);
    FramePair fa = framesAt(clip_a, local), fb = framesAt(clip_b, local);
    for (uint joint = gl_LocalInvocationID.x; joint < joints; joint += THRONG_CACHE_LOCAL_SIZE) {
        mat3x4 m = tweenedJoint(clip_a, fa, joint);
        if (inst.blend > 0.0) m = m * (1.0 - inst.blend) + tweenedJoint(clip_b, fb, joint) * inst.blend;
        palette[3u * joint] = m[0];
        palette[3u * joint + 1u] = m[1];
        palette[3u * joint + 2u] = m[2];
    }
#endif
#ifndef THRONG_CACHE_PER_VERTEX
    if (kDualQuaternion) {  // once a joint rather than once a vertex's joint
        barrier();
        for (uint joint = gl_LocalInvocationID.x; joint < joints; joint += THRONG_CACHE_LOCAL_SIZE) {
            uint at = 3u * joint;
            JointDualQuaternion q = jointDualQuaternion(mat3x4(palette[at], palette[at + 1u], palette[at + 2u]));
            palette[at] = q.real;
            palette[at + 1u] = q.dual;
            palette[at + 2u] = vec4(q.scale, 0.0, 0.0, 0.0);
        }
    }
#endif
#ifndef THRONG_CACHE_PER_VERTEX
    uint key = instances[member].key;
    if (key == 0u) key = member;
#endif
    if (gl_LocalInvocationID.x == 0u) member_slots[member] = region.cached_index + slot;
    barrier();
    uint first = raster_models[model].lod_vertices[pc.lod].x, base = region.cache_vertex + slot * region.vertices;
    for (uint v = gl_LocalInvocationID.x; v < region.vertices; v += THRONG_CACHE_LOCAL_SIZE) {
#ifdef THRONG_CACHE_PER_VERTEX
        uint vertex = lod_vertex_words[first + v];
        vec3 p, n;
        skinVertex(member, inst, vertex, fetchVertex(vertex), pc.lod, p, n);
        vertex_cache[base + v] = encodeCachedPosition(model, p);
        cache_normals[base + v] = encodeCachedNormal(n);
#else
        uint b = (first + v) * THRONG_CACHE_VERTEX_WORDS;
        uint wear = lod_vertex_words[b + 10u]; // a part's vertex: skinned only where the member wears it
        if (wear != 0u && !throngWears(key, wear)) continue;
        vec3 position = uintBitsToFloat(uvec3(lod_vertex_words[b], lod_vertex_words[b + 1u], lod_vertex_words[b + 2u]));
        uint j01 = lod_vertex_words[b + 4u], j23 = lod_vertex_words[b + 5u];
        uvec4 joints = uvec4(j01 & 0xffffu, j01 >> 16, j23 & 0xffffu, j23 >> 16);
        vec4 weights = uintBitsToFloat(uvec4(lod_vertex_words[b + 6u], lod_vertex_words[b + 7u], lod_vertex_words[b + 8u], lod_vertex_words[b + 9u]));
        JointBlend blend = beginJointBlend();
        for (int j = 0; j < 4; ++j) {
            if (weights[j] == 0.0) continue;
            uint at = 3u * min(joints[j], THRONG_CACHE_MAX_JOINTS - 1u);  // joint ids are checked at load: a guard, not a clamp
            if (kDualQuaternion)
                addJointDualQuaternion(blend, JointDualQuaternion(palette[at], palette[at + 1u], palette[at + 2u].x), weights[j]);
            else
                blend.linear += mat3x4(palette[at], palette[at + 1u], palette[at + 2u]) * weights[j];
        }
        mat3x4 skin = endJointBlend(blend);
        vertex_cache[base + v] = encodeCachedPosition(model, vec4(position, 1.0) * skin);
        cache_normals[base + v] = encodeCachedNormal(vec4(decodeCachedNormal(lod_vertex_words[b + 3u]), 0.0) * skin);
#endif
    }
}
