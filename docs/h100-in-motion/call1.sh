# issue #26, first call: where the time goes at 100k / 1M / 10M (baseline, HEAD + sim phase stamps)
source tools/device_common.sh
br() { local name=$1; shift; run "$name" --size 1920x1080 --frames 10 --warmup 3 "$@"; }
for n in 100000 1000000 10000000; do
  THRONG_SIM_TIMING_MEMBERS=$n .device/bin/sim_test --gtest_filter=*Timing* 2>&1 | grep -E "walkers on|phases" | tee -a $out/sim_timing.txt
done
for n in 1000000 10000000; do
  br walker-overview-$n --techniques baked,static --instances $n --simulate
  br walker-street-$n --techniques baked --instances $n --simulate --view street
done
br walker-overview-10000000-standing --techniques baked --instances 10000000
