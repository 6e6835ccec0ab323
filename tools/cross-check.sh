#!/usr/bin/env bash
# The SIMD checks for another x86-64 machine: one with AVX-512 when this
# one has none (valgrind hides AVX-512 too, so only such a CPU runs those
# kernels), or one with a GPU for the OpenCL test. Nothing is built
# there: the programs go in a folder with the shared libraries they load.
#
#   tools/cross-check.sh bundle BUILD DIR
#       from a configured, built BUILD dir: the SIMD test programs, a
#       build with AVX-512 compiled in (-march=x86-64-v4, contracted
#       multiply-adds), one program per mutant of AVX-512-only code
#       (tools/avx512-mutants.txt: each must fail where AVX-512 runs),
#       reorder_omp, tlbench, test_ocl, and libdnnl, libgomp, libOpenCL
#   DIR/cross-check.sh run DIR
#       on the other machine, from the source root (the benchdnn corpus
#       and the tlbench batches are read from there): every check in
#       parallel, then the standard batch timed alone. Exit 1 when a
#       check fails or a mutant passes on a CPU with AVX-512.
# The NVIDIA driver's OpenCL library is declared to the loader when the
# machine has one and no vendors file names it.
set -uo pipefail

bundle() {
    local build=$1 dir src t
    src=$(cd "$(dirname "$0")/.." && pwd)
    mkdir -p "$2/bin" "$2/lib" "$2/obj" || return 1
    dir=$(cd "$2" && pwd)     # the compiles run in BUILD
    for t in test_simd_reorder test_simd_reorder_benchdnn \
             test_shuffle_omp_simd test_reorder_omp test_ocl; do
        [ -x "$build/test/$t" ] && cp "$build/test/$t" "$dir/bin/"
    done
    [ -x "$build/bench/tlbench" ] && cp "$build/bench/tlbench" "$dir/bin/"
    # test_simd_reorder's three compile commands as BUILD ran them, each
    # with an include dir put first and extra flags put last
    compile() {   # out, include dir, extra flags...
        local out=$1 inc=$2; shift 2
        python3 - "$build" "$inc" "$dir/obj" "$@" <<'PY' || return 1
import json, os, shlex, subprocess, sys
build, inc, obj, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
for e in json.load(open(os.path.join(build, 'compile_commands.json'))):
    if '/test_simd_reorder.p/' not in '/' + e['output']:
        continue
    args = shlex.split(e['command'])
    o = args.index('-o')
    args[o + 1] = os.path.join(obj, os.path.basename(e['output']))
    args = [a for i, a in enumerate(args) if a not in ('-MD', '-MQ', '-MF') and
            args[i - 1] not in ('-MQ', '-MF')]
    subprocess.check_call([args[0], '-I' + inc] + args[1:] + extra, cwd=e['directory'])
PY
        cc -o "$out" "$dir/obj"/*.o -lm
    }
    compile "$dir/bin/test_simd_reorder_v4" "$src" -march=x86-64-v4 -ffp-contract=fast || return 1
    while IFS='|' read -r name from to; do
        case $name in ''|'#'*) continue ;; esac
        mkdir -p "$dir/obj/$name"
        cp "$src"/tensorlayout*.h "$dir/obj/$name/"
        python3 - "$dir/obj/$name/tensorlayout_simd.h" "$from" "$to" <<'PY' || return 1
import sys
path, old, new = sys.argv[1], sys.argv[2].replace('\\n', '\n'), sys.argv[3].replace('\\n', '\n')
text = open(path).read()
if text.count(old) != 1:
    sys.exit('mutant %s: %d matches' % (path, text.count(old)))
open(path, 'w').write(text.replace(old, new))
PY
        compile "$dir/bin/mutant_$name" "$dir/obj/$name" || return 1
    done < "$src/tools/avx512-mutants.txt"
    rm -rf "$dir/obj"
    for t in libdnnl.so.2 libgomp.so.1 libOpenCL.so.1; do
        local lib
        lib=$(ldd "$dir/bin/tlbench" "$dir/bin/test_ocl" 2>/dev/null | awk -v l="$t" '$1 == l { print $3; exit }')
        [ -n "$lib" ] && cp -L "$lib" "$dir/lib/"
    done
    cp "$0" "$dir/cross-check.sh"
    du -sh "$dir"
}

run() {
    local dir b logs status=0 avx512=0 bf16=0 n
    dir=$(cd "$1" && pwd); b=$dir/bin; logs=$(mktemp -d)
    export LD_LIBRARY_PATH=$dir/lib
    grep -q -w avx512bw /proc/cpuinfo && avx512=1
    grep -q -w avx512_bf16 /proc/cpuinfo && bf16=1
    echo "== $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2), AVX-512 $avx512"
    if ! ls /etc/OpenCL/vendors/*.icd > /dev/null 2>&1 || ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
        local icd
        icd=$(ldconfig -p | grep -o '/[^ ]*libnvidia-opencl.so[.0-9]*' | head -n 1)
        [ -z "$icd" ] && icd=$(find /usr/local/nvidia /usr/lib /usr/lib64 -name 'libnvidia-opencl.so*' 2>/dev/null | head -n 1)
        if [ -n "$icd" ]; then
            mkdir -p "$logs/vendors"
            echo "$icd" > "$logs/vendors/nvidia.icd"
            export OCL_ICD_VENDORS=$logs/vendors
        fi
    fi
    check() {   # name, program, args...: its log and exit status in $logs
        local name=$1; shift
        timeout 300 "$@" > "$logs/$name.log" 2>&1
        echo $? > "$logs/$name.rc"
    }
    for n in "$b"/test_* "$b"/mutant_*; do
        case ${n##*/} in
        test_simd_reorder_benchdnn) OMP_NUM_THREADS=1 check "${n##*/}" "$n" test/data/reorder_benchdnn.txt & ;;
        test_simd_reorder_v4) if [ "$avx512" = 1 ]; then check "${n##*/}" "$n" & fi ;;
        test_simd_reorder)    # every variant, then AVX-512 without BF16, AVX2 at most, SSE2
            check "${n##*/}" "$n" &
            check "${n##*/}_avx512" "$n" --isa=avx512 &
            check "${n##*/}_avx2" "$n" --isa=avx2 &
            check "${n##*/}_sse2" "$n" --isa=sse2 & ;;
        *) check "${n##*/}" "$n" & ;;
        esac
    done
    if [ -x "$b/tlbench" ]; then
        check tlbench_check_standard "$b/tlbench" --mode=C --threads=1,2 --max-bytes=256M \
            --batch=bench/inputs/standard &
        check tlbench_check_sweep "$b/tlbench" --mode=C --threads=1,2 --batch=bench/inputs/sweep &
        check tlbench_check_cliffs "$b/tlbench" --mode=C --threads=1,2 --batch=bench/inputs/cliffs &
    fi
    wait
    for n in "$logs"/*.rc; do
        local name rc verdict
        name=$(basename "$n" .rc); rc=$(cat "$n")
        case $name in
        mutant_bf16*) if [ "$rc" != 0 ]; then verdict="caught"
                  elif [ "$bf16" = 1 ]; then verdict="MISSED"; status=1
                  else verdict="not run (no AVX512-BF16)"; fi ;;
        mutant_*) if [ "$rc" != 0 ]; then verdict="caught"
                  elif [ "$avx512" = 1 ]; then verdict="MISSED"; status=1
                  else verdict="not run (no AVX-512)"; fi ;;
        *) if [ "$rc" = 0 ] || [ "$rc" = 77 ]; then verdict="ok"; else verdict="FAILED"; status=1; fi ;;
        esac
        printf '%-34s rc %-3s %-8s %s\n' "$name" "$rc" "$verdict" \
            "$(grep -E 'checks|problems|device|AVX-512' "$logs/$name.log" | tail -n 2 | tr '\n' ' ' | cut -c1-150)"
    done
    if [ -x "$b/tlbench" ]; then
        echo "== standard batch, timed"
        "$b/tlbench" --mode=P --threads=1,2 --batch=bench/inputs/standard --csv="${CSV:-/dev/null}" || status=1
    fi
    return $status
}

case ${1:-} in
bundle) [ $# -eq 3 ] || { echo "usage: $0 bundle BUILD DIR" >&2; exit 2; }; bundle "$2" "$3" ;;
run) [ $# -eq 2 ] || { echo "usage: $0 run DIR" >&2; exit 2; }; run "$2" ;;
*) sed -n '2,21p' "$0"; exit 2 ;;
esac
