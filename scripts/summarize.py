#!/usr/bin/env python3
"""Prints the configuration chosen for each GEMM and a summary of each kernel.

usage: summarize.py CONFIGURED.mlir PTX_DIR
CONFIGURED.mlir is the output of isaac-select-config (-mlir-print-local-scope);
PTX_DIR holds the files written by --isaac-pipeline="... ptx-dir=PTX_DIR".
"""
import os
import re
import sys


def ops(path):
    func = None
    text = open(path).read()
    for line in text.splitlines():
        m = re.match(r"\s*func\.func @(\w+)", line)
        if m:
            func = m.group(1)
        m = re.search(r"(linalg\.(?:batch_)?matmul).*isaac\.config = "
                      r"#isaac\.gemm<([^>]*)>.*outs\([^:]*: memref<([^>]*)>", line)
        if m:
            yield func, m.group(1), m.group(3), m.group(2)


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
    configured, ptx_dir = sys.argv[1], sys.argv[2]
    print("GEMMs and their configurations:")
    for func, op, cshape, cfg in ops(configured):
        print("  @%-28s %-19s C %-16s %s" % (func, op, cshape,
                                              cfg.replace(" = ", "=")))
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
