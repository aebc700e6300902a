#!/usr/bin/env bash
# The main job on the bundled example: installs what is missing, builds
# isaac-opt, compiles examples/gemms.mlir (DeepBench, LINPACK, ICA, LAPACK
# and batched GEMMs) to PTX for sm_90, and prints, for every GEMM in the
# order of the file, the configuration isaac uses and where it came from
# (the trained model, the analytic heuristic, the tuning cache, or written
# by hand in the input), then a summary of each generated kernel.
#
#   usage: example.sh [--no-build] [--out DIR] [FILE.mlir]
#   --no-build  use the isaac-opt already built in $ISAAC_BUILD_DIR (build/)
#   --out DIR   where the results go (default: $ISAAC_BUILD_DIR/example)
#   ISAAC_CHIP=sm_80 ...     another chip (default sm_90)
#   ISAAC_SELECT="cache=models/sm_90/tuning-cache.txt"
#                            more isaac-select-config options
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
chip="${ISAAC_CHIP:-sm_90}"
select_opts="chip=$chip${ISAAC_SELECT:+ $ISAAC_SELECT}"
do_build=1
out=""
example="$root/examples/gemms.mlir"
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) do_build=0 ;;
    --out) out="$2"; shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) example="$1" ;;
  esac
  shift
done
out="${out:-$build/example}"

if [ "$do_build" = 1 ]; then
  "$root/scripts/install-deps.sh"
  "$root/scripts/build.sh" isaac-opt
fi
opt="$build/bin/isaac-opt"
[ -x "$opt" ] || { echo "example.sh: $opt is not built" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out"
# 1. Selection. Its remarks (one per GEMM: the source of the configuration)
#    are kept for the summary; the debug locations in the output tie each
#    configured operation to its line in the input.
if ! "$opt" "$example" --isaac-select-config="$select_opts" \
     -mlir-print-local-scope -mlir-print-debuginfo \
     -o "$out/configured.mlir" 2>"$out/remarks.txt"; then
  cat "$out/remarks.txt" >&2
  exit 1
fi
# 2. Kernels, PTX and host code. Every GEMM now carries its configuration;
#    the pipeline's own selection would only say "given in the input", so
#    its remarks are not shown (errors and warnings are).
"$opt" "$out/configured.mlir" --mlir-diagnostic-verbosity-level=warnings \
  --isaac-pipeline="chip=$chip ptx-dir=$out/ptx" -o "$out/host.mlir"
python3 "$root/scripts/summarize.py" "$out/configured.mlir" \
  "$out/remarks.txt" "$out/ptx"
echo "PTX in $out/ptx; host module in $out/host.mlir"
