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

Tensor-core models (the wgmma models of models/sm_90a, scripts/eval/
pack-tensor.sh): --dtype f16,bf16 evaluates every input in each type (ranks.json
entries then carry their "dtype", and score.py reports per type), --chip
selects for that chip (and writes the "// Compile with: ... chip=" line
compile-ptx.sh reads), --family draws the random configurations from that
family's legal space and checks that the model ranked it. The analytic
heuristic of isaac-select-config model-dir=none searches searchFamily()'s
space (mma for f16/bf16, also on sm_90a), so --heuristic-ranker BIN (the
wgmma_analytic.cpp helper) ranks --family's space with the same analytic
model instead; --also NAME=none still adds the compiler's own fallback.
--useful-random skips random configurations the search itself would never
rank for the input (more K slices than K has U-tiles: splitsKUselessly).
usage: make_eval.py --opt isaac-opt --model-test isaac-model-test
                    --train-samples FILE... --out DIR [--dtype f32[,...]]
                    [--chip CHIP] [--family FAMILY] [--heuristic-ranker BIN]
                    [--useful-random] [--also NAME=MODEL_DIR ...]
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


def rankings(opt, mlir, args, trained=None):
    """Each function's ranked configurations. With `trained` (a number of
    functions), every one of them must have been ranked by a trained model
    (its remark says so): the analytic fallback ranks the same family."""
    run = subprocess.run([opt, mlir, "--isaac-select-config=" + args,
                          "-mlir-print-local-scope"], capture_output=True,
                         text=True, check=True)
    out = run.stdout
    if trained is not None:
        got = run.stderr.count("by the trained model")
        if got != trained:
            sys.exit("make_eval.py: a trained model ranked %d of %d GEMMs of "
                     "%s (%s); remarks:\n%s" % (got, trained, mlir, args,
                     "\n".join(l for l in run.stderr.splitlines()
                               if "remark:" in l and "trained" not in l)[:2000]))
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


def ranker_rankings(ranker, chip, dtype, family, k, shapes_path, names):
    """The analytic top-k of `family`'s space per input of shapes_path
    (wgmma_analytic.cpp), keyed like rankings() by `names`."""
    out = subprocess.run([ranker, chip, dtype, family, str(k), shapes_path],
                         capture_output=True, text=True, check=True).stdout
    ranks, i = {}, -1
    for line in out.splitlines():
        if line.startswith("shape "):
            i = int(line.split()[1])
            ranks[names[i]] = []
        else:
            ranks[names[i]].append(re.search(r"<(.*)>", line).group(1))
    return ranks


def useless_split(config, k):
    """searchBest's splitsKUselessly: more K slices than K has U-tiles."""
    v = dict(re.findall(r"(\w+) = (\w+)", config))
    u, kg = int(v.get("u", 1)), int(v.get("kg", 1))
    return kg > 1 and kg > (k + u - 1) // u


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--opt", required=True)
    p.add_argument("--model-test", required=True)
    p.add_argument("--shapes", default=os.path.join(os.path.dirname(__file__), "shapes.txt"))
    p.add_argument("--train-samples", nargs="*", default=[])
    p.add_argument("--model-dir", default="")
    p.add_argument("--dtype", default="f32",
                   help="comma-separated: every input in each type")
    p.add_argument("--chip", default="",
                   help="isaac-select-config's chip (default: its own, sm_90)")
    p.add_argument("--family", default="",
                   help="draw random configurations from this family's space")
    p.add_argument("--heuristic-ranker", default="",
                   help="wgmma_analytic binary: the analytic top-k in "
                        "--family's space instead of model-dir=none's")
    p.add_argument("--useful-random", action="store_true",
                   help="skip random configurations that split K uselessly")
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
    dtypes = a.dtype.split(",")
    chip = " chip=%s" % a.chip if a.chip else ""
    kernels, samples, out = {}, [], []
    for dtype in dtypes:
        # Function names s<i> for one type (as before), <type>_<i> for several.
        names = [("s%d" % i if len(dtypes) == 1 else "%s_%d" % (dtype, i))
                 for i in range(len(shapes))]
        mlir = os.path.join(a.out, "inputs.mlir" if len(dtypes) == 1
                            else "inputs-%s.mlir" % dtype)
        with open(mlir, "w") as f:
            for name, (m, n, k, lay) in zip(names, shapes):
                f.write(func(name, dtype, m, n, k, lay))
        model_args = "topk=%d" % a.model_k + chip + (
            " model-dir=" + a.model_dir if a.model_dir else "")
        model = rankings(a.opt, mlir, model_args, trained=len(names))
        if a.family:
            # The model's family is the one evaluated (a wgmma model, not
            # the mma space the compiler's analytic fallback searches).
            for name in names:
                if any("family = %s," % a.family not in c for c in model[name]):
                    sys.exit("make_eval.py: the model's ranking of %s is not "
                             "of the %s family (no %s model for%s?)"
                             % (name, a.family, dtype, chip))
        if a.heuristic_ranker:
            shapes_path = os.path.join(a.out, "shapes.txt")
            open(shapes_path, "w").write("".join(
                "%d %d %d %s\n" % s for s in shapes))
            heuristic = ranker_rankings(a.heuristic_ranker, a.chip or "sm_90",
                                        dtype, a.family, a.heuristic_k,
                                        shapes_path, names)
        else:
            heuristic = rankings(a.opt, mlir, "topk=%d model-dir=none%s"
                                 % (a.heuristic_k, chip))
        also_k = a.also_k or a.model_k
        others = {name: rankings(a.opt, mlir, "topk=%d model-dir=%s%s"
                                 % (also_k, path, chip))
                  for name, path in also}
        # With --useful-random some draws are skipped (on K = 32 most: only
        # KG <= K / U is useful): draw 20 times as many, taken in order, so
        # the choice stays a function of the seed.
        draws = a.random * len(shapes) * (20 if a.useful_random else 1)
        cmd = [a.model_test, "random-configs", str(a.seed), str(draws), dtype]
        if a.chip or a.family:
            cmd += [a.chip or "sm_90"] + ([a.family] if a.family else [])
        space = subprocess.run(cmd, capture_output=True, text=True,
                               check=True).stdout.split("\n")
        space = [re.search(r"<(.*)>", s).group(1) for s in space if s]
        pos = 0  # the next draw --useful-random takes
        for i, (m, n, k, lay) in enumerate(shapes):
            if a.useful_random:
                rnd = []
                while len(rnd) < a.random and pos < len(space):
                    if not useless_split(space[pos], k):
                        rnd.append(space[pos])
                    pos += 1
                if len(rnd) < a.random:
                    sys.exit("make_eval.py: too few useful random draws")
            else:
                rnd = space[a.random * i:a.random * (i + 1)]
            cands = []
            extra = [c for name, _ in also for c in others[name][names[i]]]
            for c in model[names[i]] + heuristic[names[i]] + extra + rnd:
                if c not in cands:
                    cands.append(c)
            for c in cands:
                name = kernel_name(dtype, lay, c)
                kernels[name] = (dtype, lay, c)
                samples.append("%s %d %d %d" % (name, m, n, k))
            entry = {"m": m, "n": n, "k": k, "layout": lay,
                     "model": [kernel_name(dtype, lay, c)
                               for c in model[names[i]]],
                     "heuristic": [kernel_name(dtype, lay, c)
                                   for c in heuristic[names[i]]],
                     "also": {name: [kernel_name(dtype, lay, c)
                                     for c in others[name][names[i]]]
                              for name, _ in also},
                     "candidates": len(cands)}
            if len(dtypes) > 1 or a.chip:
                entry["dtype"] = dtype
            out.append(entry)
    with open(os.path.join(a.out, "kernels.mlir"), "w") as f:
        if a.chip:
            # compile-ptx.sh compiles for the chip this line names.
            f.write("// Compile with: isaac-opt --isaac-pipeline=chip=%s\n"
                    % a.chip)
        for j, (name, (dtype, lay, c)) in enumerate(sorted(kernels.items())):
            f.write("// %s\n" % name + func("k%d" % j, dtype, 64, 64, 64, lay, c))
    open(os.path.join(a.out, "samples.txt"), "w").write("\n".join(samples) + "\n")
    json.dump(out, open(os.path.join(a.out, "ranks.json"), "w"), indent=1)
    print("%d inputs, %d (input, candidate) pairs, %d distinct kernels"
          % (len(out), len(samples), len(kernels)))


if __name__ == "__main__":
    main()
