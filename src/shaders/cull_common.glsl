// What every culling shader computes of a member (needs shared.h, instance.glsl, and the
// Params block `cull` and the Assets block `cull_assets` first): its conservative box, the
// sphere around it, the frustum test, the LOD its size on screen needs (by its model's errors),
// and the append to that LOD's region of the visible list (its model's sub-region there).

// The member's model, one the crowd has (the host checks the records it is given).
uint memberModel(InstanceRecord inst) { return min(throngAssetOf(inst.clips), cull.assets - 1u); }

struct MemberBox {
    vec3 center;     // world space
    vec3 axes[3];    // half extents along the member's own axes, world space
    float radius;    // of the sphere around the box
};

// The member's two clips' boxes (model space), with those of the parts it wears where its model
// has parts (render/part_culling.h: its clips' boxes then hold its own vertices only), placed as
// the member (record `member`: its key where the record has none).
MemberBox memberBox(InstanceRecord inst, uint member) {
    uint clip_a = throngClipA(inst.clips), clip_b = throngClipB(inst.clips);
    vec3 lo = min(clip_bounds[2u * clip_a].xyz, clip_bounds[2u * clip_b].xyz);
    vec3 hi = max(clip_bounds[2u * clip_a + 1u].xyz, clip_bounds[2u * clip_b + 1u].xyz);
    uint model = memberModel(inst);
    uint parts = cull_assets[model].parts;
    if (parts != 0u) {
        uint table = cull_assets[model].part_table;
        uint first = floatBitsToUint(clip_bounds[table].x);
        uint count = max(floatBitsToUint(clip_bounds[table].y), 1u);
        uint key = inst.key != 0u ? inst.key : member;
        uint boxes = table + 1u + parts;
        uint at_a = boxes + 2u * min(clip_a - first, count - 1u) * parts;
        uint at_b = boxes + 2u * min(clip_b - first, count - 1u) * parts;
        for (uint p = 0u; p < parts; ++p) {
            if (!throngWears(key, floatBitsToUint(clip_bounds[table + 1u + p].x))) continue;
            lo = min(lo, min(clip_bounds[at_a + 2u * p].xyz, clip_bounds[at_b + 2u * p].xyz));
            hi = max(hi, max(clip_bounds[at_a + 2u * p + 1u].xyz, clip_bounds[at_b + 2u * p + 1u].xyz));
        }
    }
    float scale = inst.position_scale.w;
    vec4 q = instanceOrientation(inst);
    vec3 half_size = 0.5 * (hi - lo) * abs(scale);
    MemberBox b;
    b.center = rotateByQuaternion(q, 0.5 * (lo + hi)) * scale + inst.position_scale.xyz;
    b.axes[0] = rotateByQuaternion(q, vec3(half_size.x, 0.0, 0.0));
    b.axes[1] = rotateByQuaternion(q, vec3(0.0, half_size.y, 0.0));
    b.axes[2] = rotateByQuaternion(q, vec3(0.0, 0.0, half_size.z));
    b.radius = length(half_size);
    return b;
}

bool inFrustum(MemberBox b) {
    if (cull.frustum == 0u) return true;
    for (int i = 0; i < 6; ++i)
        if (dot(cull.planes[i].xyz, b.center) + cull.planes[i].w < -b.radius) return false;
    return true;
}

// The coarsest LOD whose geometric error, projected at the sphere's nearest depth, stays within
// the pixel threshold; LOD 0 for a member around the eye.
uint chooseLod(MemberBox b, float scale, uint model) {
    float depth = dot(cull.depth_row, vec4(b.center, 1.0)) - b.radius;
    uint lod = 0u;
    if (depth > 0.0) {
        float pixels_per_error = abs(scale) * cull.pixels_per_unit / depth;
        uint levels = min(cull.lod_count, cull_assets[model].lod_count);
        for (uint l = 1u; l < levels; ++l)
            if (cull_assets[model].lod_errors[l / 4u][l % 4u] * pixels_per_error <= cull.lod_error_px) lod = l;
    }
    return lod;
}

// The LOD to draw the member at, or THRONG_SPLAT_LEVEL when its sphere is less than splat_px
// pixels across at its centre's depth (the compute rasterizer's splats), or
// THRONG_IMPOSTOR_LEVEL when less than impostor_px (animated impostors: impostors.h), or
// THRONG_HARDWARE_LEVEL for a member at LOD 0 at least hardware_px across (or around the eye).
uint chooseLevel(MemberBox b, InstanceRecord inst) {
    float scale = inst.position_scale.w;
    float depth = dot(cull.depth_row, vec4(b.center, 1.0));
    // The sphere's pixels across at its centre's depth; around the eye, larger than any threshold.
    bool around_eye = depth <= b.radius;
    float across = around_eye ? 0.0 : 2.0 * b.radius * cull.pixels_per_unit / depth;
    if (!around_eye && across < cull.splat_px) return THRONG_SPLAT_LEVEL; // below impostors (docs/IN_MOTION.md)
    if (!around_eye && across < cull.impostor_px) return THRONG_IMPOSTOR_LEVEL;
    uint lod = chooseLod(b, scale, memberModel(inst));
    float hardware_px = cull.hardware_px * cull_assets[memberModel(inst)].hardware_scale;
    if (lod == 0u && hardware_px > 0.0 && (around_eye || across >= hardware_px)) return THRONG_HARDWARE_LEVEL;
    return lod;
}

void appendVisible(uint member, uint level, uint model) {
    if (level == THRONG_SPLAT_LEVEL) {  // the impostor region from its end (a member is one or the other)
        visible[cull.impostor_base + cull.visible_stride - 1u - atomicAdd(counts[THRONG_COUNT_SPLATS], 1u)] = member;
        return;
    }
    if (level == THRONG_IMPOSTOR_LEVEL) {
        visible[cull.impostor_base + atomicAdd(counts[THRONG_COUNT_IMPOSTORS], 1u)] = member;
        return;
    }
    if (level == THRONG_HARDWARE_LEVEL) {  // LOD 0's region (the model's sub-region) from its end
        uint slot = atomicAdd(counts[THRONG_COUNT_HARDWARE], 1u);
        if (cull.assets > 1u) {
            slot = atomicAdd(counts[throngRegionHardware(cull.assets, model)], 1u);
            if (slot < cull_assets[model].capacity)
                visible[cull.visible_base + cull_assets[model].first_slot + cull_assets[model].capacity - 1u - slot] = member;
            return;
        }
        visible[cull.visible_base + cull.visible_stride - 1u - slot] = member;
        return;
    }
    if (cull.assets > 1u) {  // the model's sub-region, and the LOD's total for the host
        atomicAdd(counts[level], 1u);
        uint slot = atomicAdd(counts[throngRegionCount(model, level)], 1u);
        if (slot < cull_assets[model].capacity)
            visible[cull.visible_base + level * cull.visible_stride + cull_assets[model].first_slot + slot] = member;
        return;
    }
    uint slot = atomicAdd(counts[level], 1u);
    visible[cull.visible_base + level * cull.visible_stride + slot] = member;
}
