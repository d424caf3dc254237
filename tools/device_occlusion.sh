#!/usr/bin/env bash
# The NVIDIA H200 runs of occlusion culling (issue #10; docs/BENCHMARKS.md, "Occlusion
# culling"), through the `device` tool. Prepare as tools/device_bench.sh says, then a device
# `run` carrying .device whose command is the loader line device-prep.sh prints followed by
# `bash tools/device_occlusion.sh`. Six JSON reports (the 8-file limit), gpu.txt and bench.log land in $OUT.
source "$(dirname "$0")/device_common.sh"
bench_run() { local name=$1; shift; run "$name" --size 1920x1080 "$@"; }

# The target: a million simulated walkers in the street view; occlusion culling and coarse
# skinning on (the defaults), then each off.
bench_run street-sim --model builtin:walker --techniques baked,static --instances 100000,1000000 --view street --simulate --frames 20 --warmup 5
bench_run street-sim-no-occlusion --model builtin:walker --techniques baked,static --instances 1000000 --view street --simulate --occlusion off --frames 20 --warmup 5
bench_run street-sim-full-skinning --model builtin:walker --techniques baked --instances 1000000 --view street --simulate --coarse-skinning off --frames 20 --warmup 5
# Standing crowds, and CesiumMan.
bench_run cesium-street --model "$cesium" --techniques baked --instances 1000000 --view street --frames 10 --warmup 3
# The overview hides little: what the extra passes cost there.
bench_run overview --model builtin:walker --techniques baked,static --instances 100000,1000000 --frames 10 --warmup 3
# No regression: culling off gives today's numbers (78.5 ms for 10,000 walkers, baked).
bench_run off --model builtin:walker --techniques baked,static --instances 10000 --cull off --lod off --frames 10 --warmup 3
