// The vertex cache (docs/FAR_FIELD.md, section 2; src/render/compute_raster.h): each cached
// member's LOD vertices skinned once per frame, in model space, 21 bits per axis across the cache
// box (RasterParams::cache_origin, cache_step: a step of 1/2,097,151 of the box, about 1e-6 of a
// walker). Expects shared.h and the block `raster` (RasterParams).

uvec2 encodeCachedPosition(vec3 p) {
    vec3 steps = clamp(round((p - raster.cache_origin.xyz) / raster.cache_step.xyz), vec3(0.0), vec3(float(THRONG_CACHE_STEPS)));
    uvec3 q = uvec3(steps);
    return uvec2(q.x | (q.y << 21), (q.y >> 11) | (q.z << 10));
}

vec3 decodeCachedPosition(uvec2 w) {
    uvec3 q = uvec3(w.x & THRONG_CACHE_STEPS, (w.x >> 21) | ((w.y & 0x3ffu) << 11), w.y >> 10);
    return raster.cache_origin.xyz + vec3(q) * raster.cache_step.xyz;
}

// The workgroup's place in a dispatch of rows of THRONG_RASTER_ROW workgroups, as one index.
uint cacheThread() {
    return (gl_WorkGroupID.y * THRONG_RASTER_ROW + gl_WorkGroupID.x) * THRONG_CACHE_LOCAL_SIZE + gl_LocalInvocationID.x;
}

// The member in slot `slot` of LOD `lod` (the culling pass's region, or the identity region).
uint memberAt(uint lod, uint slot) {
    return visible[(raster.culled != 0u ? lod * raster.lod_stride : raster.identity_base) + slot];
}
