// Vertex animation (technique `vat`), shared by vat.vert and the compute check vat_check.comp.
// Expects, before inclusion: shared.h, the storage buffer THRONG_BINDING_CLIPS declared as
// `clips` and the image array THRONG_BINDING_VAT declared as `vat`.
//
// Texel (2 * vertex, frame, clip) holds the skinned position, (2 * vertex + 1, frame, clip) the
// skinned normal (include/throng/baked.h): no joints, no matrices, two fetches per frame. In a
// crowd of several models the vertex is counted from the clip's model's first
// (ClipRecord::first_vertex).

#include "clip_frames.glsl"

struct VatVertex {
    vec3 position;
    vec3 normal;
};

VatVertex vatFrame(uint clip, uint frame, uint vertex) {
    VatVertex v;
    int x = int(2u * (vertex - clips[clip].first_vertex)); // the clip's model's vertices from column 0
    v.position = texelFetch(vat, ivec3(x, int(frame), int(clip)), 0).xyz;
    v.normal = texelFetch(vat, ivec3(x + 1, int(frame), int(clip)), 0).xyz;
    return v;
}

// Frame tweening: the two bracketing frames, lerped (the same weights as the bone tweening).
VatVertex vatTweened(uint clip, FramePair f, uint vertex) {
    VatVertex a = vatFrame(clip, f.first, vertex);
    if (f.t == 0.0) return a;
    VatVertex b = vatFrame(clip, f.second, vertex);
    a.position = a.position * (1.0 - f.t) + b.position * f.t;
    a.normal = a.normal * (1.0 - f.t) + b.normal * f.t;
    return a;
}

// One vertex of one instance in model space: its local time as baked_skin.glsl computes it
// (time * speed + time_offset), clip A tweened, cross-faded with clip B by the blend weight.
// Normals are blended, not renormalised (lit.frag normalises).
VatVertex instanceVat(InstanceRecord inst, uint vertex, float time) {
    float local = time * inst.speed + inst.time_offset;
    uint clip_a = throngClipA(inst.clips);
    uint clip_b = throngClipB(inst.clips);
    VatVertex v = vatTweened(clip_a, framesAt(clip_a, local), vertex);
    if (inst.blend > 0.0) {
        VatVertex b = vatTweened(clip_b, framesAt(clip_b, local), vertex);
        v.position = v.position * (1.0 - inst.blend) + b.position * inst.blend;
        v.normal = v.normal * (1.0 - inst.blend) + b.normal * inst.blend;
    }
    return v;
}
