#!/usr/bin/env bash
# The NVIDIA H200 runs of issue #25 (mixed crowds, docs/MIXED_CROWDS.md) so far: a million members
# of one model against a million of four (the built-in walker, strider, waver and fish, equal
# shares), still through the hardware (the compute rasterizer takes one model so far), standing
# and simulated; and one model through the compute rasterizer, whose culling pass now reads each
# member's model (the check that one model lost nothing against docs/BENCHMARKS.md's run 7).
# Prepare as tools/device_bench.sh says, carrying build/release/throng; then a device `run`
# carrying .device whose command is the loader line device-prep.sh prints followed by
# `bash tools/device_mixed.sh`.
source "$(dirname "$0")/device_common.sh"
bench_run() { local name=$1; shift; run "$name" --size 1920x1080 --frames 10 --warmup 3 "$@"; }
four="builtin:walker builtin:strider builtin:waver builtin:fish"

bench_run one-hardware --techniques baked --raster hardware --instances 1000000
bench_run four-hardware $four --techniques baked --raster hardware --instances 1000000
bench_run one-hardware-sim --techniques baked --raster hardware --instances 1000000 --simulate
bench_run four-hardware-sim $four --techniques baked --raster hardware --instances 1000000 --simulate
bench_run one-compute --techniques baked,static --instances 1000000 --simulate --raster compute
(cd "$out" && tar czf mixed_json.tgz *.json && rm -f *.json)
