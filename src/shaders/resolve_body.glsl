// The resolve pass (docs/FAR_FIELD.md, section 4), in compute (a thread per pixel, tiles of
// THRONG_RESOLVE_TILE x THRONG_RESOLVE_TILE): for each pixel the compute rasterizer wrote, the
// member and its model's triangle from the visibility buffer, its three vertices' positions and
// normals from the vertex cache where the cache holds the member, else skinned again (three a
// pixel: bounded by the picture, not the crowd), perspective-correct barycentrics at the
// pixel centre, and what lit.frag shades: directional + ambient light, two-sided, vertex colour
// times member colour (not on props: a prop keeps its own colours, as member.glsl) times submesh
// colour (SubmeshShading) times the member's colour of the submesh's look (looks.glsl) times the
// submesh's base-colour texture (its layer the member's of a look with texture variants), and with THRONG_SHADOWS (the
// *_shadowed variants) the shadow map's light (shadow.glsl). The texture is sampled with
// textureGrad: the UV's screen derivatives from the triangle itself (its perspective-correct
// barycentrics one pixel right and one pixel down), as a visibility buffer must (a fragment
// shader's 2 x 2 quads would hold other triangles; a compute shader has none).
// With motion vectors (RasterParams::velocity) also each pixel's motion since the last frame
// (writeVelocity) into THRONG_BINDING_VELOCITY.
// Writes the linear colour and the depth into the resolved buffer (THRONG_BINDING_RESOLVED), which
// the composite draw (composite.frag) then writes into the frame's targets, depth-tested against
// what the hardware drew, and lists the tiles it shaded a pixel of for that draw
// (THRONG_BINDING_RESOLVE_TILES: the composite covers those tiles only). In compute because a GPU whose graphics work runs on a few of its
// processors (the H100 and H200: 2 of 66 TPCs) would shade every pixel there.
//
// Variants, each shading its own pixels and leaving the others': THRONG_RESOLVE_CACHED
// (resolve_cached.comp) the members the vertex cache holds, with no skinning code;
// THRONG_SKIN_COARSE (resolve_coarse.comp) the coarse-skinned levels; the others
// (THRONG_RASTER_BAKED, THRONG_RASTER_PALETTE, THRONG_RASTER_VAT, THRONG_RASTER_PROCEDURAL,
// THRONG_RASTER_VERTICES, or the bind pose) the rest. Each is dispatched only when the plan counts
// members for it (RasterPlan::resolve_dispatches), once per texture a submesh samples: the
// dispatch for texture t (push constant) shades the submeshes that sample t, the first one also
// those that sample none. Expects shared.h.

layout(local_size_x = THRONG_RESOLVE_TILE, local_size_y = THRONG_RESOLVE_TILE) in;

layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PARAMS) readonly buffer Params { RasterParams raster; };
layout(std430, set = 0, binding = THRONG_BINDING_INSTANCES) readonly buffer Instances { InstanceRecord instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_VISIBILITY) readonly buffer Visibility { uvec2 visibility[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RESOLVE_TRIANGLES) readonly buffer Triangles { uvec4 resolve_triangles[]; };
layout(std430, set = 0, binding = THRONG_BINDING_SUBMESH_SHADING) readonly buffer Shading { SubmeshShading submesh_shading[]; };
layout(set = 0, binding = THRONG_BINDING_TEXTURE) uniform sampler2DArray base_texture; // render/gpu_textures.h
layout(push_constant) uniform Push { uint texture; uint untextured; } push;
layout(std430, set = 0, binding = THRONG_BINDING_SUBMESH_PROPS) readonly buffer SubmeshProps { uint submesh_props[]; };
layout(std430, set = 0, binding = THRONG_BINDING_LOOKS) readonly buffer Looks { uint looks[]; };
layout(std430, set = 0, binding = THRONG_BINDING_VISIBLE) readonly buffer Visible { uint visible[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_PLAN) readonly buffer Plan { RasterPlan plan; RasterRegion regions[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RASTER_MODELS) readonly buffer Models { RasterModel raster_models[]; };
layout(std430, set = 0, binding = THRONG_BINDING_VERTEX_CACHE) readonly buffer VertexCache { uvec2 vertex_cache[]; };
layout(std430, set = 0, binding = THRONG_BINDING_CACHE_NORMALS) readonly buffer CacheNormals { uint cache_normals[]; };
layout(std430, set = 0, binding = THRONG_BINDING_MEMBER_SLOTS) readonly buffer MemberSlots { uint member_slots[]; };
layout(std430, set = 0, binding = THRONG_BINDING_TRIANGLE_SLOTS) readonly buffer TriangleSlots { uvec4 triangle_slots[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RESOLVED) writeonly buffer Resolved { uvec4 resolved[]; };
layout(std430, set = 0, binding = THRONG_BINDING_RESOLVE_TILES) buffer Tiles { uint resolve_tiles[]; };
layout(std430, set = 0, binding = THRONG_BINDING_SPLATS) readonly buffer Splats { SplatModel splat_models[]; };
layout(std430, set = 0, binding = THRONG_BINDING_PREVIOUS_INSTANCES) readonly buffer Previous { InstanceRecord previous_instances[]; };
layout(std430, set = 0, binding = THRONG_BINDING_VELOCITY) writeonly buffer Velocity { uint velocity[]; };

#extension GL_KHR_shader_subgroup_basic : require

#include "vertex.glsl"
#include "instance.glsl"
#include "looks.glsl"
#include "raster_skin.glsl"
#include "vertex_cache.glsl"
#include "splat.glsl"
#define THRONG_MOTION_OWN_PARAMS // RasterParams holds the last frame's camera
#include "motion.glsl"
#ifdef THRONG_SHADOWS
#include "shadow.glsl"
#endif

// The tile into the composite's list, once (a workgroup is a tile: one invocation of each
// subgroup that shaded a pixel asks, the first ask of any variant's dispatch lists it).
void listTile() {
    if (subgroupElect()) {
        uvec2 tiles = throngResolveTiles(uvec2(raster.viewport));
        uint tile = gl_WorkGroupID.y * tiles.x + gl_WorkGroupID.x;
        if (atomicExchange(resolve_tiles[THRONG_RESOLVE_TILES_FLAGS + tile], 1u) == 0u) {
            uint listed = atomicAdd(resolve_tiles[0], 6u) / 6u;
            resolve_tiles[THRONG_RESOLVE_TILES_FLAGS + tiles.x * tiles.y + listed] = tile;
        }
    }
}

// Where a splat stands: its model's centre, placed (a splat moves as that point).
vec3 splatCenter(InstanceRecord inst) { return placeMember(inst, splat_models[rasterModelOf(inst)].center.xyz); }

// A splat's pixel (raster_splat.comp): the member's mean colour over the submeshes it draws
// (each one's mean times the member's look colour, or its tint, by the submesh's area; times
// what the view it is seen from shows of the body's colours over their mean) times the
// ambient plus the mean diffuse light over the surface its silhouette shows from the camera
// (splatDiffuse) and, with shadows, the shadow map's light at the side of its sphere facing the
// light; its depth the splat's.
vec3 splatColor(uint member, InstanceRecord inst) {
    uint model = rasterModelOf(inst);
    SplatModel sm = splat_models[model];
    vec4 q = instanceOrientation(inst);
    vec3 center = splatCenter(inst);
    uint key = inst.key != 0u ? inst.key : member;
    vec4 tint = unpackUnorm4x8(inst.color);
    vec3 albedo = vec3(0.0);
    float weight = 0.0;
    for (uint s = sm.first_submesh; s < sm.first_submesh + sm.submesh_count; ++s) {
        if (!throngWears(key, submesh_props[s] >> THRONG_DRAW_WEAR_SHIFT)) continue;
        SubmeshShading shading = submesh_shading[s];
        vec2 b_area = unpackHalf2x16(shading.mean_b_area);
        vec3 mean = vec3(unpackHalf2x16(shading.mean_rg), b_area.x);
        bool untinted = (submesh_props[s] & THRONG_DRAW_UNTINTED) != 0u || shading.look != 0u;
        albedo += b_area.y * mean * (untinted ? vec3(1.0) : tint.rgb) * lookFlatColor(shading.look, key);
        weight += b_area.y;
    }
    SplatView view = splatView(model, memberDirection(q, raster.eye.xyz - center));
    albedo = (weight > 0.0 ? albedo / weight : vec3(1.0)) * view.shown;
    vec3 toward_light = -raster.light_direction.xyz;
    float diffuse = splatDiffuse(view, memberDirection(q, toward_light));
#ifdef THRONG_SHADOWS
    if (diffuse > 0.0) {
        vec3 side = center + normalize(toward_light) * sm.center.w * abs(inst.position_scale.w);
        diffuse *= shadowLight(side, normalize(toward_light), raster.light_direction.xyz, raster.frame_slot);
    }
#endif
    return albedo * (raster.light_direction.w + (1.0 - raster.light_direction.w) * diffuse);
}

// Motion vectors (RasterParams::velocity): pixel `pixel`'s motion from the last frame, whose
// surface point was at world position `then` (the same point of the member's last record at the
// last frame's time): its pixel centre `c` minus where the last frame's camera saw `then`. None
// (0) where the last frame saw it behind the camera.
void writeVelocity(uint pixel, vec2 c, vec3 then) {
    velocity[pixel] = packHalf2x16(velocityFrom(c, raster.previous_view_projection * vec4(then, 1.0), raster.viewport));
}

// The screen-space barycentrics at pixel point `c` of the triangle at screen points `s` (twice
// its signed area `area`), extended past its edges: the plane's, wherever `c` is.
vec3 screenBarycentrics(vec2 c, vec2 s[3], float area) {
    return vec3((s[2].x - s[1].x) * (c.y - s[1].y) - (s[2].y - s[1].y) * (c.x - s[1].x),
                (s[0].x - s[2].x) * (c.y - s[2].y) - (s[0].y - s[2].y) * (c.x - s[2].x),
                (s[1].x - s[0].x) * (c.y - s[0].y) - (s[1].y - s[0].y) * (c.x - s[0].x)) / area;
}

// The same, perspective-correct: the vertices' 1 / w `inv_w`.
vec3 perspectiveBarycentrics(vec2 c, vec2 s[3], float area, vec3 inv_w) {
    vec3 pb = screenBarycentrics(c, s, area) * inv_w;
    return pb / (pb.x + pb.y + pb.z);
}

void main() {
    ivec2 px = ivec2(gl_GlobalInvocationID.xy);
    if (px.x >= int(raster.viewport.x) || px.y >= int(raster.viewport.y)) return;
    uint pixel = uint(px.y) * uint(raster.viewport.x) + uint(px.x);
    uvec2 v = visibility[pixel]; // (low word, high word)
    if (v.x == 0xffffffffu && v.y == 0xffffffffu) return;
    uint member = (v.x >> 16) | ((v.y & 0xffu) << 16);
    InstanceRecord inst = instances[member];
    if ((v.x & 0xffffu) == THRONG_SPLAT_TRIANGLE) {
#if !defined(THRONG_RESOLVE_CACHED) && !defined(THRONG_SKIN_COARSE)
        if (push.untextured == 0u) return; // the first texture's dispatch shades splats
        // The depth key's 24 bits back to a depth (raster_splat.comp wrote the centre's).
        float depth = uintBitsToFloat((0xffffffu - (v.y >> 8)) << 8);
        resolved[pixel] = uvec4(floatBitsToUint(splatColor(member, inst)), floatBitsToUint(depth));
        if (raster.velocity != 0u) {
            // The centre's motion at the pixel: where the centre is now, minus where it was.
            vec4 now = raster.view_projection * vec4(splatCenter(inst), 1.0);
            vec2 c = (now.xy / now.w * 0.5 + 0.5) * raster.viewport;
            writeVelocity(pixel, c, splatCenter(previous_instances[member]));
        }
        listTile();
#endif
        return;
    }
    uint model = rasterModelOf(inst);
    uint triangle = raster_models[model].first_triangle + (v.x & 0xffffu); // the model's triangle in the chain
    uvec4 tri = resolve_triangles[triangle];
    SubmeshShading shading = submesh_shading[tri.w];
    bool textured = shading.texture != THRONG_NO_TEXTURE;
    if (textured ? shading.texture != push.texture : push.untextured == 0u) return; // another texture's dispatch
    uint lod = lodOfTriangle(model, triangle);
    vec4 q = instanceOrientation(inst);
    uint slot = cachedSlot(member, lod, model);
#ifdef THRONG_RESOLVE_CACHED
    // With motion vectors the technique's own variant shades the cached members too: their last
    // frame's pose needs skinning, which this variant has none of (the plan dispatches it then).
    if (slot == ~0u || raster.velocity != 0u) return;
    RasterRegion region = regions[regionIndex(lod, model)];
    uvec4 at = region.cache_vertex + slot * region.vertices + triangle_slots[triangle];
#elif defined(THRONG_SKIN_COARSE)
    if (!modelCoarse(model, lod)) return;
#else
    if ((slot != ~0u && raster.velocity == 0u) || modelCoarse(model, lod)) return;
#endif
    vec2 s[3];
    float z[3];
    vec3 inv_w;
    vec3 n[3], world[3];
    vec4 color[3];
    vec2 uv[3];
    for (int k = 0; k < 3; ++k) {
        vec3 p;
#ifdef THRONG_RESOLVE_CACHED
        p = decodeCachedPosition(model, vertex_cache[at[k]]);
        n[k] = decodeCachedNormal(cache_normals[at[k]]);
        uint b = tri[k] * THRONG_VERTEX_WORDS;
        color[k] = unpackUnorm4x8(vertex_words[b + 8u]);
        uv[k] = uintBitsToFloat(uvec2(vertex_words[b + 6u], vertex_words[b + 7u]));
#else
        MeshVertex vtx = fetchVertex(tri[k]);
        skinVertex(member, inst, tri[k], vtx, lod, p, n[k]);
        color[k] = vtx.color;
        uv[k] = vtx.uv;
#endif
        world[k] = placeMember(inst, p);
        vec4 clip = raster.view_projection * vec4(world[k], 1.0);
        s[k] = (clip.xy / clip.w * 0.5 + 0.5) * raster.viewport;
        z[k] = clip.z / clip.w;
        inv_w[k] = 1.0 / clip.w;
        n[k] = rotateByQuaternion(q, n[k]);
    }
    vec2 c = vec2(px) + 0.5;
    float area = (s[1].x - s[0].x) * (s[2].y - s[0].y) - (s[1].y - s[0].y) * (s[2].x - s[0].x);
    if (area == 0.0) return;
    vec3 pb = perspectiveBarycentrics(c, s, area, inv_w);
    vec3 normal = normalize(pb.x * n[0] + pb.y * n[1] + pb.z * n[2]);
    // Vulkan's facing: counter-clockwise in framebuffer coordinates (y down) is front, which is
    // a negative `area` here.
    if (area > 0.0) normal = -normal;
    // A prop keeps its own colours (member.glsl): the member's tint is the member's.
    // A look colours its submesh instead of the tint (member.glsl).
    bool untinted = (submesh_props[tri.w] & THRONG_DRAW_UNTINTED) != 0u || shading.look != 0u;
    vec4 tint = untinted ? vec4(1.0) : unpackUnorm4x8(inst.color);
    uint key = inst.key != 0u ? inst.key : member;
    vec4 albedo = (pb.x * color[0] + pb.y * color[1] + pb.z * color[2]) * tint * shading.base_color *
                  vec4(lookColor(shading.look, key), 1.0);
    if (textured) {
        vec2 at_uv = pb.x * uv[0] + pb.y * uv[1] + pb.z * uv[2];
        vec3 right = perspectiveBarycentrics(c + vec2(1.0, 0.0), s, area, inv_w);
        vec3 down = perspectiveBarycentrics(c + vec2(0.0, 1.0), s, area, inv_w);
        vec2 dx = right.x * uv[0] + right.y * uv[1] + right.z * uv[2] - at_uv;
        vec2 dy = down.x * uv[0] + down.y * uv[1] + down.z * uv[2] - at_uv;
        albedo *= textureGrad(base_texture, vec3(at_uv, float(lookLayer(shading.look, key))), dx, dy);
    }
    float diffuse = max(dot(normal, -raster.light_direction.xyz), 0.0);
#ifdef THRONG_SHADOWS
    if (diffuse > 0.0) {
        vec3 at_world = pb.x * world[0] + pb.y * world[1] + pb.z * world[2];
        diffuse *= shadowLight(at_world, normal, raster.light_direction.xyz, raster.frame_slot);
    }
#endif
    float light = raster.light_direction.w + (1.0 - raster.light_direction.w) * diffuse;
    vec3 b = screenBarycentrics(c, s, area); // depth is linear in screen space
    float depth = clamp(b.x * z[0] + b.y * z[1] + b.z * z[2], 0.0, 1.0);
    resolved[pixel] = uvec4(floatBitsToUint(albedo.rgb * light), floatBitsToUint(depth));
#ifndef THRONG_RESOLVE_CACHED
    if (raster.velocity != 0u) { // the same point of the triangle, skinned and placed as last frame
        InstanceRecord before = previous_instances[member];
        vec3 then = vec3(0.0);
        for (int k = 0; k < 3; ++k) {
            then += pb[k] * placeMember(before, skinVertexThen(member, before, tri[k], fetchVertex(tri[k]), lod));
        }
        writeVelocity(pixel, c, then);
    }
#endif
    listTile();
}
