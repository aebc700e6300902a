#!/usr/bin/env python3
"""Builds the e1/e10 evaluation of the conv models (docs/model-eval.md,
"Convolutions").

For each held-out convolution of conv-shapes.txt and each --dtypes type,
the benchmarked candidates are the union of the conv model's top
--model-k (30), the analytic heuristic's top --heuristic-k (10) and
--random (15) configurations drawn uniformly from the convolution's legal
space. The filter layout alternates (nhwc_hwcf for even lines, nhwc_fhwc
for odd ones). Writes, in OUT:
  inputs.mlir   the convolutions, unconfigured (each as the unpadded
                convolution of the same N, P, Q, K, C, R, S, strides and
                dilations: the selection reads no padding)
  kernels.mlir  one configured convolution per distinct kernel
  samples.txt   'KERNEL N,H,W,C,K,R,S,sh,sw,pt,pl,dh,dw,P,Q' for every
                (input, candidate) pair: isaac-bench --conv --collect's
                input
  ranks.json    per input: the model's and the heuristic's rankings
--train-samples takes samples.txt files of isaac-tune sample --op conv or
conv datasets (.csv, .csv.xz): an input that occurs in them is refused.
usage: make_conv_eval.py --opt isaac-opt --model-test isaac-model-test
                         --train-samples FILE... --out DIR
                         [--model-dir DIR] [--dtypes f32,f16]
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
import isaac_schema  # noqa: E402  (include/isaac/Model/GemmParams.def)
from gen_kernels import conv_func  # noqa: E402

SHAPE_COLUMNS = ["n", "h", "w", "c", "k", "r", "s", "stride_h", "stride_w",
                 "pad_top", "pad_left", "dilation_h", "dilation_w", "p", "q"]
LAYOUTS = ["hwcf", "fhwc"]


def conv_kernel_name(schema, types, layout, config):
    """The conv kernel name (isaac_schema) of `config`, attribute text."""
    return schema.conv_kernel_name(types, layout,
                                   schema.parse_attr_text(config))


def rankings(opt, mlir, options):
    """func name -> the configurations (attribute text) isaac-select-config
    gives its convolution, best first."""
    out = subprocess.run([opt, mlir, "--isaac-select-config=" + options,
                          "-mlir-print-local-scope"], capture_output=True,
                         text=True, check=True).stdout
    ranks, name = {}, None
    for line in out.replace("\n    ", " ").splitlines():
        f = re.match(r"\s*func\.func @(\w+)", line)
        if f:
            name = f.group(1)
        c = re.search(r"isaac\.candidates = \[(.*?)\]", line)
        if c:
            ranks[name] = re.findall(r"#isaac\.gemm<([^>]*)>", c.group(1))
        elif name not in ranks:
            one = re.search(r"isaac\.config = #isaac\.gemm<([^>]*)>", line)
            if one and "linalg.conv" in line:
                ranks[name] = [one.group(1)]
    return ranks


def seen_inputs(paths):
    """The convolutions (15-field text) of samples files and conv datasets."""
    seen = set()
    for path in paths:
        if ".csv" in os.path.basename(path):
            opener = lzma.open if path.endswith(".xz") else open
            with opener(path, "rt") as f:
                rows = csv.DictReader(l for l in f if not l.startswith("#"))
                for r in rows:
                    seen.add(",".join(r[c] for c in SHAPE_COLUMNS))
            continue
        for line in open(path):
            f = line.split()
            if len(f) == 2 and not line.startswith("#"):
                seen.add(f[1])
    return seen


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--opt", required=True)
    p.add_argument("--model-test", required=True)
    p.add_argument("--shapes", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "conv-shapes.txt"))
    p.add_argument("--train-samples", nargs="*", default=[])
    p.add_argument("--model-dir", default="")
    p.add_argument("--dtypes", default="f32,f16")
    p.add_argument("--chip", default="sm_90")
    p.add_argument("--out", required=True)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--model-k", type=int, default=30)
    p.add_argument("--heuristic-k", type=int, default=10)
    p.add_argument("--random", type=int, default=15)
    p.add_argument("--random-family", default="",
                   help="draw the random candidates from this family's "
                        "space (default: the one searchBestConv searches)")
    p.add_argument("--also", action="append", default=[],
                   help="NAME=MODEL_DIR: another model directory's top "
                        "--model-k")
    a = p.parse_args()
    also = []
    for spec in a.also:
        name, _, path = spec.partition("=")
        if not name or not path:
            sys.exit("make_conv_eval.py: --also expects NAME=MODEL_DIR, "
                     "got '%s'" % spec)
        also.append((name, path))
    schema = isaac_schema.schema()
    dtypes = [t for t in a.dtypes.split(",") if t]
    for t in dtypes:
        if t not in ("f32", "f64", "f16", "bf16"):
            sys.exit("make_conv_eval.py: --dtypes takes f32, f64, f16, bf16")
    os.makedirs(a.out, exist_ok=True)

    # The held-out convolutions, through the C++ parser.
    listing = subprocess.run([a.model_test, "conv-shapes", a.shapes],
                             capture_output=True, text=True, check=True).stdout
    shapes = []
    for line in listing.splitlines():
        text, label = line.split(" ", 1)
        shapes.append((text, label))
    seen = seen_inputs(a.train_samples)
    for text, label in shapes:
        if text in seen:
            sys.exit("make_conv_eval.py: held-out input %s (%s) is in the "
                     "training samples" % (text, label))

    # The unconfigured convolutions, one function each.
    inputs, funcs = [], []
    for t in dtypes:
        for i, (text, label) in enumerate(shapes):
            n, h, w, c, k, r, s, sh, sw, pt, pl, dh, dw, pp, q = \
                [int(v) for v in text.split(",")]
            layout = LAYOUTS[i % 2]
            # The unpadded convolution with the same output: the selection
            # sees N, P, Q, K, C, R, S, strides and dilations only.
            eh = (pp - 1) * sh + dh * (r - 1) + 1
            ew = (q - 1) * sw + dw * (s - 1) + 1
            name = "%s_%d" % (t, i)
            funcs.append((name, t, layout, text, label))
            inputs.append(unconfigured_conv(name, t, layout,
                                            (n, eh, ew, c, k, r, s),
                                            (sh, sw), (dh, dw)))
    mlir = os.path.join(a.out, "inputs.mlir")
    with open(mlir, "w") as f:
        f.write("".join(inputs))
    model_opts = "chip=%s topk=%d" % (a.chip, a.model_k) + \
        (" model-dir=" + a.model_dir if a.model_dir else "")
    model = rankings(a.opt, mlir, model_opts)
    heuristic = rankings(a.opt, mlir, "chip=%s topk=%d model-dir=none" %
                         (a.chip, a.heuristic_k))
    others = {name: rankings(a.opt, mlir, "chip=%s topk=%d model-dir=%s" %
                             (a.chip, a.model_k, path))
              for name, path in also}

    kernels, samples, out = {}, [], []
    for j, (name, t, layout, text, label) in enumerate(funcs):
        rnd = subprocess.run([a.model_test, "conv-random-configs",
                              str(a.seed + j), str(a.random), t,
                              "nhwc_" + layout, text, a.chip] +
                             ([a.random_family] if a.random_family else []),
                             capture_output=True, text=True,
                             check=True).stdout.split("\n")
        rnd = [re.search(r"<(.*)>", s).group(1) for s in rnd if s]
        cands = []
        extra = [c for n, _ in also for c in others[n][name]]
        for c in model[name] + heuristic[name] + extra + rnd:
            if c not in cands:
                cands.append(c)
        for c in cands:
            kname = conv_kernel_name(schema, t, layout, c)
            kernels[kname] = (t, layout, c)
            samples.append("%s %s" % (kname, text))
        out.append({"label": label, "dtype": t, "layout": "nhwc_" + layout,
                    "shape": text,
                    "model": [conv_kernel_name(schema, t, layout, c)
                              for c in model[name]],
                    "heuristic": [conv_kernel_name(schema, t, layout, c)
                                  for c in heuristic[name]],
                    "also": {n: [conv_kernel_name(schema, t, layout, c)
                                 for c in others[n][name]] for n, _ in also},
                    "candidates": len(cands)})
    with open(os.path.join(a.out, "kernels.mlir"), "w") as f:
        # The chip compile-ptx.sh compiles for (wgmma on sm_90a only).
        f.write("// Compile with: isaac-opt kernels.mlir "
                "--isaac-pipeline=\"chip=%s ptx-dir=ptx\"\n" % a.chip)
        for j, (kname, (t, layout, c)) in enumerate(sorted(kernels.items())):
            # The kernel reads every size at run time: a 3x3 placeholder
            # on 8 channels, which every vec divides.
            f.write("// %s\n" % kname +
                    conv_func("k%d" % j, t, layout, (1, 6, 6, 8, 8, 3, 3), c))
    with open(os.path.join(a.out, "samples.txt"), "w") as f:
        f.write("# held-out conv evaluation: scripts/eval/make_conv_eval.py "
                "--dtypes %s --model-k %d --heuristic-k %d --random %d "
                "--seed %d --chip %s%s%s%s\n" % (
                    ",".join(dtypes), a.model_k, a.heuristic_k, a.random,
                    a.seed, a.chip,
                    " --model-dir " + a.model_dir if a.model_dir else "",
                    " --random-family " + a.random_family
                    if a.random_family else "",
                    "".join(" --also %s=%s" % x for x in also)))
        f.write("\n".join(samples) + "\n")
    json.dump(out, open(os.path.join(a.out, "ranks.json"), "w"), indent=1)
    print("%d inputs, %d (input, candidate) pairs, %d distinct kernels"
          % (len(out), len(samples), len(kernels)))


def unconfigured_conv(name, dtype, layout, shape, stride, dilation):
    """conv_func without isaac.config: the selection's input."""
    text = conv_func(name, dtype, layout, shape, "CONFIG", stride, dilation)
    return text.replace(",\n    isaac.config = #isaac.gemm<CONFIG>}", "}")


if __name__ == "__main__":
    main()
