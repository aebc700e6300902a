#!/usr/bin/env bash
# Builds the isaac end-to-end example (examples/e2e/README.md): gemm.mlir's
# linalg GEMMs become a native executable that runs them on the GPU and
# checks the results.
#
#   gemm.mlir ─isaac-opt --isaac-pipeline─▶ LLVM dialect (PTX embedded)
#             ─mlir-translate─▶ gemm.ll ─llc─▶ gemm.o
#   main.c + gemm.o + libisaac_runtime.a + cudart_static ─▶ isaac-e2e
#
# Usage: examples/e2e/build.sh [-o OUTPUT] [--no-build] [--compile-only]
#   -o OUTPUT       the executable (default $ISAAC_E2E_OUT, else
#                   <build>/e2e/isaac-e2e); intermediate files go next to it
#                   (or to $ISAAC_E2E_WORK)
#   --no-build      do not run scripts/build.sh first (isaac-opt and the
#                   runtime must already be built)
#   --compile-only  stop after gemm.o (no C compiler or CUDA toolkit needed)
# Environment: ISAAC_BUILD_DIR (default <repo>/build), ISAAC_CHIP (sm_90),
#   CUDA_HOME (/usr/local/cuda), CC (cc), CXX (c++), MLIR_TRANSLATE, LLC,
#   ISAAC_RUNTIME_LIB (default <build>/lib/libisaac_runtime.a).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
out="${ISAAC_E2E_OUT:-$build/e2e/isaac-e2e}"
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
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "build.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# LLVM 22 tools: Debian's versioned names, else the LLVM 22 bin directory.
tool() {
  if command -v "$1-22" >/dev/null 2>&1; then command -v "$1-22"
  elif [ -x "/usr/lib/llvm-22/bin/$1" ]; then echo "/usr/lib/llvm-22/bin/$1"
  else command -v "$1" || { echo "build.sh: $1 (LLVM 22) not found" >&2; exit 2; }
  fi
}
mlir_translate="${MLIR_TRANSLATE:-$(tool mlir-translate)}"
llc="${LLC:-$(tool llc)}"

# Echoes each command (to the script's stderr, even when the command's own
# stderr is redirected), then runs it.
exec 3>&2
run() { echo "+ $*" >&3; "$@"; }

if [ "$do_build" = 1 ]; then
  run bash "$root/scripts/build.sh" isaac-opt isaac_runtime isaac_runtime_static
fi
isaac_opt="$build/bin/isaac-opt"
[ -x "$isaac_opt" ] || { echo "build.sh: $isaac_opt not built" >&2; exit 2; }

mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
work="${ISAAC_E2E_WORK:-$(dirname "$out")}"
mkdir -p "$work"
rm -rf "$work/ptx"

# 1. Configurations, kernels, PTX (also written to ptx/ for inspection) and
#    the host code calling isaacGemmLaunch, in the LLVM dialect. The remarks
#    (how each configuration was chosen) go to gemm.remarks.txt; each
#    kernel's description (its PTX header, docs/abi.md) is printed.
run "$isaac_opt" "$here/gemm.mlir" \
  --isaac-pipeline="chip=$chip ptx-dir=$work/ptx" \
  -o "$work/gemm.pipeline.mlir" 2>"$work/gemm.remarks.txt" || {
  cat "$work/gemm.remarks.txt" >&2; exit 1; }
for ptx in "$work"/ptx/*.ptx; do
  sed -n 's|^// isaac.kernel |  kernel |p' "$ptx" >&2
done

# 2. LLVM IR; the host code must call the runtime.
run "$mlir_translate" --mlir-to-llvmir "$work/gemm.pipeline.mlir" -o "$work/gemm.ll"
for fn in gemm batched deepk; do
  grep -q "^define void @_mlir_ciface_$fn(" "$work/gemm.ll" || {
    echo "build.sh: gemm.ll lacks _mlir_ciface_$fn" >&2; exit 1; }
done
calls="$(grep -c 'call i32 @isaacGemmLaunch(' "$work/gemm.ll" || true)"
[ "$calls" = 3 ] || {
  echo "build.sh: gemm.ll calls isaacGemmLaunch $calls times, expected 3" >&2
  exit 1; }

# 3. Host object (position independent: the executable is a PIE).
run "$llc" -O2 -filetype=obj -relocation-model=pic "$work/gemm.ll" \
  -o "$work/gemm.o"

if [ "$do_link" = 0 ]; then
  echo "compiled $work/gemm.o" >&2
  exit 0
fi

# 4. The driver, then the executable: static isaac runtime (it dlopens
#    libcuda.so.1 at run time) and static cudart, so it runs without
#    LD_LIBRARY_PATH on any machine with an NVIDIA driver.
[ -f "$runtime" ] || { echo "build.sh: $runtime not built" >&2; exit 2; }
[ -f "$cuda/lib64/libcudart_static.a" ] || {
  echo "build.sh: $cuda/lib64/libcudart_static.a not found (set CUDA_HOME)" >&2
  exit 2; }
run "$cc" -std=c11 -O2 -Wall -Wextra -Werror -I"$root/include" \
  -I"$cuda/include" -c "$here/main.c" -o "$work/main.o"
run "$cxx" -o "$out" "$work/main.o" "$work/gemm.o" "$runtime" \
  -L"$cuda/lib64" -lcudart_static -lpthread -ldl -lrt
echo "built $out" >&2
