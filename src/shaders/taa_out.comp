#version 450

// The TAA pass's picture (src/render/taa.h: linear RGB in half floats) written into the frame's
// colour image through its R8G8B8A8_UNORM view (gpu::createImageWithStorageView; shaders may not
// write the sRGB view), encoded to sRGB here as the view would: instead of a blit, which goes
// through the graphics units (two TPCs of an H100 or H200).

layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0, rgba16f) uniform readonly image2D picture;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D result;

// The sRGB transfer function (IEC 61966-2-1).
float encode(float c) {
    c = clamp(c, 0.0, 1.0);
    return c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
}

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(result)))) return;
    vec3 c = imageLoad(picture, p).rgb;
    imageStore(result, p, vec4(encode(c.r), encode(c.g), encode(c.b), 1.0));
}
