#!/usr/bin/env python3
"""Distil a screen network for a GEMM model's search (docs/model-format.md,
"The screen").

The search of an ensemble (makeMLPCost) has its first member score every
legal configuration of the support, about 10^6 for f32 simt, and the
ensemble only the 4,096 best. A screen is a much smaller network trained to
predict the first member's scores: with one, the screen scores all of them
and the first member only the screen's KEEP best. The screen's target is the
first member itself, so its data costs no GPU time: the configurations and
scores come from `isaac-model-test mlp-space-dump` on inputs this script
draws (as isaac-tune sample draws them, plus skinny and small ones), the
first member's TOP best configurations of each input and SAMPLE others.

    python3 tools/isaac-tune/train_screen.py models/sm_90/gemm-f32.mlp \\
        --model-test build/bin/isaac-model-test --out models/sm_90/gemm-f32.mlp

writes the model with the `screen` record (replacing one it had) after its
members. The members and everything before them are kept byte for byte.
Python 3 and numpy only; deterministic given --seed.
"""

import argparse
import math
import os
import random
import subprocess
import sys
import tempfile
import time
import zlib

try:
    import numpy as np
except ImportError:  # pragma: no cover
    sys.exit("train_screen.py: needs numpy (Debian: apt-get install "
             "python3-numpy)")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The trainer's network (initialization, forward pass) and writer (exact
# float32 hex, the checksummed `end` record).
from train import MLP, hexf, sealed  # noqa: E402


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def read_model(path):
    """The model's lines without its `end` record and without a screen it
    may have, and its standardization."""
    with open(path) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or not lines[-1].startswith("end "):
        sys.exit(f"train_screen.py: {path}: no 'end' record")
    lines.pop()
    body = ("\n".join(lines) + "\n").encode()
    with open(path, "rb") as f:
        raw = f.read()
    crc = raw[raw.rindex(b"end ") + 4:].strip().decode()
    if f"{zlib.crc32(body) & 0xFFFFFFFF:08x}" != crc:
        sys.exit(f"train_screen.py: {path}: checksum mismatch")
    for i, l in enumerate(lines):  # a screen (and its comment) goes
        if l.startswith("screen "):
            cut = i
            while cut > 0 and lines[cut - 1].startswith("# screen"):
                cut -= 1
            lines = lines[:cut]
            break
    std = {}
    for l in lines:
        t = l.split()
        if t and t[0] in ("input-mean", "input-std", "output-mean",
                          "output-std", "members", "layers"):
            std[t[0]] = t[1:]
    num = lambda v: float.fromhex(v) if "x" in v else float(v)
    mean = np.array([num(v) for v in std["input-mean"]], np.float32)
    sd = np.array([num(v) for v in std["input-std"]], np.float32)
    if int(std["members"][0]) < 2:
        sys.exit("train_screen.py: the model has one member: a screen serves "
                 "the pre-screen of an ensemble")
    return lines, mean, sd, num(std["output-mean"][0]), \
        num(std["output-std"][0])


def draw_inputs(seed, count):
    """GEMM inputs `M N K LAYOUT BATCH`: 55% as isaac-tune sample draws them
    (M, N <= 8192, K <= 65536 log-uniform, 10^6 to 2*10^11 FLOP), 25% with
    one of M, N at most 64, 20% with all three at most 300; layouts
    uniform, a batch of 2 to 64 for 15%."""
    r = random.Random(seed)

    def lu(hi, lo=1):
        v = int(math.exp(r.uniform(math.log(lo), math.log(hi + 1))))
        return max(lo, min(hi, v))
    out = []
    while len(out) < count:
        u = r.random()
        if u < 0.55:
            m, n, k = lu(8192), lu(8192), lu(65536)
            if not 1e6 <= 2 * m * n * k <= 2e11:
                continue
        elif u < 0.8:
            m, n, k = lu(64), lu(16384), lu(65536)
            if r.random() < 0.5:
                m, n = n, m
            if 2 * m * n * k > 4e11:
                continue
        else:
            m, n, k = lu(300), lu(300), lu(300)
        lay = r.choice(["nn", "nt", "tn", "tt"])
        b = 1 if r.random() < 0.85 else lu(64, 2)
        out.append(f"{m} {n} {k} {lay} {b}")
    return out


def train(x, y, wt, sizes, args):
    rng = np.random.default_rng(args.seed)
    net = MLP(sizes, rng, [])
    params = net.W + net.b
    mom = [np.zeros_like(p) for p in params]
    vel = [np.zeros_like(p) for p in params]
    n, bs = len(y), args.batch
    spe = n // bs
    total, step = spe * args.epochs, 0
    t0 = time.time()
    for ep in range(args.epochs):
        perm = rng.permutation(n)
        for s in range(spe):
            sel = perm[s * bs:(s + 1) * bs]
            pred, acts = net.forward(x[sel], True)
            g = ((2.0 / bs) * (pred - y[sel]) * wt[sel])[:, None]
            gW, gb = [None] * len(net.W), [None] * len(net.W)
            for i in range(len(net.W) - 1, -1, -1):
                gW[i] = acts[i].T @ g
                gb[i] = g.sum(0)
                if i:
                    g = (g @ net.W[i].T) * (acts[i] > 0)
            step += 1
            lr = args.lr * (0.05 + 0.95 * 0.5 *
                            (1 + math.cos(math.pi * step / total)))
            for p, gr, m1, v1 in zip(net.W + net.b, gW + gb, mom, vel):
                m1 *= 0.9
                m1 += 0.1 * gr
                v1 *= 0.999
                v1 += 0.001 * gr * gr
                p -= (lr * (m1 / (1 - 0.9 ** step)) /
                      (np.sqrt(v1 / (1 - 0.999 ** step)) + 1e-8)
                      ).astype(np.float32)
        probe = slice(0, min(n, 200000))
        mse = float(np.mean((net.forward(x[probe]) - y[probe]) ** 2))
        log(f"  epoch {ep + 1}: mse (standardized) {mse:.5f}, "
            f"{time.time() - t0:.0f} s")
    return net


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model", help="the model file (isaac-mlp 2, GEMM)")
    ap.add_argument("--out", required=True, help="where to write the model "
                    "with the screen (may be the model itself)")
    ap.add_argument("--model-test", default=os.path.join(
        os.path.dirname(os.path.dirname(os.path.dirname(
            os.path.abspath(__file__)))), "build", "bin", "isaac-model-test"),
        help="the isaac-model-test that scores the configurations")
    ap.add_argument("--arch", default="16,16", help="hidden widths")
    ap.add_argument("--keep", type=int, default=32768, help="configurations "
                    "the first member scores (the screen's best)")
    ap.add_argument("--inputs", type=int, default=400)
    ap.add_argument("--top", type=int, default=6000, help="the first "
                    "member's best configurations per input")
    ap.add_argument("--sample", type=int, default=3000, help="random other "
                    "configurations per input")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--top-weight", type=float, default=1.0, help="loss "
                    "weight of the first member's 8,192 best per input")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dump", help="reuse this mlp-space-dump file (made "
                    "with the same options) instead of making it")
    args = ap.parse_args(argv)

    lines, mean, sd, ymean, ystd = read_model(args.model)
    nf = len(mean)
    sizes = [nf] + [int(v) for v in args.arch.split(",")] + [1]
    with tempfile.TemporaryDirectory() as tmp:
        dump = args.dump
        if not dump:
            shapes = os.path.join(tmp, "inputs.txt")
            with open(shapes, "w") as f:
                f.write("\n".join(draw_inputs(args.seed, args.inputs)) + "\n")
            dump = os.path.join(tmp, "dump.bin")
            log(f"train_screen.py: the first member's scores on "
                f"{args.inputs} inputs")
            subprocess.run([args.model_test, "mlp-space-dump", args.model,
                            shapes, dump, str(args.sample), str(args.top),
                            str(args.seed)], check=True)
        rows = np.fromfile(dump, dtype=np.float32).reshape(-1, nf + 2)
    x = (rows[:, :nf] - mean) / sd
    y = ((rows[:, nf] - ymean) / ystd).astype(np.float32)
    wt = np.where(rows[:, nf + 1] < 8192, args.top_weight,
                  1.0).astype(np.float32)
    log(f"train_screen.py: {len(y)} rows, screen {'-'.join(map(str, sizes))}")
    net = train(x, y, wt, sizes, args)

    out = list(lines)
    out.append(f"# screen distilled from member 0 by "
               f"tools/isaac-tune/train_screen.py --arch {args.arch} "
               f"--keep {args.keep} --inputs {args.inputs} --top {args.top} "
               f"--sample {args.sample} --epochs {args.epochs} "
               f"--top-weight {args.top_weight} --seed {args.seed}")
    out.append(f"screen {args.keep} " + " ".join(str(s) for s in sizes))
    for i, (w, b) in enumerate(zip(net.W, net.b)):
        out.append(f"layer {i}")
        for o in range(w.shape[1]):
            out.append(" ".join(hexf(v) for v in w[:, o]) + " " + hexf(b[o]))
    with open(args.out, "wb") as f:
        f.write(sealed(out))
    log(f"train_screen.py: wrote {args.out}")


if __name__ == "__main__":
    main()
