#!/usr/bin/env bash
# On the GPU machine, one call: correctness sweep, compute-sanitizer memcheck
# on a subset, the end-to-end executable, the e1/e10 timings of the held-out
# evaluation and Table 4 with the model's top-10 re-benchmarked against
# cuBLAS / cuBLASLt (writing the tuning cache). Inputs, all in .carry/
# (made here, see docs/perf.md and docs/model-eval.md):
#   sweep/                     gen_kernels.py sweep kernels
#   e2e/isaac-e2e              examples/e2e/build.sh output
#   eval/eval.tar.xz           ptx-eval/, ptx-t4model/, samples.txt,
#                              t4-candidates.txt
# CHECKS=0 skips the correctness sweep and memcheck (when the generator
# is unchanged since a run that had them).
# Peak and bandwidth of the roofline: H200/H100 SXM FP32 and FP64 (tensor
# core) 67 TFLOPS; $BW GB/s (H200 4800, H100 3350).
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
BW="${BW:-4800}"
# At most 8 files come back from $OUT: the logs all go to run.log.
exec > >(tee "$OUT/run.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/gpu/build-bench.sh || exit 1
bench=build-gpu/bin/isaac-bench
work=/tmp/isaac-eval; rm -rf "$work"; mkdir -p "$work"
tar -xJf .carry/eval/eval.tar.xz -C "$work" || exit 1
bash scripts/gpu/assemble.sh .carry/sweep "$work/ptx-eval" "$work/ptx-t4model"

if [ "${CHECKS:-1}" != 0 ]; then
echo "== sweep"
timeout 120 $bench --ptx-dir .carry/sweep --sweep 2>&1 | grep -v "^\["
echo "== memcheck"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $bench \
  --ptx-dir .carry/sweep --kernel isaac_gemm_f32_tn_ml32_nl32_ms4_ns4_u16_ks2_kl2_kg4_v4 \
  --shape 33,45,17,tn --shape 129,7,1000,tn,1003,9,11 --misalign --check-only \
  >/tmp/memcheck.log 2>&1
echo "memcheck exit $?"; tail -2 /tmp/memcheck.log
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $bench \
  --ptx-dir .carry/sweep --kernel isaac_gemm_f64_nt_ml16_nl16_ms2_ns2_u16_ks2_kl4_kg8_v1 \
  --shape 31,33,1000,nt --deterministic --check-only >/tmp/memcheck.log 2>&1
echo "memcheck (f64, deterministic split-K) exit $?"; tail -2 /tmp/memcheck.log
fi
echo "== end-to-end"
./.carry/e2e/isaac-e2e 2>&1
echo "== evaluation timings"
timeout 200 $bench --ptx-dir "$work/ptx-eval" --collect "$work/samples.txt" \
  --out "$OUT/eval.csv" --reps 5 2>&1 | tail -2
echo "== Table 4, model top-10"
timeout 300 $bench --ptx-dir "$work/ptx-t4model" --shapes table4 --best \
  --candidates "$work/t4-candidates.txt" --cache-out "$OUT/tuning-cache.txt" \
  --peak-tflops 67,67 --bw-gbs "$BW" --csv "$OUT/table4-model.csv" \
  --png "$OUT/table4-model.png" 2>&1
