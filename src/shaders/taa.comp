#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"

// Temporal anti-aliasing (src/render/taa.h, docs/IN_MOTION.md section 2): each pixel's colour
// this frame (drawn through a projection jittered by a sub-pixel Halton offset), filtered at the
// pixel centre, blended with the accumulated picture of the frames before, fetched from where the
// pixel's motion vector says its surface was (bilinear) and clamped to the box of this frame's
// neighbourhood in YCoCg (what the pixel may show now: a history of another surface, after a
// disocclusion or a change of light, falls outside it and is pulled in): 5 x 5 for a still
// surface, 3 x 3 for one that moved a pixel; dropped where the depth says another surface stood
// there last frame. Writes the new accumulated picture (linear RGB; alpha: the distance of the
// pixel's surface, for the next frame's depth test); the caller copies it into the frame's
// colour image.

// A group's pixels and the 2 around them (its 5 x 5 boxes' reach), read from `current` once into
// shared memory: every pixel's filter and boxes read their 25 samples from there (each texel of
// the frame is read by one group, a halo's by up to four, not by 25 invocations).
const int kTile = 16;
const int kHalo = 2;
const int kSide = kTile + 2 * kHalo;
layout(local_size_x = kTile, local_size_y = kTile) in;
shared vec3 tile_rgb[kSide * kSide];   // linear RGB
shared vec3 tile_ycocg[kSide * kSide]; // the same in YCoCg

layout(set = 0, binding = 0) uniform sampler2D current;  // the frame's colour (an sRGB view reads linear)
layout(set = 0, binding = 1) uniform sampler2D velocity; // RG: pixels, this frame minus the last (history.h)
layout(set = 0, binding = 2) uniform sampler2D history;  // the accumulated picture of the frames before
layout(set = 0, binding = 3, rgba16f) uniform writeonly image2D result;
layout(set = 0, binding = 4) uniform sampler2D depth;    // the frame's depth, reversed Z (0: nothing drawn)

// The history is another surface's where this frame's distance lies beyond all of the last
// frame's around it by more than this fraction: in the overview a member and the ground behind
// its head lie within 3% of each other (a member 1.8 units tall seen from 100 units at 35
// degrees), in the street view a member and what is behind it far more.
const float kDepthTolerance = 0.1;

layout(push_constant) uniform Push {
    vec2 size;         // pixels
    vec2 jitter_delta; // this frame's jitter minus the last's, pixels (the vectors hold it)
    vec2 jitter;       // this frame's jitter, pixels: where its samples lie off the pixel centres
    float blend;       // this frame's weight
    uint first;        // 1: no history yet
} push;

vec3 toYCoCg(vec3 c) { return vec3(0.25 * c.r + 0.5 * c.g + 0.25 * c.b, 0.5 * c.r - 0.5 * c.b, -0.25 * c.r + 0.5 * c.g - 0.25 * c.b); }
vec3 fromYCoCg(vec3 y) { return vec3(y.x + y.y - y.z, y.x + y.z, y.x - y.y - y.z); }

// Proportional to the distance from the camera (exactly so for an infinite reversed-Z
// projection): 1 / depth, held within half floats (nothing drawn: the farthest).
float distanceOf(float d) { return d > 1.0 / 65000.0 ? 1.0 / d : 65000.0; }

void main() {
    ivec2 size = ivec2(push.size);
    // The group's tile with its halo; texels beyond the edge repeat the edge's (clamped).
    ivec2 origin = ivec2(gl_WorkGroupID.xy) * kTile - kHalo;
    for (uint i = gl_LocalInvocationIndex; i < uint(kSide * kSide); i += uint(kTile * kTile)) {
        vec3 s = texelFetch(current, clamp(origin + ivec2(i % kSide, i / kSide), ivec2(0), size - 1), 0).rgb;
        tile_rgb[i] = s;
        tile_ycocg[i] = toYCoCg(s);
    }
    barrier();
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= size.x || p.y >= size.y) return;
    int centre = (int(gl_LocalInvocationID.y) + kHalo) * kSide + int(gl_LocalInvocationID.x) + kHalo;
    // This frame's estimate at the pixel centre: its 3 x 3 samples (each taken `jitter` off its
    // own centre) weighted by a Gaussian of their distance from this centre (about
    // Blackman-Harris's width), so that it moves little from one jitter to the next; and the box
    // of those samples in YCoCg.
    vec3 lo = vec3(1e30), hi = vec3(-1e30), sum = vec3(0.0);
    float weights = 0.0;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            vec3 s = tile_rgb[centre + dy * kSide + dx];
            vec2 d = vec2(dx, dy) - push.jitter; // the sample lies at its centre less the jitter
            float w = exp(-2.29 * dot(d, d));
            sum += w * s;
            weights += w;
            vec3 c = tile_ycocg[centre + dy * kSide + dx];
            lo = min(lo, c);
            hi = max(hi, c);
        }
    vec3 now = sum / weights;
    // For a still surface the box over 5 x 5: a member a pixel or two tall stays inside the
    // neighbourhood of every pixel its share reaches through the 3 x 3 filter, whatever the
    // jitter; a 3 x 3 box lost it in the frames the jitter moved it out, and the clamp then took
    // its share out of the picture (the overview greyed toward the ground's colour by 7%). A
    // moving one keeps the 3 x 3 box: a limb two pixels wide swinging by.
    vec3 wide_lo = lo, wide_hi = hi;
    for (int dy = -2; dy <= 2; ++dy)
        for (int dx = -2; dx <= 2; ++dx) {
            if (abs(dx) < 2 && abs(dy) < 2) continue; // the 3 x 3 above
            vec3 c = tile_ycocg[centre + dy * kSide + dx];
            wide_lo = min(wide_lo, c);
            wide_hi = max(wide_hi, c);
        }
    float d = texelFetch(depth, p, 0).r;
    float distance = distanceOf(d);
    // The surface's own motion: the vector less the jitter's change it holds; where nothing was
    // drawn (the sky: the vector as cleared, 0), none.
    vec2 v = d > 0.0 ? texelFetch(velocity, p, 0).xy - push.jitter_delta : vec2(0.0);
    vec2 at = vec2(p) + 0.5 - v; // where it was
    bool inside = all(greaterThanEqual(at, vec2(0.0))) && all(lessThan(at, push.size));
    // What stood around there last frame: the nearest and farthest distance of the pixels within
    // one of where the surface was (within one: a member a pixel or two wide moves in and out of
    // single pixels from one jitter to the next, its neighbours' history holds both it and what
    // is behind it). Farther than all of it: the surface was hidden behind them (a disocclusion,
    // which the colours may not show); nearer than all of it: it came in front of them (a member
    // teleported or added, which has no motion to say so). Either way the history there is
    // another surface's and is dropped.
    float nearest = 1e30, farthest = 0.0;
    for (int dy = -1; dy <= 1 && inside; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            float was_at = texelFetch(history, clamp(ivec2(at) + ivec2(dx, dy), ivec2(0), size - 1), 0).a;
            nearest = min(nearest, was_at);
            farthest = max(farthest, was_at);
        }
    bool other = (1.0 - kDepthTolerance) * distance > farthest || distance < (1.0 - kDepthTolerance) * nearest;
    if (push.first != 0u || !inside || other) {
        // Nothing to accumulate: off screen last frame, or another surface there then.
        imageStore(result, p, vec4(tile_rgb[centre], distance));
        return;
    }
    // Clamped to this frame's neighbourhood: what the pixel showed may be another surface now (a
    // member walked away, a shadow moved), the box's size as far as the surface moved.
    vec3 was = toYCoCg(textureLod(history, at / push.size, 0.0).rgb);
    vec3 before = fromYCoCg(mix(clamp(was, wide_lo, wide_hi), clamp(was, lo, hi), clamp(length(v), 0.0, 1.0)));
    imageStore(result, p, vec4(mix(before, now, push.blend), distance));
}
