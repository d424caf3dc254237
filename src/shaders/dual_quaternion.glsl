// Blending a vertex's joints, linearly (matrices) or as dual quaternions (--skinning
// dual-quaternion), shared by palette_skin.glsl and baked_skin.glsl. The CPU reference is
// dualQuaternionBlend() in include/throng/anim.h, in double; this is the same arithmetic.
//
// A joint arrives as its 3x4 skinning matrix, built so that vec4(p, 1) * m transforms p (the
// columns are the matrix rows). As a dual quaternion it is taken apart as p -> R (s p) + t:
// s the mean length of the 3x3 part's columns, R the rotation of the 3x3 part / s (exact for
// rigid joints with uniform scale; shear and mirroring are lost), t the translation. A joint
// scaled to nothing (s <= 1e-8, a hidden accessory) counts as the identity rotation with scale
// 0, so its vertices collapse onto t as with linear blending instead of becoming NaN. The blend sums the joints'
// (real, dual) with each real part's sign matched to the first joint's (the shorter way round),
// normalises by the real part's length and sums the scales; the result goes back to a 3x4 matrix,
// so the caller transforms positions and normals as it does a linear blend.

layout(constant_id = THRONG_SPEC_DUAL_QUATERNION) const bool kDualQuaternion = false;

struct JointBlend {
    mat3x4 linear; // sum of w m (linear blending)
    vec4 real;     // sum of +-w r (dual quaternions: x, y, z, w)
    vec4 dual;     // sum of +-w d
    float scale;   // sum of w s
    vec4 first;    // the first joint's real part (0 before it)
};

JointBlend beginJointBlend() { return JointBlend(mat3x4(0.0), vec4(0.0), vec4(0.0), 0.0, vec4(0.0)); }

vec4 quaternionProduct(vec4 a, vec4 b) { return vec4(a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz), a.w * b.w - dot(a.xyz, b.xyz)); }

// The rotation whose matrix has rows r0, r1, r2, as a unit quaternion (largest component first).
vec4 quaternionOfRows(vec3 r0, vec3 r1, vec3 r2) {
    float trace = r0.x + r1.y + r2.z;
    vec4 q;
    if (trace > 0.0) {
        float s = 2.0 * sqrt(trace + 1.0);
        q = vec4(r2.y - r1.z, r0.z - r2.x, r1.x - r0.y, 0.25 * s * s) / s;
    } else if (r0.x > r1.y && r0.x > r2.z) {
        float s = 2.0 * sqrt(1.0 + r0.x - r1.y - r2.z);
        q = vec4(0.25 * s * s, r0.y + r1.x, r0.z + r2.x, r2.y - r1.z) / s;
    } else if (r1.y > r2.z) {
        float s = 2.0 * sqrt(1.0 + r1.y - r0.x - r2.z);
        q = vec4(r0.y + r1.x, 0.25 * s * s, r1.z + r2.y, r0.z - r2.x) / s;
    } else {
        float s = 2.0 * sqrt(1.0 + r2.z - r0.x - r1.y);
        q = vec4(r0.z + r2.x, r1.z + r2.y, 0.25 * s * s, r1.x - r0.y) / s;
    }
    return normalize(q);
}

// Joint m taken apart as above: its rotation (real), its dual part and its scale. The compute
// rasterizer's cache pass converts each joint once a member and blends per vertex
// (addJointDualQuaternion); the vertex shaders convert per vertex (addJoint): the same arithmetic.
struct JointDualQuaternion {
    vec4 real;
    vec4 dual;
    float scale;
};

JointDualQuaternion jointDualQuaternion(mat3x4 m) {
    // m[i] is row i: (R s)[i] and t[i].
    vec3 c0 = vec3(m[0].x, m[1].x, m[2].x), c1 = vec3(m[0].y, m[1].y, m[2].y), c2 = vec3(m[0].z, m[1].z, m[2].z);
    float s = (length(c0) + length(c1) + length(c2)) / 3.0;
    vec4 r = vec4(0.0, 0.0, 0.0, 1.0);
    if (s > 1e-8)
        r = quaternionOfRows(m[0].xyz / s, m[1].xyz / s, m[2].xyz / s);
    else
        s = 0.0;
    return JointDualQuaternion(r, 0.5 * quaternionProduct(vec4(m[0].w, m[1].w, m[2].w, 0.0), r), s);
}

void addJointDualQuaternion(inout JointBlend b, JointDualQuaternion q, float w) {
    if (b.first == vec4(0.0)) b.first = q.real;
    float signed_w = dot(b.first, q.real) < 0.0 ? -w : w;
    b.real += signed_w * q.real;
    b.dual += signed_w * q.dual;
    b.scale += w * q.scale;
}

void addJoint(inout JointBlend b, mat3x4 m, float w) {
    if (!kDualQuaternion) {
        b.linear += m * w;
        return;
    }
    addJointDualQuaternion(b, jointDualQuaternion(m), w);
}

mat3x4 endJointBlend(JointBlend b) {
    if (!kDualQuaternion) return b.linear;
    float len = length(b.real);
    if (!(len > 0.0)) return mat3x4(0.0);
    vec4 r = b.real / len, d = b.dual / len;
    vec3 t = 2.0 * quaternionProduct(d, vec4(-r.xyz, r.w)).xyz;
    float x = r.x, y = r.y, z = r.z, w = r.w;
    vec3 row0 = vec3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y));
    vec3 row1 = vec3(2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x));
    vec3 row2 = vec3(2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y));
    return mat3x4(vec4(row0 * b.scale, t.x), vec4(row1 * b.scale, t.y), vec4(row2 * b.scale, t.z));
}
