#!/usr/bin/env bash
# On the GPU machine: what limits the mma kernels (docs/perf.md, "What
# limits the mma kernels"). Times every kernel of each DIR on the f16 Table
# 4 problems of its layout (isaac-bench --all, with cuBLAS and cuBLASLt in
# the same run), then profiles three problems with Nsight Compute, isaac's
# kernel and the vendor's: LINPACK 2048^3, DeepBench-F 2560x64x2560 and ICA
# 32x32x60000 (the kernels named below must be in the DIRs).
#   usage: mma-explore.sh NT_DIR NN_DIR
# NT_DIR/NN_DIR: scripts/explore_mma.py's nt and nn sets compiled by
# isaac-opt (plus, for the top-1 column, the compiler's top-1 kernels of
# .carry/mma-table4). Writes $OUT/explore-nt.csv, explore-nn.csv and
# ncu-<problem>-{isaac,vendor}.txt.
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
nt="$1"; nn="$2"
bash scripts/gpu/build-bench.sh >"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
bash scripts/gpu/assemble.sh "$nt" "$nn"
b=build-gpu/bin/isaac-bench
for d in nt:"$nt" nn:"$nn"; do
  timeout 300 $b --ptx-dir "${d#*:}" --shapes table4,linpack4096 --dtype f16 --all \
    --reps 10 --warmup 3 --csv "$OUT/explore-${d%%:*}.csv" >"$OUT/explore-${d%%:*}.log" 2>&1
  echo "explore ${d%%:*}: exit $?"
done
pair() { bash scripts/gpu/ncu-pair.sh "$1" "$2" "$3" f16 "$4"; }
pair 2048,2048,2048,nt "$nt" isaac_gemm_f16_nt_mma_ml128_nl128_wm64_wn64_u32_kl1_kg1_v8_st4 linpack2048
pair 2560,64,2560,nn "$nn" isaac_gemm_f16_nn_mma_ml32_nl64_wm32_wn64_u64_kl4_kg1_v8_st8 db64
pair 32,32,60000,nt "$nt" isaac_gemm_f16_nt_mma_ml16_nl16_wm16_wn16_u64_kl1_kg32_v8_st8 ica32
