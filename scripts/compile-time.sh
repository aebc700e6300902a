#!/bin/bash
# Compile time of one GEMM through the whole pipeline, with the trained
# model choosing its configuration and with that configuration written by
# hand (docs/perf.md, "Compile time").
#
#   scripts/compile-time.sh OUT REPS ISAAC_OPT [BEFORE_OPT] [-- NAME...]
#
# For each function NAME of examples/table4.mlir (default: all of them;
# INPUT=FILE takes another file's, e.g. examples/table4-half.mlir or the
# convolutions of examples/table5-half.mlir; CHIP=sm_90a compiles for that
# chip instead of sm_90, its wgmma family included),
# OUT/NAME/one.mlir holds the function alone and OUT/NAME/hand.mlir the
# same with `isaac.config` as ISAAC_OPT's isaac-select-config writes it (so
# both compile the same kernel). Then REPS times, in turn:
#   ISAAC_OPT one.mlir  --isaac-pipeline="chip=CHIP" -mlir-timing
#   ISAAC_OPT hand.mlir --isaac-pipeline="chip=CHIP" -mlir-timing
# (and the same with BEFORE_OPT, another build, e.g. main's, and/or with
# the models of BEFORE_MODEL_DIR=DIR, as model-dir=DIR), each report
# in OUT/NAME/{new,before}-{model,hand}-R.txt. Prints a Markdown table of
# the medians: the wall seconds of IsaacSelectConfig, of the pipeline on
# hand.mlir and on one.mlir, and their ratio.
set -euo pipefail

if [ $# -lt 3 ]; then
  sed -n '2,20p' "$0"
  exit 2
fi
out=$1 reps=$2 opt=$3
shift 3
before=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  before=$1
  shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
src=${INPUT:-$(cd "$(dirname "$0")/.." && pwd)/examples/table4.mlir}
chip=${CHIP:-sm_90}
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  mapfile -t names < <(sed -n 's/^func\.func @\([A-Za-z0-9_]*\)(.*/\1/p' "$src")
fi

for name in "${names[@]}"; do
  d=$out/$name
  mkdir -p "$d"
  # The file's head (comments, affine maps) up to its first function.
  sed -n '/^func\.func/q;p' "$src" > "$d/one.mlir"
  awk "/^func\\.func @${name}\\(/,/^}/" "$src" >> "$d/one.mlir"
  "$opt" "$d/one.mlir" --isaac-select-config="chip=$chip" -o "$d/hand.mlir" 2>/dev/null
  for r in $(seq "$reps"); do
    for which in new before; do
      bin=$opt opts="chip=$chip"
      if [ $which = before ]; then
        [ -n "$before" ] || [ -n "${BEFORE_MODEL_DIR:-}" ] || continue
        bin=${before:-$opt}
        [ -z "${BEFORE_MODEL_DIR:-}" ] || opts+=" model-dir=$BEFORE_MODEL_DIR"
      fi
      "$bin" "$d/one.mlir" --isaac-pipeline="$opts" -mlir-timing \
        -o /dev/null 2> "$d/$which-model-$r.txt"
      "$bin" "$d/hand.mlir" --isaac-pipeline="$opts" -mlir-timing \
        -o /dev/null 2> "$d/$which-hand-$r.txt"
    done
  done
done

python3 - "$out" "${names[@]}" <<'EOF'
import glob, re, statistics, sys

out, names = sys.argv[1], sys.argv[2:]


def times(path):
    text = open(path).read()
    total = float(re.search(r"Total Execution Time: ([0-9.]+)", text).group(1))
    # The wall-time column of the pass's line.
    sel = re.search(r"^\s*[0-9.]+ \([ 0-9.]+%\)\s+([0-9.]+) \([ 0-9.]+%\)"
                    r"\s+IsaacSelectConfig$", text, re.M)
    return total, float(sel.group(1)) if sel else 0.0


whiches = [w for w in ("before", "new")
           if glob.glob("%s/%s/%s-model-*.txt" % (out, names[0], w))]
head = "| GEMM |"
for w in whiches:
    head += " %s: selection | hand | model | ratio |" % w
print(head)
print("|---|" + "---|---|---|---|" * len(whiches))
met = 0
for name in names:
    row = "| `%s` |" % name
    for w in whiches:
        model = [times(p) for p in glob.glob("%s/%s/%s-model-*.txt" % (out, name, w))]
        hand = [times(p) for p in glob.glob("%s/%s/%s-hand-*.txt" % (out, name, w))]
        mt = statistics.median(t for t, _ in model)
        sel = statistics.median(s for _, s in model)
        ht = statistics.median(t for t, _ in hand)
        row += " %.2f | %.2f | %.2f | %.2f |" % (sel, ht, mt, mt / ht)
        if w == "new":
            met += mt / ht <= 1.5
    print(row)
print("\nratio <= 1.5: %d of %d" % (met, len(names)))
EOF
