#!/usr/bin/env bash
# Here (LLVM/MLIR): builds .carry/eval-<set>/eval.tar.xz for
# scripts/gpu/evaluate-tensor.sh: the e1/e10 candidates of the trained
# models of a tensor-core family on the held-out inputs of
# scripts/eval/shapes-tensor.txt and shapes-tensor-b.txt (24; --shapes FILE
# takes FILE's instead), each input in every type of the set,
# compiled for the set's chip (ptx/), and their (kernel, input) pairs
# (samples.txt); ranks.json stays in build/eval-<set> for score.py (a copy
# goes beside the archive). The sets:
#   wgmma  models/sm_90a/gemm-{f16,bf16}.mlp on sm_90a (.carry/eval-wg)
#   mma    models/sm_90/gemm-{f16,bf16,f32-mma,f64-mma}.mlp on sm_90: f16,
#          bf16, TF32 and f64 on DMMA (.carry/eval-mma)
# Per input the candidates are the model's top --model-k, the analytic
# model's top --heuristic-k in the family's space (wgmma: wgmma_analytic.cpp,
# since the compiler's model-dir=none ranks the mma space; mma: the
# compiler's own model-dir=none) and --random configurations drawn
# uniformly from the family's space (useless K splits skipped),
# deduplicated. make_eval.py refuses an input that occurs in a dataset of
# the chip's data directory and a ranking not made by a trained model.
# DTYPES=f16,... narrows the set's types. Extra arguments go to make_eval.py
# (e.g. --also fallback=none --also-k 10: the compiler's own fallback
# ranking, the analytic model in the mma space).
#   usage: pack-tensor.sh wgmma|mma [make_eval.py options]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
set_name="${1:-}"; shift || true
case "$set_name" in
  wgmma) chip=sm_90a; types=f16,bf16; sub=eval-wg; k=15; rnd=5 ;;
  mma) chip=sm_90; types=f16,bf16,tf32,f64; sub=eval-mma; k=15; rnd=5 ;;
  *) grep "^#   usage:" "$0" >&2; exit 2 ;;
esac
types="${DTYPES:-$types}"
work="$build/$sub"; rm -rf "$work"; mkdir -p "$work"
t0=$(date +%s)
# The build may change under a long pack (another session's ninja): the
# kernels must all come from one isaac-opt.
opt_sha() { sha256sum "$build/bin/isaac-opt" | cut -c1-16; }
sha0=$(opt_sha)
ranker=()
if [ "$set_name" = wgmma ]; then
  # The analytic ranker links the built model library: the same legality
  # and analyticCost as the isaac-opt and isaac-model-test of this build.
  c++ -std=c++17 -O2 -I "$root/include" "$root/scripts/eval/wgmma_analytic.cpp" \
    "$build/lib/Model/libisaac_model.a" -lpthread -o "$work/wgmma-analytic"
  ranker=(--heuristic-ranker "$work/wgmma-analytic")
fi
cat "$root/scripts/eval/shapes-tensor.txt" "$root/scripts/eval/shapes-tensor-b.txt" \
  >"$work/shapes.txt"
python3 "$root/scripts/eval/make_eval.py" --opt "$build/bin/isaac-opt" \
  --model-test "$build/bin/isaac-model-test" \
  --shapes "$work/shapes.txt" \
  --train-samples "$root"/data/"$chip"/gemm-*.csv.xz \
  --dtype "$types" --chip "$chip" --family "$set_name" "${ranker[@]}" \
  --useful-random --model-k "$k" --heuristic-k 10 --random "$rnd" \
  --out "$work" "$@"
t1=$(date +%s)
bash "$root/scripts/compile-ptx.sh" "$work/kernels.mlir:$work/ptx" \
  2>"$work/compile.log" || { tail -20 "$work/compile.log" >&2; exit 1; }
t2=$(date +%s)
have=$(ls "$work/ptx" | grep -c '\.ptx$' || true)
[ "$(opt_sha)" = "$sha0" ] || { echo "pack-tensor.sh: isaac-opt changed during the pack; run it again" >&2; exit 1; }
# Which compiler made the kernels: the GPU side's isaac-bench must be built
# from a tree whose kernel ABI matches (docs/abi.md).
{
  echo "isaac commit $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- lib include || echo ' + working tree')"
  echo "isaac-opt $(stat -c '%y' "$build/bin/isaac-opt") sha256 $sha0"
  echo "set $set_name: $types on $chip"
  echo "make_eval.py: $((t1 - t0)) s; compile-ptx.sh: $have kernels in $((t2 - t1)) s"
} >"$work/provenance.txt"
mkdir -p "$root/.carry/$sub"
tar -C "$work" -cJf "$root/.carry/$sub/eval.tar.xz" ptx samples.txt provenance.txt
cp "$work/ranks.json" "$root/.carry/$sub/ranks.json"
cat "$work/provenance.txt"
echo "$set_name eval: $have kernels, $(grep -vc '^#' "$work/samples.txt") timings" \
  "-> .carry/$sub/eval.tar.xz ($(du -h "$root/.carry/$sub/eval.tar.xz" | cut -f1));" \
  "ranks in $work/ranks.json"
