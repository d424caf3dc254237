#!/usr/bin/env bash
# The NVIDIA H200 run of attachments (issue #13, part 2): attach_test under the validation layer,
# and what a sword in every right hand and a hat on half the heads cost at 1920x1080 against the
# same crowd without them (street view 10,000; a million simulated in the overview), with shadows.
# Prepare as tools/device_shadows.sh says, with build/release/tests/attach_test instead of
# shadow_test; the command is the loader line, then `bash tools/device_attach.sh`.
source "$(dirname "$0")/device_common.sh"
VK_LAYER_PATH=$PWD/.device/layers .device/bin/attach_test --gtest_filter='AttachGpu.*' >"$out/attach_test.log" 2>&1
echo "attach_test rc=$?" | tee -a "$out/attach_test.log"
props=(--attach hand_r=builtin:sword --attach 'head=builtin:hat,0,0.2,0@50%')
run street-plain --model builtin:walker --techniques baked,palette --instances 10000 --view street --frames 10 --warmup 3 --size 1920x1080 --shadows on
run street-props --model builtin:walker --techniques baked,palette --instances 10000 --view street --frames 10 --warmup 3 --size 1920x1080 --shadows on "${props[@]}"
run overview-plain --model builtin:walker --techniques baked --instances 1000000 --simulate --frames 10 --warmup 3 --size 1920x1080
run overview-props --model builtin:walker --techniques baked --instances 1000000 --simulate --frames 10 --warmup 3 --size 1920x1080 "${props[@]}"
"$throng" render builtin:walker --instances 3000 --view street --time 2 --shadows on "${props[@]}" --size 1920x1080 \
  -o "$out/attachments.png" 2>&1 | tail -1
