#!/usr/bin/env bash
# The NVIDIA H200 run of root motion and events (issue #13, parts 3 and 4): the simulation moving
# members by their clips' curves bit for bit like the CPU (sim_test), the render API's events
# under the validation layer (embed_test), and what the curve costs the `simulate` pass: a
# million striders baked with root motion against the same clip baked as it is (1920x1080,
# overview, baked).
# Prepare as tools/device_shadows.sh says, with build/release/tests/sim_test and embed_test, and
#   build/release/throng bake builtin:strider --root-motion auto --events auto -o .device/assets/strider_rm.throng
#   build/release/throng bake builtin:strider --events auto -o .device/assets/strider.throng
# the command being the loader line, then `bash tools/device_motion_events.sh`.
source "$(dirname "$0")/device_common.sh"
VK_LAYER_PATH=$PWD/.device/layers .device/bin/sim_test --gtest_filter='Sim.*OnGpu*' >"$out/sim_test.log" 2>&1
echo "sim_test rc=$?" | tee -a "$out/sim_test.log"
VK_LAYER_PATH=$PWD/.device/layers .device/bin/embed_test --gtest_filter='Embed.MembersEvents*' >"$out/embed_test.log" 2>&1
echo "embed_test rc=$?" | tee -a "$out/embed_test.log"
for n in 100000 1000000; do
  run "strider-$n" --model .device/assets/strider.throng --techniques baked --instances $n --simulate --frames 20 --warmup 5 --size 1920x1080
  run "strider-rm-$n" --model .device/assets/strider_rm.throng --techniques baked --instances $n --simulate --frames 20 --warmup 5 --size 1920x1080
done
