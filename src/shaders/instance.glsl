// Quaternion helpers for members and the capture of world positions (needs shared.h first).

vec3 rotateByQuaternion(vec4 q, vec3 v) {
    vec3 t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

vec4 instanceOrientation(InstanceRecord inst) {
    return vec4(unpackHalf2x16(inst.orientation.x), unpackHalf2x16(inst.orientation.y));
}

// World-space position of a model-space point of member `inst`.
vec3 placeMember(InstanceRecord inst, vec3 p) {
    return rotateByQuaternion(instanceOrientation(inst), p) * inst.position_scale.w + inst.position_scale.xyz;
}

// Tests only: the capture variant of every vertex shader (compiled with -DTHRONG_CAPTURE, see
// CMakeLists.txt) also stores each vertex's world position, so tests can compare what the
// vertex shader really computed with the CPU reference. The variant needs the device feature
// vertexPipelineStoresAndAtomics; the shaders the renderer normally uses store nothing.
#ifdef THRONG_CAPTURE
layout(std430, set = 0, binding = THRONG_BINDING_CAPTURE) writeonly buffer Capture { vec4 captured[]; };
#endif

void captureWorld(uint member, vec3 world) {
#ifdef THRONG_CAPTURE
    captured[member * draw.vertex_count + uint(gl_VertexIndex)] = vec4(world, 1.0);
#endif
}
