#!/usr/bin/env bash
# On the GPU machine: Table 4 against cuBLAS / cuBLASLt in the same run,
# f32 and f64, best of the .carry/table4 candidates per problem.
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
bash scripts/gpu/build-bench.sh || exit 1
dir=.carry/table4
if [ -f .carry/table4.tar.xz ]; then
  dir=/tmp/isaac-table4; rm -rf "$dir"; mkdir -p "$dir"
  tar -xJf .carry/table4.tar.xz -C "$dir" --strip-components=1 || exit 1
fi
bash scripts/gpu/assemble.sh "$dir"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
timeout 400 build-gpu/bin/isaac-bench --ptx-dir "$dir" --shapes table4 \
  --peak-tflops 67,67 --bw-gbs "${BW:-4800}" \
  --best --csv "$OUT/table4.csv" --png "$OUT/table4.png" 2>&1 |
  tee "$OUT/table4.log" | grep -v "^  FAIL" | tail -40
