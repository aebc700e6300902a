#!/usr/bin/env bash
# On the GPU machine: Table 4 against cuBLAS / cuBLASLt in the same run,
# f32 and f64, best of the .carry/table4 candidates per problem.
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
[ -x build-gpu/bin/isaac-bench ] || bash scripts/gpu/build-bench.sh || exit 1
bash scripts/gpu/assemble.sh .carry/table4
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 400 build-gpu/bin/isaac-bench --ptx-dir .carry/table4 --shapes table4 \
  --peak-tflops 67,67 --bw-gbs "${BW:-4800}" \
  --best --csv "$OUT/table4.csv" --png "$OUT/table4.png" 2>&1 |
  tee "$OUT/table4.log" | grep -v "^  FAIL" | tail -40
