// The resolve pass (docs/FAR_FIELD.md, section 4): for each pixel the compute rasterizer wrote,
// the member and chain triangle from the visibility buffer, its three vertices' positions and
// normals from the vertex cache where the cache holds the member, else skinned again (three a
// pixel: bounded by the picture, not the crowd), perspective-correct barycentrics at the
// pixel centre, and the same shading as lit.frag (directional + ambient, two-sided, vertex colour
// times member colour (not on props) times submesh colour; textures are not read yet). Writes colour and depth,
// depth-tested against what the hardware path drew. Variants, each shading its own pixels and
// discarding the others': THRONG_RESOLVE_CACHED (resolve_cached.frag) the members the vertex
// cache holds, with no skinning code; THRONG_SKIN_COARSE (resolve_coarse.frag) the coarse-skinned
// levels; the others (THRONG_RASTER_BAKED, THRONG_RASTER_PALETTE, THRONG_RASTER_VAT,
// THRONG_RASTER_PROCEDURAL, or the bind pose) the rest.
// Each is drawn only when the plan counts members for it (where the device draws indirect counts).
// Expects shared.h.

layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PARAMS) readonly buffer Params { RasterParams raster; };
layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_VISIBILITY) readonly buffer Visibility { uvec2 visibility[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RESOLVE_TRIANGLES) readonly buffer Triangles { uvec4 resolve_triangles[]; };
layout(std430, set = 0, binding = THRONG_BINDING_SUBMESH_COLORS) readonly buffer Colors { vec4 submesh_colors[]; };
layout(std430, set = 0, binding = THRONG_BINDING_SUBMESH_PROPS) readonly buffer SubmeshProps { uint submesh_props[]; };
layout(std430, set = 0, binding = THRONG_BINDING_VISIBLE) readonly buffer Visible { uint visible[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PLAN) readonly buffer Plan { RasterPlan plan; };
layout(std430, set = 0, binding = THRONG_BINDING_VERTEX_CACHE) readonly buffer VertexCache { uvec2 vertex_cache[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CACHE_NORMALS) readonly buffer CacheNormals { uint cache_normals[]; };
layout(std430, set = 0, binding = THRONG_BINDING_MEMBER_SLOTS) readonly buffer MemberSlots { uint member_slots[]; };
layout(std430, set = 0, binding = THRONG_BINDING_TRIANGLE_SLOTS) readonly buffer TriangleSlots { uvec4 triangle_slots[]; };

#include "vertex.glsl"
#include "instance.glsl"
#include "raster_skin.glsl"
#include "vertex_cache.glsl"

layout(location = 0) out vec4 out_color;

void main() {
    ivec2 px = ivec2(gl_FragCoord.xy);
    uvec2 v = visibility[uint(px.y) * uint(raster.viewport.x) + uint(px.x)];  // (low word, high word)
    if (v.x == 0xffffffffu && v.y == 0xffffffffu) discard;
    uint triangle = v.x & 0xffffu;
    uint member = (v.x >> 16) | ((v.y & 0xffu) << 16);
    uvec4 tri = resolve_triangles[triangle];
    uint lod = lodOfTriangle(triangle);
    InstanceRecord inst = instances[member];
    vec4 q = instanceOrientation(inst);
    uint slot = cachedSlot(member, lod);
#ifdef THRONG_RESOLVE_CACHED
    if (slot == ~0u) discard;
    uvec4 at = plan.cache[lod].x + slot * plan.cache[lod].w + triangle_slots[triangle];
#elif defined(THRONG_SKIN_COARSE)
    if (!THRONG_COARSE_LOD(lod, raster.coarse_lods)) discard;
#else
    if (slot != ~0u || THRONG_COARSE_LOD(lod, raster.coarse_lods)) discard;
#endif
    vec2 s[3];
    float z[3], inv_w[3];
    vec3 n[3];
    vec4 color[3];
    for (int k = 0; k < 3; ++k) {
        vec3 p;
#ifdef THRONG_RESOLVE_CACHED
        p = decodeCachedPosition(vertex_cache[at[k]]);
        n[k] = decodeCachedNormal(cache_normals[at[k]]);
        color[k] = unpackUnorm4x8(vertex_words[tri[k] * THRONG_VERTEX_WORDS + 8u]);
#else
        MeshVertex vtx = fetchVertex(tri[k]);
        skinVertex(member, inst, tri[k], vtx, lod, p, n[k]);
        color[k] = vtx.color;
#endif
        vec4 clip = raster.view_projection * vec4(placeMember(inst, p), 1.0);
        s[k] = (clip.xy / clip.w * 0.5 + 0.5) * raster.viewport;
        z[k] = clip.z / clip.w;
        inv_w[k] = 1.0 / clip.w;
        n[k] = rotateByQuaternion(q, n[k]);
    }
    vec2 c = vec2(px) + 0.5;
    float area = (s[1].x - s[0].x) * (s[2].y - s[0].y) - (s[1].y - s[0].y) * (s[2].x - s[0].x);
    if (area == 0.0) discard;
    vec3 b = vec3((s[2].x - s[1].x) * (c.y - s[1].y) - (s[2].y - s[1].y) * (c.x - s[1].x),
                  (s[0].x - s[2].x) * (c.y - s[2].y) - (s[0].y - s[2].y) * (c.x - s[2].x),
                  (s[1].x - s[0].x) * (c.y - s[0].y) - (s[1].y - s[0].y) * (c.x - s[0].x)) / area;
    vec3 pb = b * vec3(inv_w[0], inv_w[1], inv_w[2]);
    pb /= pb.x + pb.y + pb.z;
    vec3 normal = normalize(pb.x * n[0] + pb.y * n[1] + pb.z * n[2]);
    // Vulkan's facing: counter-clockwise in framebuffer coordinates (y down) is front, which is
    // a negative `area` here.
    if (area > 0.0) normal = -normal;
    // A prop keeps its own colours (member.glsl): the member's tint is the member's.
    vec4 tint = submesh_props[tri.w] != 0u ? vec4(1.0) : unpackUnorm4x8(inst.color);
    vec4 albedo = (pb.x * color[0] + pb.y * color[1] + pb.z * color[2]) * tint * submesh_colors[tri.w];
    float diffuse = max(dot(normal, -raster.light_direction.xyz), 0.0);
    float light = raster.light_direction.w + (1.0 - raster.light_direction.w) * diffuse;
    out_color = vec4(albedo.rgb * light, 1.0);
    gl_FragDepth = clamp(b.x * z[0] + b.y * z[1] + b.z * z[2], 0.0, 1.0);
}
