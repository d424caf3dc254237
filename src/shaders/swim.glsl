// The fish swim (technique procedural): a rest-mesh vertex (body along +z, head at +z, length
// about 2) moved by four motions, each scaled by its own amount:
//   side-to-side  the whole body translates along x:            side * sin(phase)
//   pivot         the body yaws about y through its centre:      pivot * sin(phase)
//   wave          a travelling wave bends it along x:           wave * sin(phase - frequency * z) * mask
//   twist         it rolls about z, lagging toward the tail:    twist * sin(phase - frequency * z) * mask
// mask = 1 - smoothstep(mask_tail, mask_head, z): 0 from mask_head forward (the head stays steady),
// rising to 1 at mask_tail and behind (the tail beats). Per instance: phase offset (time_offset,
// in cycles), speed. Shared by procedural.vert and the compute rasterizer (raster_skin.glsl), so
// both draw the same swim.
// Expects shared.h, instance.glsl (InstanceRecord) and the uniform block `swim` (SwimParams).

vec3 swimRotateY(vec3 v, float a) { float c = cos(a), s = sin(a); return vec3(c * v.x + s * v.z, v.y, -s * v.x + c * v.z); }
vec3 swimRotateZ(vec3 v, float a) { float c = cos(a), s = sin(a); return vec3(c * v.x - s * v.y, s * v.x + c * v.y, v.z); }

// Rest position `p` and normal `n` of a vertex of member `inst`, swum at `time` (seconds), in
// model space.
void swimVertex(InstanceRecord inst, float time, inout vec3 p, inout vec3 n) {
    float phase = 6.28318531 * (time * inst.speed * swim.beats_per_second + inst.time_offset);
    float mask = 1.0 - smoothstep(swim.mask_tail, swim.mask_head, p.z);
    float travelling = sin(phase - swim.frequency * p.z);
    float roll = swim.twist * travelling * mask;
    p = swimRotateZ(p, roll);
    n = swimRotateZ(n, roll);
    p.x += swim.wave * travelling * mask;
    float yaw = swim.pivot * sin(phase);
    p = swimRotateY(p, yaw);
    n = swimRotateY(n, yaw);
    p.x += swim.side * sin(phase);
}
