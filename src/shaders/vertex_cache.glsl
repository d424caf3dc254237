// The vertex cache (docs/FAR_FIELD.md, section 2; src/render/compute_raster.h): each cached
// member's LOD vertices skinned once per frame, in model space: the position in 21 bits per axis
// across its model's cache box (RasterModel::cache_origin, cache_step: a step of 1/2,097,151 of
// the box, about 1e-6 of a walker), the normal in 32 bits (octahedral, 2 x snorm16: about 1e-4
// radians). And where a member lies: its model's sub-region of each LOD region of the visible
// list, its model's levels and its region of the plan (RasterRegion).
// Expects shared.h, the blocks `raster` (RasterParams), `raster_models` (RasterModel[]) and
// `regions` (RasterRegion[], after the plan), and the buffer `visible`.

uvec2 encodeCachedPosition(uint model, vec3 p) {
    vec3 steps = clamp(round((p - raster_models[model].cache_origin.xyz) / raster_models[model].cache_step.xyz), vec3(0.0), vec3(float(THRONG_CACHE_STEPS)));
    uvec3 q = uvec3(steps);
    return uvec2(q.x | (q.y << 21), (q.y >> 11) | (q.z << 10));
}

vec3 decodeCachedPosition(uint model, uvec2 w) {
    uvec3 q = uvec3(w.x & THRONG_CACHE_STEPS, (w.x >> 21) | ((w.y & 0x3ffu) << 11), w.y >> 10);
    return raster_models[model].cache_origin.xyz + vec3(q) * raster_models[model].cache_step.xyz;
}

// A member's model (as culling reads it: cull_common.glsl's memberModel).
uint rasterModelOf(InstanceRecord inst) { return min(throngAssetOf(inst.clips), raster.models - 1u); }

// Whether this frame skins model `model`'s level `lod` coarsely.
bool modelCoarse(uint model, uint lod) {
    return raster.coarse_lods != 0u && THRONG_COARSE_LOD(lod, raster_models[model].coarse_lods);
}

// The plan's region of model `model` at LOD `lod`.
uint regionIndex(uint lod, uint model) { return lod * raster.models + model; }

// The member in slot `slot` of model `model`'s sub-region of LOD `lod` (the culling pass's
// region of the view, or, unculled, of the identity region, which holds each model's members
// together).
uint memberAt(uint lod, uint model, uint slot) {
    if (raster.culled == 0u) return visible[raster.identity_base + raster_models[model].first_slot + slot];
    return visible[raster.visible_base + lod * raster.lod_stride + raster_models[model].first_slot + slot];
}

// The kinds of work a LOD's dispatches share out among the models (RasterRegion's group_*).
#define THRONG_WORK_CACHE 0u
#define THRONG_WORK_CACHED 1u
#define THRONG_WORK_FULL 2u
#define THRONG_WORK_COARSE 3u

uint regionStart(RasterRegion r, uint kind) {
    return kind == THRONG_WORK_CACHE ? r.group_cache : kind == THRONG_WORK_CACHED ? r.group_cached : kind == THRONG_WORK_FULL ? r.group_full : r.group_coarse;
}

// The model whose work of kind `kind` at LOD `lod` workgroup `group` does: the last whose first
// workgroup is at most `group` (a model with no such work starts where the next does, so it is
// never the answer unless the group is past all work of this kind: the caller then ends it by
// its slot, or for the per-cluster raster by the model's level being skinned the other way).
uint modelOfGroup(uint lod, uint group, uint kind) {
    uint lo = 0u, hi = raster.models - 1u;
    while (lo < hi) {
        uint mid = (lo + hi + 1u) / 2u;
        if (regionStart(regions[regionIndex(lod, mid)], kind) <= group)
            lo = mid;
        else
            hi = mid - 1u;
    }
    return lo;
}

// The LOD of model `model` that chain triangle `triangle` (one of the model's) belongs to.
uint lodOfTriangle(uint model, uint triangle) {
    uint lod = 0u;
    for (uint l = 1u; l < THRONG_MAX_LODS; ++l)
        if (raster_models[model].lod_clusters[l].w > 0u && triangle >= raster_models[model].lod_clusters[l].z) lod = l;
    return lod;
}

// A unit vector folded onto the octahedron |x| + |y| + |z| = 1 and its lower half onto the
// upper, as 2 x snorm16.
uint encodeCachedNormal(vec3 n) {
    n /= max(abs(n.x) + abs(n.y) + abs(n.z), 1e-20);
    vec2 e = n.z >= 0.0 ? n.xy : (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
    return packSnorm2x16(e);
}

vec3 decodeCachedNormal(uint w) {
    vec2 e = unpackSnorm2x16(w);
    vec3 n = vec3(e, 1.0 - abs(e.x) - abs(e.y));
    float t = max(-n.z, 0.0);
    n.xy += vec2(n.x >= 0.0 ? -t : t, n.y >= 0.0 ? -t : t);
    return normalize(n);
}

// The slot of `member` (of model `model`) among its region's cached members at LOD `lod` in this
// frame, or ~0u when the cache does not hold it (member_slots keeps a member's index from the
// last frame that cached it: checked against the plan and the visible list). Expects the buffer
// `member_slots`.
uint cachedSlot(uint member, uint lod, uint model) {
    if (raster.cache_lods == 0u) return ~0u;
    RasterRegion r = regions[regionIndex(lod, model)];
    uint k = member_slots[member];
    if (k < r.cached_index || k - r.cached_index >= r.cached || memberAt(lod, model, k - r.cached_index) != member) return ~0u;
    return k - r.cached_index;
}
