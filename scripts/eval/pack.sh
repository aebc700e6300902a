#!/usr/bin/env bash
# Here (LLVM/MLIR): builds .carry/eval/eval.tar.xz for scripts/gpu/evaluate.sh
#   ptx-eval/, samples.txt   the e1/e10 candidates of the held-out inputs
#                            (make_eval.py; ranks.json stays in build/eval)
#   ptx-t4model/, t4-candidates.txt
#                            the shipped model's top-10 for every Table 4 GEMM
# Every f32 dataset under data/sm_90 is checked not to hold an evaluation
# input. Extra arguments go to make_eval.py (e.g. --also h200=DIR).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
opt="$build/bin/isaac-opt"
work="$build/eval"; rm -rf "$work"; mkdir -p "$work"
python3 "$root/scripts/eval/make_eval.py" --opt "$opt" \
  --model-test "$build/bin/isaac-model-test" \
  --train-samples "$root"/data/sm_90/gemm-f32*.csv.xz --out "$work" "$@"
"$opt" "$root/examples/table4.mlir" --isaac-select-config="chip=sm_90 topk=10" \
  -mlir-print-local-scope >"$work/t4sel.mlir" 2>"$work/t4sel.remarks"
python3 "$root/scripts/gen_kernels.py" candidates "$work/t4sel.mlir" \
  "$work/t4-candidates.txt" >"$work/t4kernels.mlir"
bash "$root/scripts/compile-ptx.sh" "$work/kernels.mlir:$work/ptx-eval" \
  "$work/t4kernels.mlir:$work/ptx-t4model"
mkdir -p "$root/.carry/eval"
tar -C "$work" -cJf "$root/.carry/eval/eval.tar.xz" ptx-eval ptx-t4model \
  samples.txt t4-candidates.txt
echo "eval: $(ls "$work/ptx-eval" | wc -l) kernels, $(wc -l <"$work/samples.txt") timings;" \
  "table4: $(ls "$work/ptx-t4model" | wc -l) kernels"
