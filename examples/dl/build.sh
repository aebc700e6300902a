#!/usr/bin/env bash
# Builds the DL example (examples/dl/README.md): model.mlir's functions on
# tensors become a native executable that runs them on the GPU, checks every
# output against fp64 and times them.
#
#   model.mlir ─isaac-opt --isaac-pipeline─▶ LLVM dialect (PTX embedded)
#              ─mlir-translate─▶ model.ll ─llc─▶ model.o
#   main.c + model.o + libisaac_runtime.a + cudart_static ─▶ isaac-dl
#
# Usage: examples/dl/build.sh [-o OUTPUT] [--no-build] [--compile-only]
#   -o OUTPUT       the executable (default <build>/dl/isaac-dl); intermediate
#                   files go next to it
#   --no-build      do not run scripts/build.sh first (isaac-opt and the
#                   runtime must already be built)
#   --compile-only  stop after model.o (no C compiler or CUDA toolkit needed)
# Environment: ISAAC_BUILD_DIR (default <repo>/build), ISAAC_CHIP (sm_90),
#   ISAAC_PIPELINE_OPTS (extra --isaac-pipeline options, e.g. model-dir=none),
#   CUDA_HOME (/usr/local/cuda), CC (cc), CXX (c++), MLIR_TRANSLATE, LLC,
#   ISAAC_RUNTIME_LIB (default <build>/lib/libisaac_runtime.a).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
out="$build/dl/isaac-dl"
chip="${ISAAC_CHIP:-sm_90}"
cuda="${CUDA_HOME:-/usr/local/cuda}"
cc="${CC:-cc}"
cxx="${CXX:-c++}"
runtime="${ISAAC_RUNTIME_LIB:-$build/lib/libisaac_runtime.a}"
do_build=1
do_link=1

while [ $# -gt 0 ]; do
  case "$1" in
    -o) [ $# -ge 2 ] || { echo "build.sh: -o needs a path" >&2; exit 2; }
        out="$2"; shift 2 ;;
    --no-build) do_build=0; shift ;;
    --compile-only) do_link=0; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "build.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

tool() {
  if command -v "$1-22" >/dev/null 2>&1; then command -v "$1-22"
  elif [ -x "/usr/lib/llvm-22/bin/$1" ]; then echo "/usr/lib/llvm-22/bin/$1"
  else command -v "$1" || { echo "build.sh: $1 (LLVM 22) not found" >&2; exit 2; }
  fi
}
mlir_translate="${MLIR_TRANSLATE:-$(tool mlir-translate)}"
llc="${LLC:-$(tool llc)}"

exec 3>&2
run() { echo "+ $*" >&3; "$@"; }

if [ "$do_build" = 1 ]; then
  run bash "$root/scripts/build.sh" isaac-opt isaac_runtime isaac_runtime_static
fi
isaac_opt="$build/bin/isaac-opt"
[ -x "$isaac_opt" ] || { echo "build.sh: $isaac_opt not built" >&2; exit 2; }

mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
work="$(dirname "$out")"
rm -rf "$work/ptx"

# 1. The whole program: fusion, selection, bufferization, isaac kernels, the
#    generic GPU path, PTX, runtime calls. Remarks (how each GEMM's
#    configuration was chosen, what runs on the generic path) are kept.
run "$isaac_opt" "$here/model.mlir" \
  --isaac-pipeline="chip=$chip ptx-dir=$work/ptx ${ISAAC_PIPELINE_OPTS:-}" \
  -o "$work/model.pipeline.mlir" 2>"$work/model.remarks.txt" || {
  cat "$work/model.remarks.txt" >&2; exit 1; }
echo "isaac kernels: $(ls "$work/ptx" | wc -l); generic-path ops: $(grep -c 'generic GPU path' "$work/model.remarks.txt" || true)" >&2

# 2. LLVM IR, with one C interface per function.
run "$mlir_translate" --mlir-to-llvmir "$work/model.pipeline.mlir" -o "$work/model.ll"
for fn in mlp_b1 mlp_b16 mlp_b512 mlp_dynamic transformer_block classifier_f16; do
  grep -q "^define void @_mlir_ciface_$fn(" "$work/model.ll" || {
    echo "build.sh: model.ll lacks _mlir_ciface_$fn" >&2; exit 1; }
done

# 3. Host object.
run "$llc" -O2 -filetype=obj -relocation-model=pic "$work/model.ll" -o "$work/model.o"
if [ "$do_link" = 0 ]; then
  echo "compiled $work/model.o" >&2
  exit 0
fi

# 4. The driver and the executable: static isaac runtime (which implements
#    the mgpu* functions of the upstream GPU path too) and static cudart.
[ -f "$runtime" ] || { echo "build.sh: $runtime not built" >&2; exit 2; }
run "$cc" -std=c11 -O2 -Wall -Wextra -Werror -I"$root/include" \
  -I"$cuda/include" -c "$here/main.c" -o "$work/main.o"
run "$cxx" -o "$out" "$work/main.o" "$work/model.o" "$runtime" \
  -L"$cuda/lib64" -lcudart_static -lpthread -ldl -lrt -lm
echo "built $out" >&2
