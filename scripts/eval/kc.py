#!/usr/bin/env python3
"""The split-K-inside-a-cluster tables of docs/perf.md from the CSVs of
scripts/gpu/clusters.sh with KIND=kc (isaac-bench --all over each
problem's top-1 kernel and its kc = 1 variants at kg = 2, 4, 8).

  kc.py GEMM_CSV CONV_CSV

Per problem: the top-1 kernel (the one without kc) over the best vendor
(cuBLAS/cuBLASLt, cuDNN); each kc variant over the vendor; and the rule of
isaac::withClusterSplitK (the top-1 with kc = 1 where its kg is 2 to 8)
over the vendor. Geomeans of the top-1 and of the rule over all problems.
"""
import csv
import math
import re
import sys


def geomean(x):
    return math.exp(sum(map(math.log, x)) / len(x)) if x else float("nan")


def load(path, gemm):
    groups = {}
    for r in csv.DictReader(open(path)):
        if gemm:
            key = (r["shape"], r["M"], r["N"], r["K"], r["layout"], r["dtype"])
        else:
            key = (r["shape"], "N%s %sx%s C%s K%s %sx%s" % tuple(
                r[k] for k in ("N", "H", "W", "C", "K", "R", "S")),
                r["layout"], r["dtype"])
        groups.setdefault(key, []).append(r)
    return groups


def vendor_us(r, gemm):
    if gemm:
        times = [float(r[k]) for k in ("cublas_us", "cublaslt_us") if r.get(k)]
        return min(times)
    return float(r["isaac_us"]) * float(r["isaac_tflops"]) / float(
        r["best_cudnn_tflops"])


def table(title, path, gemm):
    print("### %s\n" % title)
    print("| problem | top-1 kernel | top-1 / vendor | kg 2 kc | kg 4 kc "
          "| kg 8 kc | rule / vendor |")
    print("|---|---|---|---|---|---|---|")
    top, rule = [], []
    for key, rows in load(path, gemm).items():
        rows = [r for r in rows if r.get("isaac_us") not in (None, "", "-")]
        if not rows:
            continue
        plain = [r for r in rows if not r["kernel"].endswith("_kc1")]
        if len(plain) != 1:
            continue
        base = plain[0]
        v = vendor_us(base, gemm)
        speed = lambda r: v / float(r["isaac_us"])
        kg = int(re.search(r"_kg(\d+)_", base["kernel"]).group(1))
        cells, chosen = {}, base
        for r in rows:
            m = re.search(r"_kg(\d+)_.*_kc1$", r["kernel"])
            if m:
                cells[int(m.group(1))] = "%.2f" % speed(r)
                if 2 <= kg <= 8 and int(m.group(1)) == kg:
                    chosen = r
        top.append(speed(base))
        rule.append(speed(chosen))
        label = " ".join(key[:-2]) if gemm else " ".join(key[:2])
        print("| %s %s | `%s` | %.2f | %s | %s | %s | %.2f%s |" % (
            label, key[-1], base["kernel"].split("_", 3)[-1], speed(base),
            cells.get(2, ""), cells.get(4, ""), cells.get(8, ""),
            speed(chosen), "" if chosen is base else " (kc)"))
    print("| **geomean** | | **%.3f** | | | | **%.3f** |\n" %
          (geomean(top), geomean(rule)))


if __name__ == "__main__":
    table("GEMMs: Table 4 + LINPACK 4096^3, f16 and bf16", sys.argv[1], True)
    table("Convolutions: Table 5 + ResNet-50, f16", sys.argv[2], False)
