#!/usr/bin/env bash
# fuzz/run.sh — runs the libFuzzer targets built in build/fuzz (`make fuzz`, `make fuzz-long`).
# docs/FUZZING.md.
#
#   fuzz/run.sh --seconds N [TARGET...]   each target N seconds on a fresh copy of its seeds in
#                                         build/fuzz/corpus-work/TARGET (`make fuzz`)
#   fuzz/run.sh --long [TARGET...]        each target FUZZ_RUNS (1,000,000) executions, fuzz_assimp
#                                         at most FUZZ_ASSIMP_SECONDS (3600), one after another at
#                                         low priority, on a corpus kept between long runs in
#                                         build/fuzz/corpus-long/TARGET (`make fuzz-long`)
#
# The seeds (build/fuzz/seeds/TARGET, written by fuzz_corpus_gen at each run) are copied, never
# written; the regressions (build/fuzz/seeds/regressions/TARGET, fuzz/regressions.cpp) are read too. Logs: build/fuzz/logs/TARGET.log (long runs) or build/fuzz/logs/short/TARGET.log;
# a summary line per run is appended to build/fuzz/logs/summary.txt. Crash, leak, time-out and
# out-of-memory inputs: build/fuzz/artifacts/TARGET/. Exit 1 when any target failed.
set -uo pipefail
cd "$(dirname "$0")/.."

build=${FUZZ_BUILD:-build/fuzz}
mode=""
seconds=60
case "${1:-}" in
--seconds) mode=short; seconds=${2:?--seconds needs a number}; shift 2 ;;
--long) mode=long; shift ;;
*) echo "usage: fuzz/run.sh --seconds N | --long [TARGET...]" >&2; exit 2 ;;
esac
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_throng fuzz_gltf fuzz_cli fuzz_assimp fuzz_kit)
runs=${FUZZ_RUNS:-1000000}
assimp_seconds=${FUZZ_ASSIMP_SECONDS:-3600}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

mkdir -p "$build/logs/short"
# The seeds, written by code (fuzz/corpus_gen.cpp) into the build folder; the shared models stay
# out of the fuzzing corpus (large inputs slow every mutation; the replay tests read them).
seeds="$build/seeds"
# (the fuzz build's own, or in a build that has the tests too, as `make test`'s sanitizer build does, theirs)
gen="$build/fuzz/fuzz_corpus_gen"
[ -x "$gen" ] || gen="$build/tests/fuzz_corpus_gen"
"$gen" "$seeds" >/dev/null || { echo "fuzz: $gen failed (make fuzz builds it)" >&2; exit 2; }
stat() { sed -n "s/^stat::$1: *//p" "$2" | tail -1; }
# One target's run; its exit code in $build/logs/MODE-TARGET.rc.
fuzz_one() {
  local t=$1 bin artifacts corpus log args nice_cmd start rc elapsed last cov ft stopped line
  bin="$build/fuzz/$t"
  artifacts="$build/artifacts/$t"
  mkdir -p "$artifacts"
  args=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "-artifact_prefix=$artifacts/")
  [ -f "fuzz/dict/$t.dict" ] && args+=("-dict=fuzz/dict/$t.dict")
  if [ "$mode" = short ]; then
    corpus="$build/corpus-work/$t"
    rm -rf "$corpus"
    log="$build/logs/short/$t.log"
    args+=("-max_total_time=$seconds")
    nice_cmd=()
  else
    corpus="$build/corpus-long/$t"
    log="$build/logs/$t.log"
    args+=("-runs=$runs")
    [ "$t" = fuzz_assimp ] && args+=("-max_total_time=$assimp_seconds")
    nice_cmd=(nice -n 19)
  fi
  mkdir -p "$corpus"
  cp -n "$seeds/$t"/* "$corpus"/
  echo "fuzz: $t ${args[*]} (log $log)"
  start=$(date +%s)
  THRONG_FUZZ_STOPPED_DIR="$artifacts/stopped" "${nice_cmd[@]}" "$bin" "${args[@]}" "$corpus" "$seeds/regressions/$t" >"$log" 2>&1
  rc=$?
  elapsed=$(( $(date +%s) - start ))
  last=$(grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED|RELOAD)' "$log" | tail -1)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.*ft: \([0-9]*\).*/\1/p' <<<"$last")
  stopped=$(ls "$artifacts/stopped" 2>/dev/null | wc -l)
  line="$(date -u +%Y-%m-%dT%H:%MZ) $mode $t rc=$rc runs=$(stat number_of_executed_units "$log") exec/s=$(stat average_exec_per_sec "$log") cov=${cov:-?} ft=${ft:-?} peak_rss_mb=$(stat peak_rss_mb "$log") seconds=$elapsed"
  [ "$t" = fuzz_assimp ] && line+=" importer_stopped_total=$stopped"
  echo "$line" | tee -a "$build/logs/summary.txt"
  echo "$rc" >"$build/logs/$mode-$t.rc"
  if [ $rc -ne 0 ]; then
    echo "fuzz: $t FAILED (exit $rc); the input is in $artifacts/, the report:" >&2
    grep -E -A40 '^==[0-9]+==ERROR|^SUMMARY|contract broken|runtime error|ALARM|out-of-memory|deadly signal' "$log" | head -80 >&2
  fi
}
for t in "${targets[@]}"; do
  [ -x "$build/fuzz/$t" ] || { echo "fuzz: $build/fuzz/$t is missing (make fuzz builds it)" >&2; exit 2; }
done
# Short runs take FUZZ_PARALLEL targets at once (default 1; `make test` gives its job count);
# the long run one after another.
parallel=${FUZZ_PARALLEL:-1}
[ "$mode" = long ] && parallel=1
for t in "${targets[@]}"; do
  rm -f "$build/logs/$mode-$t.rc"
  if [ "$parallel" -gt 1 ]; then
    while [ "$(jobs -rp | wc -l)" -ge "$parallel" ]; do wait -n; done
    fuzz_one "$t" &
  else
    fuzz_one "$t"
  fi
done
wait
failed=()
for t in "${targets[@]}"; do
  [ "$(cat "$build/logs/$mode-$t.rc" 2>/dev/null)" = 0 ] || failed+=("$t")
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${targets[*]}: no crash, leak, time-out or out-of-memory"
