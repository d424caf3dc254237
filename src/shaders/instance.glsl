// Per-instance placement, shared by every vertex shader (needs shared.h first).

vec3 rotateByQuaternion(vec4 q, vec3 v) {
    vec3 t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

vec4 instanceOrientation(InstanceRecord inst) {
    return vec4(unpackHalf2x16(inst.orientation.x), unpackHalf2x16(inst.orientation.y));
}
