#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in build-fuzz/ and runs each for
# a bounded time. Usage: test/fuzz/run-fuzzers.sh [SECONDS_EACH] (default 60).
# Each fuzzer starts from a scratch copy of its committed corpus (the
# committed one stays small) with the tag dictionary; any crash, leak or
# failed property stops the script with a non-zero exit and leaves the
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

status=0
for t in "${targets[@]}"; do
  work="$bdir/corpus-work/$t" crashes="$bdir/crashes/$t"
  mkdir -p "$work" "$crashes"
  cp -f "test/fuzz/corpus/$t"/* "$work"/
  echo "== $t for ${secs}s"
  if ! "$bdir/test/fuzz/$t" -max_total_time="$secs" -max_len=512 \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -dict=test/fuzz/tags.dict -artifact_prefix="$crashes/" \
        "$work" > "$bdir/$t.log" 2>&1; then
    tail -n 40 "$bdir/$t.log"
    echo "run-fuzzers: $t FAILED; reproducer in $crashes/" >&2
    status=1
  else
    grep -E '^stat::number_of_executed_units|^Done' "$bdir/$t.log" || true
  fi
done
exit $status
