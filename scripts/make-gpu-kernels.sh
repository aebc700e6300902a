#!/usr/bin/env bash
# Here (with LLVM/MLIR): generates the PTX kernels the GPU scripts use, in
# .carry/ (git-ignored; pass its folders to the device tool's `carry`).
#   .carry/sweep   the correctness-sweep kernels (gen_kernels.py sweep)
#   .carry/table4  the top-12 configurations of every Table 4 GEMM, as
#                  ranked by isaac-select-config (analytic heuristic or the
#                  shipped model), for isaac-bench --best
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
opt="$build/bin/isaac-opt"
topk="${TOPK:-12}"
mkdir -p "$root/.carry"
python3 "$root/scripts/gen_kernels.py" sweep >"$build/sweep-kernels.mlir"
rm -rf "$root/.carry/sweep"
"$opt" "$build/sweep-kernels.mlir" \
  --isaac-pipeline="chip=sm_90 ptx-dir=$root/.carry/sweep" -o /dev/null
"$opt" "$root/examples/table4.mlir" --isaac-select-config="chip=sm_90 topk=$topk" \
  -mlir-print-local-scope 2>/dev/null >"$build/table4-selected.mlir"
python3 "$root/scripts/gen_kernels.py" candidates "$build/table4-selected.mlir" \
  >"$build/table4-kernels.mlir"
rm -rf "$root/.carry/table4"
"$opt" "$build/table4-kernels.mlir" \
  --isaac-pipeline="chip=sm_90 ptx-dir=$root/.carry/table4" -o /dev/null
echo "sweep: $(ls "$root/.carry/sweep" | wc -l) kernels; table4: $(ls "$root/.carry/table4" | wc -l) kernels"
