#!/usr/bin/env bash
# The main job on the bundled example: installs what is missing, builds
# isaac-opt, compiles examples/gemms.mlir (DeepBench, LINPACK, ICA, LAPACK
# and batched GEMMs) to PTX for sm_90 and prints each op's configuration
# and a summary of each generated kernel.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" isaac-opt
example="${1:-$root/examples/gemms.mlir}"
chip="${ISAAC_CHIP:-sm_90}"
out="$build/example-ptx"
rm -rf "$out"
"$build/bin/isaac-opt" "$example" --isaac-select-config="chip=$chip" \
  -mlir-print-local-scope 2>/dev/null >"$build/example-configured.mlir"
"$build/bin/isaac-opt" "$build/example-configured.mlir" \
  --isaac-pipeline="chip=$chip ptx-dir=$out" -o "$build/example-host.mlir"
python3 "$root/scripts/summarize.py" "$build/example-configured.mlir" "$out"
echo "PTX in $out; host module in $build/example-host.mlir"
