#!/usr/bin/env bash
# Here: samples convolution kernels and inputs with isaac-tune sample --op
# conv (f32 on the simt family, f16 on the mma family, or FAMILY), compiles the
# kernels to PTX with isaac-opt (two processes) and packs them for the GPU
# machine in DEST: kernels.tar.xz (ptx-f32/, ptx-f16/), <dtype>-samples.txt
# (their first lines say how they were made). No input is one of Table 5,
# ResNet-50 or the held-out evaluation (scripts/eval/conv-shapes.txt).
# Then, on the GPU machine: scripts/gpu/collect-conv.sh. See docs/tuning.md.
#   usage: pack-conv-dataset.sh [KERNELS_F32 KERNELS_F16 SHAPES_PER_KERNEL
#                                SEED_F32 SEED_F16 DEST]
# Defaults: 800 800 25 20261124 20261125 .carry/cds. KERNELS = 0 skips a
# dtype. CHIP=sm_90a FAMILY=wgmma sample that chip and family instead (the
# sm_90a f16 dataset of the wgmma conv kernels: 0 800 25 ... with them).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
n32="${1:-800}"; n16="${2:-800}"; r="${3:-25}"
seed32="${4:-20261124}"; seed16="${5:-20261125}"
dest="${6:-$root/.carry/cds}"
chip="${CHIP:-sm_90}"
family_args=(); [ -n "${FAMILY:-}" ] && family_args=(--family "$FAMILY")
work="$build/conv-dataset"; rm -rf "$work"; mkdir -p "$work"
commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
git -C "$root" diff --quiet HEAD 2>/dev/null || commit="$commit (modified)"
cd "$root" # the sampler records --exclude as given
dtypes=""
for spec in "f32:$n32:$seed32" "f16:$n16:$seed16"; do
  IFS=: read -r dt n seed <<<"$spec"
  [ "$n" -gt 0 ] || continue
  dtypes="$dtypes $dt"
  "$build/bin/isaac-tune" sample --op conv --dtype "$dt" --kernels "$n" \
    --shapes-per-kernel "$r" --seed "$seed" --chip "$chip" "${family_args[@]}" \
    --exclude scripts/eval/conv-shapes.txt --out "$work/$dt"
done
t0=$(date +%s)
bash "$root/scripts/compile-ptx.sh" $(for dt in $dtypes; do
  echo "$work/$dt/kernels.mlir:$work/ptx-$dt"; done) 2>"$work/compile.log"
echo "compiled $(cat "$work"/ptx-*/*.ptx | wc -c) bytes of PTX in" \
  "$(( $(date +%s) - t0 )) s"
mkdir -p "$dest"
tar -C "$work" -cJf "$dest/kernels.tar.xz" $(for dt in $dtypes; do echo ptx-$dt; done)
for dt in $dtypes; do
  want=$(grep -c '^// isaac_conv_' "$work/$dt/kernels.mlir")
  have=$(ls "$work/ptx-$dt" | grep -c '\.ptx$' || true)
  [ "$want" = "$have" ] || { echo "pack-conv-dataset: $dt: $have of $want kernels compiled" >&2; exit 1; }
  { head -1 "$work/$dt/samples.txt"
    echo "# compiled by: isaac-opt kernels.mlir --isaac-pipeline=\"chip=$chip ptx-dir=...\" (${CHIP:+CHIP=$CHIP }${FAMILY:+FAMILY=$FAMILY }scripts/pack-conv-dataset.sh $n32 $n16 $r $seed32 $seed16), isaac commit $commit"
    tail -n +2 "$work/$dt/samples.txt"; } >"$dest/$dt-samples.txt"
done
size=$(du -cb "$dest"/* | tail -1 | cut -f1)
[ "$size" -le $((64 * 1024 * 1024)) ] || { echo "pack-conv-dataset: $dest holds $size bytes, more than 64 MiB" >&2; exit 1; }
ls -la "$dest"
