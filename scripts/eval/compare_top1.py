#!/usr/bin/env python3
"""The compiler's own top-1 of several rankings, timed in one run.

Each LABEL=LIST names a ranking's choices: LIST holds `M N K KERNEL` lines
(gen_kernels.py candidates on a selection with topk=1; the first line of a
problem is its top-1). CSV is `isaac-bench --all --candidates UNION` over
the union of the lists, so every ranking's kernel is timed in the same run
against the same vendor times. Prints per problem each ranking's
isaac/vendor (the better of cuBLAS and cuBLASLt), then the geomean per
element type; a kernel that failed its check or was not timed is reported.

Convolutions (a CSV of isaac-bench --conv, lists of `M N K KERNEL
R,S,SH,SW` lines as pack-top1.sh OP=conv writes them): one row per layer
of the CSV, isaac over the better cuDNN format; 1x1 stride-1 layers are
left out (the pipeline makes GEMMs of them, which no conv model ranks).

A label written LABEL@N (e.g. `top10@10=LIST`) scores the best of each
problem's first N kernels of LIST that passed instead of its first one:
the re-benchmarked top N of the same ranking, against the same vendor
times (the CSV must hold those N: isaac-bench --candidates LIST --topk N).

    compare_top1.py CSV LABEL[@N]=LIST [LABEL[@N]=LIST ...] [--md]
    compare_top1.py --first LIST [--conv]   (each problem's first line)
"""

import csv
import math
import sys


def types_layout(name, conv):
    """(types, layout) of a kernel name: isaac_gemm_<types>_<layout>_...,
    isaac_conv_<types>_nhwc_<layout>_..."""
    parts = name.split("_")
    return parts[2], parts[4 if conv else 3]


def list_lines(path, conv=False):
    """(problem key, kernel, line) of every line of a list, in file order.
    The problem is M N K, the kernel name's types and layout, and a
    convolution's filter and strides."""
    for line in open(path):
        f = line.split()
        if len(f) != (5 if conv else 4):
            continue
        m, n, k, name = f[:4]
        key = (int(m), int(n), int(k)) + types_layout(name, conv) + \
            tuple(f[4:])
        yield key, name, line.rstrip("\n")


def first_lines(path, conv=False):
    """(problem key, kernel, line) of each problem's first line of a list,
    in file order: its top-1."""
    seen, out = set(), []
    for key, name, line in list_lines(path, conv):
        if key not in seen:
            seen.add(key)
            out.append((key, name, line))
    return out


def ranked(path, conv=False):
    """{problem key: [kernels in file order]} of a list, each kernel once:
    the first is the problem's top-1."""
    out = {}
    for key, name, _ in list_lines(path, conv):
        if name not in out.setdefault(key, []):
            out[key].append(name)
    return out


def conv_layers(rows):
    """(problem key, layer name, {kernel: row}) of each timed layer of a
    conv CSV, in order; 1x1 stride-1 layers left out."""
    layers = {}
    for r in rows:
        geom = ",".join(r[c] for c in ("R", "S", "stride_h", "stride_w"))
        if geom == "1,1,1,1":
            continue
        key = (int(r["gemm_m"]), int(r["gemm_n"]), int(r["gemm_k"])) + \
            types_layout(r["kernel"], True) + (geom,)
        layer = (r["shape"],) + tuple(r[c] for c in ("N", "H", "W", "C", "K"))
        layers.setdefault(layer, (key, {}))[1][r["kernel"]] = r
    return [(key, layer[0], kernels) for layer, (key, kernels) in
            layers.items()]


def loose_lookup(lst, key):
    """A conv list's kernel for `key` up to the strides: the selection's
    input may write a strided layer unstrided on a padded input of the same
    implicit GEMM (examples/table5.mlir); used where the filter size alone
    names one problem of the list."""
    filt = key[5].split(",")[:2]
    hits = [v for k, v in lst.items()
            if k[:5] == key[:5] and k[5].split(",")[:2] == filt]
    return hits[0] if len(hits) == 1 else None


def main(argv):
    if argv[:1] == ["--first"] and len(argv) in (2, 3):
        for _, _, line in first_lines(argv[1], "--conv" in argv[2:]):
            print(line)
        return
    md = "--md" in argv
    argv = [a for a in argv if a != "--md"]
    if len(argv) < 2 or any("=" not in a for a in argv[1:]):
        sys.exit("usage:\n" + "\n".join(__doc__.strip().splitlines()[-2:]))
    table = list(csv.DictReader(open(argv[0])))
    conv = bool(table) and "gemm_m" in table[0]
    labels, lists, depths = [], [], []
    for a in argv[1:]:
        label, path = a.split("=", 1)
        label, _, depth = label.partition("@")
        if depth and (not depth.isdigit() or int(depth) < 1):
            sys.exit("compare_top1.py: '%s': N of LABEL@N must be a positive "
                     "integer" % a)
        labels.append(label)
        depths.append(int(depth or 1))
        lists.append(ranked(path, conv))
    # (problem key, row label, {kernel: row}) per row of the comparison.
    problems = []
    if conv:
        ratio = "isaac_over_best_cudnn"
        for key, layer, kernels in conv_layers(table):
            problems.append((key, f"{layer} {key[4]}", kernels))
    else:
        ratio = "isaac_over_best"
        rows = {}
        for r in table:
            rows.setdefault((int(r["M"]), int(r["N"]), int(r["K"])),
                            {})[r["kernel"]] = r
        for key in dict.fromkeys(k for lst in lists for k in lst):
            m, n, k, types, layout = key
            problems.append((key, f"{m}x{n}x{k} {layout}",
                             rows.get((m, n, k), {})))
    # A geomean row per type: f16 and bf16 always, then any other type of
    # the problems (f32, f64), then all.
    types_rows = ["f16", "bf16"] + list(dict.fromkeys(
        key[3] for key, _, _ in problems if key[3] not in ("f16", "bf16")))
    types_rows.append("all")
    ratios = {(l, t): [] for l in labels for t in types_rows}
    sep = " | " if md else "  "
    head = ["problem", "type"] + labels
    print(("| " if md else "") + sep.join(head) + (" |" if md else ""))
    if md:
        print("|" + "---|" * len(head))
    for key, title, kernels in problems:
        types = key[3]
        cells = [title, types]
        for label, lst, depth in zip(labels, lists, depths):
            names = lst.get(key) or (conv and loose_lookup(lst, key)) or []
            rs = [kernels.get(name) for name in names[:depth]]
            passed = [r for r in rs if r and r.get("status") == "PASS"]
            if not passed:
                r = rs[0] if rs else None
                cells.append("missing" if not r else r.get("status"))
                continue
            x = max(float(r[ratio]) for r in passed)
            ratios[(label, types)].append(x)
            ratios[(label, "all")].append(x)
            cells.append(f"{x:.3f}")
        print(("| " if md else "") + sep.join(cells) + (" |" if md else ""))
    for t in types_rows:
        cells = [f"geomean {t}", ""]
        for label in labels:
            v = ratios[(label, t)]
            cells.append(f"{math.exp(sum(map(math.log, v)) / len(v)):.3f} "
                         f"({len(v)})" if v else "-")
        print(("| " if md else "") + sep.join(cells) + (" |" if md else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
