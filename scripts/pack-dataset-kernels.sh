#!/usr/bin/env bash
# Here: samples simt kernels and inputs with isaac-tune, compiles the
# kernels to PTX with isaac-opt (two processes) and packs them for the GPU
# machine in DEST (kernels.tar.xz, <dtype>-samples.txt): the f32 and f64
# datasets of data/sm_90, through scripts/pack-family-dataset.sh. See
# docs/tuning.md.
#   usage: pack-dataset-kernels.sh KERNELS_F32 KERNELS_F64 SHAPES_PER_KERNEL
#                                  [SEED_F32 SEED_F64 SKEWED DEST]
# Defaults: the first dataset (seeds 20261121 / 20261122, --skewed 0,
# DEST .carry/ds). KERNELS_F64 = 0 samples no f64 kernels.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
n32="${1:-2000}"; n64="${2:-400}"; r="${3:-25}"
seed32="${4:-20261121}"; seed64="${5:-20261122}"; skewed="${6:-0}"
dest="${7:-$root/.carry/ds}"
specs=()
[ "$n32" -gt 0 ] && specs+=("f32:$n32:$seed32")
[ "$n64" -gt 0 ] && specs+=("f64:$n64:$seed64")
exec bash "$root/scripts/pack-family-dataset.sh" simt sm_90 "$r" "$skewed" \
  "$dest" "${specs[@]}"
