#!/usr/bin/env bash
# On the GPU machine: the wgmma convolution exploration of docs/perf.md
# ("What limits the wgmma convolutions"). Times every kernel of DIR/conv on
# the layers of DIR/conv-shapes.txt against cuDNN and every kernel of
# DIR/gemm on their implicit GEMMs (DIR/gemm-shapes.txt) against cuBLAS,
# then profiles with Nsight Compute, on the layer named by NCU_LAYER (a
# line number of conv-shapes.txt's layers, default 2: Conv10), the fastest
# conv kernel and the GEMM kernel of the same configuration on its
# implicit GEMM. (cuDNN's own kernel is not profiled: its algorithm search
# launches many kernels before the one it keeps.)
# DIR is made here by scripts/explore_conv_wgmma.py and compiled with
# isaac-opt (docs/perf.md). Writes $OUT/explore-{conv,gemm}.{csv,log} and
# $OUT/ncu-{conv,gemm}-isaac.txt.
#   usage: DIR=.carry/cx bash scripts/gpu/explore-conv.sh
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
dir="${DIR:-.carry/cx}"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
bash scripts/gpu/build-bench.sh || exit 1
. scripts/gpu/cudnn.sh
bench=build-gpu/bin/isaac-bench
bash scripts/gpu/assemble.sh "$dir/conv" "$dir/gemm"
timeout "${CONV_LIMIT:-240}" $bench --ptx-dir "$dir/conv" --conv \
  --conv-shapes-file "$dir/conv-shapes.txt" --dtype f16 --all \
  --candidates "$dir/conv-candidates.txt" "${cudnn_args[@]}" --reps 20 \
  --warmup 5 --csv "$OUT/explore-conv.csv" >"$OUT/explore-conv.log" 2>&1
echo "conv timing exit $?"
timeout "${GEMM_LIMIT:-150}" $bench --ptx-dir "$dir/gemm" \
  --shapes-file "$dir/gemm-shapes.txt" --dtype f16 --all \
  --candidates "$dir/gemm-candidates.txt" --reps 20 --warmup 5 \
  --csv "$OUT/explore-gemm.csv" >"$OUT/explore-gemm.log" 2>&1
echo "gemm timing exit $?"
[ -n "${SKIP_NCU:-}" ] && exit 0
layer=$(grep -v '^#' "$dir/conv-shapes.txt" | sed -n "${NCU_LAYER:-2}p")
gemm=$(grep -v '^#' "$dir/gemm-shapes.txt" | sed -n "${NCU_LAYER:-2}p")
# The layer's fastest conv kernel (the CSV's isaac_us column).
best=$(python3 - "$OUT/explore-conv.csv" "$layer" <<'PY'
import csv, sys
n, h, w, c, k, r, s = sys.argv[2].split(",")[:7]
rows = [x for x in csv.DictReader(open(sys.argv[1]))
        if (x["N"], x["H"], x["W"], x["C"], x["K"], x["R"], x["S"]) ==
        (n, h, w, c, k, r, s) and x["status"] == "PASS"]
print(min(rows, key=lambda x: float(x["isaac_us"]))["kernel"] if rows else "")
PY
)
[ -n "$best" ] || { echo "no passing conv kernel for $layer"; exit 0; }
twin=${best/isaac_conv_f16_nhwc_hwcf/isaac_gemm_f16_nn}
echo "ncu: $layer $best / $gemm $twin"
. "$(dirname "$0")/ncu-sections.sh"
conv=($bench --ptx-dir "$dir/conv" --conv --conv-shape "$layer" --dtype f16 \
  --kernel "$best" "${cudnn_args[@]}" --reps 1 --warmup 0)
timeout 120 ncu "${ncu_sections[@]}" -k regex:isaac_conv --launch-count 1 "${conv[@]}" \
  >"$OUT/ncu-conv-isaac.txt" 2>&1
echo "ncu conv isaac: exit $?"
timeout 120 ncu "${ncu_sections[@]}" -k regex:isaac_gemm --launch-count 1 $bench \
  --ptx-dir "$dir/gemm" --shape "$gemm" --dtype f16 --kernel "$twin" \
  --reps 1 --warmup 0 >"$OUT/ncu-gemm-isaac.txt" 2>&1
echo "ncu gemm isaac: exit $?"
