// Motion vectors of the hardware passes (render/history.h, docs/IN_MOTION.md): a vertex shader
// places each vertex a second time as the last frame drew it (the member's last record, the
// last frame's time and camera: previousClip), the fragment shader writes the pixel's position
// minus where that placement puts it (velocityAt), in pixels, y down, into the frame's second
// colour attachment. Included with THRONG_VELOCITY only. Expects shared.h. A pass with its own
// parameters (impostors: ImpostorParams) defines THRONG_MOTION_OWN_PARAMS and uses velocityFrom.

// The motion since the last frame of the fragment at `frag` (gl_FragCoord.xy), whose clip
// position of the same point was `previous` in targets of `viewport` pixels (0 where the last
// frame saw it behind the camera).
vec2 velocityFrom(vec2 frag, vec4 previous, vec2 viewport) {
    if (previous.w <= 1e-6) return vec2(0.0);
    return frag - (previous.xy / previous.w * 0.5 + 0.5) * viewport;
}

#ifndef THRONG_MOTION_OWN_PARAMS
layout(std430, set = 0, binding = THRONG_BINDING_MOTION) readonly buffer Motions { MotionParams motions[]; };

// Where the last frame's camera of frame slot `slot` saw world point `then`.
vec4 previousClip(vec3 then, uint slot) { return motions[slot].previous_view_projection * vec4(then, 1.0); }

vec2 velocityAt(vec2 frag, vec4 previous, uint slot) { return velocityFrom(frag, previous, motions[slot].viewport); }
#endif
