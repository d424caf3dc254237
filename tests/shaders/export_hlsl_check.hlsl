// A compute shader around export/throng_export.hlsl (compiled with `glslc -x hlsl`): every
// (query, vertex) pair skinned through both of its paths. tests/export_hlsl_test.cpp binds the
// exported images and the mesh's attributes and compares the results with the double reference.
#include "throng_export.hlsl"

struct Vertex
{
    float4 position; // xyz: POSITION, w: _VAT_INDEX
    float4 normal;   // xyz: NORMAL
    uint4 joints;    // JOINTS_0
    float4 weights;  // WEIGHTS_0
};

struct Query
{
    float4 clip_a; // duration, frame_count, first_row, loop
    float4 clip_b;
    float4 times;  // time_a, time_b, fade, unused
};

struct Layout
{
    uint vertex_count;
    uint query_count;
    uint vat_width;
    uint rows_per_frame;
};

[[vk::binding(0)]] Texture2D<float4> animation;
[[vk::binding(1)]] Texture2D<float4> vat;
[[vk::binding(2)]] StructuredBuffer<Vertex> vertices;
[[vk::binding(3)]] StructuredBuffer<Query> queries;
// Four texels per (query, vertex), query-major: bone position, bone normal, VAT position, VAT normal.
[[vk::binding(4)]] RWStructuredBuffer<float4> results;
[[vk::push_constant]] ConstantBuffer<Layout> layout;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint index = id.x;
    if (index >= layout.vertex_count * layout.query_count) return;
    Vertex v = vertices[index % layout.vertex_count];
    Query q = queries[index / layout.vertex_count];
    float3 p, n;
    ThrongSkinBones(animation, v.position.xyz, v.normal.xyz, v.joints, v.weights, q.clip_a, q.times.x, q.clip_b,
                    q.times.y, q.times.z, p, n);
    results[4u * index + 0u] = float4(p, 1.0);
    results[4u * index + 1u] = float4(n, 0.0);
    ThrongSkinVat(vat, v.position.w, layout.vat_width, layout.rows_per_frame, q.clip_a, q.times.x, q.clip_b,
                  q.times.y, q.times.z, p, n);
    results[4u * index + 2u] = float4(p, 1.0);
    results[4u * index + 3u] = float4(n, 0.0);
}
