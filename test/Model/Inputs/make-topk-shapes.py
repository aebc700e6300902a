#!/usr/bin/env python3
"""Writes the inputs whose top-10 configurations topk-golden.test pins down.

  make-topk-shapes.py SOURCE_ROOT > topk-shapes.txt

One line per input, `M N K LAYOUT BATCH  # origin`, from the sources that
define them (so the list follows them):
  - the ISAAC Table 4 GEMMs of examples/table4.mlir (the f32 and the f64
    functions have the same sizes; each is listed once, the golden files
    rank it with the f32 and with the f64 model);
  - both held-out evaluation sets, scripts/eval/shapes.txt and shapes-b.txt
    (make_eval.py's inputs);
  - the correctness sweep's problems (tools/isaac-bench/Sweep.cpp:
    kDefaultSizes with at most one large dimension, then kMixedLarge) in all
    four layouts, and with batch 3 where the sweep runs them batched
    (problem index c % 5 == 2 and M*N*K <= 2^22). Problem c in layout
    nn/nt/tn/tt[c % 4] is `sweep`, in the three others `sweep-more`:
    topk-golden.test checks the former (every problem once), the
    long-tests variant all of them.
Duplicates are listed once, at their first origin.
"""
import os
import re
import sys


def table4(root):
    text = open(os.path.join(root, "examples/table4.mlir")).read()
    out = []
    for f in re.finditer(r"func\.func @(\w+?)_(\d+)x(\d+)x(\d+)_f(?:32|64)\(.*?"
                         r"indexing_maps = \[#(\w)_a, #(\w)_b", text, re.S):
        name, m, n, k, a, b = f.groups()
        out.append((int(m), int(n), int(k), a + b, 1, "table4 " + name))
    return out


def held_out(root, rel):
    out = []
    for line in open(os.path.join(root, rel)):
        if line.strip() and not line.startswith("#"):
            m, n, k, lay = line.split()
            out.append((int(m), int(n), int(k), lay, 1, rel))
    return out


def sweep(root):
    src = open(os.path.join(root, "tools/isaac-bench/Sweep.cpp")).read()
    sizes = [int(x) for x in re.search(
        r"kDefaultSizes = \{([^}]*)\}", src).group(1).replace(",", " ").split()]
    large = int(re.search(r"kLarge = (\d+);", src).group(1))
    mixed = re.search(r"kMixedLarge = \{\{(.*?)\}\};", src, re.S).group(1)
    mixed = [tuple(int(v) for v in t.split(","))
             for t in re.findall(r"\{([^{}]*)\}", mixed)]
    work = 1 << int(re.search(r"kMaxBatchedWork = int64_t\(1\) << (\d+);",
                              src).group(1))
    problems = [(m, n, k) for m in sizes for n in sizes for k in sizes
                if (m >= large) + (n >= large) + (k >= large) <= 1] + mixed
    out = []
    layouts = ("nn", "nt", "tn", "tt")
    for c, (m, n, k) in enumerate(problems):
        for j in range(4):
            lay = layouts[(c + j) % 4]
            origin = "sweep" if j == 0 else "sweep-more"
            out.append((m, n, k, lay, 1, origin))
            if c % 5 == 2 and m * n * k <= work:
                out.append((m, n, k, lay, 3, origin + " batched"))
    return out


def main():
    root = sys.argv[1]
    seen = set()
    print("# M N K LAYOUT BATCH  # origin; written by make-topk-shapes.py")
    for m, n, k, lay, batch, origin in (
            table4(root) + held_out(root, "scripts/eval/shapes.txt") +
            held_out(root, "scripts/eval/shapes-b.txt") + sweep(root)):
        if (m, n, k, lay, batch) in seen:
            continue
        seen.add((m, n, k, lay, batch))
        print("%d %d %d %s %d  # %s" % (m, n, k, lay, batch, origin))


if __name__ == "__main__":
    main()
