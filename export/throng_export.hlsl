// throng_export.hlsl: plays `throng bake --export DIR` output (docs/EXPORT.md) in an HLSL engine.
//
// Include it from a shader (Unity: a Shader Graph Custom Function node of type File; Unreal: a
// Material Custom node's "Include File Paths", renamed .ush) and call, per vertex:
//   ThrongClipRows        a clip's time -> the two image rows around it and the second's weight
//   ThrongSkinBones       animation.exr: the vertex skinned by its four joints, one clip or two
//                         cross-faded
//   ThrongSkinVat         vat.exr (exported with --vat): the vertex's baked position and normal
// and the *_float wrappers of the same (Shader Graph's naming: float inputs, out parameters).
// Every function reads textures with Load (no sampler, no filtering): import animation.exr and
// vat.exr as linear data, 32-bit float (16-bit for a half export), no mipmaps, no compression.
//
// A clip is given as float4(duration, frame_count, first_row, loop) from throng.json's clips[c]
// (loop: 1 or 0). A member's time is the caller's: (scene time + its offset) * its speed.
// Positions and normals are model space; the member's own transform comes after.
//
// Tested: tests/export_hlsl_test.cpp compiles this file with `glslc -x hlsl` (as a compute
// shader) and runs it on the export of the walker, compared with the double-precision reference.
#ifndef THRONG_EXPORT_HLSL
#define THRONG_EXPORT_HLSL

// The sampling of docs/EXPORT.md: the rows (first_row added) of the two baked frames around
// `time` and the weight of the second. GLSL's mod, not HLSL's fmod (which keeps a negative
// time's sign), wraps a looping clip.
void ThrongClipRows(float time, float4 clip, out float y0, out float y1, out float w)
{
    float duration = clip.x, last = clip.y - 1.0, first_row = clip.z;
    float local = clip.w != 0.0 ? time - duration * floor(time / duration) : clamp(time, 0.0, duration);
    float u = duration > 0.0 ? clamp(local / duration * last, 0.0, last) : 0.0;
    y0 = first_row + floor(u);
    y1 = first_row + min(floor(u) + 1.0, last);
    w = u - floor(u);
}

// Row r (0, 1, 2) of palette joint j's 3x4 skinning matrix at image row y.
float4 ThrongJointRow(Texture2D<float4> animation, uint j, uint r, float y)
{
    return animation.Load(int3(int(3u * j + r), int(y), 0));
}

// The vertex's 3x4 matrix for one clip: each of its joints' rows tweened between rows y0 and y1
// by w, blended by the joint weights.
void ThrongVertexRows(Texture2D<float4> animation, uint4 joints, float4 weights, float y0, float y1, float w,
                      out float4 r0, out float4 r1, out float4 r2)
{
    r0 = float4(0.0, 0.0, 0.0, 0.0);
    r1 = r0;
    r2 = r0;
    [unroll] for (int k = 0; k < 4; ++k)
    {
        uint j = joints[k];
        r0 += weights[k] * lerp(ThrongJointRow(animation, j, 0u, y0), ThrongJointRow(animation, j, 0u, y1), w);
        r1 += weights[k] * lerp(ThrongJointRow(animation, j, 1u, y0), ThrongJointRow(animation, j, 1u, y1), w);
        r2 += weights[k] * lerp(ThrongJointRow(animation, j, 2u, y0), ThrongJointRow(animation, j, 2u, y1), w);
    }
}

// A bind-pose position and normal through a 3x4 matrix: the position by the rows, the normal by
// the cofactor of the 3x3 part (exact where joints blend into a matrix that is no rotation),
// flipped for a mirroring matrix, and normalized.
void ThrongApplyRows(float4 r0, float4 r1, float4 r2, float3 position, float3 normal,
                     out float3 skinned_position, out float3 skinned_normal)
{
    float4 p = float4(position, 1.0);
    skinned_position = float3(dot(r0, p), dot(r1, p), dot(r2, p));
    float3 c0 = float3(r0.x, r1.x, r2.x), c1 = float3(r0.y, r1.y, r2.y), c2 = float3(r0.z, r1.z, r2.z);
    float3 k0 = cross(c1, c2);
    float3 n = k0 * normal.x + cross(c2, c0) * normal.y + cross(c0, c1) * normal.z;
    skinned_normal = normalize(dot(c0, k0) < 0.0 ? -n : n);
}

// The bone-texture path: the vertex (POSITION, NORMAL, JOINTS_0, WEIGHTS_0 of mesh.gltf) in clip
// A at time_a cross-faded into clip B at time_b by `fade` (0: A only, 1: B only; linear blend
// skinning is linear in the matrices, so the two clips' matrices are blended before skinning).
// Pass fade = 0 (clip_b and time_b then unused) to play one clip.
void ThrongSkinBones(Texture2D<float4> animation, float3 position, float3 normal, uint4 joints, float4 weights,
                     float4 clip_a, float time_a, float4 clip_b, float time_b, float fade,
                     out float3 skinned_position, out float3 skinned_normal)
{
    float y0, y1, w;
    float4 r0, r1, r2;
    ThrongClipRows(time_a, clip_a, y0, y1, w);
    ThrongVertexRows(animation, joints, weights, y0, y1, w, r0, r1, r2);
    if (fade > 0.0)
    {
        float4 s0, s1, s2;
        ThrongClipRows(time_b, clip_b, y0, y1, w);
        ThrongVertexRows(animation, joints, weights, y0, y1, w, s0, s1, s2);
        r0 = lerp(r0, s0, fade);
        r1 = lerp(r1, s1, fade);
        r2 = lerp(r2, s2, fade);
    }
    ThrongApplyRows(r0, r1, r2, position, normal, skinned_position, skinned_normal);
}

// Texel i (2 * vertex for its position, + 1 for its normal) of the frame at image row-block y
// (first_row + frame) in vat.exr, whose layout is throng.json's vat.width and vat.rows_per_frame.
float4 ThrongVatTexel(Texture2D<float4> vat, uint i, float y, uint vat_width, uint rows_per_frame)
{
    return vat.Load(int3(int(i % vat_width), int(uint(y) * rows_per_frame + i / vat_width), 0));
}

// The vertex-animation path: vertex `vat_index` (_VAT_INDEX of mesh.gltf) in clip A at time_a
// cross-faded into clip B at time_b by `fade`: positions and normals tweened between frames,
// the clips blended, the normal normalized last.
void ThrongSkinVat(Texture2D<float4> vat, float vat_index, uint vat_width, uint rows_per_frame,
                   float4 clip_a, float time_a, float4 clip_b, float time_b, float fade,
                   out float3 skinned_position, out float3 skinned_normal)
{
    uint i = 2u * uint(vat_index);
    float y0, y1, w;
    ThrongClipRows(time_a, clip_a, y0, y1, w);
    float4 p = lerp(ThrongVatTexel(vat, i, y0, vat_width, rows_per_frame), ThrongVatTexel(vat, i, y1, vat_width, rows_per_frame), w);
    float4 n = lerp(ThrongVatTexel(vat, i + 1u, y0, vat_width, rows_per_frame), ThrongVatTexel(vat, i + 1u, y1, vat_width, rows_per_frame), w);
    if (fade > 0.0)
    {
        ThrongClipRows(time_b, clip_b, y0, y1, w);
        float4 q = lerp(ThrongVatTexel(vat, i, y0, vat_width, rows_per_frame), ThrongVatTexel(vat, i, y1, vat_width, rows_per_frame), w);
        float4 m = lerp(ThrongVatTexel(vat, i + 1u, y0, vat_width, rows_per_frame), ThrongVatTexel(vat, i + 1u, y1, vat_width, rows_per_frame), w);
        p = lerp(p, q, fade);
        n = lerp(n, m, fade);
    }
    skinned_position = p.xyz;
    skinned_normal = normalize(n.xyz);
}

// Shader Graph's Custom Function convention (Unity): NAME_float, every input a float type. The
// joint indices come as a float4 of whole numbers (exact below 2^24), as a UV or colour channel
// carries them when JOINTS_0 is imported into one.
void ThrongSkinBones_float(Texture2D<float4> animation, float3 position, float3 normal, float4 joints, float4 weights,
                           float4 clip_a, float time_a, float4 clip_b, float time_b, float fade,
                           out float3 skinned_position, out float3 skinned_normal)
{
    ThrongSkinBones(animation, position, normal, uint4(joints + 0.5), weights, clip_a, time_a, clip_b, time_b, fade,
                    skinned_position, skinned_normal);
}

void ThrongSkinVat_float(Texture2D<float4> vat, float vat_index, float vat_width, float rows_per_frame,
                         float4 clip_a, float time_a, float4 clip_b, float time_b, float fade,
                         out float3 skinned_position, out float3 skinned_normal)
{
    ThrongSkinVat(vat, vat_index, uint(vat_width + 0.5), uint(rows_per_frame + 0.5), clip_a, time_a, clip_b, time_b,
                  fade, skinned_position, skinned_normal);
}

#endif // THRONG_EXPORT_HLSL
