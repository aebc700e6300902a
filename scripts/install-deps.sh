#!/usr/bin/env bash
# Installs what building and testing isaac needs on Debian 12, if missing:
# LLVM/MLIR 22 (shared libMLIR/libLLVM, mlir-opt, lit, FileCheck), CMake,
# Ninja and a C++ compiler; numpy (with OpenBLAS) for the model trainer,
# tools/isaac-tune/train.py.
set -euo pipefail
pkgs=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libzstd-dev
      cmake ninja-build g++ python3 python3-numpy libopenblas0-pthread)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
