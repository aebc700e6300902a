#!/usr/bin/env bash
# On the GPU machine: the tensor-core (mma) kernels from end to end in one
# run that keeps within BUDGET seconds (default 450, the build included, so
# under 8 minutes): builds the runtime and isaac-bench without LLVM
# (scripts/gpu/build-bench.sh: -DISAAC_ENABLE_COMPILER=OFF
# -DISAAC_ENABLE_BENCH=ON), then on the kernels of DIR
#   1. isaac-bench --check-only on Table 4 (every kernel of each problem's
#      type and layout, both betas),
#   2. isaac-bench --sweep (edge sizes, odd leading dimensions, misaligned
#      bases, batches, both betas, KG > 1 in both split-K modes),
#   3. compute-sanitizer memcheck, racecheck and synccheck on one kernel per
#      layout, one with KG > 1, one with KG > 16 (tile counters) and one of
#      each types token: small and odd
#      shapes, then misaligned, batched and deterministic,
# and on the kernels of TIMING_DIR
#   4. timing of Table 4 and LINPACK 4096^3 in TYPES against cuBLAS
#      (cublasGemmEx, f32 compute) and cuBLASLt (best of its heuristic's top
#      candidates), same run and stream, fastest passing kernel per problem.
# Writes to $OUT: mma.log (everything), mma-check.csv, mma-sweep.log,
# mma-timing.csv and mma-summary.txt (per problem isaac / best vendor, and
# the geomean per type; also printed last). A stage that would overrun the
# budget is cut short (its limit shrinks to leave time for the later ones)
# and says so.
# Kernels come from here (scripts/make-gpu-kernels.sh writes .carry/); pass
# the folders in the device tool's `carry`. Environment:
#   DIR=.carry/mma          kernels to check, sweep and sanitize
#   TIMING_DIR=DIR          kernels to time (default .carry/mma-table4 if it
#                           exists, else DIR); TIMING_DIR/candidates.txt,
#                           if there, restricts each problem to its listed
#                           kernels (isaac-bench --candidates)
#   TOPK=N                  with candidates.txt: only each problem's first N
#                           (TOPK=1: the compiler's own top-1)
#   TYPES=f16,bf16          GEMM types to time (isaac-bench --dtype)
#   SIZES=1,7,33,129,257,1000
#                           the sweep's sizes for M, N and K (isaac-bench
#                           --sweep-sizes: 200 problems a kernel, each in
#                           both betas and split-K modes; SIZES=all: its
#                           default list, 1235 problems)
#   LIMIT=110               seconds for the sweep at most
#   TOOLS="memcheck racecheck synccheck"  sanitizer tools ("" skips them)
#   SAN_LIMIT=150           seconds per sanitizer run (six runs)
#   REPS=20 WARMUP=5        timed and warm-up runs per measurement
#   WARM_L2=1               time on operands left in L2 (isaac-bench
#                           --warm-l2, the datasets' regime), not rotated
#   TIME_LIMIT=300          seconds for the timing at most
#   BUDGET=450              seconds for everything, the build included
#   SKIP_CHECK=1 SKIP_SWEEP=1 SKIP_TIMING=1   leave a stage out
set -uo pipefail
t0=$(date +%s)
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
exec > >(tee "$OUT/mma.log") 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash scripts/gpu/build-bench.sh || exit 1
echo "built in $(( $(date +%s) - t0 )) s"
build-gpu/bin/isaac-runtime-test | tail -1
bench=build-gpu/bin/isaac-bench
dir="${DIR:-.carry/mma}"
timing="${TIMING_DIR:-}"
if [ -z "$timing" ]; then
  timing="$dir"; [ -d .carry/mma-table4 ] && timing=.carry/mma-table4
fi
for d in "$dir" "$timing"; do
  [ -d "$d" ] || { echo "mma.sh: no kernel directory $d"; exit 1; }
done
budget="${BUDGET:-450}"
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

bash scripts/gpu/assemble.sh "$dir"
[ "$timing" != "$dir" ] && bash scripts/gpu/assemble.sh "$timing"

# What each stage leaves for the stages after it: only those that run
# (with every stage on, the check leaves 300 s and the sweep 240 s).
tools="${TOOLS-memcheck racecheck synccheck}"
need_san=0; [ -n "$tools" ] && need_san=230
need_timing=0; [ -z "${SKIP_TIMING:-}" ] && need_timing=10
need_sweep=0; [ -z "${SKIP_SWEEP:-}" ] && need_sweep=60

if [ -z "${SKIP_CHECK:-}" ]; then
  stage "check: Table 4, every kernel of $dir"
  t=$(allow 60 $(( need_sweep + need_san + need_timing )) check)
  if [ "$t" -gt 0 ]; then
    timeout "$t" $bench --ptx-dir "$dir" --shapes table4 --check-only \
      --csv "$OUT/mma-check.csv" 2>&1 | grep -v '^  pass'
    echo "check exit ${PIPESTATUS[0]}"
  fi
fi

if [ -z "${SKIP_SWEEP:-}" ]; then
  stage "sweep: every kernel of $dir"
  sizes="${SIZES:-1,7,33,129,257,1000}"
  [ "$sizes" = all ] && sizes=""
  t=$(allow "${LIMIT:-110}" $(( need_san + need_timing )) sweep)
  if [ "$t" -gt 0 ]; then
    # The progress lines stay in the log, so a cut-off run shows how far it
    # got and every failure so far.
    timeout "$t" $bench --ptx-dir "$dir" --sweep \
      ${sizes:+--sweep-sizes "$sizes"} >"$OUT/mma-sweep.log" 2>&1
    echo "sweep exit $? ($(grep -c '^\[' "$OUT/mma-sweep.log") kernels started)"
    grep -E '^  FAIL|^  \.\.\.|^sweep:|^isaac-bench' "$OUT/mma-sweep.log" | head -40
  fi
fi

if [ -n "$tools" ]; then
  stage "sanitizers: $tools"
  # One kernel per layout (KG = 1 where there is one) and one with KG > 1,
  # copied (with their cubins) to one directory that each run checks whole.
  san=/tmp/isaac-mma-sanitize; rm -rf "$san"; mkdir -p "$san"
  list=$($bench --ptx-dir "$dir" --list)
  picked=""
  for layout in nn nt tn tt; do
    k=$(echo "$list" | awk -v l="$layout" '$3 == l && $4 == "kg=1" {print $1; exit}')
    [ -z "$k" ] && k=$(echo "$list" | awk -v l="$layout" '$3 == l {print $1; exit}')
    picked="$picked $k"
  done
  picked="$picked $(echo "$list" | awk '$4 ~ /^kg=/ && $4 != "kg=1" && $1 ~ /^isaac_gemm_/ {print $1; exit}')"
  # And one with KG > 16, whose tiles the last block finishes in atomic
  # mode (tile counters: fused epilogues and 16-bit C, docs/abi.md).
  picked="$picked $(echo "$list" | awk '$4 ~ /^kg=/ && substr($4, 4) + 0 > 16 && $1 ~ /^isaac_gemm_/ {print $1; exit}')"
  # And one kernel of every types token (f16, bf16f32, tf32, f64, ...):
  # each has its own fragment path.
  picked="$picked $(echo "$list" | awk '$1 ~ /^isaac_gemm_/ { split($1, p, "_"); if (!(p[3] in seen)) { seen[p[3]] = 1; print $1 } }')"
  for k in $(echo $picked | tr ' ' '\n' | sort -u); do
    cp "$dir/$k.ptx" "$san/"; [ -f "$dir/$k.cubin" ] && cp "$dir/$k.cubin" "$san/"
    echo "sanitizing $k"
  done
  # Small and odd shapes in every layout; an odd K and odd leading
  # dimensions (the misaligned path); then misaligned bases, a batch of 2
  # and deterministic split-K.
  shapes=""
  for layout in nn nt tn tt; do
    shapes="$shapes --shape 33,45,17,$layout --shape 129,7,1000,$layout,1003,1003,11"
  done
  runs=$(( $(echo $tools | wc -w) * 2 ))
  for tool in $tools; do
    for extra in "" "--misalign --batch 2 --deterministic"; do
      t=$(allow "${SAN_LIMIT:-150}" $(( 120 + 20 * (runs - 1) )) "$tool ${extra:-plain}")
      runs=$(( runs - 1 ))
      [ "$t" -gt 0 ] || continue
      timeout "$t" compute-sanitizer --tool "$tool" --error-exitcode 9 \
        $bench --ptx-dir "$san" $shapes $extra --check-only \
        >"/tmp/mma-$tool.log" 2>&1
      status=$?
      echo "$tool ${extra:-plain}: exit $status ($(grep -c 'PASS' /tmp/mma-$tool.log) passing rows)"
      [ "$status" -ne 0 ] && grep -E 'ERROR SUMMARY|Invalid|Race|Barrier|FAIL' "/tmp/mma-$tool.log" | head -8
      tail -1 "/tmp/mma-$tool.log"
    done
  done
fi

if [ -z "${SKIP_TIMING:-}" ]; then
  stage "timing: Table 4 and LINPACK 4096^3 in ${TYPES:-f16,bf16}, kernels of $timing"
  cands=()
  if [ -f "$timing/candidates.txt" ]; then
    cands=(--candidates "$timing/candidates.txt")
    [ -n "${TOPK:-}" ] && cands+=(--topk "$TOPK")
  fi
  t=$(allow "${TIME_LIMIT:-300}" 10 timing)
  if [ "$t" -gt 0 ]; then
    timeout "$t" $bench --ptx-dir "$timing" --shapes table4,linpack4096 \
      --dtype "${TYPES:-f16,bf16}" --best "${cands[@]}" \
      --reps "${REPS:-20}" --warmup "${WARMUP:-5}" --bw-gbs "${BW:-3000}" \
      ${WARM_L2:+--warm-l2} --csv "$OUT/mma-timing.csv" 2>&1 | grep -v '^  pass'
    echo "timing exit ${PIPESTATUS[0]}"
  fi
  if [ -f "$OUT/mma-timing.csv" ]; then
    stage "summary: isaac over the better of cuBLAS and cuBLASLt"
    python3 scripts/gpu/mma_summary.py "$OUT/mma-timing.csv" "$OUT/mma-summary.txt"
  fi
fi
echo "mma.sh: done in $(elapsed) s"
