#!/usr/bin/env python3
"""The Table 5 + ResNet-50 convolution tables of docs/perf.md from the CSVs
of scripts/gpu/conv-tables.sh (isaac-bench --conv --csv): the compiler's
top-1 run and the top-10 run, each ratio against the cuDNN of its own run.
With BEFORE.csv (a top-1 run of other kernels, e.g. the compiler before a
change, timed in the same session) a column of its TFLOPS, and each
problem's top-1 against the best cuDNN of all the runs: cuDNN's time of a
layer varies between processes (docs/perf.md), which that comparison
leaves out.

usage: conv_table.py TOP1.csv TOP10.csv [BEFORE.csv [CUDNN.csv ...]]

CUDNN.csv: more runs of the session (other kernels) whose cuDNN times join
the best-of-the-runs comparison.
"""
import csv
import math
import sys


def rows(path):
    with open(path) as f:
        return {r["shape"]: r for r in csv.DictReader(f)}


def main():
    top1, top10 = rows(sys.argv[1]), rows(sys.argv[2])
    before = rows(sys.argv[3]) if len(sys.argv) > 3 else None
    runs = [top1, top10] + ([before] if before else [])
    runs += [rows(path) for path in sys.argv[4:]]
    head = ("| problem | shape | kind | isaac top-1 TFLOPS | top-10 | "
            + ("before | " if before else "")
            + "cuDNN NHWC / NCHW TFLOPS (algo) | top-1 / cuDNN | "
            "top-10 / cuDNN |" + (" top-1 / best cuDNN of the runs |"
                                  if before else ""))
    print(head)
    print("|---" * head.count(" | ") + "|---|")
    r1, r10, rb, rbest, rbbest, r10best = [], [], [], [], [], []
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
        line = (f"| {name} | {shape} | {kind} | {float(a['isaac_tflops']):.1f} | "
                f"{float(b['isaac_tflops']):.1f} | ")
        if before:
            c = before[name]
            fam = c["kernel"].split("_")[5 if kind == "conv" else 4]
            line += f"{float(c['isaac_tflops']):.1f} ({fam}) | "
            rb.append(float(c["isaac_over_best_cudnn"]))
            best = max(float(r[name]["best_cudnn_tflops"]) for r in runs)
            rbest.append(float(a["isaac_tflops"]) / best)
            r10best.append(float(b["isaac_tflops"]) / best)
            rbbest.append(float(c["isaac_tflops"]) / best)
        line += f"{cudnn} | {x1:.2f} | {x10:.2f} |"
        if before:
            line += f" {rbest[-1]:.2f} |"
        print(line)
    g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
    print(f"\nGeomean over the {len(r1)} rows, each ratio within its run: "
          f"**top-1 {g(r1):.3f}, top-10 {g(r10):.3f}** of the better cuDNN format"
          + (f"; before {g(rb):.3f}." if before else "."))
    if before:
        print(f"Against the best cuDNN of the {len(runs)} runs: "
              f"top-1 {g(rbest):.3f}, "
              f"top-10 {g(r10best):.3f}, before {g(rbbest):.3f}.")


if __name__ == "__main__":
    main()
