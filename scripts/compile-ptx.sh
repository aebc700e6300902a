#!/usr/bin/env bash
# Here (LLVM/MLIR): compiles MLIR files of configured GEMMs and
# convolutions to PTX with `isaac-opt --isaac-pipeline`, two processes at a
# time. Each file is split in two by kernel first (one function per kernel,
# each after a `// isaac_gemm_...` or `// isaac_conv_...` comment, as
# isaac-tune sample and make_eval.py write them), so that one large file
# keeps both cores busy.
#   usage: compile-ptx.sh FILE.mlir:PTX_DIR...
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
jobs=()
for spec in "$@"; do
  file="${spec%%:*}"; dir="${spec#*:}"
  rm -f "$file".part0.mlir "$file".part1.mlir
  awk -v out="$file.part" '/^\/\/ isaac_(gemm|conv)_/ { n++ } { print > (out (n % 2) ".mlir") }' \
    "$file"
  for part in "$file".part0.mlir "$file".part1.mlir; do
    [ -f "$part" ] && jobs+=("$part:$dir")
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} sh -c \
  'f="${1%:*}"; d="${1##*:}"; "$0" "$f" --isaac-pipeline="chip=sm_90 ptx-dir=$d" -o /dev/null' \
  "$build/bin/isaac-opt" {}
