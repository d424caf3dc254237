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

// The sphere's pixels across at its centre's depth; around the eye (`around_eye`), 0.
float pixelsAcross(MemberBox b, out bool around_eye) {
    float depth = dot(cull.depth_row, vec4(b.center, 1.0));
    around_eye = depth <= b.radius;
    return around_eye ? 0.0 : 2.0 * b.radius * cull.pixels_per_unit / depth;
}

// Whether chooseLevel() draws the member as a splat.
bool drawnAsSplat(MemberBox b) {
    bool around_eye;
    float across = pixelsAcross(b, around_eye);
    return !around_eye && across < cull.splat_px;
}

// The LOD to draw the member at, or THRONG_SPLAT_LEVEL when its sphere is less than splat_px
// pixels across at its centre's depth (the compute rasterizer's splats), or
// THRONG_IMPOSTOR_LEVEL when less than impostor_px (animated impostors: impostors.h), or
// THRONG_HARDWARE_LEVEL for a member at LOD 0 at least hardware_px across (or around the eye).
uint chooseLevel(MemberBox b, InstanceRecord inst) {
    float scale = inst.position_scale.w;
    // Around the eye: past every threshold (the tests below leave it to the LOD).
    bool around_eye;
    float across = pixelsAcross(b, around_eye);
    if (!around_eye && across < cull.splat_px) return THRONG_SPLAT_LEVEL; // below impostors (docs/IN_MOTION.md)
    if (!around_eye && across < cull.impostor_px) return THRONG_IMPOSTOR_LEVEL;
    uint lod = chooseLod(b, scale, memberModel(inst));
    float hardware_px = cull.hardware_px * cull_assets[memberModel(inst)].hardware_scale;
    if (lod == 0u && hardware_px > 0.0 && (around_eye || across >= hardware_px)) return THRONG_HARDWARE_LEVEL;
    return lod;
}

// A counter's index in `counts` that countOne() leaves alone.
#define THRONG_NO_COUNTER 0xffffffffu

#ifdef THRONG_CULL_SUBGROUPS
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#endif

// counts[counter] += 1 for each invocation that names a counter, answering what atomicAdd would.
// With THRONG_CULL_SUBGROUPS (the device has subgroup ballot and arithmetic in compute: the
// culling pipelines' variant, crowd_gpu.cpp) the invocations of a subgroup that name one counter
// take consecutive values from one atomic: ten million members appending to the splats' region
// are 0.3 million atomics, not ten million on one address. Call it where the subgroup's live
// invocations are together (not from a branch some of them skip).
uint countOne(uint counter) {
#ifdef THRONG_CULL_SUBGROUPS
    uint result = 0u;
    uint left = counter;
    for (;;) {
        uint c = subgroupMin(left); // the same in every invocation: the loop's branches are uniform
        if (c == THRONG_NO_COUNTER) break;
        bool mine = left == c;
        uvec4 lanes = subgroupBallot(mine);
        uint base = 0u;
        if (subgroupElect()) base = atomicAdd(counts[c], subgroupBallotBitCount(lanes));
        base = subgroupBroadcastFirst(base); // the elected invocation is the first
        if (mine) {
            result = base + subgroupBallotExclusiveBitCount(lanes);
            left = THRONG_NO_COUNTER;
        }
    }
    return result;
#else
    return counter == THRONG_NO_COUNTER ? 0u : atomicAdd(counts[counter], 1u);
#endif
}

// Appends `member` (where `append`) to the region of `level` (chooseLevel's answer), its model's
// sub-region where the crowd has several models. Call it as countOne().
void appendVisible(uint member, uint level, uint model, bool append) {
    bool splat = level == THRONG_SPLAT_LEVEL, impostor = level == THRONG_IMPOSTOR_LEVEL;
    bool hardware = level == THRONG_HARDWARE_LEVEL;
    // Several models: the LOD's (or the hardware's) total for the host, beside the model's count.
    bool regions = cull.assets > 1u && !splat && !impostor;
    uint total = hardware ? uint(THRONG_COUNT_HARDWARE) : level;
    countOne(append && regions ? total : THRONG_NO_COUNTER);
    uint counter = splat      ? uint(THRONG_COUNT_SPLATS)
                   : impostor ? uint(THRONG_COUNT_IMPOSTORS)
                   : !regions ? total
                   : hardware ? throngRegionHardware(cull.assets, model)
                              : throngRegionCount(model, level);
    uint slot = countOne(append ? counter : THRONG_NO_COUNTER);
    if (!append) return;
    if (splat) {  // the impostor region from its end (a member is one or the other)
        visible[cull.impostor_base + cull.visible_stride - 1u - slot] = member;
    } else if (impostor) {
        visible[cull.impostor_base + slot] = member;
    } else if (!regions) {  // LOD 0's region from its end for the hardware's members
        visible[cull.visible_base + (hardware ? cull.visible_stride - 1u - slot : level * cull.visible_stride + slot)] = member;
    } else if (slot < cull_assets[model].capacity) {  // the model's sub-region (LOD 0's from its end)
        uint first = cull.visible_base + cull_assets[model].first_slot;
        visible[hardware ? first + cull_assets[model].capacity - 1u - slot : first + level * cull.visible_stride + slot] = member;
    }
}
