#!/usr/bin/env bash
# On the GPU machine: isaac's convolution kernels from end to end in one run
# that keeps within BUDGET seconds (default 540, the build included): builds
# the runtime and isaac-bench without LLVM (scripts/gpu/build-bench.sh:
# -DISAAC_ENABLE_COMPILER=OFF -DISAAC_ENABLE_BENCH=ON), then on the
# convolution kernels (isaac_conv_*.ptx) of DIR
#   1. isaac-bench --conv --conv-sweep --check-only: every kernel on the
#      sweep's edge cases (strides 1/2, dilation 2, padding 0/1/same, C and
#      K of 1, 3 and odd values, 1x1 and non-square filters, N = 1, odd
#      sizes, every 4th problem misaligned), both betas, both split-K modes
#      for kg > 1, against the fp64 reference;
#   2. compute-sanitizer memcheck (plain, and misaligned + deterministic),
#      racecheck and synccheck (deterministic) on one kernel per layout, one
#      with kg > 1 and one of each types token, on six small problems;
# and on the kernels of TIMING_DIR
#   3. Table 5 of the ISAAC paper and the convolutions of ResNet-50 (batch
#      32), checked, then timed against cuDNN (the best of
#      cudnnFindConvolutionForwardAlgorithmEx's top 3 in NHWC and in NCHW)
#      in the same run, in each of TYPES that TIMING_DIR has kernels of.
# Writes to $OUT: conv.log (everything), conv-sweep.log, conv-sanitize.log,
# conv-<type>.csv and conv-<type>.png per timed type. A stage that would
# overrun the budget is cut short and says so.
# The kernels are made where isaac-opt is (paths as in this checkout):
#   python3 scripts/gen_kernels.py conv >/tmp/conv.mlir
#   build/bin/isaac-opt /tmp/conv.mlir \
#     --isaac-pipeline="chip=sm_90 ptx-dir=.carry/conv" -o /dev/null
#   build/bin/isaac-opt examples/table5.mlir -mlir-print-local-scope \
#     --isaac-select-config="chip=sm_90 topk=4" -o /tmp/table5-selected.mlir
#   mkdir -p .carry/conv-table5
#   python3 scripts/gen_kernels.py conv-candidates /tmp/table5-selected.mlir \
#     .carry/conv-table5/candidates.txt >/tmp/table5-kernels.mlir
#   build/bin/isaac-opt /tmp/table5-kernels.mlir \
#     --isaac-pipeline="chip=sm_90 ptx-dir=.carry/conv-table5" -o /dev/null
# and travel in the device tool's `carry` (.carry/conv, .carry/conv-table5).
# Environment:
#   DIR=.carry/conv         kernels to sweep and sanitize
#   TIMING_DIR=DIR          kernels to time (TIMING_DIR/candidates.txt, if
#                           there, restricts each problem to the kernels
#                           listed under its implicit GEMM's 'M N K')
#   TOPK=N                  with candidates.txt: each problem's first N
#   TYPES="f32 f16"         types to time (those TIMING_DIR has kernels of)
#   CUDNN_LIB=PATH          cuDNN 9's libcudnn.so.9 (default: the one of the
#                           Python wheel nvidia-cudnn, else ldconfig's)
#   LIMIT=150               seconds for the sweep at most
#   TOOLS="memcheck racecheck synccheck"  sanitizer tools ("" skips them)
#   SAN_LIMIT=60            seconds per sanitizer run (four runs)
#   SAN_SHAPES="N,H,W,..."  the sanitizers' problems instead of the seven
#                           below (space-separated --conv-shape values; e.g.
#                           the im2col TMA ones alone, racecheck being slow)
#   REPS=20 WARMUP=5        timed and warm-up runs per measurement
#   TIME_LIMIT=240          seconds per timed type at most
#   BUDGET=540              seconds for everything, the build included
#   SKIP_SWEEP=1 SKIP_TIMING=1   leave a stage out
set -uo pipefail
t0=$(date +%s)
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
exec > >(tee "$OUT/conv.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/gpu/build-bench.sh || exit 1
echo "built in $(( $(date +%s) - t0 )) s"
build-gpu/bin/isaac-runtime-test | tail -1
bench=build-gpu/bin/isaac-bench
dir="${DIR:-.carry/conv}"
timing="${TIMING_DIR:-$dir}"
for d in "$dir" "$timing"; do
  [ -d "$d" ] || { echo "conv.sh: no kernel directory $d"; exit 1; }
done
budget="${BUDGET:-540}"
elapsed() { echo $(( $(date +%s) - t0 )); }
# The seconds a stage may take: WANT, or less so that RESERVE seconds are
# left for the stages after it; 0 (and a note) when under 5 are left.
allow() {
  local want=$1 reserve=$2 name=$3
  local left=$(( budget - $(elapsed) - reserve ))
  if [ "$left" -lt 5 ]; then
    echo "note: $name skipped: BUDGET=$budget s is spent" >&2; echo 0; return
  fi
  if [ "$left" -lt "$want" ]; then
    echo "note: $name cut to $left s by BUDGET=$budget" >&2; echo "$left"; return
  fi
  echo "$want"
}
stage() { echo; echo "== $1 (at $(elapsed) s)"; }

. scripts/gpu/cudnn.sh

bash scripts/gpu/assemble.sh "$dir"
[ "$timing" != "$dir" ] && bash scripts/gpu/assemble.sh "$timing"
$bench --ptx-dir "$dir" --conv --list | grep '^isaac_conv_' | awk '{print $2, $3}' | sort | uniq -c

if [ -z "${SKIP_SWEEP:-}" ]; then
  stage "sweep: every convolution kernel of $dir"
  t=$(allow "${LIMIT:-150}" 300 sweep)
  if [ "$t" -gt 0 ]; then
    # The progress lines stay in the log, so a cut-off run shows how far it
    # got and every failure so far.
    timeout "$t" $bench --ptx-dir "$dir" --conv --conv-sweep --check-only \
      >"$OUT/conv-sweep.log" 2>&1
    echo "sweep exit $? ($(grep -c '^\[' "$OUT/conv-sweep.log") kernels started)"
    grep -E '^  FAIL|^  \.\.\.|^conv sweep:|^isaac-bench' "$OUT/conv-sweep.log" | head -40
  fi
fi

tools="${TOOLS-memcheck racecheck synccheck}"
if [ -n "$tools" ]; then
  stage "sanitizers: $tools"
  # One kernel per layout (kg = 1 where there is one), one with kg > 1 and
  # one of each types token, copied (with their cubins) to one directory
  # that each run checks whole.
  san=/tmp/isaac-conv-sanitize; rm -rf "$san"; mkdir -p "$san"
  list=$($bench --ptx-dir "$dir" --conv --list | grep '^isaac_conv_')
  picked=""
  for layout in nhwc_hwcf nhwc_fhwc; do
    k=$(echo "$list" | awk -v l="$layout" '$3 == l && $4 == "kg=1" {print $1; exit}')
    [ -z "$k" ] && k=$(echo "$list" | awk -v l="$layout" '$3 == l {print $1; exit}')
    picked="$picked $k"
  done
  picked="$picked $(echo "$list" | awk '$4 != "kg=1" {print $1; exit}')"
  picked="$picked $(echo "$list" | awk '!($2 in seen) { seen[$2] = 1; print $1 }')"
  for k in $(echo $picked | tr ' ' '\n' | sort -u); do
    cp "$dir/$k.ptx" "$san/"; [ -f "$dir/$k.cubin" ] && cp "$dir/$k.cubin" "$san/"
    echo "sanitizing $k"
  done
  # Odd C and K with padding; stride 2 with a 5x5 filter; 1x1 with C a
  # multiple of the vector width; dilation 2; "same" padding of an even
  # filter (more after than before); a deep reduction (split-K); the wgmma
  # kernels' im2col TMA path with stride 2 and dilation 2 (C = 128).
  shapes="--conv-shape 2,13,13,3,7,3,3,1,1,1,1 --conv-shape 1,9,14,17,31,5,5,2,2,2,2
    --conv-shape 3,7,7,64,16,1,1 --conv-shape 2,16,16,8,33,3,3,1,1,2,2,2,2
    --conv-shape 1,8,8,4,4,2,2,1,1,same,same --conv-shape 1,7,7,832,8,5,5,1,1,2,2
    --conv-shape 2,12,11,128,24,3,3,2,2,1,1,2,2"
  if [ -n "${SAN_SHAPES:-}" ]; then
    shapes=""
    for x in $SAN_SHAPES; do shapes="$shapes --conv-shape $x"; done
  fi
  runs=""
  for tool in $tools; do
    if [ "$tool" = memcheck ]; then
      runs="$runs memcheck:plain memcheck:misaligned"
    else
      runs="$runs $tool:deterministic"
    fi
  done
  left=$(echo $runs | wc -w)
  : >"$OUT/conv-sanitize.log"
  for run in $runs; do
    tool=${run%%:*}; variant=${run#*:}
    extra=""
    [ "$variant" = misaligned ] && extra="--misalign --deterministic"
    [ "$variant" = deterministic ] && extra="--deterministic"
    left=$(( left - 1 ))
    t=$(allow "${SAN_LIMIT:-60}" $(( 120 + 20 * left )) "$tool $variant")
    [ "$t" -gt 0 ] || continue
    log="/tmp/conv-$tool-$variant.log"
    # $shapes and $extra split into arguments on purpose.
    timeout "$t" compute-sanitizer --tool "$tool" --error-exitcode 9 \
      $bench --ptx-dir "$san" --conv $shapes $extra --check-only \
      >"$log" 2>&1
    status=$?
    echo "$tool $variant: exit $status ($(grep -c ' PASS ' "$log") passing rows)"
    [ "$status" -ne 0 ] && grep -E 'ERROR SUMMARY|Invalid|Race|Barrier|FAIL' "$log" | head -8
    tail -1 "$log"
    { echo "== $tool $variant: exit $status"; cat "$log"; } >>"$OUT/conv-sanitize.log"
  done
fi

if [ -z "${SKIP_TIMING:-}" ]; then
  cands=()
  if [ -f "$timing/candidates.txt" ]; then
    cands=(--candidates "$timing/candidates.txt")
    [ -n "${TOPK:-}" ] && cands+=(--topk "$TOPK")
  fi
  timed=$($bench --ptx-dir "$timing" --conv --list | grep '^isaac_conv_' | awk '{print $2}' | sort -u)
  types=""
  for type in ${TYPES:-f32 f16}; do
    echo "$timed" | grep -qx "$type" && types="$types $type"
  done
  [ -z "$types" ] && echo "conv.sh: $timing has no convolution kernels of ${TYPES:-f32 f16}"
  ntypes=$(echo $types | wc -w)
  for type in $types; do
    ntypes=$(( ntypes - 1 ))
    stage "timing: Table 5 and ResNet-50 in $type against cuDNN, kernels of $timing"
    t=$(allow "${TIME_LIMIT:-240}" $(( 10 + 60 * ntypes )) "timing $type")
    [ "$t" -gt 0 ] || continue
    timeout "$t" $bench --ptx-dir "$timing" --conv --conv-shapes table5,resnet50 \
      --dtype "$type" "${cands[@]}" "${cudnn_args[@]}" \
      --reps "${REPS:-20}" --warmup "${WARMUP:-5}" --bw-gbs "${BW:-3000}" \
      --csv "$OUT/conv-$type.csv" --png "$OUT/conv-$type.png" 2>&1 | grep -v '^  pass'
    echo "timing $type exit ${PIPESTATUS[0]}"
  done
fi
echo "conv.sh: done in $(elapsed) s"
