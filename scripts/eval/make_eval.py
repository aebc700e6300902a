#!/usr/bin/env python3
"""Builds the e1/e10 evaluation of docs/model-eval.md (ISAAC §6-7).

For each held-out input of shapes.txt it asks isaac-select-config for the
model's top --model-k (40) and the analytic heuristic's top --heuristic-k
(10) configurations and adds --random (15) configurations drawn uniformly
from the legal space; the union is the benchmarked candidate set. Writes, in OUT:
  kernels.mlir  one GEMM per distinct (dtype, layout, config)
  samples.txt   'KERNEL M N K' for every (input, candidate) pair
  ranks.json    per input: the model's and the heuristic's rankings
--also NAME=DIR adds the top --also-k (default --model-k) of another model (DIR/<chip>/
gemm-<dtype>.mlp, e.g. an earlier one) to the candidates and to ranks.json,
scored at equal k by score.py.
--train-samples takes samples.txt files or datasets (.csv, .csv.xz): an
input that occurs in them is refused.
usage: make_eval.py --opt isaac-opt --model-test isaac-model-test
                    --train-samples FILE... --out DIR [--dtype f32]
                    [--also NAME=MODEL_DIR ...]
"""
import argparse
import csv
import json
import lzma
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from gen_kernels import func, kernel_name  # noqa: E402


def rankings(opt, mlir, args):
    out = subprocess.run([opt, mlir, "--isaac-select-config=" + args,
                          "-mlir-print-local-scope"], capture_output=True,
                         text=True, check=True).stdout
    ranks = {}
    for line in out.splitlines():
        f = re.match(r"\s*func\.func @(\w+)", line)
        if f:
            name = f.group(1)
        c = re.search(r"isaac\.candidates = \[(.*?)\]", line)
        if c:
            ranks[name] = re.findall(r"#isaac\.gemm<([^>]*)>", c.group(1))
        elif "topk=1 " in args + " ":  # no candidates list: the choice alone
            one = re.search(r"isaac\.config = #isaac\.gemm<([^>]*)>", line)
            if one:
                ranks[name] = [one.group(1)]
    return ranks


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--opt", required=True)
    p.add_argument("--model-test", required=True)
    p.add_argument("--shapes", default=os.path.join(os.path.dirname(__file__), "shapes.txt"))
    p.add_argument("--train-samples", nargs="*", default=[])
    p.add_argument("--model-dir", default="")
    p.add_argument("--dtype", default="f32")
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--model-k", type=int, default=40)
    p.add_argument("--heuristic-k", type=int, default=10)
    p.add_argument("--random", type=int, default=15)
    p.add_argument("--also", action="append", default=[],
                   help="NAME=MODEL_DIR: another model's top --also-k")
    p.add_argument("--also-k", type=int, default=0,
                   help="candidates from each --also model (default: --model-k)")
    a = p.parse_args()
    also = []
    for spec in a.also:
        name, sep, path = spec.partition("=")
        if not sep or not name or name in ("model", "heuristic") or not path:
            sys.exit("make_eval.py: --also expects NAME=MODEL_DIR, got '%s'" % spec)
        also.append((name, path))
    os.makedirs(a.out, exist_ok=True)
    shapes = []
    for line in open(a.shapes):
        if line.strip() and not line.startswith("#"):
            m, n, k, lay = line.split()
            shapes.append((int(m), int(n), int(k), lay))
    seen = set()
    for path in a.train_samples:
        if ".csv" in os.path.basename(path):  # a dataset (docs/tuning.md)
            opener = lzma.open if path.endswith(".xz") else open
            with opener(path, "rt") as f:
                rows = csv.DictReader(l for l in f if not l.startswith("#"))
                seen.update((int(r["m"]), int(r["n"]), int(r["k"])) for r in rows)
            continue
        for line in open(path):  # isaac-tune sample's samples.txt
            f = line.split()
            if len(f) == 4:
                seen.add((int(f[1]), int(f[2]), int(f[3])))
    for m, n, k, _ in shapes:
        if (m, n, k) in seen:
            sys.exit("eval input %dx%dx%d is in the training samples" % (m, n, k))
    mlir = os.path.join(a.out, "inputs.mlir")
    with open(mlir, "w") as f:
        for i, (m, n, k, lay) in enumerate(shapes):
            f.write(func("s%d" % i, a.dtype, m, n, k, lay))
    model_args = "topk=%d" % a.model_k + (" model-dir=" + a.model_dir if a.model_dir else "")
    model = rankings(a.opt, mlir, model_args)
    heuristic = rankings(a.opt, mlir, "topk=%d model-dir=none" % a.heuristic_k)
    also_k = a.also_k or a.model_k
    others = {name: rankings(a.opt, mlir, "topk=%d model-dir=%s" % (also_k, path))
              for name, path in also}
    space = subprocess.run([a.model_test, "random-configs", str(a.seed),
                            str(a.random * len(shapes)), a.dtype], capture_output=True,
                           text=True, check=True).stdout.split("\n")
    space = [re.search(r"<(.*)>", s).group(1) for s in space if s]
    kernels, samples, out = {}, [], []
    for i, (m, n, k, lay) in enumerate(shapes):
        rnd = space[a.random * i:a.random * (i + 1)]
        cands = []
        extra = [c for name, _ in also for c in others[name]["s%d" % i]]
        for c in model["s%d" % i] + heuristic["s%d" % i] + extra + rnd:
            if c not in cands:
                cands.append(c)
        for c in cands:
            name = kernel_name(a.dtype, lay, c)
            kernels[name] = (lay, c)
            samples.append("%s %d %d %d" % (name, m, n, k))
        out.append({"m": m, "n": n, "k": k, "layout": lay,
                    "model": [kernel_name(a.dtype, lay, c)
                              for c in model["s%d" % i]],
                    "heuristic": [kernel_name(a.dtype, lay, c)
                                  for c in heuristic["s%d" % i]],
                    "also": {name: [kernel_name(a.dtype, lay, c)
                                    for c in others[name]["s%d" % i]]
                             for name, _ in also},
                    "candidates": len(cands)})
    with open(os.path.join(a.out, "kernels.mlir"), "w") as f:
        for j, (name, (lay, c)) in enumerate(sorted(kernels.items())):
            f.write("// %s\n" % name + func("k%d" % j, a.dtype, 64, 64, 64, lay, c))
    open(os.path.join(a.out, "samples.txt"), "w").write("\n".join(samples) + "\n")
    json.dump(out, open(os.path.join(a.out, "ranks.json"), "w"), indent=1)
    print("%d inputs, %d (input, candidate) pairs, %d distinct kernels"
          % (len(shapes), len(samples), len(kernels)))


if __name__ == "__main__":
    main()
