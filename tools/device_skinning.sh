#!/usr/bin/env bash
# The NVIDIA H200 run of dual-quaternion skinning (issue #13, part 7): dual_quaternion_test and
# gpu_test's capture comparison under the validation layer, and what the dual-quaternion blend
# costs the draw against linear blending: the walker at full detail (--lod off; 10,000 and
# 100,000) and in the overview with LOD (100,000 and a million), baked and palette, 1920x1080.
# Prepare as tools/device_shadows.sh says, with build/release/throng,
# build/release/tests/dual_quaternion_test and build/release/tests/gpu_test, the command being
# the loader line, then `bash tools/device_skinning.sh`.
source "$(dirname "$0")/device_common.sh"
VK_LAYER_PATH=$PWD/.device/layers .device/bin/dual_quaternion_test --gtest_filter='DualQuaternion.*:DualQuaternionGpu.*' \
  >"$out/dual_quaternion_test.log" 2>&1
echo "dual_quaternion_test rc=$?" | tee -a "$out/dual_quaternion_test.log"
VK_LAYER_PATH=$PWD/.device/layers .device/bin/gpu_test --gtest_filter='Gpu.EveryTechniquePlaces*' >"$out/gpu_test.log" 2>&1
echo "gpu_test rc=$?" | tee -a "$out/gpu_test.log"
run full --model builtin:walker --techniques baked,baked@dq,palette,palette@dq --instances 10000,100000 --lod off \
  --size 1920x1080 --frames 10 --warmup 3
run overview --model builtin:walker --techniques baked,baked@dq --instances 100000,1000000 --size 1920x1080 --frames 10 --warmup 3
"$throng" render --model builtin:twist --skinning dual-quaternion --lod off --instances 400 --time 2 --size 1920x1080 \
  -o "$out/twist-dq.png" 2>&1 | tee -a "$out/bench.log"
