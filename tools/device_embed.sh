#!/usr/bin/env bash
# The NVIDIA H200 run of the render API (issue #12): the embedding tests and examples/embed_vulkan
# on the real driver with the validation layer on, and a regression check of `throng bench`
# (which now renders through throng/headless.h) against run 5 of docs/BENCHMARKS.md.
# Prepare: a release build of throng, embed_test and the example, then
#   ../shared/tools/device-prep.sh build/release/throng build/release/tests/embed_test build/embed/embed_vulkan
#   mkdir -p .device/layers && cp /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so \
#     /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json .device/layers/
#   sed -i 's#"library_path": "lib#"library_path": "./lib#' .device/layers/VkLayer_khronos_validation.json
#   .device/bin/throng bake builtin:walker -o .device/walker.throng   (here, on lavapipe)
# and a device `run` carrying .device whose command is the loader line device-prep.sh prints
# followed by `bash tools/device_embed.sh`. Results land in $OUT.
source "$(dirname "$0")/device_common.sh"
export VK_LAYER_PATH=$PWD/.device/layers
.device/bin/embed_test >"$out/embed_test.log" 2>&1; echo "embed_test rc=$?" | tee -a "$out/embed_test.log"
VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation .device/bin/embed_vulkan .device/walker.throng "$out/embed.png" \
  >"$out/embed_vulkan.log" 2>&1
echo "embed_vulkan rc=$?" | tee -a "$out/embed_vulkan.log"
unset VK_LAYER_PATH
[ "${EMBED_ONLY:-0}" = 1 ] && exit 0
bench_run() { local name=$1; shift; run "$name" --size 1920x1080 "$@"; }
# Run 5's configurations, now through the public headless API.
bench_run full-compute --model builtin:walker --techniques baked,static --instances 10000,100000 --lod off --raster compute --frames 10 --warmup 3
bench_run overview-compute --model builtin:walker --techniques baked,static --instances 1000000 --simulate --raster compute --frames 10 --warmup 3
