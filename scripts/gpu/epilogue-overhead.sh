#!/usr/bin/env bash
# On the GPU machine: what a fused epilogue costs. For each Table 4 GEMM,
# the compiler's top-1 configuration runs as a plain kernel and with a fused
# per-column bias + relu (.carry/epilogue, made here by
# scripts/make-gpu-kernels.sh), both checked against the fp64 reference and
# then timed on the same buffers (isaac-bench --epilogue-overhead). Writes
# $OUT/epilogue-overhead.csv (per problem: times, fused/plain; last row the
# geomean) and $OUT/epilogue-overhead.log.
#   DETERMINISTIC=1  split-K plain kernels reduce through the workspace, as
#                    fused ones always do (default: atomics)
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
exec > >(tee "$OUT/epilogue-overhead.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/gpu/build-bench.sh || exit 1
dir=.carry/epilogue
bash scripts/gpu/assemble.sh "$dir"
timeout "${LIMIT:-400}" build-gpu/bin/isaac-bench --ptx-dir "$dir" \
  --shapes table4 --candidates "$dir/candidates.txt" --topk 1 \
  --epilogue-overhead --epilogue-inputs col --csv "$OUT/epilogue-overhead.csv" \
  ${DETERMINISTIC:+--deterministic} 2>&1
