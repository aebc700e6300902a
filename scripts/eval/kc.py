#!/usr/bin/env python3
"""The split-K-inside-a-cluster tables of docs/perf.md from the CSVs of
scripts/gpu/clusters.sh with KIND=kc (isaac-bench --all over each
problem's top-1 kernel and its kc = 1 variants at kg = 2, 4, 8).

  kc.py [--max-kg N] [--max-kg-f64 N] GEMM_CSV [CONV_CSV]

Per problem: the top-1 kernel (the one without kc) over the best vendor
(cuBLAS/cuBLASLt, cuDNN); each kc variant over the vendor; and "rule":
the top-1 with kc = 1 where its kg is 2 to N (--max-kg, default 8; for
f64, --max-kg-f64, default the same), else the top-1: what
isaac::withClusterSplitK (lib/Model/Search.cpp) selects with those
bounds. Geomeans of the top-1 and of the rule over all problems.
"""
import argparse
import csv
import math
import re


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


def table(title, path, gemm, max_kg, max_kg_f64):
    print("### %s\n" % title)
    print("| problem | top-1 kernel | top-1 / vendor | kg 2 kc | kg 4 kc "
          "| kg 8 kc | rule / vendor |")
    print("|---|---|---|---|---|---|---|")
    top, rule = {}, {}
    for key, rows in load(path, gemm).items():
        rows = [r for r in rows if r.get("isaac_us") not in (None, "", "-")]
        plain = [r for r in rows if not r["kernel"].endswith("_kc1")]
        if len(plain) != 1:
            continue
        base = plain[0]
        v = vendor_us(base, gemm)
        speed = lambda r: v / float(r["isaac_us"])
        kg = int(re.search(r"_kg(\d+)_", base["kernel"]).group(1))
        bound = max_kg_f64 if key[-1] == "f64" else max_kg
        cells, chosen = {}, base
        for r in rows:
            m = re.search(r"_kg(\d+)_.*_kc1$", r["kernel"])
            if m:
                cells[int(m.group(1))] = "%.2f" % speed(r)
                if 2 <= kg <= bound and int(m.group(1)) == kg:
                    chosen = r
        top.setdefault(key[-1], []).append(speed(base))
        rule.setdefault(key[-1], []).append(speed(chosen))
        label = " ".join(key[:-2]) if gemm else " ".join(key[:2])
        print("| %s %s | `%s` | %.2f | %s | %s | %s | %.2f%s |" % (
            label, key[-1], base["kernel"].split("_", 3)[-1], speed(base),
            cells.get(2, ""), cells.get(4, ""), cells.get(8, ""),
            speed(chosen), "" if chosen is base else " (kc)"))
    for t in top:
        print("| **geomean %s** (%d) | | **%.3f** | | | | **%.3f** |" %
              (t, len(top[t]), geomean(top[t]), geomean(rule[t])))
    print()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--max-kg", type=int, default=8)
    ap.add_argument("--max-kg-f64", type=int)
    ap.add_argument("gemm")
    ap.add_argument("conv", nargs="?")
    a = ap.parse_args()
    f64 = a.max_kg if a.max_kg_f64 is None else a.max_kg_f64
    table("GEMMs: Table 4 + LINPACK 4096^3", a.gemm, True, a.max_kg, f64)
    if a.conv:
        table("Convolutions: Table 5 + ResNet-50, f16", a.conv, False,
              a.max_kg, f64)
