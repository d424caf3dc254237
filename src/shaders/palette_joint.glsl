// A skinning palette entry in technique palette's quaternion encoding (--encoding quat: 2 vec4,
// the rotation quaternion and (translation, uniform scale)) as the 3x4 matrix the skinning sums,
// built so that vec4(p, 1) * m transforms p (its columns are the matrix rows). Shared by
// palette_skin.glsl (the vertex shaders) and raster_skin.glsl (the compute rasterizer).
// Expects instance.glsl (rotateByQuaternion) first.

mat3x4 quaternionPaletteJoint(vec4 q, vec4 ts) {
    vec3 x = rotateByQuaternion(q, vec3(ts.w, 0.0, 0.0));
    vec3 y = rotateByQuaternion(q, vec3(0.0, ts.w, 0.0));
    vec3 z = rotateByQuaternion(q, vec3(0.0, 0.0, ts.w));
    return mat3x4(vec4(x.x, y.x, z.x, ts.x), vec4(x.y, y.y, z.y, ts.y), vec4(x.z, y.z, z.z, ts.z));
}
