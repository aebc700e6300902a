#!/usr/bin/env python3
"""The Table 5 + ResNet-50 convolution tables of docs/perf.md from the CSVs
of scripts/gpu/conv-tables.sh (isaac-bench --conv --csv): the compiler's
top-1 run and the top-10 run, each ratio against the cuDNN of its own run.

usage: conv_table.py TOP1.csv TOP10.csv
"""
import csv
import math
import sys


def rows(path):
    with open(path) as f:
        return {r["shape"]: r for r in csv.DictReader(f)}


def main():
    top1, top10 = rows(sys.argv[1]), rows(sys.argv[2])
    print("| problem | shape | kind | isaac top-1 TFLOPS | top-10 | "
          "cuDNN NHWC / NCHW TFLOPS (algo) | top-1 / cuDNN | top-10 / cuDNN |")
    print("|---|---|---|---|---|---|---|---|")
    r1, r10 = [], []
    for name, a in top1.items():
        b = top10[name]
        shape = (f"N{a['N']} {a['H']}x{a['W']} C{a['C']} K{a['K']} "
                 f"{a['R']}x{a['S']} s{a['stride_h']} p{a['pad_top']}")
        kind = "gemm" if a["kernel"].startswith("isaac_gemm") else "conv"
        cudnn = (f"{float(a['cudnn_nhwc_tflops']):.1f} (a{a['cudnn_nhwc_algo']}) / "
                 f"{float(a['cudnn_nchw_tflops']):.1f} (a{a['cudnn_nchw_algo']})")
        x1, x10 = float(a["isaac_over_best_cudnn"]), float(b["isaac_over_best_cudnn"])
        r1.append(x1)
        r10.append(x10)
        print(f"| {name} | {shape} | {kind} | {float(a['isaac_tflops']):.1f} | "
              f"{float(b['isaac_tflops']):.1f} | {cudnn} | {x1:.2f} | {x10:.2f} |")
    g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
    print(f"\nGeomean over the {len(r1)} rows, each ratio within its run: "
          f"**top-1 {g(r1):.3f}, top-10 {g(r10):.3f}** of the better cuDNN format.")


if __name__ == "__main__":
    main()
