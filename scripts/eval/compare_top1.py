#!/usr/bin/env python3
"""The compiler's own top-1 of several rankings, timed in one run.

Each LABEL=LIST names a ranking's choices: LIST holds `M N K KERNEL` lines
(gen_kernels.py candidates on a selection with topk=1; the first line of a
problem is its top-1). CSV is `isaac-bench --all --candidates UNION` over
the union of the lists, so every ranking's kernel is timed in the same run
against the same vendor times. Prints per problem each ranking's
isaac/vendor (the better of cuBLAS and cuBLASLt), then the geomean per
element type; a kernel that failed its check or was not timed is reported.

    compare_top1.py CSV LABEL=LIST [LABEL=LIST ...] [--md]
"""

import csv
import math
import sys


def top1s(path):
    """((M, N, K, types, layout), kernel) of each problem's first line, in
    file order."""
    seen, out = set(), []
    for line in open(path):
        f = line.split()
        if len(f) != 4:
            continue
        m, n, k, name = f
        # isaac_gemm_<types>_<layout>_...: the problem is M N K, types, layout.
        parts = name.split("_")
        key = (int(m), int(n), int(k), parts[2], parts[3])
        if key in seen:
            continue
        seen.add(key)
        out.append((key, name))
    return out


def main(argv):
    md = "--md" in argv
    argv = [a for a in argv if a != "--md"]
    if len(argv) < 2 or any("=" not in a for a in argv[1:]):
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    rows = {}
    for r in csv.DictReader(open(argv[0])):
        key = (int(r["M"]), int(r["N"]), int(r["K"]), r["kernel"])
        rows[key] = r
    labels, lists = [], []
    for a in argv[1:]:
        label, path = a.split("=", 1)
        labels.append(label)
        lists.append(dict(top1s(path)))
    problems = []
    for lst in lists:
        for key in lst:
            if key not in problems:
                problems.append(key)
    ratios = {(l, t): [] for l in labels for t in ("f16", "bf16", "all")}
    sep = " | " if md else "  "
    head = ["problem", "type"] + labels
    print(("| " if md else "") + sep.join(head) + (" |" if md else ""))
    if md:
        print("|" + "---|" * len(head))
    for key in problems:
        m, n, k, types, layout = key
        cells = [f"{m}x{n}x{k} {layout}", types]
        for label, lst in zip(labels, lists):
            name = lst.get(key)
            r = rows.get((m, n, k, name)) if name else None
            if not r or r.get("status") != "PASS":
                cells.append("missing" if not r else r.get("status"))
                continue
            x = float(r["isaac_over_best"])
            ratios[(label, types)].append(x)
            ratios[(label, "all")].append(x)
            cells.append(f"{x:.3f}")
        print(("| " if md else "") + sep.join(cells) + (" |" if md else ""))
    for t in ("f16", "bf16", "all"):
        cells = [f"geomean {t}", ""]
        for label in labels:
            v = ratios[(label, t)]
            cells.append(f"{math.exp(sum(map(math.log, v)) / len(v)):.3f} "
                         f"({len(v)})" if v else "-")
        print(("| " if md else "") + sep.join(cells) + (" |" if md else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
