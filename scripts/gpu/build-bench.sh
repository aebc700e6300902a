#!/usr/bin/env bash
# On the GPU machine (CUDA, no LLVM): builds the runtime and isaac-bench
# in build-gpu. Logs go to $OUT when set.
set -euo pipefail
log=/tmp
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DISAAC_ENABLE_COMPILER=OFF -DISAAC_ENABLE_BENCH=ON \
  -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc >"$log/cmake.log" 2>&1 ||
  { tail -40 "$log/cmake.log"; exit 1; }
ninja -C build-gpu isaac-bench isaac-runtime-test >"$log/build.log" 2>&1 ||
  { tail -60 "$log/build.log"; exit 1; }
