#!/usr/bin/env bash
# The NVIDIA H200 run of technique pose (issue #13, part 5: layers and exact cross-fades):
# pose_test under the validation layer, and what the pose pass costs against baked: the waver
# at full detail (--lod off; 10,000 and 100,000) and in the overview with LOD (100,000 and a
# million), with and without a layer, 1920x1080; pose@dq against baked@dq; a picture with shadows
# (the pose pass runs before the shadow pass) and the street-view picture.
# Prepare as tools/device_shadows.sh says, with build/release/throng and
# build/release/tests/pose_test, the command being the loader line, then `bash tools/device_pose.sh`.
source "$(dirname "$0")/device_common.sh"
VK_LAYER_PATH=$PWD/.device/layers .device/bin/pose_test --gtest_filter='PoseLayerText.*:PoseGpu.*' \
  >"$out/pose_test.log" 2>&1
echo "pose_test rc=$?" | tee -a "$out/pose_test.log"
run full --model builtin:waver --techniques baked,pose --instances 10000,100000 --lod off --size 1920x1080 \
  --frames 10 --warmup 3
run full-layer --model builtin:waver --techniques pose --layer wave@shoulder_r@50% --instances 10000,100000 --lod off \
  --size 1920x1080 --frames 10 --warmup 3
run overview --model builtin:waver --techniques baked,pose --instances 100000,1000000 --size 1920x1080 --frames 10 \
  --warmup 3
run overview-layer --model builtin:waver --techniques pose --layer wave@shoulder_r@50% --instances 100000,1000000 \
  --size 1920x1080 --frames 10 --warmup 3
run dq --model builtin:waver --techniques baked@dq,pose,pose@dq --instances 10000 --lod off --size 1920x1080 \
  --frames 10 --warmup 3
"$throng" render --model builtin:waver --technique pose --layer wave@shoulder_r@50% --shadows on --instances 100000 \
  --size 1920x1080 -o "$out/wave-shadows.png" 2>&1 | tee -a "$out/bench.log"
"$throng" render --model builtin:waver --technique pose --layer wave@shoulder_r@60% --view street --instances 10000 \
  --size 1920x1080 -o "$out/wave-street.png" 2>&1 | tee -a "$out/bench.log"
