#!/usr/bin/env bash
# Builds everything and runs the whole test suite (lit: dialect, verifier,
# transforms, PTX, ptxas where CUDA is installed, plugin, model and runtime
# unit tests).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" check-isaac
