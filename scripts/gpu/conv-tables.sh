#!/usr/bin/env bash
# On the GPU machine: the Table 5 + ResNet-50 convolution tables of
# docs/perf.md for one dtype, the compiler's top-1 and the best of its
# top 10, each against cuDNN in the same run (scripts/gpu/conv.sh's timing
# stage, no sweep or sanitizers).
#   usage: conv-tables.sh DTYPE DIR [SECONDS per table, default 200]
# TOPS="1 10" (the default) names the tables: each problem's first
# candidate, the best of its first 10.
# DIR holds the candidates' PTX and candidates.txt, made here as
# docs/perf.md ("Convolutions") shows. Writes $OUT/DTYPE-top1.csv,
# DTYPE-top10.csv and their logs (conv.sh's PNG charts are dropped: over
# 5 MB each, see tools/isaac-bench/Image.cpp).
set -uo pipefail
dtype="$1"; dir="$2"; limit="${3:-200}"
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
for k in ${TOPS:-1 10}; do
  OUT="$OUT/top$k" DIR="$dir" TIMING_DIR="$dir" TYPES="$dtype" TOPK=$k \
    SKIP_SWEEP=1 TOOLS="" TIME_LIMIT="$limit" BUDGET=$(( limit + 120 )) \
    bash scripts/gpu/conv.sh >/dev/null 2>&1
  mv "$OUT/top$k/conv-$dtype.csv" "$OUT/$dtype-top$k.csv"
  mv "$OUT/top$k/conv.log" "$OUT/$dtype-top$k.log"
  rm -rf "$OUT/top$k"
  grep -E "geomean|exit|done" "$OUT/$dtype-top$k.log" | tail -4
done
