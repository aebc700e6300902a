#!/usr/bin/env bash
# Here (LLVM/MLIR): builds .carry/eval-wg/eval.tar.xz for
# scripts/gpu/evaluate-wgmma.sh: the e1/e10 candidates of the wgmma models
# (models/sm_90a/gemm-{f16,bf16}.mlp) on the held-out inputs of
# scripts/eval/shapes-wgmma.txt, each input in f16 and in bf16, compiled for
# sm_90a (ptx/), and their (kernel, input) pairs (samples.txt); ranks.json
# stays in build/eval-wg for score.py (a copy goes beside the archive).
# Per input the candidates are the model's top --model-k, the analytic
# model's top --heuristic-k in the wgmma space (wgmma_analytic.cpp: the
# compiler's model-dir=none ranks the mma space instead) and --random
# configurations drawn uniformly from the wgmma space (useless K splits
# skipped), deduplicated. The defaults keep the pack under ~700 kernels
# (compile time here, assembly and timing time there). Every dataset under
# data/sm_90a is checked not to hold an input. Extra arguments go to
# make_eval.py (e.g. --also fallback=none --also-k 10: the compiler's own
# fallback ranking, the analytic model in the mma space).
#   usage: pack-wgmma.sh [make_eval.py options]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
work="$build/eval-wg"; rm -rf "$work"; mkdir -p "$work"
t0=$(date +%s)
# The build may change under a long pack (another session's ninja): the
# kernels must all come from one isaac-opt.
opt_sha() { sha256sum "$build/bin/isaac-opt" | cut -c1-16; }
sha0=$(opt_sha)
# The analytic ranker links the built model library: the same legality and
# analyticCost as the isaac-opt and isaac-model-test of this build.
c++ -std=c++17 -O2 -I "$root/include" "$root/scripts/eval/wgmma_analytic.cpp" \
  "$build/lib/Model/libisaac_model.a" -lpthread -o "$work/wgmma-analytic"
python3 "$root/scripts/eval/make_eval.py" --opt "$build/bin/isaac-opt" \
  --model-test "$build/bin/isaac-model-test" \
  --shapes "$root/scripts/eval/shapes-wgmma.txt" \
  --train-samples "$root"/data/sm_90a/gemm-*.csv.xz \
  --dtype f16,bf16 --chip sm_90a --family wgmma \
  --heuristic-ranker "$work/wgmma-analytic" --useful-random \
  --model-k 15 --heuristic-k 10 --random 5 --out "$work" "$@"
t1=$(date +%s)
bash "$root/scripts/compile-ptx.sh" "$work/kernels.mlir:$work/ptx" \
  2>"$work/compile.log"
t2=$(date +%s)
want=$(grep -c '^// isaac_gemm_' "$work/kernels.mlir")
have=$(ls "$work/ptx" | grep -c '\.ptx$' || true)
[ "$want" = "$have" ] || { echo "pack-wgmma.sh: $have of $want kernels compiled" >&2; exit 1; }
[ "$(opt_sha)" = "$sha0" ] || { echo "pack-wgmma.sh: isaac-opt changed during the pack; run it again" >&2; exit 1; }
# Which compiler made the kernels: the GPU side's isaac-bench must be built
# from a tree whose wgmma kernel ABI matches (docs/abi.md).
{
  echo "isaac commit $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- lib include || echo ' + working tree')"
  echo "isaac-opt $(stat -c '%y' "$build/bin/isaac-opt") sha256 $sha0"
  echo "make_eval.py: $((t1 - t0)) s; compile-ptx.sh: $have kernels in $((t2 - t1)) s"
} >"$work/provenance.txt"
mkdir -p "$root/.carry/eval-wg"
tar -C "$work" -cJf "$root/.carry/eval-wg/eval.tar.xz" ptx samples.txt provenance.txt
cp "$work/ranks.json" "$root/.carry/eval-wg/ranks.json"
cat "$work/provenance.txt"
echo "wgmma eval: $have kernels, $(grep -vc '^#' "$work/samples.txt") timings" \
  "-> .carry/eval-wg/eval.tar.xz ($(du -h "$root/.carry/eval-wg/eval.tar.xz" | cut -f1));" \
  "ranks in $work/ranks.json"
