#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in build-fuzz/ and runs each for
# a bounded time, FUZZ_JOBS (default: the number of cores) at once.
# Usage: test/fuzz/run-fuzzers.sh [SECONDS_EACH] (default 60).
# Each fuzzer starts from a scratch copy of its committed corpus (the
# committed one stays small) with the tag dictionary; any crash, leak or
# failed property makes the script exit non-zero and leaves the
# reproducer in build-fuzz/crashes/<target>/. To keep it as a regression
# test, copy that file into test/fuzz/corpus/<target>/ (the unit suite
# replays every corpus file).
set -euo pipefail
cd "$(dirname "$0")/../.."

secs=${1:-60}
bdir=${FUZZ_BUILD_DIR:-build-fuzz}
targets=(fuzz_tag fuzz_md_ops fuzz_reorder fuzz_shuffle fuzz_ocl_host)

if [ ! -f "$bdir/build.ninja" ]; then
  log=$(mktemp)      # outside the tree: nothing for git to pick up
  CC=${FUZZ_CC:-clang} meson setup "$bdir" -Dfuzz=true -Db_lundef=false \
    -Dbench=disabled -Ddnnl=disabled -Dopencl=disabled -Dsimd=disabled \
    -Dbuildtype=debugoptimized > "$log" 2>&1 \
    || { cat "$log"; rm -f "$log"; exit 1; }
  rm -f "$log"
fi
meson compile -C "$bdir" "${targets[@]}"

run_one() {   # target: fuzzes it for secs, then reports; non-zero on a finding
  local t=$1 work="$bdir/corpus-work/$1" crashes="$bdir/crashes/$1"
  mkdir -p "$work" "$crashes"
  cp -f "test/fuzz/corpus/$t"/* "$work"/
  if ! "$bdir/test/fuzz/$t" -max_total_time="$secs" -max_len=512 \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -dict=test/fuzz/tags.dict -artifact_prefix="$crashes/" \
        "$work" > "$bdir/$t.log" 2>&1; then
    tail -n 40 "$bdir/$t.log"
    echo "run-fuzzers: $t FAILED; reproducer in $crashes/" >&2
    return 1
  fi
  echo "== $t for ${secs}s: $(grep -E '^stat::number_of_executed_units' "$bdir/$t.log" || true)"
}

# one fuzzer per core at a time (each is single-threaded): the same
# fuzzing per target, a fraction of the wall time
lanes=${FUZZ_JOBS:-$(nproc)}
status=0 running=0
for t in "${targets[@]}"; do
  if [ "$running" -ge "$lanes" ]; then wait -n || status=1; running=$((running - 1)); fi
  run_one "$t" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do wait -n || status=1; running=$((running - 1)); done
exit $status
