#!/usr/bin/env python3
"""The paper's Table 6 for docs/model-eval.md: per problem, the model's
top-1 configuration (isaac-select-config output, e.g. build/eval/t4sel.mlir
from scripts/eval/pack.sh) and the best of its top 10 re-benchmarked on
the GPU (the tuning cache isaac-bench --cache-out wrote).

usage: table6.py SELECTED.mlir TUNING-CACHE.txt
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import isaac_schema  # noqa: E402  (include/isaac/Model/GemmParams.def)

PROBLEMS = [  # (function in examples/table4.mlir, label)
    ("linpack_512x512x512_f32", "LINPACK (512) nt"),
    ("linpack_2048x2048x2048_f32", "LINPACK (2048) nt"),
    ("deepbench_fwd_2560x16x2560_f32", "DeepBench (16) nn"),
    ("deepbench_bwd_2560x16x2560_f32", "DeepBench (16) tn"),
    ("deepbench_fwd_2560x128x2560_f32", "DeepBench (128) nn"),
    ("deepbench_bwd_2560x128x2560_f32", "DeepBench (128) tn"),
    ("ica_32x32x60000_f32", "ICA (32) nt"),
    ("ica_256x256x60000_f32", "ICA (256) nt"),
    ("lapack_4096x4096x32_f32", "LAPACK (4096) nt"),
    ("lapack_896x896x32_f32", "LAPACK (896) nt"),
]
SCHEMA = isaac_schema.schema()
# The columns: the simt family's parameters, the paper's Table 6 order
# (MS, NS before ML, NL), then the table's.
FIELDS = ["ms", "ns"] + [p.name for p in SCHEMA.family_params("simt")
                         if p.name not in ("ms", "ns")]


def parse(cfg):
    c = SCHEMA.parse_attr_text(cfg)
    return {k: str(v) for k, v in c.items()}


def main():
    top1, name = {}, None
    for line in open(sys.argv[1]):
        f = re.match(r"\s*func\.func @(\w+)", line)
        if f:
            name = f.group(1)
        c = re.search(r"isaac\.config = #isaac\.gemm<([^>]*)>", line)
        if c and name:
            top1[name] = parse(c.group(1))
    cache = {}
    for line in open(sys.argv[2]):
        t = line.split()
        if len(t) >= 7 and not line.startswith("#"):
            key = "%s_%s_%sx%sx%s" % (t[1], t[2], t[3], t[4], t[5])
            cache[key] = parse(line[line.index("<"):])
    print("| problem (f32) | source | " + " | ".join(f.upper() if f != "vec" else f
                                                 for f in FIELDS) + " |")
    print("|---" * (2 + len(FIELDS)) + "|")
    for fn, label in PROBLEMS:
        m, n, k = re.search(r"(\d+)x(\d+)x(\d+)", fn).groups()
        lay = label.split()[-1]
        rows = [("model top-1", top1.get(fn)),
                ("best of top-10 on the GPU",
                 cache.get("f32_%s_%sx%sx%s" % (lay, m, n, k)))]
        for i, (src, cfg) in enumerate(rows):
            cells = [cfg.get(f, "?") for f in FIELDS] if cfg else ["n/a"] * len(FIELDS)
            print("| %s | %s | %s |" % (label if i == 0 else "", src, " | ".join(cells)))


if __name__ == "__main__":
    main()
