// The sampling and blending of technique `pose` (pose.comp: a thread per member, for skeletons
// of more than THRONG_POSE_GROUP_NODES nodes; pose_nodes.comp: a thread per node): each member's
// clip A, clip B when cross-fading and each layer it carries, sampled from the model's own keys
// (the `.throng` file's source tracks) and blended in local space as throng::LayerJob does
// (translation and scale lerped, rotation normalised-lerped the shorter way; weight 0 and 1
// exact). The CPU reference is throng::referenceBlendedSkinningMatrices (throng/anim.h), in
// double. Expects shared.h and, for writeEntry, the palette's binding (`palette[]`) declared
// before it.

layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_POSE_NODES) readonly buffer Nodes { PoseNode nodes[]; };
layout(std430, set = 0, binding = THRONG_BINDING_POSE_TABLE) readonly buffer Table { uint track_of[]; };
layout(std430, set = 0, binding = THRONG_BINDING_POSE_TRACKS) readonly buffer Tracks { PoseTrack tracks[]; };
layout(std430, set = 0, binding = THRONG_BINDING_POSE_TIMES) readonly buffer Times { float key_times[]; };
layout(std430, set = 0, binding = THRONG_BINDING_POSE_VALUES) readonly buffer Values { vec4 key_values[]; };
layout(std430, set = 0, binding = THRONG_BINDING_POSE_LAYERS) readonly buffer Layers { PoseLayer layers[]; };
layout(std430, set = 0, binding = THRONG_BINDING_POSE_MASKS) readonly buffer Masks { float masks[]; };
layout(std430, set = 0, binding = THRONG_BINDING_POSE_CLIPS) readonly buffer Clips { float durations[]; };

layout(push_constant) uniform Push { PoseConstants pose; };

struct Local {
    vec3 t;
    vec4 r; // (x, y, z, w)
    vec3 s;
};

// throng::clipTime with looping: [0, duration); a clip of no length (or a time that is not finite) at 0.
float clipTime(float t, float duration) {
    if (!(duration > 0.0) || isinf(t) || isnan(t)) return 0.0;
    float r = t - duration * floor(t / duration);
    return r >= duration ? 0.0 : max(r, 0.0);
}

vec4 slerpShortest(vec4 a, vec4 b, float s) {
    float c = dot(a, b);
    if (c < 0.0) {
        b = -b;
        c = -c;
    }
    vec4 r;
    if (c > 1.0 - 1e-6) {
        r = a + (b - a) * s;
    } else {
        float angle = acos(c);
        float inv_sin = 1.0 / sin(angle);
        r = a * (sin((1.0 - s) * angle) * inv_sin) + b * (sin(s * angle) * inv_sin);
    }
    return r / length(r);
}

vec4 keyValue(PoseTrack track, uint k) {
    return key_values[track.first_value + (track.interpolation == THRONG_POSE_CUBIC ? 3u * k + 1u : k)];
}

// throng::sampleTrack: glTF sampler semantics.
vec4 sampleTrack(PoseTrack track, bool rotation, float t) {
    uint n = track.count;
    uint first = track.first_time;
    if (n == 1u || t <= key_times[first]) return keyValue(track, 0u);
    if (t >= key_times[first + n - 1u]) return keyValue(track, n - 1u);
    // k: the last key at or before t (times[lo] <= t < times[hi], narrowed to neighbours). First a
    // guess from even spacing: most clips are keyed at a fixed rate, so one or two loads find it;
    // else a binary search in the side of the guess that holds t.
    float t_first = key_times[first], t_last = key_times[first + n - 1u];
    uint guess = min(uint((t - t_first) / (t_last - t_first) * float(n - 1u)), n - 2u);
    uint lo = 0u, hi = n - 1u;
    if (key_times[first + guess] <= t) {
        lo = guess;
        if (t < key_times[first + guess + 1u]) hi = guess + 1u;
    } else {
        hi = guess;
    }
    while (hi - lo > 1u) {
        uint mid = (lo + hi) / 2u;
        if (key_times[first + mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    uint k = lo;
    float t0 = key_times[first + k];
    float d = key_times[first + k + 1u] - t0;
    float s = (t - t0) / d;
    if (s == 0.0 || track.interpolation == THRONG_POSE_STEP) return keyValue(track, k);
    vec4 p0 = keyValue(track, k), p1 = keyValue(track, k + 1u);
    if (track.interpolation == THRONG_POSE_LINEAR) return rotation ? slerpShortest(p0, p1, s) : p0 + (p1 - p0) * s;
    float s2 = s * s, s3 = s2 * s;
    vec4 out0 = key_values[track.first_value + 3u * k + 2u] * d;
    vec4 in1 = key_values[track.first_value + 3u * (k + 1u)] * d;
    vec4 r = p0 * (2.0 * s3 - 3.0 * s2 + 1.0) + out0 * (s3 - 2.0 * s2 + s) + p1 * (-2.0 * s3 + 3.0 * s2) +
             in1 * (s3 - s2);
    if (rotation) r /= length(r);
    return r;
}

// Node `node` of clip `clip` at clip time t (joints without a track keep the rest pose).
Local sampleNode(uint clip, uint node, float t) {
    PoseNode rest = nodes[node];
    Local l = Local(rest.translation.xyz, rest.rotation, rest.scale.xyz);
    uint base = (clip * pose.nodes + node) * 3u;
    uint tt = track_of[base], tr = track_of[base + 1u], ts = track_of[base + 2u];
    if (tt != 0u) l.t = sampleTrack(tracks[tt - 1u], false, t).xyz;
    if (tr != 0u) l.r = sampleTrack(tracks[tr - 1u], true, t);
    if (ts != 0u) l.s = sampleTrack(tracks[ts - 1u], false, t).xyz;
    return l;
}

// throng::LayerJob for one joint: a moved toward b by w.
Local blendLocal(Local a, Local b, float w) {
    if (w == 0.0) return a;
    if (w == 1.0) return b;
    float side = dot(a.r, b.r) < 0.0 ? -1.0 : 1.0;
    return Local(a.t + (b.t - a.t) * w, normalize(a.r * (1.0 - w) + b.r * (side * w)), a.s + (b.s - a.s) * w);
}

// T * R(normalised) * S as a 3x4 matrix that vec4(p, 1) * m applies (columns are the rows).
mat3x4 localMatrix(Local l) {
    vec4 q = l.r;
    float n = 2.0 / dot(q, q); // as if normalised (the reference normalises; keys may be slightly off unit length)
    float x2 = q.x * n, y2 = q.y * n, z2 = q.z * n;
    float xx = q.x * x2, yy = q.y * y2, zz = q.z * z2;
    float xy = q.x * y2, xz = q.x * z2, yz = q.y * z2;
    float wx = q.w * x2, wy = q.w * y2, wz = q.w * z2;
    vec3 c0 = vec3(1.0 - (yy + zz), xy + wz, xz - wy) * l.s.x;
    vec3 c1 = vec3(xy - wz, 1.0 - (xx + zz), yz + wx) * l.s.y;
    vec3 c2 = vec3(xz + wy, yz - wx, 1.0 - (xx + yy)) * l.s.z;
    return mat3x4(vec4(c0.x, c1.x, c2.x, l.t.x), vec4(c0.y, c1.y, c2.y, l.t.y), vec4(c0.z, c1.z, c2.z, l.t.z));
}

// a then b as affine 3x4 row matrices: (a x b) for column vectors.
mat3x4 compose(mat3x4 a, mat3x4 b) {
    mat3x4 r;
    for (int i = 0; i < 3; ++i) {
        vec4 row = a[i];
        r[i] = row.x * b[0] + row.y * b[1] + row.z * b[2] + vec4(0.0, 0.0, 0.0, row.w);
    }
    return r;
}

// Where a member's clips stand this frame, and which layers it carries.
struct MemberClock {
    float local; // its own clock (seconds)
    uint clip_a, clip_b;
    float t_a, t_b, blend;
    uint carried; // bit l: the member carries layer l
};

MemberClock memberClock(uint member) {
    InstanceRecord inst = instances[member];
    MemberClock c;
    c.local = pose.time * inst.speed + inst.time_offset;
    c.clip_a = throngClipA(inst.clips);
    c.clip_b = throngClipB(inst.clips);
    c.t_a = clipTime(c.local, durations[c.clip_a]);
    c.blend = inst.blend;
    c.t_b = c.blend > 0.0 ? clipTime(c.local, durations[c.clip_b]) : 0.0;
    uint key = inst.key != 0u ? inst.key : member;
    c.carried = 0u;
    for (uint l = 0u; l < pose.layers; ++l)
        if (throngCarries(key, THRONG_LAYER_SALT + l, layers[l].share)) c.carried |= 1u << l;
    return c;
}

// Node n's local matrix for the member at clock c: clip A, the cross-fade, the layers.
mat3x4 poseLocal(MemberClock c, uint n) {
    Local p = sampleNode(c.clip_a, n, c.t_a);
    if (c.blend > 0.0) p = blendLocal(p, sampleNode(c.clip_b, n, c.t_b), min(c.blend, 1.0));
    for (uint l = 0u; l < pose.layers; ++l) {
        float w = layers[l].weight * masks[l * pose.nodes + n];
        if ((c.carried & (1u << l)) == 0u || w == 0.0) continue;
        p = blendLocal(p, sampleNode(layers[l].clip, n, clipTime(c.local, durations[layers[l].clip])), w);
    }
    return localMatrix(p);
}

// Palette entry `entry` of `member`: model x the joint's inverse bind, 3 rows.
void writeEntry(uint member, uint entry, mat3x4 model, PoseJoint joint) {
    mat3x4 s = compose(model, mat3x4(joint.inverse_bind[0], joint.inverse_bind[1], joint.inverse_bind[2]));
    uint row = (member * pose.joints + entry) * 3u;
    palette[row] = s[0];
    palette[row + 1u] = s[1];
    palette[row + 2u] = s[2];
}
