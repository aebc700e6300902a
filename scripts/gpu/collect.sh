#!/usr/bin/env bash
# On the GPU machine: times the sampled kernels of .carry/ds (made here by
# isaac-tune sample + isaac-opt, packed by scripts/pack-dataset-kernels.sh)
# on their sampled inputs, writing dataset rows (docs/tuning.md) to $OUT.
# DS=DIR takes the kernels from another folder (default .carry/ds); a
# limit of 0 seconds, or no DIR/<dtype>-samples.txt, skips that dtype.
# The PTX is assembled with ptxas on every core first, so the collection
# does not wait for the driver's JIT one kernel at a time.
# LIMITS="DTYPE:SECONDS ..." names the dtypes and limits instead (e.g.
# LIMITS="f16:300 bf16:150" for tensor-core datasets, whose kernels'
# family the samples file's kernel names carry).
# LD_ALIGN=N rounds the inputs' leading dimensions up to a multiple of N
# elements (isaac-bench --ld-align; default 1, the minimal ones); a third
# field of a LIMITS entry ("f64:250:2") sets it for that dtype.
# COLD=1 times each pair with its operands out of L2 (isaac-bench
# --cold-l2, the tables' regime); the default is warm L2 (each dataset's
# header says which; models/sm_90a/README.md names the cold ones).
#   usage: collect.sh SECONDS_F32 SECONDS_F64
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
limit32="${1:-300}"; limit64="${2:-60}"
ds="${DS:-.carry/ds}"
work=/tmp/isaac-ds; rm -rf "$work"; mkdir -p "$work"
tar -xJf "$ds/kernels.tar.xz" -C "$work" || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
nvcc --version | tail -2 >>"$OUT/gpu.txt"
bash scripts/gpu/build-bench.sh || exit 1
bash scripts/gpu/assemble.sh "$work"/ptx-*
for d in ${LIMITS:-f32:$limit32 f64:$limit64}; do
  IFS=: read -r dt lim align <<<"$d"
  [ -f "$ds/$dt-samples.txt" ] && [ "$lim" -gt 0 ] || continue
  # Resume: rows collected by an earlier call, carried back in $ds.
  [ -f "$ds/gemm-$dt.csv" ] && cp "$ds/gemm-$dt.csv" "$OUT/gemm-$dt.csv"
  build-gpu/bin/isaac-bench --ptx-dir "$work/ptx-$dt" \
    --collect "$ds/$dt-samples.txt" --out "$OUT/gemm-$dt.csv" \
    --reps 3 --time-limit "$lim" --ld-align "${align:-${LD_ALIGN:-1}}" \
    ${COLD:+--cold-l2} 2>&1 | tail -4
done
wc -l "$OUT"/gemm-*.csv
