#!/usr/bin/env bash
# Compiles README.md's embedding example (embed.cpp, extracted next to OUT)
# with Inputs/embed-main.cpp against isaac's build and LLVM/MLIR 22's shared
# libraries, the way the README says a compiler links isaac.
#
# Usage: build-embed.sh SRC BUILD LLVM_TOOL OUT
#   SRC        the isaac source tree (include/)
#   BUILD      its build tree (include/ with the generated .inc files, lib/)
#   LLVM_TOOL  any tool of LLVM 22's bin directory, which holds llvm-config
#   OUT        the executable; embed.cpp must be in its directory
set -euo pipefail
src="$1" build="$2" out="$4"
llvm_config="$(dirname "$3")/llvm-config"
libdir="$("$llvm_config" --libdir)"
# shellcheck disable=SC2046  # llvm-config prints several flags
"${CXX:-c++}" $("$llvm_config" --cxxflags) -I"$src/include" \
  -I"$build/include" -I"$(dirname "$out")" \
  "$src/test/Examples/Inputs/embed-main.cpp" -o "$out" \
  "$build/lib/libMLIRIsaacTransforms.a" "$build/lib/libMLIRIsaacDialect.a" \
  "$build/lib/Model/libisaac_model.a" \
  -L"$libdir" -lMLIR -lLLVM -Wl,-rpath,"$libdir"
