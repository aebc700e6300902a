#!/usr/bin/env python3
"""Markdown Table 4 for docs/perf.md from isaac-bench --best CSVs.

usage: table4.py HEURISTIC.csv MODEL.csv
Per dtype: cuBLAS and cuBLASLt TFLOPS (of the model run), each column's
TFLOPS and ratio to the cuBLAS time of *its own* run, the better of the two
ratios, the roofline; then the geometric means and how many shapes reach
1.0x.
"""
import csv
import math
import sys


def load(path):
    return {(r["shape"], r["M"], r["N"], r["K"], r["layout"], r["dtype"]): r
            for r in csv.DictReader(open(path))}


def main():
    heur, model = load(sys.argv[1]), load(sys.argv[2])
    g = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
    for dt in ("f32", "f64"):
        print("| problem | M×N×K | layout | cuBLAS TFLOPS | cuBLASLt TFLOPS | "
              "heuristic top-12: TFLOPS | ×cuBLAS | model top-10: TFLOPS | "
              "×cuBLAS | best ×cuBLAS | roofline TFLOPS |")
        print("|---" * 11 + "|")
        rh, rm, rb = [], [], []
        for key, m in model.items():
            if key[5] != dt:
                continue
            h = heur.get(key)
            xm = float(m["isaac_over_cublas"])
            xh = float(h["isaac_over_cublas"]) if h else float("nan")
            best = max(xm, xh) if h else xm
            rm.append(xm)
            rb.append(best)
            if h:
                rh.append(xh)
            print("| %s | %s×%s×%s | %s | %.2f | %.2f | %s | %s | %.2f | %.2f | "
                  "%.2f | %.1f |" % (
                      key[0], key[1], key[2], key[3], key[4],
                      float(m["cublas_tflops"]), float(m["cublaslt_tflops"]),
                      "%.2f" % float(h["isaac_tflops"]) if h else "n/a",
                      "%.2f" % xh if h else "n/a",
                      float(m["isaac_tflops"]), xm, best,
                      float(m["roofline_tflops"])))
        ge = lambda v: sum(x >= 1.0 for x in v)
        print()
        print("geomean ×cuBLAS: heuristic %.2f, model %.2f, best of both %.2f; "
              "shapes ≥ 1.0×: heuristic %d, model %d, best %d of %d" % (
                  g(rh), g(rm), g(rb), ge(rh), ge(rm), ge(rb), len(rm)))
        print()


if __name__ == "__main__":
    main()
