#!/usr/bin/env bash
# Here (with LLVM/MLIR): generates the PTX kernels the GPU scripts use, in
# .carry/ (git-ignored; pass its folders to the device tool's `carry`).
#   .carry/sweep     the correctness-sweep kernels (gen_kernels.py sweep)
#   .carry/table4    the top-12 configurations of every Table 4 GEMM, as
#                    ranked by isaac-select-config (analytic heuristic or the
#                    shipped model), for isaac-bench --best
#   .carry/fused     the fused-epilogue sweep kernels (gen_kernels.py fused)
#   .carry/epilogue  each Table 4 GEMM's top-1 configuration, plain and with
#                    a fused per-column bias + relu (gen_kernels.py overhead),
#                    and candidates.txt naming each GEMM's plain kernel, for
#                    isaac-bench --epilogue-overhead
#   .carry/mma       the tensor-core check kernels (gen_kernels.py mma)
#   .carry/mma-table4  the top-TOPK mma configurations of every GEMM of
#                    examples/table4-half.mlir (f16 and bf16), as ranked by
#                    isaac-select-config, with candidates.txt in rank order
#                    (scripts/gpu/mma.sh, TOPK=1: the compiler's own top-1)
#   .carry/tf32-table4  the same for examples/table4.mlir's f32 GEMMs with
#                    TF32 opted in (select-config's tf32=true)
#   .carry/f64-table4  the same for examples/table4-f64.mlir (Table 4 and
#                    LINPACK 4096^3 in f64: on sm_90 the mma family, DMMA)
#                    for `TIMING_DIR=.carry/f64-table4 TYPES=f64 TOPK=1
#                    bash scripts/gpu/mma.sh` (against cublasDgemm)
# Where ptxas is installed, every fused and epilogue kernel is also
# assembled for sm_90 (and the script fails if one is refused).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
opt="$build/bin/isaac-opt"
topk="${TOPK:-12}"
ptxas="${PTXAS:-/usr/local/cuda/bin/ptxas}"
mkdir -p "$root/.carry"
# Compiles FILE into PTX_DIR. isaac-opt remarks on every configured op;
# they go to build/<dir>-compile.log and are shown only if the compile
# fails.
compile() {
  local log="$build/$(basename "$2")-compile.log"
  "$opt" "$1" --isaac-pipeline="chip=sm_90 ptx-dir=$2" -o /dev/null 2>"$log" ||
    { cat "$log" >&2; echo "isaac-opt failed on $1" >&2; exit 1; }
}
python3 "$root/scripts/gen_kernels.py" sweep >"$build/sweep-kernels.mlir"
rm -rf "$root/.carry/sweep"
compile "$build/sweep-kernels.mlir" "$root/.carry/sweep"
"$opt" "$root/examples/table4.mlir" --isaac-select-config="chip=sm_90 topk=$topk" \
  -mlir-print-local-scope 2>/dev/null >"$build/table4-selected.mlir"
python3 "$root/scripts/gen_kernels.py" candidates "$build/table4-selected.mlir" \
  >"$build/table4-kernels.mlir"
rm -rf "$root/.carry/table4"
compile "$build/table4-kernels.mlir" "$root/.carry/table4"

python3 "$root/scripts/gen_kernels.py" fused >"$build/fused-kernels.mlir"
rm -rf "$root/.carry/fused"
compile "$build/fused-kernels.mlir" "$root/.carry/fused"
# isaac.config of the selection above is the compiler's top-1.
rm -rf "$root/.carry/epilogue"
mkdir -p "$root/.carry/epilogue"
python3 "$root/scripts/gen_kernels.py" overhead "$build/table4-selected.mlir" \
  "$root/.carry/epilogue/candidates.txt" >"$build/epilogue-kernels.mlir"
compile "$build/epilogue-kernels.mlir" "$root/.carry/epilogue"

python3 "$root/scripts/gen_kernels.py" mma >"$build/mma-kernels.mlir"
rm -rf "$root/.carry/mma"
compile "$build/mma-kernels.mlir" "$root/.carry/mma"
"$opt" "$root/examples/table4-half.mlir" --isaac-select-config="chip=sm_90 topk=$topk" \
  -mlir-print-local-scope 2>/dev/null >"$build/table4-half-selected.mlir"
rm -rf "$root/.carry/mma-table4"
mkdir -p "$root/.carry/mma-table4"
python3 "$root/scripts/gen_kernels.py" candidates "$build/table4-half-selected.mlir" \
  "$root/.carry/mma-table4/candidates.txt" >"$build/mma-table4-kernels.mlir"
compile "$build/mma-table4-kernels.mlir" "$root/.carry/mma-table4"
# The f32 Table 4 with TF32 opted in (select-config's tf32 option).
"$opt" "$root/examples/table4.mlir" \
  --isaac-select-config="chip=sm_90 topk=$topk tf32=true" \
  -mlir-print-local-scope 2>/dev/null >"$build/table4-tf32-selected.mlir"
rm -rf "$root/.carry/tf32-table4"
mkdir -p "$root/.carry/tf32-table4"
python3 "$root/scripts/gen_kernels.py" candidates "$build/table4-tf32-selected.mlir" \
  "$root/.carry/tf32-table4/candidates.txt" >"$build/tf32-table4-kernels.mlir"
compile "$build/tf32-table4-kernels.mlir" "$root/.carry/tf32-table4"
# f64 Table 4 on DMMA (sm_90 ranks f64 in the mma family's space).
"$opt" "$root/examples/table4-f64.mlir" --isaac-select-config="chip=sm_90 topk=$topk" \
  -mlir-print-local-scope 2>/dev/null >"$build/table4-f64-selected.mlir"
rm -rf "$root/.carry/f64-table4"
mkdir -p "$root/.carry/f64-table4"
python3 "$root/scripts/gen_kernels.py" candidates "$build/table4-f64-selected.mlir" \
  "$root/.carry/f64-table4/candidates.txt" >"$build/f64-table4-kernels.mlir"
compile "$build/f64-table4-kernels.mlir" "$root/.carry/f64-table4"

if [ -x "$ptxas" ]; then
  failed=$(find "$root/.carry/fused" "$root/.carry/epilogue" -name '*.ptx' |
    xargs -P 2 -I{} sh -c '"$0" -arch=sm_90 "$1" -o /dev/null >/dev/null 2>&1 || echo "$1"' \
      "$ptxas" {})
  if [ -n "$failed" ]; then
    echo "ptxas refused:" >&2
    echo "$failed" >&2
    exit 1
  fi
  echo "ptxas -arch=sm_90 accepts every fused and epilogue kernel"
fi
count() { find "$root/.carry/$1" -name '*.ptx' | wc -l; }
echo "sweep: $(count sweep) kernels; table4: $(count table4) kernels;" \
  "fused: $(count fused) kernels; epilogue: $(count epilogue) kernels" \
  "($(find "$root/.carry/epilogue" -name '*_ep*.ptx' | wc -l) fused);" \
  "mma: $(count mma) kernels; mma-table4: $(count mma-table4) kernels;" \
  "tf32-table4: $(count tf32-table4) kernels; f64-table4: $(count f64-table4) kernels"
