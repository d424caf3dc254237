#!/usr/bin/env bash
# The NVIDIA H200 runs of the compute rasterizer (issue #11; docs/BENCHMARKS.md, "The compute
# rasterizer"), through the `device` tool. Prepare as tools/device_bench.sh says, then a device
# `run` carrying .device whose command is the loader line device-prep.sh prints followed by
# `bash tools/device_raster.sh`. JSON reports, gpu.txt and bench.log land in $OUT.
# Run 5 (the cache pass fused, normals cached, the resolve reading the cache): every target of
# the issue with the compute rasterizer and, in the same run, through the hardware.
source "$(dirname "$0")/device_common.sh"
bench_run() { local name=$1; shift; run "$name" --size 1920x1080 "$@"; }

# Full detail: 10,000 (2 ms) and 100,000 (16.7 ms) walkers, every triangle.
bench_run full-compute --model builtin:walker --techniques baked,static --instances 10000,100000 --lod off --raster compute --frames 10 --warmup 3
bench_run full-hardware --model builtin:walker --techniques baked,static --instances 10000,100000 --lod off --frames 3 --warmup 1
bench_run cesium-full-compute --model "$cesium" --techniques baked --instances 10000,100000 --lod off --raster compute --frames 10 --warmup 3
# The overview target: a million simulated walkers, LOD on (16.7 ms; stretch 8 ms).
bench_run overview-compute --model builtin:walker --techniques baked,static --instances 1000000 --simulate --raster compute --frames 10 --warmup 3
bench_run overview-hardware --model builtin:walker --techniques baked,static --instances 1000000 --simulate --frames 10 --warmup 3
# The street view of a million simulated walkers, split by size (auto).
bench_run street-auto --model builtin:walker --techniques baked --instances 1000000 --simulate --view street --raster auto --frames 10 --warmup 3
