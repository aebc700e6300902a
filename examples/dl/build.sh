#!/usr/bin/env bash
# Builds the DL example (examples/dl/README.md): model.mlir's functions on
# tensors become a native executable that runs them on the GPU, checks every
# output against fp64 and times them.
#
#   model.mlir ─isaac-opt --isaac-pipeline─▶ LLVM dialect (PTX embedded)
#              ─mlir-translate─▶ model.ll ─llc─▶ model.o
#   main.c + model.o + libisaac_runtime.a + cudart_static ─▶ isaac-dl
#
# Usage: examples/dl/build.sh [-o OUTPUT] [--no-build] [--compile-only]
#   -o OUTPUT       the executable (default <build>/dl/isaac-dl); intermediate
#                   files go next to it
#   --no-build      do not run scripts/build.sh first (isaac-opt and the
#                   runtime must already be built)
#   --compile-only  stop after model.o (no C compiler or CUDA toolkit needed)
# Environment: ISAAC_BUILD_DIR (default <repo>/build), ISAAC_CHIP (sm_90),
#   ISAAC_PIPELINE_OPTS (extra --isaac-pipeline options, e.g. model-dir=none),
#   CUDA_HOME (/usr/local/cuda), CC (cc), CXX (c++), MLIR_TRANSLATE, LLC,
#   ISAAC_RUNTIME_LIB (default <build>/lib/libisaac_runtime.a).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../lib/build-common.sh"
parse_args "$build/dl/isaac-dl" 19 "$@"
prepare

# 1. The whole program: fusion, selection, bufferization, isaac kernels, the
#    generic GPU path, PTX, runtime calls. Remarks (how each GEMM's
#    configuration was chosen, what runs on the generic path) are kept.
run "$isaac_opt" "$here/model.mlir" \
  --isaac-pipeline="chip=$chip ptx-dir=$work/ptx ${ISAAC_PIPELINE_OPTS:-}" \
  -o "$work/model.pipeline.mlir" 2>"$work/model.remarks.txt" || {
  cat "$work/model.remarks.txt" >&2; exit 1; }
echo "isaac kernels: $(ls "$work/ptx" | wc -l); generic-path ops: $(grep -c 'generic GPU path' "$work/model.remarks.txt" || true)" >&2

# 2. LLVM IR, with one C interface per function.
run "$mlir_translate" --mlir-to-llvmir "$work/model.pipeline.mlir" -o "$work/model.ll"
for fn in mlp_b1 mlp_b16 mlp_b512 mlp_dynamic transformer_block classifier_f16 \
    conv_block conv_block_nchw conv_nchw_odd conv_deep conv_f16 conv_f16_wide conv_pointwise conv_1d; do
  grep -q "^define void @_mlir_ciface_$fn(" "$work/model.ll" || {
    echo "build.sh: model.ll lacks _mlir_ciface_$fn" >&2; exit 1; }
done

# 3. Host object, then the driver and the executable.
compile_host model
link model
