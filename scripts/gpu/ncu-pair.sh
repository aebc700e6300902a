#!/usr/bin/env bash
# On the GPU machine: Nsight Compute profiles of one problem, isaac's kernel
# and the vendor library's (cuBLAS/cuBLASLt, which isaac-bench times in the
# same process), to $OUT/ncu-TAG-isaac.txt and $OUT/ncu-TAG-vendor.txt.
#   usage: ncu-pair.sh M,N,K,LAYOUT DIR KERNEL DTYPE TAG
# Needs build-gpu/bin/isaac-bench (scripts/gpu/build-bench.sh).
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
shape=$1 dir=$2 kernel=$3 dtype=$4 tag=$5
b=build-gpu/bin/isaac-bench
. "$(dirname "$0")/ncu-sections.sh"
run=($b --ptx-dir "$dir" --kernel "$kernel" --shape "$shape" --dtype "$dtype" --reps 1 --warmup 0)
timeout 100 ncu "${ncu_sections[@]}" -k regex:isaac_gemm --launch-count 1 "${run[@]}" >"$OUT/ncu-$tag-isaac.txt" 2>&1
echo "ncu $tag isaac: exit $?"
# The vendor's kernels: everything but isaac's, the input fill, the fp64
# reference and the bench's delay kernel.
timeout 100 ncu "${ncu_sections[@]}" -k 'regex:^(?!fill|isaac|ref|check|init|delay)' --launch-count 2 "${run[@]}" \
  >"$OUT/ncu-$tag-vendor.txt" 2>&1
echo "ncu $tag vendor: exit $?"
