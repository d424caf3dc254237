#!/usr/bin/env bash
# The long run of docs/HARDENING.md on the H200, through the `device` tool (see device_bench.sh
# for the preparation: make release && ../shared/tools/device-prep.sh build/release/throng).
# One `throng bench` of about eight minutes — every technique at 10,000 walkers, 850 timed
# frames each — while the process's resident set and the GPU's memory in use are sampled every
# 5 s into $OUT/soak-memory.csv (tools/plot_soak.py draws it).
set -u
out=${OUT:-out/device}
mkdir -p "$out"
throng=.device/bin/throng
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$out/gpu.txt" 2>&1
lscpu | grep -E 'Model name|^CPU\(s\)' >>"$out/gpu.txt"

"$throng" bench --model builtin:walker --techniques cpu,palette,bonetex,baked,vat,static --instances 10000 \
  --frames 850 --warmup 10 --size 1280x720 --json "$out/soak-bench.json" >"$out/soak-bench.csv" 2>"$out/soak-bench.log" &
pid=$!
start=$(date +%s.%N)
echo "seconds,rss_mib,gpu_used_mib,stage" >"$out/soak-memory.csv"
while kill -0 "$pid" 2>/dev/null; do
  now=$(date +%s.%N)
  rss=$(awk '/^VmRSS/ {print $2 / 1024}' "/proc/$pid/status" 2>/dev/null)
  gpu=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits 2>/dev/null | head -1)
  stage=$(tail -c 200 "$out/soak-bench.log" | tr '\r' '\n' | grep -o '\[[0-9]*/[0-9]*\] [a-z@-]*' | tail -1)
  echo "$(awk -v a="$now" -v b="$start" 'BEGIN { printf "%.1f", a - b }'),${rss:-0},${gpu:-0},${stage:-start}" >>"$out/soak-memory.csv"
  sleep 5
done
wait "$pid"
echo "bench exit code $?" >>"$out/soak-bench.log"
