# Sourced by the device scripts (tools/device_bench.sh, tools/device_gpu_driven.sh): where the
# reports go ($OUT, else out/device), the carried binary and model, the machine's description in
# gpu.txt, and run NAME ARGS... = `throng bench ARGS --json $out/NAME.json` logged to bench.log.
set -u
out=${OUT:-out/device}
mkdir -p "$out"
throng=.device/bin/throng
cesium=.device/assets/CesiumMan.glb
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$out/gpu.txt" 2>&1
lscpu | grep -E 'Model name|^CPU\(s\)' >>"$out/gpu.txt"
free -g >>"$out/gpu.txt"

run() {  # name, then bench arguments
  local name=$1
  shift
  echo "== $name: throng bench $*"
  "$throng" bench "$@" --json "$out/$name.json" 2>&1 | tee -a "$out/bench.log" | grep -v '^technique,\|^[a-z-]*,'
}
