#!/usr/bin/env bash
# The NVIDIA H200 runs of the compute rasterizer (issue #11; docs/BENCHMARKS.md, "The compute
# rasterizer"), through the `device` tool. Prepare as tools/device_bench.sh says, then a device
# `run` carrying .device whose command is the loader line device-prep.sh prints followed by
# `bash tools/device_raster.sh`. Six JSON reports, gpu.txt and bench.log land in $OUT.
# Run 2 (the vertex cache): full detail with the cache (auto size) and without (--vertex-cache 0).
source "$(dirname "$0")/device_common.sh"
bench_run() { local name=$1; shift; run "$name" --size 1920x1080 "$@"; }

# Full detail: 10,000 (2 ms) and 100,000 (16.7 ms) walkers, every triangle.
bench_run full-compute --model builtin:walker --techniques baked,static --instances 10000,100000 --lod off --raster compute --frames 10 --warmup 3
bench_run full-nocache --model builtin:walker --techniques baked --instances 10000,100000 --lod off --raster compute --vertex-cache 0 --frames 10 --warmup 3
bench_run full-hardware --model builtin:walker --techniques baked,static --instances 10000,100000 --lod off --frames 5 --warmup 2
# The overview target: a million simulated walkers, LOD on (16.7 ms; stretch 8 ms).
bench_run overview-compute --model builtin:walker --techniques baked,static --instances 100000,1000000 --simulate --raster compute --frames 10 --warmup 3
bench_run overview-hardware --model builtin:walker --techniques baked,static --instances 100000,1000000 --simulate --frames 10 --warmup 3
# Animated impostors for members under 8 pixels, through the hardware rasterizer: the overview at a million.
bench_run overview-impostors --model builtin:walker --techniques baked,static --instances 100000,1000000 --simulate --impostors 8 --frames 10 --warmup 3
