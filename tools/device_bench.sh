#!/usr/bin/env bash
# The NVIDIA H200 runs of docs/BENCHMARKS.md, run through the `device` tool. Here:
#   make release && ../shared/tools/device-prep.sh build/release/throng
#   mkdir -p .device/assets && cp ../shared/assets/CesiumMan/CesiumMan.glb .device/assets/
# then a device `run` carrying .device whose command is the loader line device-prep.sh prints
# followed by `bash tools/device_bench.sh`. One JSON report per run, gpu.txt and bench.log land
# in $OUT (the device tool returns at most 8 files).
source "$(dirname "$0")/device_common.sh"

# Techniques the first H200 tables lacked, at every size, and cpu at 100k now drawn in batches.
run walker-more --model builtin:walker --techniques palette-ubo,vat --instances 1000,10000,100000 --frames 5 --warmup 2
run cesium-more --model "$cesium" --techniques palette-ubo,vat --instances 1000,10000,100000 --frames 5 --warmup 2
run walker-cpu100k --model builtin:walker --techniques cpu --instances 100000 --frames 3 --warmup 1
# One million members for the techniques the CPU feeds.
run walker-1m --model builtin:walker --techniques cpu,palette,palette-ubo,bonetex --instances 1000000 --frames 2 --warmup 1
run cesium-1m --model "$cesium" --techniques cpu,palette,palette-ubo,bonetex --instances 1000000 --frames 2 --warmup 1
