#!/usr/bin/env bash
# On the GPU machine: the correctness sweep over the fused-epilogue kernels
# of .carry/fused (made here by scripts/make-gpu-kernels.sh: bias, scaling,
# residual, gelu, sigmoid, silu, clamp, f16/bf16 outputs, f64; KG = 1 and
# KG > 1, all layouts), then compute-sanitizer memcheck, racecheck and
# synccheck on f16-output split-K kernels (KG = 4 through the workspace in
# both modes, KG = 32 with tile counters), a bf16 one and f64 ones (KG = 8
# and 32) on edge shapes with misaligned pointers and batches. Everything goes to $OUT/sweep-fused.log.
#   SKIP_SWEEP=1           only the sanitizers
#   TOOLS="memcheck"       the sanitizer tools to run
#   SIZES=1,7,33,129,1000  replaces the sweep's size list (default: all of
#                          isaac-bench --sweep's, 1235 problems per kernel)
#   LIMIT=360              seconds for the sweep (its progress lines stay in
#                          the log, so a cut-off run still shows how far it
#                          got and every failure so far)
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
exec > >(tee "$OUT/sweep-fused.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nproc
bash scripts/gpu/build-bench.sh || exit 1
bench=build-gpu/bin/isaac-bench
dir=.carry/fused
bash scripts/gpu/assemble.sh "$dir"
if [ -z "${SKIP_SWEEP:-}" ]; then
  echo "== fused sweep"
  timeout "${LIMIT:-360}" $bench --ptx-dir "$dir" --sweep \
    ${SIZES:+--sweep-sizes "$SIZES"} 2>&1
  echo "sweep exit $?"
fi
# The kernel of the first --list line that matches a pattern.
pick() { $bench --ptx-dir "$dir" --list | grep -E -- "$1" | head -1 | cut -d' ' -f1; }
# Split-K kernels run in atomic mode (the last block of each tile applies
# the epilogue: fences, an atomic counter, a shared flag) and, with
# --deterministic, through the workspace and the reducer.
for tool in ${TOOLS:-memcheck racecheck synccheck}; do
  echo "== $tool"
  for spec in "kg=4 .*out=f16:--misalign" "out=bf16:--misalign" \
              "^isaac_gemm_f64_nt.*kg=8:--batch 3" \
              "kg=4 .*out=f16:--deterministic" "kg=32 .*out=f16:--misalign" \
              "^isaac_gemm_f64_nn.*kg=32:--batch 3"; do
    kernel=$(pick "${spec%%:*}")
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $bench \
      --ptx-dir "$dir" --kernel "$kernel" --shape 33,45,17,"$(echo "$kernel" | cut -d_ -f4)" \
      --shape 129,7,1000,"$(echo "$kernel" | cut -d_ -f4)",1003,1003,11 \
      ${spec#*:} --check-only >/tmp/$tool.log 2>&1
    echo "$tool $kernel ${spec#*:}: exit $?"; tail -2 /tmp/$tool.log
  done
done
