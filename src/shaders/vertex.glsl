// Vertex pulling: every mesh technique reads its BakedVertex from a storage buffer by
// gl_VertexIndex instead of through fixed-function vertex attributes. Measured on the H200,
// whose two graphics TPCs fetch attributes slowly, the crowd pass costs in proportion to the
// number of vertex attributes (docs/BENCHMARKS.md); pulling moves the fetch to ordinary loads.
// Expects shared.h first.

layout(std430, set = 0, binding = THRONG_BINDING_VERTICES) readonly buffer Vertices { uint vertex_words[]; };

struct MeshVertex {
    vec3 position;
    vec3 normal;
    vec2 uv;
    vec4 color;
    uvec4 joints;
    vec4 weights;
};

// BakedVertex (60 bytes): position 0-2, normal 3-5, uv 6-7, colour 8 (RGBA8), joints 9-10
// (4 x u16), weights 11-14.
MeshVertex fetchVertex(uint index) {
    uint b = index * THRONG_VERTEX_WORDS;
    MeshVertex v;
    v.position = uintBitsToFloat(uvec3(vertex_words[b], vertex_words[b + 1u], vertex_words[b + 2u]));
    v.normal = uintBitsToFloat(uvec3(vertex_words[b + 3u], vertex_words[b + 4u], vertex_words[b + 5u]));
    v.uv = uintBitsToFloat(uvec2(vertex_words[b + 6u], vertex_words[b + 7u]));
    v.color = unpackUnorm4x8(vertex_words[b + 8u]);
    uint j01 = vertex_words[b + 9u], j23 = vertex_words[b + 10u];
    v.joints = uvec4(j01 & 0xffffu, j01 >> 16, j23 & 0xffffu, j23 >> 16);
    v.weights = uintBitsToFloat(uvec4(vertex_words[b + 11u], vertex_words[b + 12u], vertex_words[b + 13u], vertex_words[b + 14u]));
    return v;
}

