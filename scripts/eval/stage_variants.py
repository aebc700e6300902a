#!/usr/bin/env python3
"""The compiler's own f32 top-1 (the exact simt family, whose shipped model
ranks two-stage kernels) at stages 2, and the same configuration at stages
3 and 4 where isaac-opt accepts it (the cp.async pipeline): does a deeper
pipeline of the chosen tiles run faster? (docs/perf.md, "Models that rank
`stages`".)

usage: stage_variants.py OUT SHAPES... (files of `M N K layout` lines, as
scripts/eval/shapes.txt)

Writes, in OUT:
  kernels.mlir      one GEMM per distinct kernel
  samples.txt       `KERNEL M N K` per (input, variant), for isaac-bench --collect
  ranks.json        per input: "model" the top-1, "also" {"st3": ..., "st4": ...}
                    (the top-1 itself where the deeper variant is not legal),
                    for scripts/eval/score.py
  st2.txt, st3.txt, st4.txt, candidates.txt
                    `M N K KERNEL` lists for isaac-bench --candidates and
                    scripts/eval/compare_top1.py
ISAAC_OPT (default build/bin/isaac-opt) ranks with the shipped models.
"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(here))
sys.path.insert(0, here)
from gen_kernels import func, kernel_name, legal, with_params  # noqa: E402
from make_eval import rankings  # noqa: E402


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, shape_files = sys.argv[1], sys.argv[2:]
    opt = os.environ.get("ISAAC_OPT") or os.path.join(
        os.path.dirname(os.path.dirname(here)), "build", "bin", "isaac-opt")
    os.makedirs(out, exist_ok=True)
    shapes = []
    for path in shape_files:
        for line in open(path):
            t = line.split("#")[0].split()
            if len(t) == 4:
                shapes.append((int(t[0]), int(t[1]), int(t[2]), t[3]))
    names = ["s%d" % i for i in range(len(shapes))]
    mlir = os.path.join(out, "inputs.mlir")
    with open(mlir, "w") as f:
        for name, (m, n, k, lay) in zip(names, shapes):
            f.write(func(name, "f32", m, n, k, lay))
    top = rankings(opt, mlir, "topk=1", trained=len(names))
    kernels, samples, ranks = {}, [], []
    for name, (m, n, k, lay) in zip(names, shapes):
        first = top[name][0]
        entry = {"m": m, "n": n, "k": k, "layout": lay,
                 "model": [kernel_name("f32", lay, first)], "heuristic": [],
                 "also": {}}
        variants = [first]
        for st in (3, 4):
            c = with_params(first, stages=st)
            if not legal(func("k", "f32", 64, 64, 64, lay, c), "sm_90"):
                c = first  # the rule keeps the top-1 where st is not legal
            else:
                variants.append(c)
            entry["also"]["st%d" % st] = [kernel_name("f32", lay, c)]
        for c in variants:
            kn = kernel_name("f32", lay, c)
            kernels[kn] = (lay, c)
            samples.append("%s %d %d %d" % (kn, m, n, k))
        entry["candidates"] = len(variants)
        ranks.append(entry)
    with open(os.path.join(out, "kernels.mlir"), "w") as f:
        for j, (kn, (lay, c)) in enumerate(sorted(kernels.items())):
            f.write("// %s\n" % kn + func("k%d" % j, "f32", 64, 64, 64, lay, c))
    open(os.path.join(out, "samples.txt"), "w").write("\n".join(samples) + "\n")
    json.dump(ranks, open(os.path.join(out, "ranks.json"), "w"), indent=1)
    union = []
    for st in (2, 3, 4):
        lines = ["%d %d %d %s" % (e["m"], e["n"], e["k"],
                                  e["model"][0] if st == 2
                                  else e["also"]["st%d" % st][0])
                 for e in ranks]
        open(os.path.join(out, "st%d.txt" % st), "w").write(
            "\n".join(lines) + "\n")
        union += [line for line in lines if line not in union]
    open(os.path.join(out, "candidates.txt"), "w").write("\n".join(union) + "\n")
    print("%d inputs, %d (input, variant) pairs, %d kernels"
          % (len(ranks), len(samples), len(kernels)))


if __name__ == "__main__":
    main()
