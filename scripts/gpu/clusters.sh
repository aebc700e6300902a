#!/usr/bin/env bash
# On the GPU machine: wgmma kernels in thread-block clusters against the
# same kernels without, in one run. KIND=cm (default): cm > 1 blocks along
# M share each stage's B tile by TMA multicast; KIND=kc: the kg slices of
# a tile sum inside the launch (kc = 1) instead of through the workspace.
#   1. correctness of every cluster kernel (name with _cm, or _kc) of GEMM_DIR:
#      scripts/gpu/mma.sh's Table 4 check in both betas, its sweep (edge
#      sizes, odd leading dimensions and misaligned bases, which take the
#      cp.async loop, batches, KG > 1 in both split-K modes) and its
#      compute-sanitizer runs, on those kernels alone;
#   2. the same for the cluster conv kernels of CONV_DIR (scripts/gpu/
#      conv.sh: its sweep and sanitizers);
#   3. timing of every kernel listed for each problem (--all): Table 4 and
#      LINPACK 4096^3 in f16 and bf16 against cuBLAS/cuBLASLt, then Table
#      5 + ResNet-50 in f16 against cuDNN.
# The kernels are made here (docs/perf.md, "Thread-block clusters"):
#   build/bin/isaac-opt examples/table4-half.mlir -mlir-print-local-scope \
#     --isaac-select-config="chip=sm_90a topk=2" -o sel.mlir
#   python3 scripts/gen_kernels.py clusters sel.mlir .carry/cl-gemm/candidates.txt > k.mlir
#   build/bin/isaac-opt k.mlir --isaac-pipeline="chip=sm_90a ptx-dir=.carry/cl-gemm" -o /dev/null
# (conv: examples/table5-half.mlir, conv-clusters, .carry/cl-conv; for
# KIND=kc, gen_kernels.py kc and conv-kc).
# Writes to $OUT: mma.log and conv.log of the checks, clusters-gemm.csv,
# clusters-conv-f16.csv (kc-gemm.csv, kc-conv-f16.csv) and their logs;
# scripts/eval/clusters.py turns the CSVs into the tables of docs/perf.md.
# Environment: GEMM_DIR=.carry/cl-gemm CONV_DIR=.carry/cl-conv,
#   CHECKS="gemm conv" (the checks to run; "" for timing only),
#   TOOLS="memcheck racecheck synccheck" (the sanitizers of both checks),
#   SKIP_TIMING=1, GEMM_LIMIT=150 and CONV_LIMIT=200 (seconds of timing).
# Each check runs under its script's BUDGET=560 (their stages keep a
# reserve for the later ones: a smaller budget skips stages).
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
kind="${KIND:-cm}"
[ "$kind" = cm ] && prefix=clusters || prefix="$kind"
gemm="${GEMM_DIR:-.carry/cl-gemm}"
conv="${CONV_DIR:-.carry/cl-conv}"
bash scripts/gpu/build-bench.sh || exit 1
bench=build-gpu/bin/isaac-bench
# The cluster kernels alone, for the checks.
only_clusters() {
  rm -rf "$2"; mkdir -p "$2"
  cp "$1"/*_"$kind"[0-9]*.ptx "$2"/
  echo "$1: $(ls "$2" | wc -l) cluster kernels"
}
# check NAME DIR SCRIPT SAN_LIMIT: SCRIPT's checks (no timing) on DIR's
# cluster kernels, its log's summary lines.
check() {
  only_clusters "$2" "/tmp/cl-$1-check"
  OUT="$OUT" DIR="/tmp/cl-$1-check" SKIP_TIMING=1 LIMIT=60 SAN_LIMIT="$4" \
    TOOLS="${TOOLS-memcheck racecheck synccheck}" BUDGET=560 \
    bash "scripts/gpu/$3.sh" >/dev/null 2>&1
  grep -E "check exit|sweep exit|sweep:|FAIL|exit [0-9]|done in" "$OUT/$3.log" | head -30
}
checks="${CHECKS-gemm conv}"
[[ " $checks " == *" gemm "* ]] && check gemm "$gemm" mma 45
[[ " $checks " == *" conv "* ]] && check conv "$conv" conv 80
if [ -z "${SKIP_TIMING:-}" ]; then
  bash scripts/gpu/assemble.sh "$gemm" "$conv"
  timeout "${GEMM_LIMIT:-150}" $bench --ptx-dir "$gemm" \
    --shapes table4,linpack4096 --dtype f16,bf16 --all \
    --candidates "$gemm/candidates.txt" --reps 20 --warmup 5 --bw-gbs 3000 \
    --csv "$OUT/$prefix-gemm.csv" >"$OUT/$prefix-gemm.log" 2>&1
  echo "gemm timing exit $?"
  . scripts/gpu/cudnn.sh
  timeout "${CONV_LIMIT:-200}" $bench --ptx-dir "$conv" --conv \
    --conv-shapes table5,resnet50 --dtype f16 --all \
    --candidates "$conv/candidates.txt" "${cudnn_args[@]}" --reps 20 \
    --warmup 5 --bw-gbs 3000 --csv "$OUT/$prefix-conv-f16.csv" \
    >"$OUT/$prefix-conv-f16.log" 2>&1
  echo "conv timing exit $?"
fi
