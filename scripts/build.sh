#!/usr/bin/env bash
# Configures (once) and builds isaac in ./build against LLVM/MLIR 22.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir -DMLIR_LINK_MLIR_DYLIB=ON
fi
ninja -C "$build" "$@"
