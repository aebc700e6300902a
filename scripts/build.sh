#!/usr/bin/env bash
# Configures (once) and builds isaac in ./build against LLVM/MLIR 22.
# CMake's output goes to build/cmake-configure.log (shown if it fails); the
# build shows Ninja's progress, [done/total, elapsed], one line per step.
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
  mkdir -p "$build"
  log="$build/cmake-configure.log"
  echo "build: configuring $build (log: $log)"
  if ! cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DMLIR_LINK_MLIR_DYLIB=ON \
      "${bench[@]}" >"$log" 2>&1; then
    echo "build: cmake failed; the end of $log:" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
fi
echo "build: ninja $* (the first build takes minutes; see README.md)"
NINJA_STATUS="${NINJA_STATUS:-[%f/%t, %es] }" ninja -C "$build" "$@"
