#!/usr/bin/env bash
# On the GPU machine: times the sampled convolution kernels of .carry/cds
# (made here by scripts/pack-conv-dataset.sh) on their sampled inputs,
# writing conv dataset rows (docs/tuning.md) to $OUT/conv-<dtype>.csv.
# DS=DIR takes the kernels from another folder (default .carry/cds); a
# limit of 0 seconds, or no DIR/<dtype>-samples.txt, skips that dtype.
# Resumes: rows of an earlier call carried back as DIR/conv-<dtype>.csv are
# kept and their pairs skipped. The PTX is assembled with ptxas on every
# core first. COLD=1: operands out of L2 (isaac-bench --cold-l2).
#   usage: collect-conv.sh SECONDS_F32 SECONDS_F16
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
limit32="${1:-300}"; limit16="${2:-300}"
ds="${DS:-.carry/cds}"
work=/tmp/isaac-cds; rm -rf "$work"; mkdir -p "$work"
tar -xJf "$ds/kernels.tar.xz" -C "$work" || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
nvcc --version | tail -2 >>"$OUT/gpu.txt"
bash scripts/gpu/build-bench.sh || exit 1
bash scripts/gpu/assemble.sh "$work"/ptx-*
for d in f32:$limit32 f16:$limit16; do
  dt=${d%%:*}; lim=${d#*:}
  [ -f "$ds/$dt-samples.txt" ] && [ "$lim" -gt 0 ] || continue
  [ -f "$ds/conv-$dt.csv" ] && cp "$ds/conv-$dt.csv" "$OUT/conv-$dt.csv"
  build-gpu/bin/isaac-bench --ptx-dir "$work/ptx-$dt" --conv \
    --collect "$ds/$dt-samples.txt" --out "$OUT/conv-$dt.csv" \
    --reps 3 --time-limit "$lim" ${COLD:+--cold-l2} 2>&1 | tail -4
done
wc -l "$OUT"/conv-*.csv
