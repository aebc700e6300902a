#!/usr/bin/env bash
# On the GPU machine: the correctness sweep over the kernels of
# .carry/sweep (made here by scripts/make-gpu-kernels.sh), a misaligned and
# deterministic pass, and compute-sanitizer memcheck on a subset.
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
bash scripts/gpu/build-bench.sh || exit 1
bench=build-gpu/bin/isaac-bench
build-gpu/bin/isaac-runtime-test | tail -1
timeout 420 $bench --ptx-dir .carry/sweep --sweep 2>&1 | tee "$OUT/sweep.log" | tail -50
