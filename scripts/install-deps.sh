#!/usr/bin/env bash
# Installs what building and testing isaac needs on Debian 12, if missing:
# LLVM/MLIR 22 (shared libMLIR/libLLVM, mlir-opt, lit, FileCheck), CMake,
# Ninja and a C++ compiler; numpy (with OpenBLAS) for the model trainer,
# tools/isaac-tune/train.py.
#
# apt's and dpkg's output (pages of it) goes to a log file; the terminal
# gets a progress line for the download and one for the installation, and
# the end of the log if something fails.
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
log="${ISAAC_INSTALL_LOG:-${TMPDIR:-/tmp}/isaac-install-deps.log}"
: >"$log"

# Reads apt's output, appends it to the log, and shows the download
# ("dlstatus:...") and the installation ("pmstatus:...") as one line each,
# growing by another figure every 10%. The status lines come from
# APT::Status-Fd=1, on stdout with the rest: sudo closes other descriptors.
progress() {
  local line kind pct step phase="" shown=-1
  while IFS= read -r line; do
    printf '%s\n' "$line" >>"$log"
    case "$line" in
      dlstatus:*|pmstatus:*) ;;
      *) continue ;;
    esac
    IFS=: read -r kind _ pct _ <<<"$line"
    [[ "$pct" =~ ^[0-9] ]] || continue
    if [ "$kind" != "$phase" ]; then
      [ -n "$phase" ] && echo
      phase=$kind
      shown=-1
      if [ "$kind" = dlstatus ]; then
        printf 'install-deps: downloading'
      else
        printf 'install-deps: installing'
      fi
    fi
    step=$(( ${pct%%.*} / 10 * 10 ))
    if [ "$step" -gt "$shown" ]; then
      shown=$step
      printf ' %d%%' "$step"
    fi
  done
  [ -n "$phase" ] && echo
  return 0
}

fail() {
  echo "install-deps: $1 failed; the end of $log:" >&2
  tail -n 20 "$log" >&2
  exit 1
}

echo "install-deps: installing ${#missing[@]} packages (${missing[*]});" \
  "apt's output goes to $log"
$SUDO apt-get update -qq >>"$log" 2>&1 || fail "apt-get update"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
  -o APT::Status-Fd=1 "${missing[@]}" 2>&1 | progress ||
  fail "apt-get install"
echo "install-deps: done"
