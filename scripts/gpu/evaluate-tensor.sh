#!/usr/bin/env bash
# On the GPU machine (an H100, the chip the datasets were measured on): the
# held-out e1/e10 evaluation of the tensor-core models. Carry
# .carry/eval-<set> (made here by scripts/eval/pack-tensor.sh wgmma|mma;
# EVAL=.carry/eval-mma names it, default .carry/eval-wg): eval.tar.xz holds
# the candidates' PTX (ptx/) and their (kernel, input) pairs (samples.txt).
#   1. isaac-bench --collect: every pair timed, median of 5 runs after one
#      run (warm L2, alpha 1, beta 0), leading dimensions rounded up to 8
#      elements as in the 16-bit datasets (the inputs' already are) ->
#      $OUT/eval.csv; resumes from $EVAL/eval.csv when that is carried back.
#   2. isaac-bench --check-only on the same pairs (every timed kernel on
#      each input it was timed on, against the fp64 reference) ->
#      $OUT/eval-check.txt: the kernels come from a working tree, and a
#      fast wrong kernel would otherwise be scored as the best.
# Then, here:
#   python3 scripts/eval/score.py build/eval-<set>/ranks.json eval.csv \
#       --check eval-check.txt
# Environment: LIMIT=150 seconds for the timing, CHECK_LIMIT=90 seconds for
# the check (CHECK=0 skips it); COLD=1 times the pairs with their operands
# out of L2 (isaac-bench --cold-l2, the tables' regime) instead of warm.
# The wgmma set (24 inputs in two types, 1,667 kernels) took 93 s on an
# H200 for build, assembly, timing and check, and a COLD=1 run after it
# 55 s (docs/results/evaluate-wgmma-h200.log).
set -uo pipefail
OUT="${OUT:-/tmp/isaac-out}"; mkdir -p "$OUT"
EVAL="${EVAL:-.carry/eval-wg}"
exec > >(tee "$OUT/$(basename "$EVAL").log") 2>&1
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
work=/tmp/isaac-$(basename "$EVAL"); rm -rf "$work"; mkdir -p "$work"
tar -xJf "$EVAL/eval.tar.xz" -C "$work" || exit 1
cat "$work/provenance.txt"
bash scripts/gpu/build-bench.sh || exit 1
echo "built in $(( $(date +%s) - t0 )) s"
bench=build-gpu/bin/isaac-bench
bash scripts/gpu/assemble.sh "$work/ptx"

echo "== timing (at $(( $(date +%s) - t0 )) s)"
[ -f "$EVAL/eval.csv" ] && cp "$EVAL/eval.csv" "$OUT/eval.csv"
$bench --ptx-dir "$work/ptx" --collect "$work/samples.txt" \
  --out "$OUT/eval.csv" --reps 5 --ld-align 8 ${COLD:+--cold-l2} \
  --time-limit "${LIMIT:-150}" 2>&1 | tail -4
echo "eval.csv: $(grep -c ',ok$' "$OUT/eval.csv") ok rows," \
  "$(grep -v '^#' "$OUT/eval.csv" | grep -vc ',ok$\|^dtype,') others" \
  "of $(grep -vc '^#' "$work/samples.txt") pairs"

if [ "${CHECK:-1}" != 0 ]; then
  echo "== check (at $(( $(date +%s) - t0 )) s)"
  # The inputs as --shape lines (the layout is the kernel name's fourth
  # field), each input's kernels as --candidates and the types tokens (the
  # third field) as --dtype.
  awk '{ split($1, f, "_"); print $2 "," $3 "," $4 "," f[4] }' \
    "$work/samples.txt" | sort -u >"$work/shapes.txt"
  awk '{ print $2, $3, $4, $1 }' "$work/samples.txt" >"$work/candidates.txt"
  types=$(awk '{ split($1, f, "_"); print f[3] }' "$work/samples.txt" |
    sort -u | paste -sd,)
  timeout "${CHECK_LIMIT:-90}" $bench --ptx-dir "$work/ptx" \
    --shapes-file "$work/shapes.txt" --candidates "$work/candidates.txt" \
    --dtype "$types" --all --check-only >"$OUT/eval-check.txt" 2>&1
  echo "check exit $? ($(grep -c ' PASS ' "$OUT/eval-check.txt") passed," \
    "$(grep -c ' FAIL ' "$OUT/eval-check.txt") failed)"
  grep ' FAIL ' "$OUT/eval-check.txt" | head -20
fi
echo "evaluate-tensor.sh: done in $(( $(date +%s) - t0 )) s"
