// The compute rasterizer's set 0 (src/render/compute_raster.h), beside the bindings the skinning
// includes declare. A shader that writes the vertex cache defines
// THRONG_CACHE_WRITER first; the others read them.
// Expects shared.h.
#ifdef THRONG_CACHE_WRITER
#define THRONG_CACHE_ACCESS
#else
#define THRONG_CACHE_ACCESS readonly
#endif

layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PARAMS) readonly buffer Params { RasterParams raster; };
layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_VISIBLE) readonly buffer Visible { uint visible[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CLUSTERS) readonly buffer Clusters { uvec4 clusters[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CLUSTER_VERTICES) readonly buffer ClusterVertices { uint cluster_vertices[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CLUSTER_TRIANGLES) readonly buffer ClusterTriangles { uint cluster_triangles[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PLAN) readonly buffer Plan { RasterPlan plan; RasterRegion regions[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_MODELS) readonly buffer Models { RasterModel raster_models[]; };
#ifdef THRONG_RASTER_DEPTH
// The shadow pass's depth (ComputeRaster::addShadowPasses): a float's bits per texel, the
// nearest to the light the largest (reversed Z), bound where the camera's visibility buffer is.
layout(std430, set = 0, binding = THRONG_BINDING_VISIBILITY) buffer ShadowDepth { uint shadow_depth[]; };
#else
layout(std430, set = 0, binding = THRONG_BINDING_VISIBILITY) buffer Visibility { uint64_t visibility[]; };
#endif
layout(std430, set = 0, binding = THRONG_BINDING_VERTEX_CACHE) THRONG_CACHE_ACCESS buffer VertexCache { uvec2 vertex_cache[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CACHE_NORMALS) THRONG_CACHE_ACCESS buffer CacheNormals { uint cache_normals[]; };
layout(std430, set = 0, binding = THRONG_BINDING_MEMBER_SLOTS) THRONG_CACHE_ACCESS buffer MemberSlots { uint member_slots[]; };
layout(std430, set = 0, binding = THRONG_BINDING_LOD_VERTICES) readonly buffer LodVertices { uint lod_vertex_words[]; };
layout(std430, set = 0, binding = THRONG_BINDING_VERTEX_SLOTS) readonly buffer VertexSlots { uint vertex_slots[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RESOLVE_TRIANGLES) readonly buffer Triangles { uvec4 resolve_triangles[]; };
layout(std430, set = 0, binding = THRONG_BINDING_SUBMESH_PROPS) readonly buffer SubmeshProps { uint submesh_props[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_SLOTS) readonly buffer RasterSlots { uvec4 raster_slots[]; };

// Whether member `member` (its record `inst`) draws submesh `submesh`: a prop's or kit part's
// submesh only on the members that wear it, as member.glsl's emitVertex decides for the vertex
// shaders.
bool memberDrawsSubmesh(uint member, InstanceRecord inst, uint submesh) {
    return throngWears(inst.key != 0u ? inst.key : member, submesh_props[submesh] >> THRONG_DRAW_WEAR_SHIFT);
}
