#!/usr/bin/env bash
# Here: the compiler's own top-1 of several model directories on one input
# file, compiled into one folder for a single timing run on the GPU
# machine, so that the rankings are compared against the same vendor times.
#   usage: pack-top1.sh INPUT CHIP DEST LABEL=MODEL_DIR [LABEL=MODEL_DIR ...]
# MODEL_DIR as isaac-select-config's model-dir (<dir>/<chip>/gemm-<t>.mlp;
# "default" for the shipped models/). LABEL=MODEL_DIR@ISAAC_OPT selects and
# compiles that label with another isaac-opt build (e.g. main's, against a
# branch's measured rule; default: ISAAC_OPT, else build/bin/isaac-opt). Writes DEST/<LABEL>.txt (`M N K
# KERNEL`, each problem's top-1), DEST/candidates.txt (their union) and the
# PTX. On the GPU machine, carrying DEST:
#   build-gpu/bin/isaac-bench --ptx-dir DEST --shapes table4,linpack4096 \
#     --dtype f16,bf16 --all --candidates DEST/candidates.txt --csv t.csv
#   python3 scripts/eval/compare_top1.py t.csv LABEL=DEST/LABEL.txt ...
# OP=conv ranks the convolutions of INPUT instead (the conv models; lines
# `M N K KERNEL R,S,SH,SW` of the implicit GEMM); time them with
#   isaac-bench --ptx-dir DEST --conv --conv-shapes table5,resnet50 \
#     --dtype f16 --all --candidates DEST/candidates.txt --csv t.csv
# SELECT="..." adds isaac-select-config options (e.g. SELECT="tf32=true":
# f32 GEMMs ranked as TF32). TOPK=N (N >= 2) keeps each problem's first N
# candidates in DEST/<LABEL>.txt (rank order, the top-1 first) and in the
# PTX, for the re-benchmarked top N beside the top-1: time them with
# isaac-bench ... --topk N, then compare_top1.py t.csv top1=DEST/L.txt
# topN@N=DEST/L.txt.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
opt="${ISAAC_OPT:-$root/build/bin/isaac-opt}"
[ $# -ge 4 ] || { sed -n 5,6p "$0" >&2; exit 2; }
input="$1"; chip="$2"; dest="$3"; shift 3
mkdir -p "$dest"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
: >"$work/union.txt"
for spec in "$@"; do
  label="${spec%%=*}"; dir="${spec#*=}"; lopt="$opt"
  case "$dir" in *@*) lopt="${dir#*@}"; dir="${dir%%@*}" ;; esac
  [ -x "$lopt" ] || { echo "pack-top1.sh: $label: no isaac-opt at '$lopt'" >&2; exit 2; }
  models=""; [ "$dir" = default ] || models=" model-dir=$dir"
  "$lopt" "$input" -mlir-print-local-scope -o "$work/sel-$label.mlir" \
    --isaac-select-config="chip=$chip topk=${TOPK:-2}$models${SELECT:+ $SELECT}" 2>"$work/sel-$label.log" ||
    { cat "$work/sel-$label.log" >&2; exit 1; }
  # topk=2 writes the ranking (isaac.candidates); its first is the top-1.
  if [ "${OP:-gemm}" = conv ]; then
    python3 "$root/scripts/gen_kernels.py" conv-candidates \
      "$work/sel-$label.mlir" "$work/top2-$label.txt" >"$work/k-$label.mlir"
  else
    python3 "$root/scripts/gen_kernels.py" candidates "$work/sel-$label.mlir" \
      "$work/top2-$label.txt" >"$work/k-$label.mlir"
  fi
  # A problem's first line is its top-1 (compare_top1.py's rule); with
  # TOPK every candidate stays, in rank order.
  if [ -n "${TOPK:-}" ]; then
    cp "$work/top2-$label.txt" "$dest/$label.txt"
  else
    python3 "$root/scripts/eval/compare_top1.py" --first "$work/top2-$label.txt" \
      $([ "${OP:-gemm}" = conv ] && echo --conv) >"$dest/$label.txt"
  fi
  "$lopt" "$work/k-$label.mlir" --isaac-pipeline="chip=$chip ptx-dir=$dest" \
    -o /dev/null 2>/dev/null
  cat "$dest/$label.txt" >>"$work/union.txt"
  echo "$label: $(wc -l <"$dest/$label.txt") problems"
done
awk '!seen[$0]++' "$work/union.txt" >"$dest/candidates.txt"
echo "$(wc -l <"$dest/candidates.txt") (problem, kernel) pairs," \
  "$(ls "$dest"/*.ptx | wc -l) kernels -> $dest"
