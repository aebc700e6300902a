#!/usr/bin/env python3
"""Prints each GEMM's configuration and its source, and a summary of each kernel.

usage: summarize.py CONFIGURED.mlir REMARKS.txt PTX_DIR

CONFIGURED.mlir is the output of isaac-select-config printed with
-mlir-print-local-scope -mlir-print-debuginfo (each operation carries the
location of its line in the input); REMARKS.txt is that run's stderr, one
remark per GEMM naming the source of its configuration; PTX_DIR holds the
files written by --isaac-pipeline="... ptx-dir=PTX_DIR". GEMMs are listed
in the order of the input file.
"""
import os
import re
import sys

OP_RE = re.compile(r"\b(linalg\.(?:batch_)?matmul)\b")
CONFIG_RE = re.compile(r"isaac\.config = #isaac\.gemm<([^>]*)>")
C_RE = re.compile(r"outs\([^:]*: (?:memref|tensor)<([^>]*)>")
LOC_RE = re.compile(r'loc\("[^"]*":(\d+):(\d+)\)\s*$')
REMARK_RE = re.compile(r"^.*:(\d+):(\d+): (remark|warning|error): isaac: (.*)$")

# The remarks of isaac-select-config (lib/Transforms/SelectConfig.cpp), in
# short; anything else is printed as the remark says it.
SOURCES = [
    (re.compile(r"configuration chosen by the trained model (\S+) "
                r"\((.*)\)$"), lambda m: "trained model %s%s" % (
                    short_path(m.group(1)),
                    "" if m.group(2) == "trained on measurements"
                    else " (" + m.group(2) + ")")),
    (re.compile(r"lies outside the training support of (\S+) .*analytic "
                r"heuristic$"), lambda m: "analytic heuristic (outside the "
                "support of %s)" % short_path(m.group(1))),
    # (The remark ends with where it looked: "(no file PATH)".)
    (re.compile(r"no trained model for (\S+); configuration chosen by the "
                r"analytic heuristic( \(.*\))?$"),
     lambda m: "analytic heuristic (no model for %s)" % m.group(1)),
    # The mma family's space (16-bit operands, TF32, f64 on DMMA), which
    # the analytic model ranks.
    (re.compile(r"^mma configuration(?: \((.*?)\))? chosen by the analytic "
                r"model"), lambda m: "analytic model, mma family%s" % (
                    " (" + m.group(1) + ")" if m.group(1) else "")),
    (re.compile(r"configuration from the tuning cache (.*)$"),
     lambda m: "tuning cache " + short_path(m.group(1))),
    (re.compile(r"configuration given in the input"),
     lambda m: "written by hand in the input"),
    (re.compile(r"left untouched: (.*)$"),
     lambda m: "not compiled by isaac: " + m.group(1)),
]


def short_path(path):
    """models/sm_90/gemm-f32.mlp rather than the absolute path."""
    parts = path.split(os.sep)
    return os.sep.join(parts[-3:]) if len(parts) > 3 else path


def source_of(message):
    for pattern, describe in SOURCES:
        m = pattern.search(message)
        if m:
            return describe(m)
    return message


def gemms(configured):
    """(line, col, func, op, C type, config or None) of each GEMM."""
    func = None
    for index, line in enumerate(open(configured)):
        m = re.match(r"\s*func\.func (?:\w+ )?@([\w$.]+)", line)
        if m:
            func = m.group(1)
        op = OP_RE.search(line)
        if not op or not re.match(r"\s*(%[\w#:]+ = )?" + re.escape(op.group(1)),
                                  line):
            continue
        loc = LOC_RE.search(line)
        config = CONFIG_RE.search(line)
        cshape = C_RE.search(line)
        where = (int(loc.group(1)), int(loc.group(2))) if loc else (0, index)
        yield (where, func, op.group(1), cshape.group(1) if cshape else "?",
               config.group(1).replace(" = ", "=").replace(",", "")
               if config else None)


def remarks(path):
    """(line, col) -> the isaac remarks at that location."""
    out = {}
    for line in open(path):
        m = REMARK_RE.match(line.rstrip("\n"))
        if m:
            out.setdefault((int(m.group(1)), int(m.group(2))), []).append(
                (m.group(3), m.group(4)))
    return out


def kernel(path):
    ptx = open(path).read()
    head = dict(kv.split("=", 1) for kv in
                re.search(r"// isaac\.kernel (.*)", ptx).group(1).split())
    body = ptx.split(".entry " + head["name"] + "(", 1)[1].split(".entry", 1)[0]
    count = lambda pat: len(re.findall(pat, body))
    return head, {
        "lines": body.count("\n"),
        "fma": count(r"\bfma\.rn\.f(32|64)"),
        "vec ld": count(r"ld\.global(\.nc)?\.v[24]"),
        "pred ld": count(r"@%p\d+ ld\.global"),
        "pred st": count(r"@%p\d+ st\.global"),
        "red": count(r"red\.global\.add"),
        "bar": count(r"bar\.sync"),
    }


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip())
    configured, remarks_path, ptx_dir = sys.argv[1:]
    by_loc = remarks(remarks_path)
    rows = [("line", "function", "op", "C", "configuration", "source")]
    for (line, col), func, op, cshape, config in sorted(gemms(configured)):
        said = by_loc.get((line, col), [])
        source = "; ".join(source_of(msg) if kind == "remark"
                           else kind + ": " + msg for kind, msg in said)
        rows.append((str(line or "?"), "@" + (func or "?"), op, cshape,
                     config or "(none)", source or "(no remark)"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    print("GEMMs in the order of the input, each with its configuration "
          "and where it came from:")
    for r in rows:
        print("  " + r[0].rjust(widths[0]) + "  " + "  ".join(
            v.ljust(w) for v, w in zip(r[1:-1], widths[1:])) + "  " + r[-1])

    print("\nGenerated kernels (%s):" % ptx_dir)
    cols = ["threads", "smem", "lines", "fma", "vec ld", "pred ld",
            "pred st", "red", "bar"]
    print("  %-62s " % "kernel" + " ".join("%7s" % c for c in cols))
    for f in sorted(os.listdir(ptx_dir)):
        if not f.endswith(".ptx"):
            continue
        head, stats = kernel(os.path.join(ptx_dir, f))
        row = [head["threads"], head["smem"]] + [stats[c] for c in cols[2:]]
        print("  %-62s " % head["name"] + " ".join("%7s" % v for v in row))
    print("\n  fma: FMAs in the kernel's PTX (one unrolled staged tile); "
          "vec ld: unpredicated vector\n  loads (fast path); pred ld/st: "
          "predicated tail accesses; red: split-K atomics.")


if __name__ == "__main__":
    main()
