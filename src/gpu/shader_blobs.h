// SPIR-V of every shader in src/shaders, compiled by CMake (glslc) and embedded at build time.
#pragma once

#include <cstdint>
#include <span>

namespace throng::gpu::shaders {
extern const std::span<const uint32_t> baked_vert_spv;
extern const std::span<const uint32_t> static_vert_spv;
extern const std::span<const uint32_t> procedural_vert_spv;
extern const std::span<const uint32_t> palette_vert_spv;
extern const std::span<const uint32_t> palette_ubo_vert_spv;
extern const std::span<const uint32_t> bonetex_vert_spv;
extern const std::span<const uint32_t> cpu_vert_spv;
extern const std::span<const uint32_t> lit_frag_spv;
// Shadows (src/render/shadows.h).
extern const std::span<const uint32_t> lit_shadowed_frag_spv;
extern const std::span<const uint32_t> ground_vert_spv;
extern const std::span<const uint32_t> ground_frag_spv;
extern const std::span<const uint32_t> skin_check_comp_spv;
extern const std::span<const uint32_t> vat_vert_spv;
extern const std::span<const uint32_t> vat_check_comp_spv;
extern const std::span<const uint32_t> cull_comp_spv;
extern const std::span<const uint32_t> cull_late_comp_spv;
// Culling with its counts taken per subgroup (cull_common.glsl: THRONG_CULL_SUBGROUPS).
extern const std::span<const uint32_t> cull_subgroups_comp_spv;
extern const std::span<const uint32_t> cull_late_subgroups_comp_spv;
extern const std::span<const uint32_t> draws_comp_spv;
extern const std::span<const uint32_t> pyramid_comp_spv;
extern const std::span<const uint32_t> pyramid_visibility_comp_spv;
extern const std::span<const uint32_t> pyramid_visibility_merge_comp_spv;
// The compute rasterizer (src/render/compute_raster.h).
extern const std::span<const uint32_t> raster_baked_comp_spv;
extern const std::span<const uint32_t> raster_cached_comp_spv;
extern const std::span<const uint32_t> raster_coarse_comp_spv;
extern const std::span<const uint32_t> raster_static_comp_spv;
extern const std::span<const uint32_t> raster_plan_comp_spv;
extern const std::span<const uint32_t> raster_splat_comp_spv;
extern const std::span<const uint32_t> raster_cache_comp_spv;
extern const std::span<const uint32_t> raster_palette_comp_spv;
extern const std::span<const uint32_t> raster_cache_palette_comp_spv;
extern const std::span<const uint32_t> raster_vat_comp_spv;
extern const std::span<const uint32_t> raster_cache_vat_comp_spv;
extern const std::span<const uint32_t> raster_procedural_comp_spv;
extern const std::span<const uint32_t> raster_cache_procedural_comp_spv;
extern const std::span<const uint32_t> raster_vertices_comp_spv;
extern const std::span<const uint32_t> raster_cache_vertices_comp_spv;
extern const std::span<const uint32_t> impostor_vert_spv;
extern const std::span<const uint32_t> impostor_frag_spv;
extern const std::span<const uint32_t> bandwidth_comp_spv;
extern const std::span<const uint32_t> composite_vert_spv;
extern const std::span<const uint32_t> composite_frag_spv;
extern const std::span<const uint32_t> composite_velocity_frag_spv; // with motion vectors (-DTHRONG_VELOCITY)
extern const std::span<const uint32_t> resolve_baked_comp_spv;
extern const std::span<const uint32_t> resolve_cached_comp_spv;
extern const std::span<const uint32_t> resolve_coarse_comp_spv;
extern const std::span<const uint32_t> resolve_static_comp_spv;
extern const std::span<const uint32_t> resolve_palette_comp_spv;
extern const std::span<const uint32_t> resolve_vat_comp_spv;
extern const std::span<const uint32_t> resolve_procedural_comp_spv;
extern const std::span<const uint32_t> resolve_vertices_comp_spv;
// The shadow pass's depth-only rasterizers (raster_body.glsl: THRONG_RASTER_DEPTH).
extern const std::span<const uint32_t> raster_baked_depth_comp_spv;
extern const std::span<const uint32_t> raster_palette_depth_comp_spv;
extern const std::span<const uint32_t> raster_vat_depth_comp_spv;
extern const std::span<const uint32_t> raster_procedural_depth_comp_spv;
extern const std::span<const uint32_t> raster_vertices_depth_comp_spv;
extern const std::span<const uint32_t> raster_static_depth_comp_spv;
// The resolve variants that receive shadows (THRONG_SHADOWS; CMakeLists.txt builds one per resolve_*.comp).
extern const std::span<const uint32_t> resolve_baked_shadowed_comp_spv;
extern const std::span<const uint32_t> resolve_cached_shadowed_comp_spv;
extern const std::span<const uint32_t> resolve_coarse_shadowed_comp_spv;
extern const std::span<const uint32_t> resolve_static_shadowed_comp_spv;
extern const std::span<const uint32_t> resolve_palette_shadowed_comp_spv;
extern const std::span<const uint32_t> resolve_vat_shadowed_comp_spv;
extern const std::span<const uint32_t> resolve_procedural_shadowed_comp_spv;
extern const std::span<const uint32_t> resolve_vertices_shadowed_comp_spv;
// The crowd simulation (src/sim/gpu_sim.h).
extern const std::span<const uint32_t> sim_cells_comp_spv;
extern const std::span<const uint32_t> sim_scan_comp_spv;
extern const std::span<const uint32_t> sim_scatter_comp_spv;
extern const std::span<const uint32_t> sim_step_comp_spv;
extern const std::span<const uint32_t> pose_comp_spv;
extern const std::span<const uint32_t> pose_nodes_comp_spv;
// Capture variants of the vertex shaders (tests: instance.glsl, captureWorld).
extern const std::span<const uint32_t> baked_capture_vert_spv;
extern const std::span<const uint32_t> static_capture_vert_spv;
extern const std::span<const uint32_t> procedural_capture_vert_spv;
extern const std::span<const uint32_t> palette_capture_vert_spv;
extern const std::span<const uint32_t> palette_ubo_capture_vert_spv;
extern const std::span<const uint32_t> bonetex_capture_vert_spv;
extern const std::span<const uint32_t> cpu_capture_vert_spv;
extern const std::span<const uint32_t> vat_capture_vert_spv;
// With motion vectors (-DTHRONG_VELOCITY, motion.glsl): every shader drawing into the frame's targets.
extern const std::span<const uint32_t> baked_velocity_vert_spv;
extern const std::span<const uint32_t> static_velocity_vert_spv;
extern const std::span<const uint32_t> procedural_velocity_vert_spv;
extern const std::span<const uint32_t> palette_velocity_vert_spv;
extern const std::span<const uint32_t> palette_ubo_velocity_vert_spv;
extern const std::span<const uint32_t> bonetex_velocity_vert_spv;
extern const std::span<const uint32_t> cpu_velocity_vert_spv;
extern const std::span<const uint32_t> vat_velocity_vert_spv;
extern const std::span<const uint32_t> ground_velocity_vert_spv;
extern const std::span<const uint32_t> impostor_velocity_vert_spv;
extern const std::span<const uint32_t> lit_velocity_frag_spv;
extern const std::span<const uint32_t> lit_shadowed_velocity_frag_spv;
extern const std::span<const uint32_t> ground_velocity_frag_spv;
extern const std::span<const uint32_t> ground_unshadowed_frag_spv;
extern const std::span<const uint32_t> ground_unshadowed_velocity_frag_spv;
extern const std::span<const uint32_t> impostor_velocity_frag_spv;
// The members' history copy (src/render/history.h).
extern const std::span<const uint32_t> history_comp_spv;
// Temporal anti-aliasing of headless frames (src/render/taa.h).
extern const std::span<const uint32_t> taa_comp_spv;
extern const std::span<const uint32_t> taa_out_comp_spv;
extern const std::span<const uint32_t> clear_targets_comp_spv;
extern const std::span<const uint32_t> clear_targets_velocity_comp_spv;
} // namespace throng::gpu::shaders
