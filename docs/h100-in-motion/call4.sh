# issue #26, call 4: the simulation per step in bench (simulate_ms_per_step) at 100k / 1M / 10M,
# with and without the validation layer; full detail against splats at a million
source tools/device_common.sh
br() { local name=$1; shift; run "$name" --size 1920x1080 --frames 20 --warmup 4 "$@"; }
for n in 100000 1000000 10000000; do
  br sim-$n --techniques baked --instances $n --simulate --splat-px 1
done
export VK_LAYER_PATH=$PWD/.device/layers
br sim-10000000-validate --techniques baked --instances 10000000 --simulate --splat-px 1 --validate
unset VK_LAYER_PATH
for a in "full --lod off" "lod" "splats --splat-px 8"; do
  set -- $a; name=$1; shift
  .device/bin/throng render --instances 1000000 --size 1920x1080 --raster compute "$@" -o $out/overview-1m-$name.png 2>&1 | tee -a $out/render.log
done
# memory: every technique at 100k and 1M (fixed and per-member bytes)
run memory --size 1920x1080 --frames 2 --warmup 1 --techniques all --instances 100000,1000000
(cd "$out" && tar czf reports.tgz *.json && rm -f *.json)
