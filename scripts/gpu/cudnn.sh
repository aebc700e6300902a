#!/usr/bin/env bash
# Sourced on the GPU machine: finds cuDNN 9 and sets cudnn_args for
# isaac-bench (--cudnn-lib PATH, or empty: isaac timed alone). PyTorch's
# wheel (nvidia-cudnn-cu13) holds lib/libcudnn.so.9 and its sub-libraries;
# isaac-bench opens it with dlopen, and LD_LIBRARY_PATH lets libcudnn.so.9
# find the sub-libraries by name too. CUDNN_LIB overrides the search.
cudnn="${CUDNN_LIB:-}"
if [ -z "$cudnn" ]; then
  cudnn=$(python3 - <<'PY' 2>/dev/null
import glob, os, sys
roots = []
try:
    import nvidia
    roots += list(nvidia.__path__)
except Exception:
    pass
for root in roots:
    hits = glob.glob(os.path.join(root, "**", "libcudnn.so.9*"), recursive=True)
    # libcudnn.so.9 itself, not libcudnn_ops.so.9 and the like.
    hits = sorted(h for h in hits if os.path.basename(h).startswith("libcudnn.so"))
    if hits:
        print(hits[0])
        sys.exit(0)
PY
)
fi
[ -z "$cudnn" ] && cudnn=$(ldconfig -p 2>/dev/null | awk '$1 == "libcudnn.so.9" {print $NF; exit}')
if [ -n "$cudnn" ]; then
  echo "cuDNN: $cudnn"
  export LD_LIBRARY_PATH="$(dirname "$cudnn")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  cudnn_args=(--cudnn-lib "$cudnn")
else
  echo "cuDNN: not found (timing isaac alone)"
  cudnn_args=()
fi
