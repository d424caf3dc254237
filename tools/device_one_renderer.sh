#!/usr/bin/env bash
# The NVIDIA H200 runs of issue #24 (one renderer, one fast path; docs/ONE_RENDERER.md part 5):
# each target with the compute rasterizer (the default, auto, or compute) and, in the same run,
# through the hardware, so the gain stays measured. Prepare as tools/device_bench.sh says, carrying
# build/release/throng and the tests named below, the shared models and the validation layer (as
# tools/device_shadows.sh says), then a device `run` carrying .device whose command is the loader
# line device-prep.sh prints followed by `bash tools/device_one_renderer.sh`. The JSON reports
# come back in one archive (the device tool returns at most 8 files), with gpu.txt, bench.log
# and the tests' logs.
source "$(dirname "$0")/device_common.sh"
bench_run() { local name=$1; shift; run "$name" --size 1920x1080 --frames 10 --warmup 3 "$@"; }

# A million simulated walkers in the street view with shadows (target 8 ms; 26.2 through the hardware).
bench_run street-shadows --techniques baked,baked@hardware --instances 1000000 --simulate --view street --shadows on
bench_run street-shadows-compute --techniques baked --instances 1000000 --simulate --view street --shadows on \
  --raster compute
bench_run street --techniques baked,static,baked@hardware --instances 1000000 --simulate --view street
# pose, a million walkers in the overview, a layer on half of them (target 5 ms; 18.7 through the hardware).
bench_run pose-layer --model builtin:waver --techniques pose,pose@hardware --layer wave@shoulder_r@50% \
  --instances 1000000 --raster compute
# Every technique that animates on the GPU, a million members in the overview (within 1.5x of
# baked), each in its own process: in runs 1 to 3 a series after several million-member series
# in one process ran slower in every pass (docs/ONE_RENDERER.md part 5), whatever its technique.
for t in baked pose vat static baked@dq vat@hardware; do
  bench_run "gpu-$(echo "$t" | tr @ -)" --techniques "$t" --instances 1000000 --simulate --raster compute
done
bench_run fish --model builtin:fish --techniques baked,procedural --instances 1000000 --simulate --raster compute
bench_run fish-hardware --model builtin:fish --techniques procedural@hardware --instances 1000000 --simulate
# The same crowd again and again in one process: the slowdown itself.
bench_run repeated --techniques baked,baked,baked,baked,baked,baked --instances 1000000 --simulate --raster compute
# The techniques the CPU feeds: their GPU passes against baked's, their CPU time beside.
for t in palette palette-ubo bonetex palette@hardware; do
  run "cpu-$(echo "$t" | tr @ -)" --size 1920x1080 --frames 3 --warmup 1 --techniques "$t" --instances 1000000 --raster compute
done
# Full detail: 10,000 baked walkers (2 ms) and textured CesiumMan at 100,000 (10 ms).
bench_run full --techniques baked,pose,static,baked@hardware --instances 10000,100000 --lod off --raster compute
bench_run cesium-full --model "$cesium" --techniques baked,pose --instances 10000,100000 --lod off --raster compute
# A previous build beside this one (PREVIOUS=path of its throng), on the same machine: the targets
# a change moves, so its gain is measured in one run.
if [ -n "${PREVIOUS-}" ] && [ -x "$PREVIOUS" ]; then
  current=$throng
  throng=$PREVIOUS
  bench_run previous-full --techniques baked,pose --instances 10000 --lod off --raster compute
  bench_run previous-street-shadows --techniques baked --instances 1000000 --simulate --view street --shadows on
  bench_run previous-gpu-techniques --techniques baked,pose,vat,static,baked@dq --instances 1000000 --simulate \
    --raster compute
  throng=$current
fi
(cd "$out" && tar czf one_renderer_json.tgz *.json && rm -f *.json)
# The GPU tests under validation, last (the bench's reports are safe if one runs long).
for t in ${TESTS-frame_sync_test raster_test shading_test shadow_test cull_test}; do
  [ -x .device/bin/$t ] || continue
  VK_LAYER_PATH=$PWD/.device/layers timeout 120 .device/bin/$t >"$out/$t.log" 2>&1
  echo "$t rc=$?" | tee -a "$out/$t.log"
done
