# issue #26, call 3: call 2's reports (left out by count) as one tarball; the simulation's timing warm and cold
# throng_agg: a build whose culling shaders counted with one atomic per subgroup (tried this session, no
# difference on the H100: the driver already does; dropped).
source tools/device_common.sh
br() { local name=$1; shift; run "$name" --size 1920x1080 --frames 10 --warmup 3 "$@"; }
st() { THRONG_SIM_TIMING_MEMBERS=$1 VK_LAYER_PATH=$PWD/.device/layers .device/bin/sim_test --gtest_filter=*Timing* 2>&1 | grep -E "walkers on|phases|FAIL|rror" | sed "s/^/[$2] /" | tee -a $out/sim_timing.txt; }
st 10000000 cold
nvidia-smi --query-gpu=clocks.sm,clocks.mem,clocks.max.sm --format=csv >> $out/sim_timing.txt
st 10000000 again
st 1000000 after
st 10000000 third
for px in 0 1 2; do
  br overview-10m-splat$px --techniques baked --instances 10000000 --simulate --splat-px $px
  br overview-1m-splat$px --techniques baked --instances 1000000 --simulate --splat-px $px
done
br street-10m-splat1 --techniques baked --instances 10000000 --simulate --view street --splat-px 1
br street-10m-splat0 --techniques baked --instances 10000000 --simulate --view street
for b in throng throng_agg; do
  throng=.device/bin/$b
  br $b-overview-10m --techniques baked --instances 10000000 --simulate
  br $b-overview-10m-splat1 --techniques baked --instances 10000000 --simulate --splat-px 1
  br $b-overview-1m --techniques baked --instances 1000000 --simulate
done
st 10000000 after-bench
(cd "$out" && tar czf reports.tgz *.json bench.log && rm -f *.json)
