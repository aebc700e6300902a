#!/usr/bin/env bash
# On the GPU machine: assembles every DIR/*.ptx to DIR/*.cubin with ptxas on
# all cores (isaac-bench then loads the images instead of JIT-compiling
# kernels one at a time). Each file is assembled for the chip its `.target`
# line names (sm_90a for wgmma kernels). usage: assemble.sh DIR...
set -uo pipefail
for dir in "$@"; do
  t0=$(date +%s)
  find "$dir" -name '*.ptx' | xargs -P "$(nproc)" -I{} sh -c \
    'arch=$(sed -n "s/^\.target \(sm_[0-9a-z]*\).*/\1/p" "$1" | head -1)
     ptxas -arch="${arch:-sm_90}" "$1" -o "${1%.ptx}.cubin" 2>/dev/null ||
       echo "ptxas failed: $1"' _ {}
  echo "assemble: $dir: $(find "$dir" -name '*.cubin' | wc -l) cubins in $(( $(date +%s) - t0 )) s"
done
