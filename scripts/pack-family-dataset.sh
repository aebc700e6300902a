#!/usr/bin/env bash
# Here: samples the kernels and inputs of tensor-core datasets with
# isaac-tune (one kernel family on one chip), compiles the kernels to PTX
# with isaac-opt (scripts/compile-ptx.sh) and packs them for the GPU
# machine in DEST: kernels.tar.xz (ptx-<types>/), <types>-samples.txt and
# <types>-sampled-by.txt, which scripts/gpu/collect.sh reads
# (LIMITS="<types>:SECONDS ..."). See docs/tuning.md.
#   usage: pack-family-dataset.sh FAMILY CHIP SHAPES_PER_KERNEL SKEWED DEST \
#                                 TYPES:KERNELS:SEED...
# e.g. the f64 (DMMA) and TF32 datasets of data/sm_90:
#   pack-family-dataset.sh mma sm_90 20 0.3 .carry/mds \
#       f64:1500:20261140 tf32:1000:20261141
# SAMPLE_ARGS="..." passes more options to isaac-tune sample (e.g.
# "--values kg=2,4,8": only those splits).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
[ $# -ge 6 ] || { sed -n 8,9p "$0" >&2; exit 2; }
family="$1"; chip="$2"; r="$3"; skewed="$4"; dest="$5"; shift 5
work="$build/dataset-$family"; rm -rf "$work"; mkdir -p "$work"
specs=()
types=()
for spec in "$@"; do
  IFS=: read -r t n seed <<<"$spec"
  types+=("$t")
  "$build/bin/isaac-tune" sample --dtype "$t" --family "$family" \
    --chip "$chip" --kernels "$n" --shapes-per-kernel "$r" --seed "$seed" \
    --skewed "$skewed" ${SAMPLE_ARGS:-} --out "$work/$t"
  specs+=("$work/$t/kernels.mlir:$work/ptx-$t")
done
# isaac-opt remarks once per kernel that its configuration was given; they
# go to a log (compile-ptx.sh fails unless every kernel compiled).
bash "$root/scripts/compile-ptx.sh" "${specs[@]}" 2>"$work/compile.log" ||
  { tail -20 "$work/compile.log" >&2; exit 1; }
mkdir -p "$dest"
tar -C "$work" -cJf "$dest/kernels.tar.xz" $(for t in "${types[@]}"; do echo "ptx-$t"; done)
for t in "${types[@]}"; do
  cp "$work/$t/samples.txt" "$dest/$t-samples.txt"
  head -1 "$work/$t/kernels.mlir" >"$dest/$t-sampled-by.txt"
done
ls -la "$dest"
