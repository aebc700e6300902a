#!/usr/bin/env bash
# On the GPU machine: times the held-out conv evaluation's candidates
# (.carry/ceval/eval.tar.xz, made here by scripts/eval/pack-conv.sh) on
# their convolutions, median of 5 runs, into $OUT/conv-eval.csv; resumes
# from .carry/ceval/conv-eval.csv when carried back. Then, here:
#   python3 scripts/eval/score.py build/conv-eval/ranks.json conv-eval.csv
# COLD=1 times every pair with its operands out of L2 (isaac-bench
# --cold-l2, the tables' regime) instead of warm.
#   usage: evaluate-conv.sh [SECONDS]   (default 500)
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
limit="${1:-500}"
work=/tmp/isaac-ceval; rm -rf "$work"; mkdir -p "$work"
tar -xJf .carry/ceval/eval.tar.xz -C "$work" || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
bash scripts/gpu/build-bench.sh || exit 1
bash scripts/gpu/assemble.sh "$work/ptx-eval"
[ -f .carry/ceval/conv-eval.csv ] && cp .carry/ceval/conv-eval.csv "$OUT/conv-eval.csv"
build-gpu/bin/isaac-bench --ptx-dir "$work/ptx-eval" --conv \
  --collect "$work/samples.txt" --out "$OUT/conv-eval.csv" --reps 5 \
  --time-limit "$limit" ${COLD:+--cold-l2} 2>&1 | tail -4
