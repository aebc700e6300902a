#!/usr/bin/env python3
"""Summarizes an isaac-bench timing CSV against the better of cuBLAS and
cuBLASLt, per GEMM type.

  mma_summary.py TIMING.csv [SUMMARY.txt]

Prints one row per problem (shape, sizes, layout, type, isaac, cuBLAS and
cuBLASLt TFLOPS, isaac over the better vendor, status, kernel) and, per
type, the geometric mean of isaac / best vendor over the problems that
passed and were timed, with the lowest ratio and its problem. SUMMARY, if
given, receives the same text. Used by scripts/gpu/mma.sh.
"""
import csv
import math
import sys


def number(text):
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def summarize(rows):
    lines = []
    header = "%-12s %-16s %-3s %-7s %8s %8s %8s %7s %-6s %s" % (
        "shape", "MxNxK", "lay", "type", "isaac", "cuBLAS", "cuBLASLt",
        "i/best", "status", "kernel")
    lines.append(header)
    per_type = {}
    for row in rows:
        isaac = number(row.get("isaac_tflops"))
        cublas = number(row.get("cublas_tflops"))
        lt = number(row.get("cublaslt_tflops"))
        vendors = [v for v in (cublas, lt) if v is not None]
        best = max(vendors) if vendors else None
        ratio = isaac / best if isaac is not None and best else None
        sizes = "%sx%sx%s" % (row["M"], row["N"], row["K"])
        if row.get("batch", "1") not in ("", "1"):
            sizes += "x" + row["batch"]
        fmt = lambda v, spec="%.1f": "-" if v is None else spec % v
        lines.append("%-12s %-16s %-3s %-7s %8s %8s %8s %7s %-6s %s" % (
            row["shape"], sizes, row["layout"], row["dtype"], fmt(isaac),
            fmt(cublas), fmt(lt), fmt(ratio, "%.2f"), row["status"],
            row["kernel"] or "-"))
        stats = per_type.setdefault(row["dtype"], {"logs": [], "low": None,
                                                   "failed": 0, "rows": 0})
        stats["rows"] += 1
        if row["status"] == "FAIL":
            stats["failed"] += 1
        if row["status"] == "PASS" and ratio is not None:
            stats["logs"].append(math.log(ratio))
            where = "%s %s %s" % (row["shape"], sizes, row["layout"])
            if stats["low"] is None or ratio < stats["low"][0]:
                stats["low"] = (ratio, where)
    lines.append("")
    for dtype, stats in per_type.items():
        logs = stats["logs"]
        if logs:
            geomean = math.exp(sum(logs) / len(logs))
            lines.append(
                "%s: geomean isaac/best-vendor %.3f over %d problem%s; lowest "
                "%.3f (%s); %d of %d rows failed" %
                (dtype, geomean, len(logs), "" if len(logs) == 1 else "s",
                 stats["low"][0], stats["low"][1],
                 stats["failed"], stats["rows"]))
        else:
            lines.append("%s: no timed passing problems; %d of %d rows failed"
                         % (dtype, stats["failed"], stats["rows"]))
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write(__doc__)
        return 2
    try:
        with open(argv[1], newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.stderr.write("mma_summary.py: %s\n" % e)
        return 2
    text = summarize(rows)
    sys.stdout.write(text)
    if len(argv) == 3:
        with open(argv[2], "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
