#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// Temporal anti-aliasing of a headless frame (src/render/taa.h, docs/IN_MOTION.md section 2):
// each pixel's colour this frame (drawn through a projection jittered by a sub-pixel Halton
// offset) blended with the accumulated picture of the frames before, fetched from where the
// pixel's motion vector says its surface was (bilinear), clamped first to the box of this frame's
// 3 x 3 neighbourhood in YCoCg (what the pixel may show now: a history of another surface, after
// a disocclusion or a change of light, falls outside it and is pulled in). Writes the new
// accumulated picture (linear RGB); the caller copies it into the frame's colour image.

layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform sampler2D current;  // the frame's colour (an sRGB view reads linear)
layout(set = 0, binding = 1) uniform sampler2D velocity; // RG: pixels, this frame minus the last (history.h)
layout(set = 0, binding = 2) uniform sampler2D history;  // the accumulated picture of the frames before
layout(set = 0, binding = 3, rgba16f) uniform writeonly image2D result;

layout(push_constant) uniform Push {
    vec2 size;         // pixels
    vec2 jitter_delta; // this frame's jitter minus the last's, pixels (the vectors hold it)
    vec2 jitter;       // this frame's jitter, pixels: where its samples lie off the pixel centres
    float blend;       // this frame's weight
    uint first;        // 1: no history yet
} push;

vec3 toYCoCg(vec3 c) { return vec3(0.25 * c.r + 0.5 * c.g + 0.25 * c.b, 0.5 * c.r - 0.5 * c.b, -0.25 * c.r + 0.5 * c.g - 0.25 * c.b); }
vec3 fromYCoCg(vec3 y) { return vec3(y.x + y.y - y.z, y.x + y.z, y.x - y.y - y.z); }

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = ivec2(push.size);
    if (p.x >= size.x || p.y >= size.y) return;
    vec3 now = texelFetch(current, p, 0).rgb;
    vec2 v = texelFetch(velocity, p, 0).xy - push.jitter_delta; // the surface's own motion (no jitter)
    vec2 at = vec2(p) + 0.5 - v;                                 // where it was
    if (push.first != 0u || any(lessThan(at, vec2(0.0))) || any(greaterThanEqual(at, push.size))) {
        imageStore(result, p, vec4(now, 1.0)); // nothing to accumulate: off screen last frame
        return;
    }
    // This frame's estimate at the pixel centre: its 3 x 3 samples (each taken `jitter` off its
    // own centre) weighted by a Gaussian of their distance from this centre (about
    // Blackman-Harris's width), so that it moves little from one jitter to the next; and the
    // box of those samples in YCoCg.
    vec3 lo = vec3(1e30), hi = vec3(-1e30), sum = vec3(0.0);
    float weights = 0.0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            vec3 s = texelFetch(current, clamp(p + ivec2(dx, dy), ivec2(0), size - 1), 0).rgb;
            vec2 d = vec2(dx, dy) - push.jitter; // the sample lies at its centre less the jitter
            float w = exp(-2.29 * dot(d, d));
            sum += w * s;
            weights += w;
            vec3 c = toYCoCg(s);
            lo = min(lo, c);
            hi = max(hi, c);
        }
    now = sum / weights;
    // Clamped as far as the surface moved: a pixel whose surface stands still keeps its history
    // whole (members a pixel or two tall fall in and out of a 3 x 3 box from one jitter to the
    // next: clamping there would undo the accumulation), one that moved a pixel or more is clamped
    // fully (what it showed before may be another surface now: no ghost trails).
    vec3 was = toYCoCg(textureLod(history, at / push.size, 0.0).rgb);
    vec3 before = fromYCoCg(mix(was, clamp(was, lo, hi), clamp(length(v), 0.0, 1.0)));
    imageStore(result, p, vec4(mix(before, now, push.blend), 1.0));
}
