#!/usr/bin/env bash
# On the GPU machine: the DL example (examples/dl) and the GEMM example
# (examples/e2e), built here by their build.sh into DIR (default
# .carry/run1): every output checked against fp64, timed, then
# compute-sanitizer memcheck on every function and racecheck/synccheck on a
# subset; PyTorch (cuBLAS) timings of the same computations in the same run.
# Results in $OUT (dl.log, e2e.log, torch.log, memcheck.log, racecheck.log,
# synccheck.log, gpu.txt).
set -uo pipefail
dir="${1:-.carry/run1}"
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
san=compute-sanitizer
command -v $san >/dev/null || san=/usr/local/cuda/bin/compute-sanitizer
timeout 300 "$dir/isaac-dl" --reps 50 2>&1 | tee "$OUT/dl.log"
echo "isaac-dl exit: ${PIPESTATUS[0]}" | tee -a "$OUT/dl.log"
timeout 120 "$dir/isaac-e2e" 2>&1 | tee "$OUT/e2e.log"
echo "isaac-e2e exit: ${PIPESTATUS[0]}" | tee -a "$OUT/e2e.log"
PYTHONUNBUFFERED=1 timeout 120 python3 "$dir/torch_ref.py" --reps 50 2>&1 | tee "$OUT/torch.log"
timeout 400 $san --tool memcheck --error-exitcode 9 "$dir/isaac-dl" --reps 1 > "$OUT/memcheck.log" 2>&1
echo "memcheck exit: $?" | tee -a "$OUT/memcheck.log"; tail -3 "$OUT/memcheck.log"
for tool in racecheck synccheck; do
  for fn in mlp_b16 classifier_f16 mlp_dynamic conv_block conv_block_nchw conv_nchw_odd conv_deep conv_f16 conv_f16_wide conv_pointwise conv_1d; do
    timeout 200 $san --tool $tool --error-exitcode 9 "$dir/isaac-dl" --reps 1 --only $fn >> "$OUT/$tool.log" 2>&1
    echo "$tool $fn exit: $?" | tee -a "$OUT/$tool.log"
  done
done
