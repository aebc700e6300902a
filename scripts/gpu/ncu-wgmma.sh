#!/usr/bin/env bash
# On the GPU machine: Nsight Compute profiles of the wgmma top-1 kernels of
# a few f16 problems next to cuBLAS/cuBLASLt (scripts/gpu/ncu-pair.sh), and
# the time of every kernel a launch makes (split-K reducers included), in
# $OUT/ncu.tgz (ncu-TAG-{isaac,vendor,times}.txt: one file, as the device
# tool brings back few).
#   DIR=.carry/wg-top bash scripts/gpu/ncu-wgmma.sh
# LIST=FILE replaces the problems below: lines of 'TAG M,N,K,LAYOUT KERNEL'
# (KERNEL without its isaac_gemm_ prefix).
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
dir="${DIR:-.carry/wg-top}"
bash scripts/gpu/build-bench.sh >"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
bash scripts/gpu/assemble.sh "$dir" >/dev/null
while read -r tag shape kernel; do
  [ -z "$tag" ] && continue
  bash scripts/gpu/ncu-pair.sh "$shape" "$dir" "isaac_gemm_$kernel" f16 "$tag"
  timeout 60 ncu --metrics gpu__time_duration.sum -k regex:isaac --launch-count 4 \
    build-gpu/bin/isaac-bench --ptx-dir "$dir" --kernel "isaac_gemm_$kernel" \
    --shape "$shape" --dtype f16 --reps 1 --warmup 0 >"$OUT/ncu-$tag-times.txt" 2>&1
done < <(if [ -n "${LIST:-}" ]; then cat "$LIST"; else cat <<'LIST'
lapack3456 3456,3456,32,nt f16_nt_wgmma_ml64_nl64_wm64_wn32_u32_kl1_kg1_v8_st4
db128 2560,128,2560,nn f16_nn_wgmma_ml64_nl64_wm64_wn64_u64_kl2_kg1_v8_st6
linpack1024 1024,1024,1024,nt f16_nt_wgmma_ml64_nl128_wm64_wn128_u64_kl2_kg1_v8_st4
linpack4096 4096,4096,4096,nt f16_nt_wgmma_ml128_nl256_wm64_wn128_u64_kl1_kg1_v8_st4
db16 2560,16,2560,nn f16_nn_wgmma_ml64_nl16_wm64_wn16_u64_kl1_kg8_v8_st5
LIST
fi)
(cd "$OUT" && tar czf ncu.tgz ncu-*.txt && rm -f ncu-*.txt && ls -la)
