#!/usr/bin/env python3
"""Writes the f16 mma configurations of the exploration run of docs/perf.md
("What limits the mma kernels") as a .mlir file of configured GEMMs.

  explore_mma.py MODEL_TEST nt > explore-nt.mlir
  explore_mma.py MODEL_TEST nn > explore-nn.mlir

MODEL_TEST is build/bin/isaac-model-test; its `random-configs 11 1200 f16
sm_90` draws (seeded) legal mma configurations uniformly. nt: 180 of them
with KG <= 32, then a grid of the usual block/warp tiles (U 32 and 64,
stages 3 and 4, KG 1; small tiles with KG 4, 16, 32). nn (the thin
DeepBench shapes): 120 with ML, NL <= 64, then a grid of small tiles (U 32
and 64, KG 1 to 8, stages 4 and 6; KL 2 and 4). Compile with
`isaac-opt FILE --isaac-pipeline="chip=sm_90 ptx-dir=DIR"` and time with
`isaac-bench --ptx-dir DIR --shapes table4,linpack4096 --dtype f16 --all`.
"""
import random
import re
import subprocess
import sys

from gen_kernels import _mma as mk, func


def param(c, name):
    return int(re.search(name + r" = (\d+)", c).group(1))


def configs(tool, layout):
    out = subprocess.run([tool, "random-configs", "11", "1200", "f16", "sm_90"],
                         check=True, capture_output=True, text=True).stdout
    drawn = [l.strip()[len("#isaac.gemm<"):-1] for l in out.splitlines()
             if l.strip()]
    grid = []
    if layout == "nt":
        rnd = [c for c in drawn if param(c, "kg") <= 32]
        random.seed(3)
        random.shuffle(rnd)
        tiles = [(128, 128, 64, 64), (128, 128, 64, 32), (128, 128, 32, 64),
                 (128, 256, 64, 64), (256, 128, 64, 64), (128, 64, 64, 32),
                 (64, 128, 32, 64), (64, 64, 32, 32), (128, 64, 32, 32),
                 (64, 64, 64, 32), (32, 32, 16, 16), (32, 64, 16, 32),
                 (64, 32, 32, 16), (16, 64, 16, 16), (16, 32, 16, 8),
                 (32, 32, 32, 16)]
        for t in tiles:
            for u in (32, 64):
                for st in (3, 4):
                    grid.append(mk(*t, u, 1, 1, 8, st))
        for t in [(32, 32, 16, 16), (64, 64, 32, 32), (16, 16, 16, 8),
                  (128, 128, 64, 64), (64, 128, 32, 64)]:
            for kg in (4, 16, 32):
                grid.append(mk(*t, 32, 1, kg, 8, 4))
        return list(dict.fromkeys(rnd[:180] + grid))
    rnd = [c for c in drawn if param(c, "ml") <= 64 and param(c, "nl") <= 64]
    random.seed(5)
    random.shuffle(rnd)
    tiles = [(16, 16, 16, 8), (16, 16, 16, 16), (32, 16, 16, 16),
             (32, 32, 16, 16), (32, 32, 32, 16), (64, 16, 32, 16),
             (64, 32, 32, 32), (64, 64, 32, 32), (32, 64, 16, 32),
             (64, 64, 64, 32), (128, 16, 32, 16), (128, 32, 32, 32),
             (128, 64, 64, 32)]
    for t in tiles:
        for u in (32, 64):
            for kg in (1, 2, 4, 8):
                for st in (4, 6):
                    grid.append(mk(*t, u, 1, kg, 8, st))
    for t in [(16, 16, 16, 8), (32, 32, 16, 16), (64, 64, 32, 32)]:
        for kl in (2, 4):
            grid.append(mk(*t, 64, kl, 1, 8, 4))
    return list(dict.fromkeys(rnd[:120] + grid))


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("nt", "nn"):
        sys.exit(__doc__)
    layout = sys.argv[2]
    for i, c in enumerate(configs(sys.argv[1], layout)):
        sys.stdout.write(func("e%d" % i, "f16", 64, 64, 64, layout, c))

if __name__ == "__main__":
    main()
