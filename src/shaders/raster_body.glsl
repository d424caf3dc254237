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

// A triangle set up for drawing: its pixels' box on screen and what the test per pixel needs.
struct Triangle {
    vec3 a, b, c;
    float area, sign_area;
    ivec2 p0, p1;  // the box of pixel centres it may cover, on screen
    float bias;    // the depth draw's slope-scaled bias
};

// False where it covers no pixel centre's box (degenerate, or off the screen).
bool setupTriangle(vec3 a, vec3 b, vec3 c, out Triangle tr) {
    tr.a = a;
    tr.b = b;
    tr.c = c;
    tr.area = edge(a.xy, b.xy, c.xy);
    vec2 lo = min(a.xy, min(b.xy, c.xy)), hi = max(a.xy, max(b.xy, c.xy));
    ivec2 last = ivec2(raster.viewport) - 1;
    tr.p0 = max(ivec2(ceil(lo - 0.5)), ivec2(0));
    tr.p1 = min(ivec2(floor(hi - 0.5)), last);
    tr.sign_area = tr.area > 0.0 ? 1.0 : -1.0;
    tr.bias = 0.0;
#ifdef THRONG_RASTER_DEPTH
    // The depth draw's slope-scaled bias: the larger of the depth's slopes along x and y per texel
    // (the approximation Vulkan allows for the gradient's length), away from the light.
    if (tr.area != 0.0) {
        float dzdx = ((b.y - c.y) * a.z + (c.y - a.y) * b.z + (a.y - b.y) * c.z) / tr.area;
        float dzdy = ((c.x - b.x) * a.z + (a.x - c.x) * b.z + (b.x - a.x) * c.z) / tr.area;
        tr.bias = float(THRONG_SHADOW_BIAS_SLOPE) * max(abs(dzdx), abs(dzdy));
    }
#endif
    return tr.area != 0.0 && all(lessThanEqual(tr.p0, tr.p1));
}

// Its blocks of THRONG_RASTER_BLOCK x THRONG_RASTER_BLOCK pixels across and down.
ivec2 triangleBlocks(Triangle tr) { return (tr.p1 - tr.p0) / THRONG_RASTER_BLOCK + 1; }

// Every pixel centre in q0 .. q1 the triangle covers takes the atomic (minimum of depth key and
// id, or the depth draw's maximum): the test per pixel, which alone decides what is drawn.
void drawPixels(Triangle tr, ivec2 q0, ivec2 q1, THRONG_RASTER_ID id) {
    vec3 a = tr.a, b = tr.b, c = tr.c;
    for (int y = q0.y; y <= q1.y; ++y)
        for (int x = q0.x; x <= q1.x; ++x) {
            vec2 p = vec2(x, y) + 0.5;
            float w0 = edge(b.xy, c.xy, p) * tr.sign_area, w1 = edge(c.xy, a.xy, p) * tr.sign_area, w2 = edge(a.xy, b.xy, p) * tr.sign_area;
            if (w0 < 0.0 || w1 < 0.0 || w2 < 0.0) continue;
            float z = (w0 * a.z + w1 * b.z + w2 * c.z) / abs(tr.area);
#ifdef THRONG_RASTER_DEPTH
            atomicMax(shadow_depth[uint(y) * uint(raster.viewport.x) + uint(x)], floatBitsToUint(clamp(z - tr.bias, 0.0, 1.0)));
#else
            uint key = 0xffffffu - (floatBitsToUint(clamp(z, 0.0, 1.0)) >> 8);
            atomicMin(visibility[uint(y) * uint(raster.viewport.x) + uint(x)], (uint64_t(key) << 40) | id);
#endif
        }
}

// How far outside an edge (bc, ca, ab) a block's corners must lie for the block to be skipped:
// more than rounding can move an edge function, 1e-5 of the edge's length times the triangle's
// size (its whole box, not the screen's part), where float rounding moves it by about 1e-7 of
// that. Every pixel of such a block fails the test per pixel.
vec3 blockMargin(Triangle tr) {
    vec3 a = tr.a, b = tr.b, c = tr.c;
    vec2 lo = min(a.xy, min(b.xy, c.xy)), hi = max(a.xy, max(b.xy, c.xy));
    float reach = 1e-5 * (max(hi.x - lo.x, hi.y - lo.y) + 2.0);
    return reach * vec3(abs(c.x - b.x) + abs(c.y - b.y), abs(a.x - c.x) + abs(a.y - c.y), abs(b.x - a.x) + abs(b.y - a.y));
}

// Block k (row-major) of a triangle of several blocks: its pixels, unless its corners lie
// outside one edge by `margin` (blockMargin).
void drawBlock(Triangle tr, ivec2 n, uint k, vec3 margin, THRONG_RASTER_ID id) {
    ivec2 q0 = tr.p0 + ivec2(int(k % uint(n.x)), int(k / uint(n.x))) * THRONG_RASTER_BLOCK;
    ivec2 q1 = min(q0 + (THRONG_RASTER_BLOCK - 1), tr.p1);
    vec2 u = vec2(q0) + 0.5, v = vec2(q1) + 0.5;
    vec3 most = vec3(-1e30);
    for (int i = 0; i < 4; ++i) {
        vec2 q = vec2((i & 1) != 0 ? v.x : u.x, (i & 2) != 0 ? v.y : u.y);
        most = max(most, vec3(edge(tr.b.xy, tr.c.xy, q), edge(tr.c.xy, tr.a.xy, q), edge(tr.a.xy, tr.b.xy, q)) * tr.sign_area);
    }
    if (!any(lessThan(most, -margin))) drawPixels(tr, q0, q1, id);
}

// A cluster's triangles of more than THRONG_RASTER_SHARED_BLOCKS blocks, drawn after the others
// by the whole workgroup, a block per thread (a triangle near the eye or a long sliver would
// keep one thread busy while the others wait). A cluster has at most 124 triangles (clusters.h).
#define THRONG_RASTER_SHARED_BLOCKS 4u
shared uint large_triangles[2 * THRONG_RASTER_LOCAL_SIZE];
shared uint large_count;

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
    if (t == 0u) large_count = 0u;
    barrier();
#ifdef THRONG_RASTER_DEPTH
#define THRONG_TRIANGLE_ID(tri) 0u
#else
#define THRONG_TRIANGLE_ID(tri) ((uint64_t(member) << 16) | uint64_t(cluster.z + (tri) - raster_models[model].first_triangle))
#endif
    for (uint tri = t; tri < cluster.w; tri += THRONG_RASTER_LOCAL_SIZE) {
        uint packed = cluster_triangles[cluster.z + tri];
        vec4 a = screen[packed & 0xffu], b = screen[(packed >> 8) & 0xffu], c = screen[(packed >> 16) & 0xffu];
        if (a.w <= 0.0 || b.w <= 0.0 || c.w <= 0.0 || a.z > 1.0 || b.z > 1.0 || c.z > 1.0) continue;
        Triangle tr;
        if (!setupTriangle(a.xyz, b.xyz, c.xyz, tr)) continue;
        ivec2 n = triangleBlocks(tr);
        uint blocks = uint(n.x * n.y);
        if (blocks == 1u) {
            drawPixels(tr, tr.p0, tr.p1, THRONG_TRIANGLE_ID(tri));
        } else if (blocks <= THRONG_RASTER_SHARED_BLOCKS) {
            vec3 margin = blockMargin(tr);
            for (uint k = 0u; k < blocks; ++k) drawBlock(tr, n, k, margin, THRONG_TRIANGLE_ID(tri));
        } else {
            large_triangles[atomicAdd(large_count, 1u)] = tri;
        }
    }
    barrier();
    for (uint i = 0u; i < large_count; ++i) {
        uint tri = large_triangles[i];
        uint packed = cluster_triangles[cluster.z + tri];
        Triangle tr;
        setupTriangle(screen[packed & 0xffu].xyz, screen[(packed >> 8) & 0xffu].xyz, screen[(packed >> 16) & 0xffu].xyz, tr);
        ivec2 n = triangleBlocks(tr);
        vec3 margin = blockMargin(tr);
        for (uint k = t; k < uint(n.x * n.y); k += THRONG_RASTER_LOCAL_SIZE) drawBlock(tr, n, k, margin, THRONG_TRIANGLE_ID(tri));
    }
}
