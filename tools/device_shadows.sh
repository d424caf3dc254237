#!/usr/bin/env bash
# The NVIDIA H200 run of shadows (issue #13, part 1): what the `shadow-cull`, `shadow` and
# `ground` passes cost at 1920x1080 against the same crowd without shadows, for the walker at
# full detail (10,000 and 100,000), in the overview with LOD (100,000), and a million simulated,
# plus shadow_test under the validation layer and a picture.
# Prepare: a release build of throng and shadow_test, then
#   ../shared/tools/device-prep.sh build/release/throng build/release/tests/shadow_test
#   mkdir -p .device/layers && cp /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so \
#     /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json .device/layers/
#   sed -i 's#"library_path": "lib#"library_path": "./lib#' .device/layers/VkLayer_khronos_validation.json
# and a device `run` carrying .device whose command is the loader line device-prep.sh prints
# followed by `bash tools/device_shadows.sh`. Results land in $OUT.
source "$(dirname "$0")/device_common.sh"
VK_LAYER_PATH=$PWD/.device/layers .device/bin/shadow_test >"$out/shadow_test.log" 2>&1
echo "shadow_test rc=$?" | tee -a "$out/shadow_test.log"
for shadows in off on; do
  run full-$shadows --model builtin:walker --techniques baked,static --instances 10000,100000 --lod off --size 1920x1080 --frames 10 --warmup 3 --shadows $shadows
  run overview-$shadows --model builtin:walker --techniques baked --instances 100000,1000000 --simulate --size 1920x1080 --frames 10 --warmup 3 --shadows $shadows
done
"$throng" render builtin:walker --instances 2000 --simulate --time 4 --shadows on --size 1920x1080 -o "$out/shadows.png" 2>&1 | tee -a "$out/bench.log"
