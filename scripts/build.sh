#!/usr/bin/env bash
# Configures (once) and builds isaac in ./build against LLVM/MLIR 22.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
# isaac-bench needs only the CUDA toolkit to build (it runs on GPU machines);
# building it here keeps it compiling and lets the tests check its CLI.
bench=()
if [ -x /usr/local/cuda/bin/nvcc ]; then
  bench=(-DISAAC_ENABLE_BENCH=ON -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc)
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DMLIR_LINK_MLIR_DYLIB=ON \
    "${bench[@]}"
fi
ninja -C "$build" "$@"
