#!/usr/bin/env bash
# Here: samples kernels and inputs with isaac-tune, compiles the kernels to
# PTX with isaac-opt (two processes) and packs them for the GPU machine in
# .carry/ds (kernels.tar.xz, <dtype>-samples.txt). See docs/tuning.md.
#   usage: pack-dataset-kernels.sh KERNELS_F32 KERNELS_F64 SHAPES_PER_KERNEL
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
n32="${1:-2000}"; n64="${2:-400}"; r="${3:-25}"
work="$build/dataset"; rm -rf "$work"; mkdir -p "$work"
"$build/bin/isaac-tune" sample --dtype f32 --kernels "$n32" \
  --shapes-per-kernel "$r" --seed 20261121 --out "$work/f32"
"$build/bin/isaac-tune" sample --dtype f64 --kernels "$n64" \
  --shapes-per-kernel "$r" --seed 20261122 --out "$work/f64"
# One function per kernel: split each file in two for two compilers.
for dt in f32 f64; do
  awk -v out="$work/$dt/part" '
    /^\/\/ isaac_gemm_/ { n++ }
    { print > (out (n % 2) ".mlir") }' "$work/$dt/kernels.mlir"
done
ls "$work"/f32/part*.mlir "$work"/f64/part*.mlir | xargs -P 2 -I{} sh -c \
  '"$0" "$1" --isaac-pipeline="chip=sm_90 ptx-dir=$(dirname "$1")/../ptx-$(basename $(dirname "$1"))" -o /dev/null' \
  "$build/bin/isaac-opt" {}
mkdir -p "$root/.carry/ds"
tar -C "$work" -cJf "$root/.carry/ds/kernels.tar.xz" ptx-f32 ptx-f64
cp "$work/f32/samples.txt" "$root/.carry/ds/f32-samples.txt"
cp "$work/f64/samples.txt" "$root/.carry/ds/f64-samples.txt"
ls -la "$root/.carry/ds"
