#!/usr/bin/env bash
# Builds the isaac end-to-end example (examples/e2e/README.md): gemm.mlir's
# linalg GEMMs become a native executable that runs them on the GPU and
# checks the results.
#
#   gemm.mlir ─isaac-opt --isaac-pipeline─▶ LLVM dialect (PTX embedded)
#             ─mlir-translate─▶ gemm.ll ─llc─▶ gemm.o
#   main.c + gemm.o + libisaac_runtime.a + cudart_static ─▶ isaac-e2e
#
# Usage: examples/e2e/build.sh [-o OUTPUT] [--no-build] [--compile-only]
#   -o OUTPUT       the executable (default $ISAAC_E2E_OUT, else
#                   <build>/e2e/isaac-e2e); intermediate files go next to it
#                   (or to $ISAAC_E2E_WORK)
#   --no-build      do not run scripts/build.sh first (isaac-opt and the
#                   runtime must already be built)
#   --compile-only  stop after gemm.o (no C compiler or CUDA toolkit needed)
# Environment: ISAAC_BUILD_DIR (default <repo>/build), ISAAC_CHIP (sm_90),
#   CUDA_HOME (/usr/local/cuda), CC (cc), CXX (c++), MLIR_TRANSLATE, LLC,
#   ISAAC_RUNTIME_LIB (default <build>/lib/libisaac_runtime.a).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib/build-common.sh"
parse_args "${ISAAC_E2E_OUT:-$build/e2e/isaac-e2e}" 19 "$@"
prepare "${ISAAC_E2E_WORK:-}"

# 1. Configurations, kernels, PTX (also written to ptx/ for inspection) and
#    the host code calling isaacGemmLaunch, in the LLVM dialect. The remarks
#    (how each configuration was chosen) go to gemm.remarks.txt; each
#    kernel's description (its PTX header, docs/abi.md) is printed.
run "$isaac_opt" "$here/gemm.mlir" \
  --isaac-pipeline="chip=$chip ptx-dir=$work/ptx" \
  -o "$work/gemm.pipeline.mlir" 2>"$work/gemm.remarks.txt" || {
  cat "$work/gemm.remarks.txt" >&2; exit 1; }
for ptx in "$work"/ptx/*.ptx; do
  sed -n 's|^// isaac.kernel |  kernel |p' "$ptx" >&2
done

# 2. LLVM IR; the host code must call the runtime.
run "$mlir_translate" --mlir-to-llvmir "$work/gemm.pipeline.mlir" -o "$work/gemm.ll"
for fn in gemm batched deepk; do
  grep -q "^define void @_mlir_ciface_$fn(" "$work/gemm.ll" || {
    echo "build.sh: gemm.ll lacks _mlir_ciface_$fn" >&2; exit 1; }
done
calls="$(grep -c 'call i32 @isaacGemmLaunch(' "$work/gemm.ll" || true)"
[ "$calls" = 3 ] || {
  echo "build.sh: gemm.ll calls isaacGemmLaunch $calls times, expected 3" >&2
  exit 1; }

# 3. Host object, then the driver and the executable.
compile_host gemm
link gemm
