#!/usr/bin/env python3
"""The thread-block cluster tables of docs/perf.md from the CSVs of
scripts/gpu/clusters.sh (isaac-bench --all over each problem's top-1
kernel and its cm = 2, 4, 8 variants).

  clusters.py GEMM_CSV CONV_CSV

Per problem: the top-1 kernel's TFLOPS and its speed over the best vendor
(cuBLAS/cuBLASLt, cuDNN), then each variant's speed over the top-1 (time
of cm = 1 / time of cm = X; > 1 is faster), and per cm the geomean of
those speedups over the problems that have it.
"""
import csv
import math
import re
import sys


def load(path, key):
    groups = {}
    for r in csv.DictReader(open(path)):
        if not r.get("isaac_us"):
            continue
        m = re.search(r"_cm(\d)$", r["kernel"])
        cm = int(m.group(1)) if m else 1
        base = re.sub(r"_cm\d$", "", r["kernel"])
        groups.setdefault(key(r) + (base,), {})[cm] = r
    return groups


def table(title, groups, label, vendor):
    print("### %s\n" % title)
    print("| problem | top-1 kernel | TFLOPS | / vendor | cm 2 | cm 4 | cm 8 |")
    print("|---|---|---|---|---|---|---|")
    speedups = {2: [], 4: [], 8: []}
    for key, v in groups.items():
        if 1 not in v:
            continue
        one = v[1]
        cells = []
        for cm in (2, 4, 8):
            if cm in v:
                s = float(one["isaac_us"]) / float(v[cm]["isaac_us"])
                speedups[cm].append(s)
                cells.append("%.2f" % s)
            else:
                cells.append("")
        print("| %s | `%s` | %.1f | %s | %s |" % (
            label(one), key[-1].split("_", 3)[-1],
            float(one["isaac_tflops"]), vendor(one), " | ".join(cells)))
    geo = []
    for cm in (2, 4, 8):
        x = speedups[cm]
        geo.append("%.2f (%d)" % (math.exp(sum(map(math.log, x)) / len(x)),
                                  len(x)) if x else "")
    print("| **geomean** (problems) | | | | %s |\n" % " | ".join(geo))


def main():
    gemm = load(sys.argv[1], lambda r: (r["shape"], r["M"], r["N"], r["K"],
                                        r["layout"], r["dtype"]))
    table("GEMMs: Table 4 and LINPACK 4096^3", gemm,
          lambda r: "%s %sx%sx%s %s %s" % (r["shape"], r["M"], r["N"], r["K"],
                                           r["layout"], r["dtype"]),
          lambda r: "%.2f" % float(r["isaac_over_best"]))
    conv = load(sys.argv[2], lambda r: (r["shape"], r["layout"]))
    table("Convolutions: Table 5 and ResNet-50, f16", conv,
          lambda r: r["shape"],
          lambda r: "%.2f" % float(r["isaac_over_best_cudnn"])
          if r.get("isaac_over_best_cudnn") else "")


if __name__ == "__main__":
    main()
