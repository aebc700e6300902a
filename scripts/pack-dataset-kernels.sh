#!/usr/bin/env bash
# Here: samples kernels and inputs with isaac-tune, compiles the kernels to
# PTX with isaac-opt (two processes) and packs them for the GPU machine in
# DEST (kernels.tar.xz, <dtype>-samples.txt). See docs/tuning.md.
#   usage: pack-dataset-kernels.sh KERNELS_F32 KERNELS_F64 SHAPES_PER_KERNEL
#                                  [SEED_F32 SEED_F64 SKEWED DEST]
# Defaults: the first dataset (seeds 20261121 / 20261122, --skewed 0,
# DEST .carry/ds). KERNELS_F64 = 0 samples no f64 kernels.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
n32="${1:-2000}"; n64="${2:-400}"; r="${3:-25}"
seed32="${4:-20261121}"; seed64="${5:-20261122}"; skewed="${6:-0}"
dest="${7:-$root/.carry/ds}"
work="$build/dataset"; rm -rf "$work"; mkdir -p "$work"
dtypes=""
for spec in "f32:$n32:$seed32" "f64:$n64:$seed64"; do
  IFS=: read -r dt n seed <<<"$spec"
  [ "$n" -gt 0 ] || continue
  dtypes="$dtypes $dt"
  "$build/bin/isaac-tune" sample --dtype "$dt" --kernels "$n" \
    --shapes-per-kernel "$r" --seed "$seed" --skewed "$skewed" --out "$work/$dt"
done
bash "$root/scripts/compile-ptx.sh" $(for dt in $dtypes; do
  echo "$work/$dt/kernels.mlir:$work/ptx-$dt"; done)
mkdir -p "$dest"
tar -C "$work" -cJf "$dest/kernels.tar.xz" $(for dt in $dtypes; do echo ptx-$dt; done)
for dt in $dtypes; do
  cp "$work/$dt/samples.txt" "$dest/$dt-samples.txt"
  head -1 "$work/$dt/kernels.mlir" >"$dest/$dt-sampled-by.txt"
done
ls -la "$dest"
