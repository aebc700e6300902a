#!/usr/bin/env bash
# On the GPU machine: the correctness sweep over many random legal
# kernels (the 2051 of the model evaluation, .carry/eval/eval.tar.xz), on
# a reduced size set, to cover the configuration space broadly.
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
exec > >(tee "$OUT/sweep-random.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/gpu/build-bench.sh || exit 1
work=/tmp/isaac-eval; rm -rf "$work"; mkdir -p "$work"
tar -xJf .carry/eval/eval.tar.xz -C "$work" ptx-eval || exit 1
bash scripts/gpu/assemble.sh "$work/ptx-eval"
timeout "${LIMIT:-420}" build-gpu/bin/isaac-bench --ptx-dir "$work/ptx-eval" \
  --sweep --sweep-sizes "${SIZES:-1,7,33,129,1000}" 2>&1 | grep -v "^\[" | grep -v "0 failed  worst"
