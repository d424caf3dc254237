// The compute rasterizer (docs/FAR_FIELD.md, sections 2-3), one workgroup per (member, cluster)
// of one LOD (its model found from the plan's regions: modelOfGroup): its threads load the cluster's vertices into shared memory, then rasterize its
// triangles from there, each pixel centre a triangle covers taking the 64-bit atomic minimum of
// (depth key << 40 | member << 16 | the triangle of its model: chain triangle less
// RasterModel::first_triangle) in the visibility buffer. Triangles behind
// the eye or reaching in front of the near plane are left out. Both faces are drawn (the graphics
// pipelines cull nothing); a pixel centre on an edge counts for both triangles of that edge.
// Two variants: THRONG_RASTER_CACHED (raster_cached.comp) draws the members the vertex cache holds
// (the first RasterRegion::cached slots of each model's sub-region) from the cache and nothing else, so it carries no skinning
// code; the others skin (THRONG_RASTER_BAKED, THRONG_RASTER_PALETTE, THRONG_RASTER_VAT,
// THRONG_RASTER_PROCEDURAL: raster_skin.glsl) or read the bind pose of the members after them.
// A prop's clusters are drawn only for the members that carry it (memberDrawsSubmesh).
// Expects shared.h.
// THRONG_RASTER_DEPTH (the *_depth variants, CMakeLists.txt): the shadow pass's form, from the
// light's regions of the visible list, each texel centre a triangle covers taking the 32-bit
// atomic maximum of its depth's bits (reversed Z: nearer is larger, and non-negative floats order
// as their bits), no ids; no 64-bit atomics.
#ifndef THRONG_RASTER_DEPTH
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#endif

layout(local_size_x = THRONG_RASTER_LOCAL_SIZE) in;

#include "raster_bindings.glsl"
layout(push_constant) uniform Lod { uint lod; uint late; } pc;  // late: occlusion culling's late phase

#include "vertex.glsl"
#include "instance.glsl"
#include "raster_skin.glsl"
#include "vertex_cache.glsl"

shared vec4 screen[THRONG_RASTER_LOCAL_SIZE];  // pixels x, y; depth z/w; w (<= 0: behind the eye)

float edge(vec2 u, vec2 v, vec2 p) { return (v.x - u.x) * (p.y - u.y) - (v.y - u.y) * (p.x - u.x); }

#define THRONG_RASTER_BLOCK 8  // pixels a side of the blocks a large triangle is walked in

#ifdef THRONG_RASTER_DEPTH
#define THRONG_RASTER_ID uint
#else
#define THRONG_RASTER_ID uint64_t
#endif

void rasterize(vec3 a, vec3 b, vec3 c, THRONG_RASTER_ID id) {
    float area = edge(a.xy, b.xy, c.xy);
    if (area == 0.0) return;
    vec2 lo = min(a.xy, min(b.xy, c.xy)), hi = max(a.xy, max(b.xy, c.xy));
    ivec2 last = ivec2(raster.viewport) - 1;
    ivec2 p0 = max(ivec2(ceil(lo - 0.5)), ivec2(0)), p1 = min(ivec2(floor(hi - 0.5)), last);
    float sign_area = area > 0.0 ? 1.0 : -1.0;
#ifdef THRONG_RASTER_DEPTH
    // The depth draw's slope-scaled bias: the larger of the depth's slopes along x and y per texel
    // (the approximation Vulkan allows for the gradient's length), away from the light.
    float dzdx = ((b.y - c.y) * a.z + (c.y - a.y) * b.z + (a.y - b.y) * c.z) / area;
    float dzdy = ((c.x - b.x) * a.z + (a.x - c.x) * b.z + (b.x - a.x) * c.z) / area;
    float bias = float(THRONG_SHADOW_BIAS_SLOPE) * max(abs(dzdx), abs(dzdy));
#endif
    // A triangle larger than a block is walked in blocks of THRONG_RASTER_BLOCK x THRONG_RASTER_BLOCK
    // pixels, a block skipped where its four corner pixel centres lie outside one edge by more
    // than rounding can move an edge function (1e-5 of the edge's length times the triangle's
    // size, where float rounding moves it by about 1e-7 of that): every pixel of such a block fails the test below,
    // which alone decides what is drawn. A long thin triangle (a hat's brim, a cap's fan) then
    // visits the blocks along it, not its whole bounding box.
    bool blocks = p1.x - p0.x >= THRONG_RASTER_BLOCK || p1.y - p0.y >= THRONG_RASTER_BLOCK;
    float reach = 1e-5 * (max(hi.x - lo.x, hi.y - lo.y) + 2.0);  // the whole triangle's box, not the screen's part
    vec3 margin = reach * vec3(abs(c.x - b.x) + abs(c.y - b.y), abs(a.x - c.x) + abs(a.y - c.y), abs(b.x - a.x) + abs(b.y - a.y));
    for (int by = p0.y; by <= p1.y; by += THRONG_RASTER_BLOCK)
        for (int bx = p0.x; bx <= p1.x; bx += THRONG_RASTER_BLOCK) {
            ivec2 q1 = min(ivec2(bx, by) + (THRONG_RASTER_BLOCK - 1), p1);
            if (blocks) {
                vec2 u = vec2(bx, by) + 0.5, v = vec2(q1) + 0.5;
                vec3 most = vec3(-1e30);
                for (int k = 0; k < 4; ++k) {
                    vec2 q = vec2((k & 1) != 0 ? v.x : u.x, (k & 2) != 0 ? v.y : u.y);
                    most = max(most, vec3(edge(b.xy, c.xy, q), edge(c.xy, a.xy, q), edge(a.xy, b.xy, q)) * sign_area);
                }
                if (any(lessThan(most, -margin))) continue;
            }
            for (int y = by; y <= q1.y; ++y)
                for (int x = bx; x <= q1.x; ++x) {
                    vec2 p = vec2(x, y) + 0.5;
                    float w0 = edge(b.xy, c.xy, p) * sign_area, w1 = edge(c.xy, a.xy, p) * sign_area, w2 = edge(a.xy, b.xy, p) * sign_area;
                    if (w0 < 0.0 || w1 < 0.0 || w2 < 0.0) continue;
                    float z = (w0 * a.z + w1 * b.z + w2 * c.z) / abs(area);
#ifdef THRONG_RASTER_DEPTH
                    atomicMax(shadow_depth[uint(y) * uint(raster.viewport.x) + uint(x)], floatBitsToUint(clamp(z - bias, 0.0, 1.0)));
#else
                    uint key = 0xffffffu - (floatBitsToUint(clamp(z, 0.0, 1.0)) >> 8);
                    atomicMin(visibility[uint(y) * uint(raster.viewport.x) + uint(x)], (uint64_t(key) << 40) | id);
#endif
                }
        }
}

void main() {
    uint group = gl_WorkGroupID.y * THRONG_RASTER_ROW + gl_WorkGroupID.x;
#if defined(THRONG_RASTER_CACHED)
    const uint kind = THRONG_WORK_CACHED;
#elif defined(THRONG_SKIN_COARSE)
    const uint kind = THRONG_WORK_COARSE;
#else
    const uint kind = THRONG_WORK_FULL;
#endif
    uint model = modelOfGroup(pc.lod, group, kind);
#ifndef THRONG_RASTER_CACHED
    // A group past the LOD's work of this kind lands on the last model: if that model's level is
    // skinned the other way, its slots are the other dispatch's.
    if (modelCoarse(model, pc.lod) != (kind == THRONG_WORK_COARSE)) return;
#endif
    RasterRegion region = regions[regionIndex(pc.lod, model)];
    uvec4 lod_clusters = raster_models[model].lod_clusters[pc.lod];
    uvec4 lod_work = raster_models[model].lod_vertices[pc.lod];  // z: work items per member (0: its clusters)
    uint work = lod_work.z != 0u ? lod_work.z : lod_clusters.y;
    if (work == 0u) return;
    uint local = group - regionStart(region, kind);
#ifdef THRONG_RASTER_CACHED
    uint first = 0u, members = region.cached;
#else
    uint first = region.first, members = region.members;  // late: after the early phase's
#endif
    uint slot = first + local / work;
    if (slot >= members) return;  // the whole workgroup
    uint member = memberAt(pc.lod, model, slot);
    InstanceRecord inst = instances[member];
    uint item = local % work, at = item;  // `at`: the cluster within the level
    if (lod_work.z != 0u && item >= raster_slots[lod_work.w].x) {
        // A slot's item j: cluster j of the part this member wears there (shared.h, THRONG_BINDING_RASTER_SLOTS).
        uint s = lod_work.w;
        while (item >= raster_slots[s].x + raster_slots[s].w) ++s;
        uvec4 rec = raster_slots[s];
        uint j = item - rec.x, key = inst.key != 0u ? inst.key : member;
        at = ~0u;
        for (uint p = 0u; p < rec.z; ++p) {
            uvec4 part = raster_slots[rec.y + p];
            if (!throngWears(key, part.x)) continue;
            if (j < part.z) at = part.y + j;
            break;
        }
        if (at == ~0u) return;  // the whole workgroup: no such cluster on this member
    }
    uvec4 cluster = clusters[lod_clusters.x + at];
    // A cluster holds submeshes drawn alike (clusters.h): a prop's on a member without it, none (the whole workgroup).
    if (!memberDrawsSubmesh(member, inst, resolve_triangles[cluster.z].w)) return;
    uint t = gl_LocalInvocationID.x;
    if (t < cluster.y) {
#ifdef THRONG_RASTER_CACHED
        vec3 p = decodeCachedPosition(model, vertex_cache[region.cache_vertex + slot * region.vertices + vertex_slots[cluster.x + t]]);
#else
        vec3 p, n;
        uint vertex = cluster_vertices[cluster.x + t];
        skinVertex(member, inst, vertex, fetchVertex(vertex), pc.lod, p, n);
#endif
        vec4 clip = raster.view_projection * vec4(placeMember(inst, p), 1.0);
        screen[t] = clip.w > 1e-6 ? vec4((clip.xy / clip.w * 0.5 + 0.5) * raster.viewport, clip.z / clip.w, clip.w) : vec4(0.0, 0.0, 0.0, -1.0);
    }
    barrier();
    for (uint tri = t; tri < cluster.w; tri += THRONG_RASTER_LOCAL_SIZE) {
        uint packed = cluster_triangles[cluster.z + tri];
        vec4 a = screen[packed & 0xffu], b = screen[(packed >> 8) & 0xffu], c = screen[(packed >> 16) & 0xffu];
        if (a.w <= 0.0 || b.w <= 0.0 || c.w <= 0.0 || a.z > 1.0 || b.z > 1.0 || c.z > 1.0) continue;
#ifdef THRONG_RASTER_DEPTH
        rasterize(a.xyz, b.xyz, c.xyz, 0u);
#else
        rasterize(a.xyz, b.xyz, c.xyz, (uint64_t(member) << 16) | uint64_t(cluster.z + tri - raster_models[model].first_triangle));
#endif
    }
}
