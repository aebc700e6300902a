#!/usr/bin/env bash
# Here (LLVM/MLIR): builds .carry/ceval/eval.tar.xz for
# scripts/gpu/evaluate-conv.sh: the e1/e10 candidates of the held-out
# convolutions (scripts/eval/conv-shapes.txt; make_conv_eval.py), compiled
# (ptx-eval/), and their (kernel, convolution) pairs (samples.txt);
# ranks.json stays in build/conv-eval for score.py. Every conv dataset
# under data/sm_90 and data/sm_90a and the samples of .carry/cds* are
# checked not to hold an evaluation input. Extra arguments go to
# make_conv_eval.py (e.g. --model-dir DIR, --dtypes f32).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
work="$build/conv-eval"; rm -rf "$work"; mkdir -p "$work"
train=$(ls "$root"/data/sm_90*/conv-*.csv.xz "$root"/.carry/cds*/*-samples.txt 2>/dev/null || true)
python3 "$root/scripts/eval/make_conv_eval.py" --opt "$build/bin/isaac-opt" \
  --model-test "$build/bin/isaac-model-test" --train-samples $train \
  --out "$work" "$@"
bash "$root/scripts/compile-ptx.sh" "$work/kernels.mlir:$work/ptx-eval" \
  2>"$work/compile.log" || { tail -20 "$work/compile.log" >&2; exit 1; }
have=$(ls "$work/ptx-eval" | grep -c '\.ptx$' || true)
mkdir -p "$root/.carry/ceval"
tar -C "$work" -cJf "$root/.carry/ceval/eval.tar.xz" ptx-eval samples.txt
echo "conv eval: $have kernels, $(grep -vc '^#' "$work/samples.txt") timings" \
  "-> .carry/ceval/eval.tar.xz ($(du -h "$root/.carry/ceval/eval.tar.xz" | cut -f1));" \
  "ranks in $work/ranks.json"
