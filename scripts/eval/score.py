#!/usr/bin/env python3
"""Scores the e1/e10 evaluation from the timings isaac-bench --collect wrote.

usage: score.py RANKS.json TIMES.csv [--check CHECK.txt]
For each input: best = lowest time over every benchmarked candidate;
e1 = best / time(top-1), e10 = best / min(time(top-10)), for the model,
the analytic heuristic and any other model make_eval.py --also added.
Prints a Markdown table and the geometric means. Inputs whose ranks.json
entry names a "dtype" (make_eval.py --dtype f16,bf16,..., the tensor-core models'
evaluation) take only that type's timings and get geometric means per
dtype. --check takes the output of isaac-bench --check-only --all
(scripts/gpu/evaluate-tensor.sh's eval-check.txt): a (kernel, input) pair
that FAILed there is dropped, as if it had not been timed. The convolutions of
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


def percentile(v, q):
    """numpy.percentile's default (linear between the closest ranks)."""
    v = sorted(v)
    if not v:
        return 0
    x = (len(v) - 1) * q / 100.0
    lo = int(math.floor(x))
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (x - lo)


def summary(v1, v10):
    """The aims' statistics (issue 11): geomean e1 and e10, the lowest e1
    and the 5th percentile of e10."""
    return ("geomean e1 = %.3f, e10 = %.3f, min e1 = %.3f, 5th pct. e10 = "
            "%.3f over %d inputs" % (geomean(v1), geomean(v10),
                                     min(v1) if v1 else 0,
                                     percentile(v10, 5), len(v1)))


def score_conv(ranks, path):
    """The conv evaluation: timings keyed by (kernel, convolution text)."""
    times = {}
    for row in csv.DictReader(l for l in open(path) if not l.startswith("#")):
        if row["status"] == "ok":
            shape = ",".join(row[c] for c in CONV_SHAPE)
            times[(row["kernel"], shape)] = float(row["time_us"])
    whos = ["model", "heuristic"] + sorted(ranks[0].get("also", {})
                                           if ranks else [])
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
            names = r[who] if who in r else r["also"][who]
            ts = [times.get((name, r["shape"])) for name in names[:10]]
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
        print("%s %s: %s" % (dtype, who, summary(e1, e10)))


def failed_checks(path):
    """(kernel, m, n, k) of the FAIL rows of isaac-bench's --check-only
    --all table (label MxNxK layout dtype ... status kernel); also read
    from a run cut short, whose CSV would be missing."""
    failed, passed = set(), 0
    for line in open(path):
        f = line.split()
        if len(f) < 4 or not f[-1].startswith("isaac_gemm_"):
            continue
        m, n, k = (int(x) for x in f[1].split("x")[:3])
        if f[-2] == "FAIL":
            failed.add((f[-1], m, n, k))
        elif f[-2] == "PASS":
            passed += 1
    return failed, passed


def main():
    schema = isaac_schema.schema()
    args = sys.argv[1:]
    check = None
    if "--check" in args:
        i = args.index("--check")
        check = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    ranks = json.load(open(args[0]))
    if ranks and "shape" in ranks[0]:
        return score_conv(ranks, args[1])
    failed = set()
    if check:
        failed, passed = failed_checks(check)
        print("check: %d (kernel, input) pairs passed, %d failed (dropped)\n"
              % (passed, len(failed)))
    times = {}
    for row in csv.DictReader(l for l in open(args[1]) if not l.startswith("#")):
        if row["status"] != "ok":
            continue
        name = kernel_name(schema, row)
        key = (name, int(row["m"]), int(row["n"]), int(row["k"]))
        if key not in failed:
            times[key] = float(row["time_us"])
    whos = ["model", "heuristic"] + sorted(ranks[0].get("also", {}) if ranks else [])
    for r in ranks:
        for name, ranking in r.get("also", {}).items():
            r[name] = ranking
    typed = any("dtype" in r for r in ranks)
    logs = {}  # (dtype or "", who) -> [e1s, e10s]
    print("| M | N | K | layout | " + ("dtype | " if typed else "") +
          "candidates | best us | " +
          " | ".join("%s e1 | %s e10" % (w, w) for w in whos) + " |")
    print("|---" * (6 + typed + 2 * len(whos)) + "|")
    for r in ranks:
        key = lambda name: (name, r["m"], r["n"], r["k"])
        # With a dtype, the input was timed in several types: its own
        # type's kernels only (names isaac_gemm_<types>_<layout>_...).
        prefix = ("isaac_gemm_%s_%s_" % (r["dtype"], r["layout"])
                  if "dtype" in r else "")
        mine = [t for (name, m, n, k), t in times.items()
                if (m, n, k) == (r["m"], r["n"], r["k"])
                and name.startswith(prefix)]
        if not mine:
            continue
        best = min(mine)
        cells = []
        for who in whos:
            ts = [times.get(key(name)) for name in r[who][:10]]
            e1 = best / ts[0] if ts and ts[0] else 0.0
            ok = [t for t in ts if t]
            e10 = best / min(ok) if ok else 0.0
            lg = logs.setdefault((r.get("dtype", ""), who), [[], []])
            lg[0].append(e1)
            lg[1].append(e10)
            cells += ["%.3f" % e1, "%.3f" % e10]
        print("| %d | %d | %d | %s | %s%d | %.1f | %s |" % (
            r["m"], r["n"], r["k"], r["layout"],
            r["dtype"] + " | " if typed else "", r["candidates"], best,
            " | ".join(cells)))
    print()
    for (dtype, who), (e1, e10) in sorted(logs.items(),
                                          key=lambda x: (x[0][0], whos.index(x[0][1]))):
        print("%s%s: %s" % (dtype + " " if dtype else "", who,
                             summary(e1, e10)))


if __name__ == "__main__":
    main()
