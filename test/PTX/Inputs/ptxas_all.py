#!/usr/bin/env python3
"""Assembles every .ptx file of a directory with ptxas, in parallel.

usage: ptxas_all.py PTXAS ARCH DIR MIN_COUNT
Fails if any file does not assemble or fewer than MIN_COUNT files exist.
"""
import concurrent.futures
import os
import subprocess
import sys


def assemble(ptxas, arch, path):
    r = subprocess.run([ptxas, "-arch=" + arch, path, "-o", os.devnull],
                       capture_output=True, text=True)
    return path, r.returncode, r.stderr


def main():
    ptxas, arch, folder, want = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder)
                   if f.endswith(".ptx"))
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for path, rc, err in pool.map(lambda f: assemble(ptxas, arch, f), files):
            if rc != 0:
                failed += 1
                print("FAIL %s\n%s" % (path, err))
    print("ptxas %s: %d kernels, %d failed" % (arch, len(files), failed))
    if failed or len(files) < want:
        sys.exit(1)


if __name__ == "__main__":
    main()
