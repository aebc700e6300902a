#!/usr/bin/env python3
"""Scores the e1/e10 evaluation from the timings isaac-bench --collect wrote.

usage: score.py RANKS.json TIMES.csv
For each input: best = lowest time over every benchmarked candidate;
e1 = best / time(top-1), e10 = best / min(time(top-10)), for the model,
the analytic heuristic and any other model make_eval.py --also added.
Prints a Markdown table and the geometric means.
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


def main():
    schema = isaac_schema.schema()
    ranks = json.load(open(sys.argv[1]))
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
