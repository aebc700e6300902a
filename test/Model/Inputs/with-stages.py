#!/usr/bin/env python3
"""Adds a `stages` column to a synthetic f32 dataset (isaac-model-test
synthetic): row i's kernel gets stages 2, 3 or 4 in turn, and a speed
scaled by (stages / 2)^2, so that a model trained on it prefers deeper
pipelines (test/Model/mlp.test: simt's extra feature end to end).

usage: with-stages.py IN.csv > OUT.csv
"""
import csv
import sys


def main():
    lines = open(sys.argv[1]).read().splitlines()
    out = [line for line in lines if line.startswith("#")]
    rows = list(csv.reader(line for line in lines if not line.startswith("#")))
    header = rows[0]
    out.append(",".join(header[:-3] + ["stages"] + header[-3:]))
    t, f = header.index("time_us"), header.index("tflops")
    for i, r in enumerate(rows[1:]):
        st = 2 + i % 3
        scale = (st / 2) ** 2
        r[t] = "%.3f" % (float(r[t]) / scale)
        r[f] = "%.6g" % (float(r[f]) * scale)
        out.append(",".join(r[:-3] + [str(st)] + r[-3:]))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
