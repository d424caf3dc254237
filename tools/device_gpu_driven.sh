#!/usr/bin/env bash
# The NVIDIA H200 runs of the GPU-driven crowd (issue #10; docs/BENCHMARKS.md, "Culling and
# levels of detail"), through the `device` tool. Prepare as tools/device_bench.sh says
# (device-prep.sh with a Release throng, CesiumMan in .device/assets), then a device `run`
# carrying .device whose command is the loader line device-prep.sh prints followed by
# `bash tools/device_gpu_driven.sh`. Six JSON reports, gpu.txt and bench.log land in $OUT (the
# device tool returns at most 8 files). Every run is 1920x1080.
source "$(dirname "$0")/device_common.sh"
# Every run at 1920x1080.
bench_run() { local name=$1; shift; run "$name" --size 1920x1080 "$@"; }

# The street view: a million walkers, culled and drawn at their level of detail (target 16.7 ms).
bench_run walker-street --model builtin:walker --techniques baked,vat,static --instances 10000,100000,1000000 --view street --frames 10 --warmup 3
# The overview: every member in the picture, small, at coarse levels of detail.
bench_run walker-overview --model builtin:walker --techniques baked,static --instances 10000,100000,1000000 --frames 10 --warmup 3
# No regression: culling and LOD off give today's numbers (78.5 ms for 10,000 walkers, baked).
bench_run walker-off --model builtin:walker --techniques baked,static,palette --instances 10000 --cull off --lod off --frames 10 --warmup 3
bench_run cesium-street --model "$cesium" --techniques baked --instances 100000,1000000 --view street --frames 10 --warmup 3
# Simulated: members walk (swim) on the GPU, a fixed step of 1/30 s, frames 1/60 s apart.
bench_run walker-sim --model builtin:walker --techniques baked,static --instances 100000,1000000 --view street --simulate --frames 20 --warmup 5
bench_run fish-sim --model builtin:fish --techniques procedural --instances 100000,1000000 --simulate --frames 20 --warmup 5
