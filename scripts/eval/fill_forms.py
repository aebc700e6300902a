#!/usr/bin/env python3
"""The few-tile split-K table of docs/perf.md from the CSV of isaac-bench
--all over a `gen_kernels.py fill-forms` candidate list (each problem's two
first candidates of isaac-select-config, then split-K forms that fill the
SMs).

  fill_forms.py CSV LIST [--holdout N] [--slice-tiles N]

Per problem: the selection's top-1 over the best vendor (min of cuBLAS and
cuBLASLt), the best of the top 2, the best split-K form (its tile, mode
and kg) over the vendor and over the top-1. Then, per form class (tile x
mode, kg taken per problem as the class's fastest), the geomean speedup
over the top-1 on the fit problems (all but the last N, default 10) and on
the held-out ones: a rule is worth writing only where a class wins on
both. Last, the splits timed both in a cluster (kc = 1) and over the
grid, by slice depth (--slice-tiles, default 48 K tiles): the time in a
cluster over the time over the grid (> 1: the grid's is faster).
"""
import argparse
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import isaac_schema  # noqa: E402  (include/isaac/Model/GemmParams.def)

SCHEMA = isaac_schema.schema()


def geomean(x):
    return math.exp(sum(map(math.log, x)) / len(x)) if x else float("nan")


def form(kernel):
    """(tile, mode, kg) of a fill form's kernel name: tile 'MLxNL', mode
    'kc' (slices summed in a cluster), 'grid' (over the grid), 'grid-cm2'
    (and two blocks sharing B)."""
    _, _, p, _ = SCHEMA.parse_kernel_name(kernel)
    tile = "%dx%d" % (p["ml"], p["nl"])
    mode = "kc" if p["kc"] else ("grid-cm%d" % p["cm"] if p["cm"] > 1
                                 else "grid")
    return tile, mode, p["kg"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("list")
    ap.add_argument("--holdout", type=int, default=10)
    ap.add_argument("--slice-tiles", type=int, default=48)
    a = ap.parse_args()

    order, lists = [], {}
    for line in open(a.list):
        if not line.strip() or line.startswith("#"):
            continue
        m, n, k, name = line.split()[:4]
        layout = SCHEMA.parse_kernel_name(name)[1]
        key = (int(m), int(n), int(k), layout)
        if key not in lists:
            order.append(key)
            lists[key] = []
        lists[key].append(name)

    times, vendor = {}, {}
    for r in csv.DictReader(open(a.csv)):
        key = (int(r["M"]), int(r["N"]), int(r["K"]), r["layout"])
        if r["status"] != "PASS" or not r["isaac_us"]:
            continue
        times.setdefault(key, {})[r["kernel"]] = float(r["isaac_us"])
        v = [float(r[c]) for c in ("cublas_us", "cublaslt_us") if r[c]]
        if v:
            vendor[key] = min(v)

    fit = order[:len(order) - a.holdout]
    classes = {}  # (tile, mode) -> {problem: speedup over top-1}
    print("| M x N x K | lay | vendor us | top-1 | top-2 best | best form "
          "| form / vendor | form / top-1 |")
    print("|---|---|---:|---:|---:|---|---:|---:|")
    t1s, t2s, fs = [], [], []
    for key in order:
        t, names = times.get(key, {}), lists[key]
        if key not in vendor or names[0] not in t:
            print("| %dx%dx%d | %s | missing |" % key)
            continue
        v, top1 = vendor[key], t[names[0]]
        top2 = min(t[x] for x in names[:2] if x in t)
        forms = [(t[x], x) for x in names[2:] if x in t]
        best = min(forms) if forms else (top1, names[0])
        for us, x in forms:
            c = form(x)[:2]
            prev = classes.setdefault(c, {}).get(key)
            classes[c][key] = max(prev or 0, top1 / us)
        t1s.append(v / top1)
        t2s.append(v / top2)
        fs.append(v / min(best[0], top2))
        label = ("%s %s kg%d" % form(best[1])) if forms else "-"
        print("| %dx%dx%d | %s | %.1f | %.3f | %.3f | %s | %.3f | %.3f |"
              % (key + (v, v / top1, v / top2, label, v / best[0],
                        top1 / best[0])))
    print()
    print("geomean over the vendor (%d problems): top-1 %.3f, best of top 2 "
          "%.3f, best of top 2 and forms %.3f"
          % (len(t1s), geomean(t1s), geomean(t2s), geomean(fs)))
    print()
    print("| form class | fit: problems | fit: geomean over top-1 "
          "| held out: problems | held out: geomean over top-1 |")
    print("|---|---:|---:|---:|---:|")
    for c in sorted(classes):
        f = [s for k, s in classes[c].items() if k in fit]
        h = [s for k, s in classes[c].items() if k not in fit]
        print("| %s %s | %d | %.3f | %d | %.3f |"
              % (c + (len(f), geomean(f), len(h), geomean(h))))
    print()
    cluster_or_grid(order, times, fit, a.slice_tiles)


def cluster_or_grid(order, times, fit, limit):
    """Every split timed both ways (a kernel with kc = 1 and its twin
    without), by slice depth: the slices' K tiles of u as
    GemmConfig::sliceDepth counts them, at most `limit` or deeper."""
    groups = {}  # (deeper, held out) -> [time in a cluster / over the grid]
    for key in order:
        t = times.get(key, {})
        for name, us in t.items():
            types, layout, p, _ = SCHEMA.parse_kernel_name(name)
            if not p["kc"]:
                continue
            grid = SCHEMA.kernel_name(types, layout, dict(p, kc=0))
            if grid not in t:
                continue
            tiles = -(-(-(-key[2] // p["kg"])) // p["u"])
            groups.setdefault((tiles > limit, key not in fit), []).append(
                us / t[grid])
    print("| slices | pairs | grid over cluster (geomean) | grid faster "
          "| held out: pairs | held out: grid over cluster |")
    print("|---|---:|---:|---:|---:|---:|")
    for deeper in (False, True):
        both = groups.get((deeper, False), []) + groups.get((deeper, True), [])
        held = groups.get((deeper, True), [])
        print("| %s %d K tiles | %d | %.3f | %d | %d | %.3f |"
              % ("more than" if deeper else "at most", limit, len(both),
                 geomean(both), sum(r > 1 for r in both), len(held),
                 geomean(held)))


if __name__ == "__main__":
    main()
