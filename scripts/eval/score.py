#!/usr/bin/env python3
"""Scores the e1/e10 evaluation from the timings isaac-bench --collect wrote.

usage: score.py RANKS.json TIMES.csv
For each input: best = lowest time over every benchmarked candidate;
e1 = best / time(top-1), e10 = best / min(time(top-10)), for the model,
the analytic heuristic and any other model make_eval.py --also added.
Prints a Markdown table and the geometric means. The convolutions of
make_conv_eval.py (ranks with a `shape`, timings of isaac-bench --conv
--collect) are scored the same way, with geometric means per dtype (one
conv model each).
"""
import csv
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import isaac_schema  # noqa: E402  (include/isaac/Model/GemmParams.def)


def kernel_name(schema, row):
    """The kernel of a dataset row (docs/tuning.md, Dataset format):
    parameters without a column hold their defaults."""
    cfg = schema.config(row.get("family") or "simt",
                        **{p.name: row[p.name] for p in schema.params
                           if row.get(p.name)})
    return schema.kernel_name(row["dtype"], row["layout"], cfg)


CONV_SHAPE = ["n", "h", "w", "c", "k", "r", "s", "stride_h", "stride_w",
              "pad_top", "pad_left", "dilation_h", "dilation_w", "p", "q"]


def geomean(v):
    return math.exp(sum(math.log(max(x, 1e-9)) for x in v) / len(v)) if v else 0


def score_conv(ranks, path):
    """The conv evaluation: timings keyed by (kernel, convolution text)."""
    times = {}
    for row in csv.DictReader(l for l in open(path) if not l.startswith("#")):
        if row["status"] == "ok":
            shape = ",".join(row[c] for c in CONV_SHAPE)
            times[(row["kernel"], shape)] = float(row["time_us"])
    whos = ["model", "heuristic"]
    logs = {}
    print("| convolution | dtype | layout | candidates | best us | " +
          " | ".join("%s e1 | %s e10" % (w, w) for w in whos) + " |")
    print("|---" * (5 + 2 * len(whos)) + "|")
    for r in ranks:
        mine = [t for (k, shape), t in times.items() if shape == r["shape"]
                and k.startswith("isaac_conv_%s_%s_" % (r["dtype"],
                                                         r["layout"]))]
        if not mine:
            continue
        best = min(mine)
        cells = []
        for who in whos:
            ts = [times.get((name, r["shape"])) for name in r[who][:10]]
            e1 = best / ts[0] if ts and ts[0] else 0.0
            ok = [t for t in ts if t]
            e10 = best / min(ok) if ok else 0.0
            lg = logs.setdefault((r["dtype"], who), [[], []])
            lg[0].append(e1)
            lg[1].append(e10)
            cells += ["%.3f" % e1, "%.3f" % e10]
        print("| %s | %s | %s | %d | %.1f | %s |" % (
            r["label"], r["dtype"], r["layout"], r["candidates"], best,
            " | ".join(cells)))
    print()
    for (dtype, who), (e1, e10) in sorted(logs.items()):
        print("%s %s: geomean e1 = %.3f, e10 = %.3f over %d inputs" % (
            dtype, who, geomean(e1), geomean(e10), len(e1)))


def main():
    schema = isaac_schema.schema()
    ranks = json.load(open(sys.argv[1]))
    if ranks and "shape" in ranks[0]:
        return score_conv(ranks, sys.argv[2])
    times = {}
    for row in csv.DictReader(l for l in open(sys.argv[2]) if not l.startswith("#")):
        if row["status"] != "ok":
            continue
        name = kernel_name(schema, row)
        times[(name, int(row["m"]), int(row["n"]), int(row["k"]))] = float(row["time_us"])
    whos = ["model", "heuristic"] + sorted(ranks[0].get("also", {}) if ranks else [])
    for r in ranks:
        for name, ranking in r.get("also", {}).items():
            r[name] = ranking
    logs = {who: [[], []] for who in whos}
    print("| M | N | K | layout | candidates | best us | " +
          " | ".join("%s e1 | %s e10" % (w, w) for w in whos) + " |")
    print("|---" * (6 + 2 * len(whos)) + "|")
    for r in ranks:
        key = lambda name: (name, r["m"], r["n"], r["k"])
        mine = [t for (name, m, n, k), t in times.items()
                if (m, n, k) == (r["m"], r["n"], r["k"])]
        if not mine:
            continue
        best = min(mine)
        cells = []
        for who in whos:
            ts = [times.get(key(name)) for name in r[who][:10]]
            e1 = best / ts[0] if ts and ts[0] else 0.0
            ok = [t for t in ts if t]
            e10 = best / min(ok) if ok else 0.0
            logs[who][0].append(e1)
            logs[who][1].append(e10)
            cells += ["%.3f" % e1, "%.3f" % e10]
        print("| %d | %d | %d | %s | %d | %.1f | %s |" % (
            r["m"], r["n"], r["k"], r["layout"], r["candidates"], best, " | ".join(cells)))
    g = lambda v: math.exp(sum(math.log(max(x, 1e-9)) for x in v) / len(v)) if v else 0
    print()
    for who in whos:
        print("%s: geomean e1 = %.3f, e10 = %.3f over %d inputs" % (
            who, g(logs[who][0]), g(logs[who][1]), len(logs[who][0])))


if __name__ == "__main__":
    main()
