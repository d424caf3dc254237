// Skinning from baked animation textures, shared by the vertex shader and the compute check.
// Expects, before inclusion: shared.h, and the bindings THRONG_BINDING_CLIPS,
// THRONG_BINDING_ANIMATION, THRONG_BINDING_ANIMATION_BUFFER and THRONG_BINDING_ANIMATION_WORDS
// declared as `clips`, `animation`, `animation_buffer` and `animation_words`.
//
// Texel (3 * joint + row, frame, clip) holds row `row` of the joint's 3x4 skinning matrix
// (include/throng/baked.h). Building a mat3x4 from the three rows as its columns gives the
// transpose, so a point is transformed as vec4(p, 1) * m.

layout(constant_id = THRONG_SPEC_ANIMATION_PATH) const int kAnimationPath = THRONG_ANIMATION_PATH_IMAGE;
layout(constant_id = THRONG_SPEC_ANIMATION_HALF) const bool kAnimationHalf = false;

// Texel x of `frame` in `clip`, exactly as stored (no filtering): from the image array, from the
// texel buffer with the same texels (past the image limits), or from the same texels as plain
// storage-buffer words (no texture unit involved; slower on the H200: docs/BENCHMARKS.md).
vec4 animationTexel(uint clip, uint frame, uint x) {
    if (kAnimationPath == THRONG_ANIMATION_PATH_IMAGE) return texelFetch(animation, ivec3(int(x), int(frame), int(clip)), 0);
    ClipRecord c = clips[clip];
    uint t = c.first_texel + frame * c.row_texels + x;
    if (kAnimationPath == THRONG_ANIMATION_PATH_TEXEL_BUFFER) return texelFetch(animation_buffer, int(t));
    if (kAnimationHalf) return vec4(unpackHalf2x16(animation_words[2u * t]), unpackHalf2x16(animation_words[2u * t + 1u]));
    return uintBitsToFloat(uvec4(animation_words[4u * t], animation_words[4u * t + 1u], animation_words[4u * t + 2u], animation_words[4u * t + 3u]));
}

mat3x4 bakedJoint(uint clip, uint frame, uint joint) {
    uint x = joint * 3u;
    return mat3x4(animationTexel(clip, frame, x), animationTexel(clip, frame, x + 1u), animationTexel(clip, frame, x + 2u));
}

#include "clip_frames.glsl"
#include "dual_quaternion.glsl"

// Frame tweening: blend the two bracketing frames' matrices.
mat3x4 tweenedJoint(uint clip, FramePair f, uint joint) {
    mat3x4 a = bakedJoint(clip, f.first, joint);
    if (f.t == 0.0) return a;
    return a * (1.0 - f.t) + bakedJoint(clip, f.second, joint) * f.t;
}

// The blended skinning matrix of one vertex of one instance: up to 4 joints, each tweened
// between frames and cross-faded between clip A and clip B by the instance's blend weight (as
// matrices), then blended linearly or as dual quaternions (dual_quaternion.glsl).
mat3x4 instanceSkinning(InstanceRecord inst, uvec4 joints, vec4 weights, float time) {
    float local = time * inst.speed + inst.time_offset;
    uint clip_a = throngClipA(inst.clips);
    uint clip_b = throngClipB(inst.clips);
    FramePair fa = framesAt(clip_a, local);
    FramePair fb = framesAt(clip_b, local);
    JointBlend blend = beginJointBlend();
    for (int i = 0; i < 4; ++i) {
        if (weights[i] == 0.0) continue;
        mat3x4 j = tweenedJoint(clip_a, fa, joints[i]);
        if (inst.blend > 0.0) j = j * (1.0 - inst.blend) + tweenedJoint(clip_b, fb, joints[i]) * inst.blend;
        addJoint(blend, j, weights[i]);
    }
    return endJointBlend(blend);
}

// Coarse skinning (src/render/coarse_skinning.h): the heaviest joint alone, at the nearest frame
// of each clip, cross-faded as above: 6 texel fetches instead of up to 48.
mat3x4 coarseSkinning(InstanceRecord inst, uvec4 joints, vec4 weights, float time) {
    float local = time * inst.speed + inst.time_offset;
    uint clip_a = throngClipA(inst.clips);
    uint clip_b = throngClipB(inst.clips);
    uint joint = joints[0];
    float heaviest = weights[0];
    for (int i = 1; i < 4; ++i)
        if (weights[i] > heaviest) {
            heaviest = weights[i];
            joint = joints[i];
        }
    FramePair fa = framesAt(clip_a, local);
    mat3x4 m = bakedJoint(clip_a, fa.t < 0.5 ? fa.first : fa.second, joint);
    if (inst.blend > 0.0) {
        FramePair fb = framesAt(clip_b, local);
        m = m * (1.0 - inst.blend) + bakedJoint(clip_b, fb.t < 0.5 ? fb.first : fb.second, joint) * inst.blend;
    }
    return m;
}
