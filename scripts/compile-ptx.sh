#!/usr/bin/env bash
# Here (LLVM/MLIR): compiles MLIR files of configured GEMMs and
# convolutions to PTX with `isaac-opt --isaac-pipeline`, two processes at a
# time. Each file is split in two by kernel first (one function per kernel,
# each after a `// isaac_gemm_...` or `// isaac_conv_...` comment, as
# isaac-tune sample and make_eval.py write them), so that one large file
# keeps both cores busy. The chip is the one the file's
# `// Compile with: ... chip=CHIP` line names (isaac-tune sample writes it),
# else sm_90; each part is wrapped in a module carrying it as
# `isaac.target`, so that configurations only that chip has (wgmma on
# sm_90a) verify when the file is parsed.
#   usage: compile-ptx.sh FILE.mlir:PTX_DIR...
# It fails unless every kernel the files name came out as PTX.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${ISAAC_BUILD_DIR:-$root/build}"
jobs=()
for spec in "$@"; do
  file="${spec%%:*}"; dir="${spec#*:}"
  chip=$(sed -n 's|^// Compile with:.*chip=\(sm_[0-9a-z]*\).*|\1|p' "$file" | head -1)
  chip="${chip:-sm_90}"
  rm -f "$file".part0.mlir "$file".part1.mlir
  awk -v out="$file.part" -v chip="$chip" '
    BEGIN { for (i = 0; i < 2; i++)
              print "module attributes {isaac.target = \"" chip "\"} {" > (out i ".mlir") }
    /^\/\/ isaac_(gemm|conv)_/ { n++ }
    { print > (out (n % 2) ".mlir") }
    END { for (i = 0; i < 2; i++) print "}" > (out i ".mlir") }' "$file"
  for part in "$file".part0.mlir "$file".part1.mlir; do
    jobs+=("$part:$dir:$chip")
  done
done
printf '%s\n' "${jobs[@]}" | xargs -P 2 -I{} sh -c \
  'IFS=: read -r f d c <<EOT
$1
EOT
"$0" "$f" --isaac-pipeline="chip=$c ptx-dir=$d" -o /dev/null' \
  "$build/bin/isaac-opt" {}
# Every kernel a file names (its `// isaac_..._` lines) must have come out
# as DIR/<name>.ptx: the callers pack those folders for timing on the GPU
# machine, where a missing kernel would only show as a gap in the data.
missing=0
for spec in "$@"; do
  file="${spec%%:*}"; dir="${spec#*:}"
  for k in $(sed -n 's|^// \(isaac_[a-z]*_[A-Za-z0-9_]*\)$|\1|p' "$file"); do
    [ -f "$dir/$k.ptx" ] && continue
    echo "compile-ptx.sh: $file: no $dir/$k.ptx" >&2
    missing=$((missing + 1))
  done
done
[ "$missing" = 0 ] || { echo "compile-ptx.sh: $missing kernels did not compile" >&2; exit 1; }
