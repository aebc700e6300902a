#!/usr/bin/env bash
# On the GPU machine: assembles every DIR/*.ptx to DIR/*.cubin with ptxas on
# all cores (isaac-bench then loads the images instead of JIT-compiling
# kernels one at a time). usage: assemble.sh DIR...
set -uo pipefail
for dir in "$@"; do
  t0=$(date +%s)
  find "$dir" -name '*.ptx' | xargs -P "$(nproc)" -I{} sh -c \
    'ptxas -arch=sm_90 "$1" -o "${1%.ptx}.cubin" || echo "ptxas failed: $1"' _ {}
  echo "assemble: $dir: $(find "$dir" -name '*.cubin' | wc -l) cubins in $(( $(date +%s) - t0 )) s"
done
