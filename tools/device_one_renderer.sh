#!/usr/bin/env bash
# The NVIDIA H200 runs of issue #24 (one renderer, one fast path; docs/ONE_RENDERER.md): each
# target of its part 5 with the compute rasterizer and, in the same run, through the hardware,
# so the gain stays measured. Prepare as tools/device_bench.sh says (build/release/throng and
# build/release/tests/raster_test carried, with the shared models), then a device `run` carrying
# .device whose command is the loader line device-prep.sh prints followed by
# `bash tools/device_one_renderer.sh`. JSON reports, gpu.txt and bench.log land in $OUT.
# Not run yet: no GPU was lent in the session that wrote it (2026-12-04).
source "$(dirname "$0")/device_common.sh"
VK_LAYER_PATH=$PWD/.device/layers .device/bin/raster_test >"$out/raster_test.log" 2>&1
echo "raster_test rc=$?" | tee -a "$out/raster_test.log"
bench_run() { local name=$1; shift; run "$name" --size 1920x1080 --frames 10 --warmup 3 "$@"; }

# pose, a million walkers in the overview, a layer on half of them (target 5 ms; 18.7 today).
bench_run pose-layer --model builtin:waver --techniques pose --layer wave@shoulder_r@50% --instances 1000000 \
  --raster compute
bench_run pose-layer-hardware --model builtin:waver --techniques pose --layer wave@shoulder_r@50% \
  --instances 1000000
# Every technique that animates on the GPU, a million members in the overview (within 1.5x of baked).
bench_run gpu-techniques --model builtin:walker --techniques baked,pose,static --instances 1000000 --simulate \
  --raster compute
# A million simulated walkers in the street view with shadows (target 8 ms; 26.2 today).
bench_run street-shadows --model builtin:walker --techniques baked --instances 1000000 --simulate --view street \
  --shadows on --raster auto
bench_run street-shadows-hardware --model builtin:walker --techniques baked --instances 1000000 --simulate \
  --view street --shadows on
# Full detail: 10,000 baked walkers (2 ms) and CesiumMan at 100,000 (10 ms), pose beside baked.
bench_run full --model builtin:walker --techniques baked,pose --instances 10000,100000 --lod off --raster compute
bench_run cesium-full --model "$cesium" --techniques baked,pose --instances 100000 --lod off --raster compute
