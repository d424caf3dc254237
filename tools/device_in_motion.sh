#!/usr/bin/env bash
# Issue #26 on the lent GPU (docs/IN_MOTION.md, docs/BENCHMARKS.md "In motion"): what motion
# vectors and temporal anti-aliasing cost (NAME@velocity and NAME@taa beside NAME, the same run)
# at a million and ten million simulated walkers, 1920x1080, overview and street view, with
# splats at 1 px where the crowd is ten million; the ground's cost (a run without it).
# Here: make release && ../shared/tools/device-prep.sh build/release/throng; then a device run
# carrying .device whose command is device-prep.sh's loader line and `bash tools/device_in_motion.sh`.
source "$(dirname "$0")/device_common.sh"

common=(--model builtin:walker --size 1920x1080 --simulate --frames 20 --warmup 5)
# The ground is drawn by default (--ground on); the `-noground` run is the earlier numbers' setting.
run motion-1m-overview "${common[@]}" --techniques baked,baked@velocity,baked@taa,static,static@velocity --instances 1000000 --view overview
run motion-1m-overview-noground "${common[@]}" --techniques baked,baked@taa --instances 1000000 --view overview --ground off
run motion-1m-street "${common[@]}" --techniques baked,baked@velocity,baked@taa --instances 1000000 --view street
# pose's second pose with vectors (the limbs' motion), a million in the overview.
run motion-1m-pose "${common[@]}" --techniques pose,pose@velocity,pose@taa --instances 1000000 --view overview
run motion-10m-overview "${common[@]}" --techniques baked,baked@velocity,baked@taa --instances 10000000 --view overview --splat-px 1
run motion-10m-street "${common[@]}" --techniques baked,baked@taa --instances 10000000 --view street --splat-px 1

# The simulation alone (sim_test's timing: ten steps in one submission, each phase by timestamps)
# at 100,000, a million and ten million walkers, when the test binary was carried
# (cp build/release/tests/sim_test .device/bin/; the lent machine has no validation layer:
# THRONG_TEST_VALIDATION=off, tests/gpu_suite.h).
if [ -x .device/bin/sim_test ]; then
  for n in 100000 1000000 10000000; do
    echo "== sim_test timing, $n walkers"
    THRONG_TEST_VALIDATION=off THRONG_SIM_TIMING_MEMBERS=$n .device/bin/sim_test --gtest_filter=Sim.TimingOf100kWalkers 2>&1 |
      grep -E 'walkers|phases|OK|FAILED|Skipped|rror' | tee -a "$out/sim_timing.log"
  done
fi

# Last, as the least needed when the lent time is short: the README's before and after, a
# million simulated walkers in the overview, plainly and with TAA.
for aa in off taa; do
  echo "== render: a million walkers in the overview, --aa $aa"
  "$throng" render builtin:walker --instances 1000000 --simulate --size 1920x1080 --aa "$aa" \
    --out "$out/overview-1m-$aa.png" 2>&1 | tail -1
done
