// Clip time to baked frames, shared by every shader that reads baked frames (baked_skin.glsl,
// vat_sample.glsl), so bone and vertex animation play the same frames at the same time.
// Expects shared.h and the storage buffer THRONG_BINDING_CLIPS declared as `clips`.

// The two frames bracketing `time` in `clip`, and the weight of the second.
struct FramePair {
    uint first;
    uint second;
    float t;
};

FramePair framesAt(uint clip, float time) {
    ClipRecord c = clips[clip];
    float local = c.loop != 0u ? mod(time, c.duration) : clamp(time, 0.0, c.duration);
    float u = c.duration > 0.0 ? clamp(local / c.duration * c.last_frame, 0.0, c.last_frame) : 0.0;
    FramePair p;
    p.first = uint(floor(u));
    p.second = min(p.first + 1u, uint(c.last_frame));
    p.t = u - float(p.first);
    return p;
}
