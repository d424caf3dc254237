// The vertex cache (docs/FAR_FIELD.md, section 2; src/render/compute_raster.h): each cached
// member's LOD vertices skinned once per frame, in model space: the position in 21 bits per axis
// across the cache box (RasterParams::cache_origin, cache_step: a step of 1/2,097,151 of the box,
// about 1e-6 of a walker), the normal in 32 bits (octahedral, 2 x snorm16: about 1e-4 radians).
// Expects shared.h, the block `raster` (RasterParams) and the buffer `visible`.

uvec2 encodeCachedPosition(vec3 p) {
    vec3 steps = clamp(round((p - raster.cache_origin.xyz) / raster.cache_step.xyz), vec3(0.0), vec3(float(THRONG_CACHE_STEPS)));
    uvec3 q = uvec3(steps);
    return uvec2(q.x | (q.y << 21), (q.y >> 11) | (q.z << 10));
}

vec3 decodeCachedPosition(uvec2 w) {
    uvec3 q = uvec3(w.x & THRONG_CACHE_STEPS, (w.x >> 21) | ((w.y & 0x3ffu) << 11), w.y >> 10);
    return raster.cache_origin.xyz + vec3(q) * raster.cache_step.xyz;
}

// The member in slot `slot` of LOD `lod` (the culling pass's region of the view, or the identity region).
uint memberAt(uint lod, uint slot) {
    return visible[(raster.culled != 0u ? raster.visible_base + lod * raster.lod_stride : raster.identity_base) + slot];
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

// The slot of `member` among LOD `lod`'s cached members in this frame, or ~0u when the cache does
// not hold it (member_slots keeps a member's index from the last frame that cached it: checked
// against the plan and the visible list). Expects the blocks `plan` and `member_slots`.
uint cachedSlot(uint member, uint lod) {
    if (lod >= raster.cache_lods) return ~0u;
    uvec4 cache = plan.cache[lod];
    uint k = member_slots[member];
    if (k < cache.z || k - cache.z >= cache.y || memberAt(lod, k - cache.z) != member) return ~0u;
    return k - cache.z;
}
