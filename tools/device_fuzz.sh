#!/usr/bin/env bash
# The long fuzz rows of docs/FUZZING.md on the lent machine's 16 cores, through the `device` tool:
# fuzz_cli 1,000,000 executions (8 jobs of 125,000) and fuzz_assimp 8 jobs of 480 s (64 minutes of
# fuzzing) at once, within one device call. Here, after `make test` (its sanitizer build holds the
# fuzz targets and writes their seeds):
#   mkdir -p /tmp/fz && cp build/asan/fuzz/fuzz_cli build/asan/fuzz/fuzz_assimp /tmp/fz && strip --strip-debug /tmp/fz/*
#   ../shared/tools/device-prep.sh /tmp/fz/fuzz_cli /tmp/fz/fuzz_assimp
#   mkdir -p .device/seeds/regressions && cp -r build/asan/seeds/fuzz_cli build/asan/seeds/fuzz_assimp .device/seeds/ \
#     && cp -r build/asan/seeds/regressions/fuzz_cli build/asan/seeds/regressions/fuzz_assimp .device/seeds/regressions/
# then a device `run` carrying .device (about 42 MB) whose command is the loader line device-prep.sh
# prints followed by `bash tools/device_fuzz.sh`. The logs and any failing inputs come back as
# $OUT/fuzz-logs.tgz (work/TARGET/run.log, the jobs' fuzz-N.log with their final stats, artifacts/).
# A device call ends at 600 s and then returns nothing: everything here stops by DEVICE_FUZZ_SECONDS
# after the fuzzers start (default 540; fuzz_assimp's jobs by max_total_time a minute earlier,
# fuzz_cli's by an interrupt, which libFuzzer answers with its final stats, or a kill 20 s later)
# so that the logs, packed last, always come back. The first try,
# 2026-12-07, with only the runs' own limits, was cut off at 600 s with nothing written.
set -u
deadline=${DEVICE_FUZZ_SECONDS:-540}
root=$PWD
out=$(realpath -m "${OUT:-out/device}")
mkdir -p "$out"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
nproc
common=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -jobs=8 -workers=8 -artifact_prefix=artifacts/)
for t in fuzz_cli fuzz_assimp; do
  mkdir -p .device/work/$t/corpus .device/work/$t/artifacts
  cp -r .device/seeds/$t/. .device/work/$t/corpus/
done
(cd .device/work/fuzz_cli && timeout -s INT -k 20 "$deadline" "$root/.device/bin/fuzz_cli" corpus "$root/.device/seeds/regressions/fuzz_cli" \
  "-dict=$root/fuzz/dict/fuzz_cli.dict" "${common[@]}" -runs=125000 >run.log 2>&1; echo "exit $?" >>run.log) &
(cd .device/work/fuzz_assimp && timeout -s INT -k 20 "$deadline" "$root/.device/bin/fuzz_assimp" corpus \
  "$root/.device/seeds/regressions/fuzz_assimp" "${common[@]}" -max_total_time=$((deadline - 60)) >run.log 2>&1
 echo "exit $?" >>run.log) &
wait
for t in fuzz_cli fuzz_assimp; do
  echo "== $t: $(tail -1 .device/work/$t/run.log); artifacts: $(ls .device/work/$t/artifacts | wc -l)"
done
(cd .device && tar czf "$out/fuzz-logs.tgz" work/*/run.log work/*/fuzz-*.log work/*/artifacts)
