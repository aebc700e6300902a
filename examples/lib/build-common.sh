# Shared by the examples' build scripts (examples/e2e/build.sh,
# examples/dl/build.sh), which source it after setting `here` (the example's
# directory) and `out` (the default executable path; "" for <build>/<dflt>).
# It parses their common options, finds the LLVM 22 tools, builds isaac-opt
# and the runtime, and links the driver; each script keeps what is its own
# (the pipeline run and what it checks in the LLVM IR).
#
# Options: -o OUTPUT, --no-build, --compile-only, -h/--help (prints the
# calling script's comment header, lines 2..$help_end).
# Environment: ISAAC_BUILD_DIR (default <repo>/build), ISAAC_CHIP (sm_90),
#   CUDA_HOME (/usr/local/cuda), CC (cc), CXX (c++), MLIR_TRANSLATE, LLC,
#   ISAAC_RUNTIME_LIB (default <build>/lib/libisaac_runtime.a).

root="$(cd "$here/../.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
chip="${ISAAC_CHIP:-sm_90}"
cuda="${CUDA_HOME:-/usr/local/cuda}"
cc="${CC:-cc}"
cxx="${CXX:-c++}"
runtime="${ISAAC_RUNTIME_LIB:-$build/lib/libisaac_runtime.a}"
do_build=1
do_link=1

# parse_args DEFAULT_OUT HELP_END "$@": sets out, do_build, do_link.
parse_args() {
  out="$1"; local help_end="$2"; shift 2
  while [ $# -gt 0 ]; do
    case "$1" in
      -o) [ $# -ge 2 ] || { echo "build.sh: -o needs a path" >&2; exit 2; }
          out="$2"; shift 2 ;;
      --no-build) do_build=0; shift ;;
      --compile-only) do_link=0; shift ;;
      -h|--help) sed -n "2,${help_end}p" "$0"; exit 0 ;;
      *) echo "build.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
  done
}

# LLVM 22 tools: Debian's versioned names, else the LLVM 22 bin directory.
tool() {
  if command -v "$1-22" >/dev/null 2>&1; then command -v "$1-22"
  elif [ -x "/usr/lib/llvm-22/bin/$1" ]; then echo "/usr/lib/llvm-22/bin/$1"
  else command -v "$1" || { echo "build.sh: $1 (LLVM 22) not found" >&2; exit 2; }
  fi
}

# Echoes each command (to the script's stderr, even when the command's own
# stderr is redirected), then runs it.
exec 3>&2
run() { echo "+ $*" >&3; "$@"; }

# prepare WORK_DEFAULT: builds what the example needs (unless --no-build),
# finds the tools, makes `out` absolute and sets `work` (intermediate files;
# WORK_DEFAULT, else next to the executable), with a fresh work/ptx.
prepare() {
  mlir_translate="${MLIR_TRANSLATE:-$(tool mlir-translate)}"
  llc="${LLC:-$(tool llc)}"
  if [ "$do_build" = 1 ]; then
    run bash "$root/scripts/build.sh" isaac-opt isaac_runtime isaac_runtime_static
  fi
  isaac_opt="$build/bin/isaac-opt"
  [ -x "$isaac_opt" ] || { echo "build.sh: $isaac_opt not built" >&2; exit 2; }
  mkdir -p "$(dirname "$out")"
  out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
  work="${1:-$(dirname "$out")}"
  mkdir -p "$work"
  rm -rf "$work/ptx"
}

# compile_host NAME: NAME.ll -> NAME.o (position independent: the executable
# is a PIE); stops here under --compile-only.
compile_host() {
  run "$llc" -O2 -filetype=obj -relocation-model=pic "$work/$1.ll" \
    -o "$work/$1.o"
  if [ "$do_link" = 0 ]; then
    echo "compiled $work/$1.o" >&2
    exit 0
  fi
}

# link NAME: main.c + NAME.o + the static isaac runtime (it dlopens
# libcuda.so.1 at run time and implements the mgpu* functions of the
# upstream GPU path) + static cudart, so the executable runs without
# LD_LIBRARY_PATH on any machine with an NVIDIA driver.
link() {
  [ -f "$runtime" ] || { echo "build.sh: $runtime not built" >&2; exit 2; }
  [ -f "$cuda/lib64/libcudart_static.a" ] || {
    echo "build.sh: $cuda/lib64/libcudart_static.a not found (set CUDA_HOME)" >&2
    exit 2; }
  run "$cc" -std=c11 -O2 -Wall -Wextra -Werror -I"$root/include" -I"$root/examples/lib" \
    -I"$cuda/include" -c "$here/main.c" -o "$work/main.o"
  run "$cxx" -o "$out" "$work/main.o" "$work/$1.o" "$runtime" \
    -L"$cuda/lib64" -lcudart_static -lpthread -ldl -lrt -lm
  echo "built $out" >&2
}
