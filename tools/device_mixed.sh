#!/usr/bin/env bash
# The NVIDIA H200 runs of issue #25 (mixed crowds, docs/MIXED_CROWDS.md): a million members of
# one model against a million of four and of five (the built-in walker, strider, waver, fish and
# twist, equal shares) and of ten (those and the five shared models, each scaled to 1.8 units:
# --model-size), simulated and standing, through the compute rasterizer (one visibility buffer for
# every model) in the overview and through auto in the street view; one model's compute run is
# also the check against docs/BENCHMARKS.md's run 7 that planning per (model, LOD) cost one model
# nothing (the hardware alone is in docs/BENCHMARKS.md); and a kit's 100,000 members against the
# walker's in the street view.
# Prepare as tools/device_bench.sh says, carrying build/release/throng; then a device `run`
# carrying .device whose command is the loader line device-prep.sh prints followed by
# `bash tools/device_mixed.sh`.
source "$(dirname "$0")/device_common.sh"
bench_run() { local name=$1; shift; run "$name" --size 1920x1080 --frames 10 --warmup 3 "$@"; }
four="builtin:walker builtin:strider builtin:waver builtin:fish"
five="$four builtin:twist"
sim="--techniques baked --instances 1000000 --simulate"

d=.device/assets # the shared models, copied there by hand (device_bench.sh's pattern)
ten="$five $d/CesiumMan.glb $d/Fox.glb $d/RobotExpressive.glb $d/RiggedSimple.glb $d/animation_with_skeleton.fbx"

# `bash tools/device_mixed.sh kit`: the kit's runs alone (builtin:kit with its looks against the
# walker, street view, occlusion culling on and off; the walker in texture variants,
# examples/looks/, likewise).
if [ "${1:-}" = kit ]; then
    for occ in on off; do
        bench_run walker-street-occlusion-$occ --techniques baked --instances 100000 --view street --occlusion $occ
        bench_run kit-street-occlusion-$occ builtin:kit --techniques baked --instances 100000 --view street --occlusion $occ
        bench_run patterns-street-occlusion-$occ examples/looks/walker-patterns.json --techniques baked --instances 100000 --view street --occlusion $occ
    done
    bench_run walker-overview --techniques baked --instances 1000000 --raster compute
    bench_run kit-overview builtin:kit --techniques baked --instances 1000000 --raster compute
    (cd "$out" && tar czf mixed_json.tgz *.json && rm -f *.json)
    exit 0
fi

bench_run one-compute-standing --techniques baked --instances 1000000 --raster compute
bench_run ten-compute-standing $ten --model-size 1.8 --techniques baked --instances 1000000 --raster compute
bench_run one-compute $sim --raster compute
bench_run four-compute $four $sim --raster compute
bench_run five-compute $five $sim --raster compute
bench_run ten-compute $ten --model-size 1.8 $sim --raster compute
bench_run one-auto-street $sim --raster auto --view street
bench_run four-auto-street $four $sim --raster auto --view street
bench_run ten-auto-street $ten --model-size 1.8 $sim --raster auto --view street
# A kit (builtin:kit: 4 slots of 4 parts) against the plain walker, 100,000 in the street view.
bench_run walker-street --techniques baked --instances 100000 --view street
bench_run kit-street builtin:kit --techniques baked --instances 100000 --view street
(cd "$out" && tar czf mixed_json.tgz *.json && rm -f *.json)
