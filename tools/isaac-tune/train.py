#!/usr/bin/env python3
"""Train isaac's learned performance model (ISAAC SC17 §5).

Reads a dataset of timed (kernel, input) pairs (docs/tuning.md, "Dataset
format"), computes the log features of include/isaac/Model/Features.h,
trains multi-layer perceptrons (ReLU hidden layers, linear output) that
predict log2(TFLOPS) with Adam on minibatches, compares architectures like
the paper's Table 2 by their MSE on input shapes held out of training, and
writes the best one (or --arch) in the format of docs/model-format.md.

    python3 tools/isaac-tune/train.py data/sm_90/gemm-f32-h100.csv.xz [more.csv.xz ...]

writes models/sm_90/gemm-f32.mlp. A convolution dataset (docs/tuning.md,
"Convolution datasets": a `kernel` column and the convolution's sizes)
trains a conv model with the conv features of Features.h instead:

    python3 tools/isaac-tune/train.py data/sm_90/conv-f16-h100.csv.xz

writes models/sm_90/conv-f16.mlp. Python 3 and numpy only; deterministic
given --seed.
"""

import argparse
import csv
import io
import lzma
import math
import os
import sys
import time
import zlib

try:
    import numpy as np
except ImportError:  # pragma: no cover
    sys.exit("train.py: needs numpy (Debian: apt-get install python3-numpy)")

FORMAT_VERSION = 2

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "scripts"))
import isaac_schema  # noqa: E402  (include/isaac/Model/GemmParams.def)

SCHEMA = isaac_schema.schema()
# The configuration columns the features read: the simt family's legacy
# nine-value vector (GEMM_LEGACY_VECTOR of GemmParams.def), which the
# shipped models were trained on.
CONFIG_FIELDS = list(SCHEMA.legacy)
# The feature vector of include/isaac/Model/Features.h (same names, same
# order; test/Model/mlp.test checks both agree).
FEATURE_NAMES = (["log2_m", "log2_n", "log2_k", "trans_a", "trans_b"] +
                 ["log2_" + f for f in CONFIG_FIELDS] +
                 ["log2_bm", "log2_bn", "log2_kt", "log2_waves", "log2_stage"])

# The convolution features of Features.h: the convolution's own, then the
# configuration's (the family's nine parameters, the five derived ones of
# the implicit GEMM). The parameters are the family's GEMM_FEATURE_VECTOR.
CONV_SHAPE_FEATURES = ["log2_n", "log2_p", "log2_q", "log2_k", "log2_c",
                       "log2_r", "log2_s", "log2_stride_h", "log2_stride_w",
                       "log2_dilation_h", "log2_dilation_w", "fhwc",
                       "log2_c_align"]
DERIVED_FEATURES = ["log2_bm", "log2_bn", "log2_kt", "log2_waves",
                    "log2_stage"]
# The convolution's columns in a conv dataset, in the order of its key.
CONV_SHAPE_COLUMNS = ["n", "h", "w", "c", "k", "r", "s", "p", "q",
                      "stride_h", "stride_w", "dilation_h", "dilation_w",
                      "pad_top", "pad_left"]


def family_feature_names(shape_names, family):
    """A model's features (familyNameLists in Features.cpp): the op's own,
    then the family's nine parameters, then the five derived ones."""
    return (shape_names +
            ["log2_" + f for f in SCHEMA.feature_vectors[family]] +
            DERIVED_FEATURES)


def gemm_feature_names(family):
    """featureNames(family): simt's are FEATURE_NAMES."""
    return family_feature_names(FEATURE_NAMES[:5], family)


def conv_feature_names(family):
    return family_feature_names(CONV_SHAPE_FEATURES, family)


# Multiprocessors of the part each chip name stands for (getChipLimits in
# lib/Model/Legality.cpp); the model file records the value it used.
NUM_SMS = {"sm_80": 108, "sm_86": 84, "sm_87": 16, "sm_89": 128,
           "sm_90": 132, "sm_90a": 132}

# ISAAC Table 2 (the last, 163k-weight row is left out by default).
PAPER_ARCHS = [(64,), (512,), (32, 64, 32), (64, 128, 64),
               (32, 64, 128, 64, 32), (64, 128, 256, 128, 64)]
QUICK_ARCHS = [(16,), (16, 16)]



def log(*a):
    print(*a, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Features
# --------------------------------------------------------------------------

def cdiv(a, b):
    return (a + b - 1) // b


def flog2(x):
    """log2 in double, rounded to float (Features.cpp: flog2)."""
    return np.log2(np.asarray(x, dtype=np.float64)).astype(np.float32)


def stage_feature(c, stages=None):
    """Feature 18, log2_stage: log2(U * (ML + NL)), for simt times
    stages / 2 (its extra feature; Features.cpp: stageFeature). `stages`:
    an integer array, or None (2: the two-stage kernels)."""
    elems = c["u"].astype(np.float64) * (c["ml"] + c["nl"])
    if stages is not None:
        elems = elems * np.asarray(stages, dtype=np.float64) / 2
    return flog2(elems)


def features(m, n, k, trans_a, trans_b, cfg, num_sms, batch=None,
             fields=CONFIG_FIELDS, stages=None):
    """Feature matrix (rows x 19, float32) of Features.h.

    m, n, k, trans_a, trans_b: integer arrays; cfg: dict of integer arrays
    keyed by `fields` (the family's feature vector: simt's legacy one by
    default); batch: integer array or None (all 1); stages: simt's stages
    (an integer array; None: all 2)."""
    m = np.asarray(m, dtype=np.int64)
    n = np.asarray(n, dtype=np.int64)
    k = np.asarray(k, dtype=np.int64)
    c = {f: np.asarray(cfg[f], dtype=np.int64) for f in fields}
    if batch is None:
        batch = np.ones_like(m)
    batch = np.asarray(batch, dtype=np.int64)
    bm = cdiv(m, c["ml"])
    bn = cdiv(n, c["nl"])
    cols = [flog2(m), flog2(n), flog2(k),
            np.asarray(trans_a, dtype=np.float32),
            np.asarray(trans_b, dtype=np.float32)]
    cols += [flog2(c[f]) for f in fields]
    cols += [flog2(bm), flog2(bn), flog2(cdiv(k, c["kg"] * c["u"])),
             flog2(cdiv(batch * bm * bn * c["kg"], max(int(num_sms), 1))),
             stage_feature(c, stages)]
    return np.stack(cols, axis=1).astype(np.float32)


def conv_features(cv, cfg, family, num_sms):
    """Feature matrix (rows x 27, float32) of a conv model (Features.h,
    computeConvFeatures). cv: dict of integer arrays keyed by
    CONV_SHAPE_COLUMNS plus "fhwc"; cfg: dict of integer arrays keyed by
    the family's feature parameters."""
    x = {c: np.asarray(cv[c], dtype=np.int64) for c in CONV_SHAPE_COLUMNS}
    fields = SCHEMA.feature_vectors[family]
    c = {f: np.asarray(cfg[f], dtype=np.int64) for f in fields}
    align = np.ones_like(x["c"])
    while True:  # the largest power of two dividing C, at most 64
        more = (align < 64) & (x["c"] % (2 * align) == 0)
        if not more.any():
            break
        align = np.where(more, 2 * align, align)
    # The implicit GEMM: M = N*P*Q, N = K, K = C*R*S, batch 1.
    m = x["n"] * x["p"] * x["q"]
    n = x["k"]
    k = x["c"] * x["r"] * x["s"]
    bm = cdiv(m, c["ml"])
    bn = cdiv(n, c["nl"])
    cols = [flog2(x["n"]), flog2(x["p"]), flog2(x["q"]), flog2(x["k"]),
            flog2(x["c"]), flog2(x["r"]), flog2(x["s"]),
            flog2(x["stride_h"]), flog2(x["stride_w"]),
            flog2(x["dilation_h"]), flog2(x["dilation_w"]),
            np.asarray(cv["fhwc"], dtype=np.float32), flog2(align)]
    cols += [flog2(c[f]) for f in fields]
    cols += [flog2(bm), flog2(bn), flog2(cdiv(k, c["kg"] * c["u"])),
             flog2(cdiv(bm * bn * c["kg"], max(int(num_sms), 1))),
             flog2(c["u"] * (c["ml"] + c["nl"]))]
    return np.stack(cols, axis=1).astype(np.float32)


# --------------------------------------------------------------------------
# Dataset
# --------------------------------------------------------------------------

COLUMNS = ["dtype", "layout", "m", "n", "k"] + CONFIG_FIELDS + \
    ["time_us", "tflops", "status"]


class Dataset:
    pass


SIMT_EXTRA = SCHEMA.extra_features.get("simt", [])


def legacy_row(r, idx):
    """Whether a dataset row is a simt kernel whose parameters beyond the
    legacy vector hold their defaults (the kernels the features describe),
    but for its extra features (stages, read through log2_stage). Columns
    absent from the file (older datasets) are at their defaults."""
    if "family" in idx and r[idx["family"]].strip() not in ("", "simt"):
        return False
    for p in SCHEMA.params:
        if p.name in CONFIG_FIELDS or p.name in SIMT_EXTRA or \
                p.name not in idx:
            continue
        cell = r[idx[p.name]].strip()
        if cell and int(cell) != p.default:
            return False
    return True


def row_family(r, idx):
    """A GEMM row's kernel family (simt where the file has no column)."""
    return r[idx["family"]].strip() or "simt" if "family" in idx else "simt"


def parse_drop(text):
    """--drop's `PARAM=V` / `PARAM=LO..HI` terms, comma-separated, as
    (param, lo, hi) triples; a row is dropped when every term holds."""
    terms = []
    for term in text.split(","):
        name, eq, rng = term.strip().partition("=")
        lo, dots, hi = rng.partition("..")
        try:
            lo, hi = int(lo), int(hi if dots else lo)
        except ValueError:
            lo = None
        if not eq or lo is None or name not in SCHEMA.by_name:
            raise argparse.ArgumentTypeError(
                f"expected PARAM=V or PARAM=LO..HI terms of GemmParams.def's "
                f"parameters, comma-separated; got '{term}'")
        terms.append((name, lo, hi))
    return terms


def dropped_row(r, idx, drop):
    """Whether row `r` meets every term of `drop` (a column the file lacks
    holds the parameter's default)."""
    for name, lo, hi in drop:
        cell = r[idx[name]].strip() if name in idx else ""
        v = int(cell) if cell else SCHEMA.by_name[name].default
        if not lo <= v <= hi:
            return False
    return True


def read_dataset(path, dtype, family="simt", drop=()):
    """A GEMM dataset's rows of `dtype` and `family`: simt rows at the
    defaults of the parameters beyond the legacy vector (the kernels the
    simt features describe), or every row of another family (its feature
    vector: GEMM_FEATURE_VECTOR of GemmParams.def); less the rows `drop`
    (parse_drop) names."""
    fields = list(SCHEMA.feature_vectors[family])  # simt: CONFIG_FIELDS
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", newline="") as f:
        text = f.read()
    comments, body = [], []
    for line in text.splitlines():
        if line.startswith("#"):
            comments.append(line)
        elif line.strip():
            body.append(line)
    if not body:
        sys.exit(f"train.py: {path}: no header line")
    reader = csv.reader(body)
    header = [h.strip() for h in next(reader)]
    needed = COLUMNS if family == "simt" else \
        ["dtype", "layout", "m", "n", "k", "family"] + fields + \
        ["time_us", "tflops", "status"]
    missing = [c for c in needed if c not in header]
    if missing:
        sys.exit(f"train.py: {path}: missing columns {', '.join(missing)} "
                 "(docs/tuning.md, Dataset format)")
    idx = {h: i for i, h in enumerate(header)}
    has_batch = "batch" in idx
    rows, failed, other_dtype, other_family, bad = [], 0, 0, 0, 0
    dropped = 0
    for lineno, r in enumerate(reader, start=2):
        if len(r) != len(header):
            bad += 1
            continue
        if r[idx["status"]].strip() != "ok":
            failed += 1
            continue
        if r[idx["dtype"]].strip() != dtype:
            other_dtype += 1
            continue
        # Columns beyond the legacy vector (family, stages, ...) are
        # optional; the simt features describe simt kernels at the
        # defaults.
        if (not legacy_row(r, idx) if family == "simt"
                else row_family(r, idx) != family):
            other_family += 1
            continue
        if drop and dropped_row(r, idx, drop):
            dropped += 1
            continue
        try:
            lay = r[idx["layout"]].strip()
            if lay not in ("nn", "nt", "tn", "tt"):
                raise ValueError(lay)
            vals = [int(r[idx[c]]) for c in ["m", "n", "k"] + fields]
            b = int(r[idx["batch"]]) if has_batch else 1
            st = int(r[idx["stages"]]) if "stages" in idx and \
                r[idx["stages"]].strip() else 2
            tf = float(r[idx["tflops"]])
        except ValueError:
            bad += 1
            continue
        if not (tf > 0 and math.isfinite(tf)) or min(vals) < 1 or b < 1:
            bad += 1
            continue
        rows.append(vals + [lay[0] == "t", lay[1] == "t", b, st, tf])
    if not rows:
        sys.exit(f"train.py: {path}: no usable '{dtype}' rows "
                 f"({failed} failed, {other_dtype} other dtype, "
                 f"{other_family} " +
                 ("not simt at the legacy defaults" if family == "simt"
                  else f"not of the {family} family") + f", {bad} bad)")
    a = np.array([r[:-1] for r in rows], dtype=np.int64)
    d = Dataset()
    d.comments = comments
    d.synthetic = any(c.lower().startswith("# synthetic") for c in comments)
    d.m, d.n, d.k = a[:, 0], a[:, 1], a[:, 2]
    d.cfg = {f: a[:, 3 + i] for i, f in enumerate(fields)}
    d.ta, d.tb, d.batch = a[:, 12], a[:, 13], a[:, 14]
    # simt's extra feature (None elsewhere: their stages is among the nine).
    d.stages = a[:, 15] if family == "simt" else None
    d.family = family
    d.tflops = np.array([r[-1] for r in rows], dtype=np.float64)
    d.failed, d.other_dtype, d.bad = failed, other_dtype, bad
    d.dropped = dropped
    gemm_views(d)
    return d


def gemm_views(d):
    """What the op-independent steps read: the configuration fields, the
    feature names, the columns whose distinct tuples are input shapes, and
    the layout columns (support counts distinct (layout, configuration))."""
    d.op = "gemm"
    d.fields = list(SCHEMA.feature_vectors[d.family])
    d.names = gemm_feature_names(d.family)
    d.shape_cols = [d.m, d.n, d.k]
    d.layout_cols = [d.ta, d.tb]
    d.layout_count = 4
    d.layout_code = d.ta * 2 + d.tb


def conv_views(d):
    d.op = "conv"
    d.fields = SCHEMA.feature_vectors[d.family]
    d.names = conv_feature_names(d.family)
    d.shape_cols = [d.conv[c] for c in CONV_SHAPE_COLUMNS]
    d.layout_cols = [d.conv["fhwc"]]
    d.layout_count = 2
    d.layout_code = d.conv["fhwc"]


def dataset_op(path):
    """"conv" for a conv dataset (its header has a `kernel` column), else
    "gemm"."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", newline="") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                return "conv" if "kernel" in next(csv.reader([line])) else \
                    "gemm"
    return "gemm"


CONV_COLUMNS = ["kernel", "dtype", "layout"] + CONV_SHAPE_COLUMNS + \
    ["family", "time_us", "tflops", "status"]


def read_conv_dataset(path, dtype, drop=()):
    """A conv dataset's rows of `dtype` (docs/tuning.md, "Convolution
    datasets"); every configuration column absent from the file holds its
    default. All kept rows must be of one family. Less the rows `drop`
    (parse_drop) names."""
    opener = lzma.open if path.endswith(".xz") else open
    with opener(path, "rt", newline="") as f:
        text = f.read()
    comments, body = [], []
    for line in text.splitlines():
        if line.startswith("#"):
            comments.append(line)
        elif line.strip():
            body.append(line)
    if not body:
        sys.exit(f"train.py: {path}: no header line")
    reader = csv.reader(body)
    header = [h.strip() for h in next(reader)]
    missing = [c for c in CONV_COLUMNS if c not in header]
    if missing:
        sys.exit(f"train.py: {path}: missing columns {', '.join(missing)} "
                 "(docs/tuning.md, Convolution datasets)")
    idx = {h: i for i, h in enumerate(header)}
    rows, failed, other_dtype, bad, families = [], 0, 0, 0, set()
    dropped = 0
    for r in reader:
        if len(r) != len(header):
            bad += 1
            continue
        if r[idx["status"]].strip() != "ok":
            failed += 1
            continue
        if r[idx["dtype"]].strip() != dtype:
            other_dtype += 1
            continue
        if drop and dropped_row(r, idx, drop):
            dropped += 1
            continue
        try:
            lay = r[idx["layout"]].strip()
            if lay not in ("nhwc_hwcf", "nhwc_fhwc"):
                raise ValueError(lay)
            family = r[idx["family"]].strip()
            if family not in SCHEMA.feature_vectors:
                raise ValueError(family)
            shape = [int(r[idx[c]]) for c in CONV_SHAPE_COLUMNS]
            cfg = {p.name: int(r[idx[p.name]]) if p.name in idx and
                   r[idx[p.name]].strip() else p.default
                   for p in SCHEMA.params}
            tf = float(r[idx["tflops"]])
        except ValueError:
            bad += 1
            continue
        if not (tf > 0 and math.isfinite(tf)) or min(shape[:9]) < 1 or \
                min(shape[9:13]) < 1 or min(shape[13:]) < 0 or \
                any(cfg[p.name] < p.lo for p in SCHEMA.params):
            bad += 1
            continue
        families.add(family)
        rows.append((shape, lay == "nhwc_fhwc", family, cfg, tf))
    if not rows:
        sys.exit(f"train.py: {path}: no usable '{dtype}' rows "
                 f"({failed} failed, {other_dtype} other dtype, {bad} bad)")
    if len(families) != 1:
        sys.exit(f"train.py: {path}: '{dtype}' rows of several families "
                 f"({', '.join(sorted(families))}); a conv model ranks one")
    d = Dataset()
    d.comments = comments
    d.synthetic = any(c.lower().startswith("# synthetic") for c in comments)
    d.family = families.pop()
    a = np.array([r[0] for r in rows], dtype=np.int64)
    d.conv = {c: a[:, i] for i, c in enumerate(CONV_SHAPE_COLUMNS)}
    d.conv["fhwc"] = np.array([int(r[1]) for r in rows], dtype=np.int64)
    fields = SCHEMA.feature_vectors[d.family]
    d.cfg = {f: np.array([r[3][f] for r in rows], dtype=np.int64)
             for f in fields}
    d.tflops = np.array([r[4] for r in rows], dtype=np.float64)
    d.batch = np.ones(len(rows), dtype=np.int64)
    d.failed, d.other_dtype, d.bad = failed, other_dtype, bad
    d.dropped = dropped
    conv_views(d)
    return d


def concat_datasets(ds):
    """One Dataset of the rows of several (comments: each file's, in turn)."""
    if len(ds) == 1:
        return ds[0]
    if len(set(x.op for x in ds)) != 1 or len(set(x.family for x in ds)) != 1:
        sys.exit("train.py: the datasets mix GEMMs and convolutions, or "
                 "families; a model ranks one")
    d = Dataset()
    d.comments = [c for x in ds for c in x.comments]
    d.synthetic = any(x.synthetic for x in ds)
    d.family = ds[0].family
    if ds[0].op == "conv":
        for f in ("batch", "tflops"):
            setattr(d, f, np.concatenate([getattr(x, f) for x in ds]))
        d.conv = {c: np.concatenate([x.conv[c] for x in ds])
                  for c in ds[0].conv}
    else:
        for f in ("m", "n", "k", "ta", "tb", "batch", "tflops"):
            setattr(d, f, np.concatenate([getattr(x, f) for x in ds]))
        d.stages = None if ds[0].stages is None else \
            np.concatenate([x.stages for x in ds])
    d.cfg = {f: np.concatenate([x.cfg[f] for x in ds]) for f in ds[0].fields}
    d.failed = sum(x.failed for x in ds)
    d.dropped = sum(x.dropped for x in ds)
    d.other_dtype = sum(x.other_dtype for x in ds)
    d.bad = sum(x.bad for x in ds)
    (conv_views if ds[0].op == "conv" else gemm_views)(d)
    return d


# --------------------------------------------------------------------------
# MLP (float32 training, Adam)
# --------------------------------------------------------------------------

class MLP:
    def __init__(self, sizes, rng, dead_inputs):
        self.sizes = list(sizes)
        self.W, self.b = [], []
        for i in range(len(sizes) - 1):
            fan_in = sizes[i]
            w = rng.standard_normal((sizes[i], sizes[i + 1])) * \
                math.sqrt(2.0 / fan_in)
            if i == 0:
                w[dead_inputs, :] = 0.0  # constant in training: no signal
            if i == len(sizes) - 2:
                w *= 0.1
            self.W.append(w.astype(np.float32))
            self.b.append(np.zeros(sizes[i + 1], dtype=np.float32))

    def params(self):
        return self.W + self.b

    def forward(self, x, keep=False):
        acts = [x]
        h = x
        last = len(self.W) - 1
        for i, (w, b) in enumerate(zip(self.W, self.b)):
            h = h @ w + b
            if i != last:
                np.maximum(h, 0, out=h)
            if keep:
                acts.append(h)
        return (h[:, 0], acts) if keep else h[:, 0]

    def grads(self, x, y):
        pred, acts = self.forward(x, keep=True)
        err = pred - y
        loss = float(np.mean(err * err))
        g = (2.0 / len(y)) * err[:, None].astype(np.float32)
        gW, gb = [None] * len(self.W), [None] * len(self.W)
        for i in range(len(self.W) - 1, -1, -1):
            gW[i] = acts[i].T @ g
            gb[i] = g.sum(axis=0)
            if i:
                g = g @ self.W[i].T
                g *= acts[i] > 0
        return loss, gW + gb

    def copy_weights(self):
        return [p.copy() for p in self.params()]

    def set_weights(self, ws):
        n = len(self.W)
        self.W = [w.copy() for w in ws[:n]]
        self.b = [b.copy() for b in ws[n:]]


def train_one(arch, xtr, ytr, xva, yva, args, dead, seed=None):
    rng = np.random.default_rng(args.seed if seed is None else seed)
    net = MLP([xtr.shape[1]] + list(arch) + [1], rng, dead)
    params = net.params()
    mom = [np.zeros_like(p) for p in params]
    vel = [np.zeros_like(p) for p in params]
    b1, b2, eps = 0.9, 0.999, 1e-8
    step = 0
    best = (float("inf"), None, 0)
    n = len(ytr)
    steps_per_epoch = max(1, math.ceil(n / args.batch))
    total = steps_per_epoch * args.epochs
    t0 = time.time()
    for epoch in range(args.epochs):
        perm = rng.permutation(n)
        for s in range(steps_per_epoch):
            sel = perm[s * args.batch:(s + 1) * args.batch]
            _, grads = net.grads(xtr[sel], ytr[sel])
            step += 1
            # Cosine decay from lr to lr / 20.
            lr = args.lr * (0.05 + 0.95 * 0.5 *
                            (1 + math.cos(math.pi * step / total)))
            params = net.params()
            for p, g, m1, v1 in zip(params, grads, mom, vel):
                m1 *= b1
                m1 += (1 - b1) * g
                v1 *= b2
                v1 += (1 - b2) * g * g
                mhat = m1 / (1 - b1 ** step)
                vhat = v1 / (1 - b2 ** step)
                p -= (lr * mhat / (np.sqrt(vhat) + eps)).astype(np.float32)
                if args.weight_decay and p.ndim == 2:  # AdamW, weights only
                    p *= np.float32(1 - lr * args.weight_decay)
        va = float(np.mean((net.forward(xva) - yva) ** 2))
        if va < best[0]:
            best = (va, net.copy_weights(), epoch + 1)
        if args.verbose:
            log(f"  {arch_name(arch)} epoch {epoch + 1}: val mse "
                f"(standardized) {va:.4f}")
    net.set_weights(best[1])
    return net, best[2], time.time() - t0


def arch_name(arch):
    return ",".join(str(a) for a in arch)


def num_weights(arch, nin):
    sizes = [nin] + list(arch) + [1]
    return sum(sizes[i] * sizes[i + 1] + sizes[i + 1]
               for i in range(len(sizes) - 1))


# --------------------------------------------------------------------------
# Model file (docs/model-format.md)
# --------------------------------------------------------------------------

def hexf(x):
    """Exact hexadecimal of a float32 value, trailing zeros dropped."""
    mant, exp = float(np.float32(x)).hex().split("p")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return mant + "p" + exp


def training_support(d, min_frac):
    """Per configuration parameter, the values used by at least min_frac of
    the distinct training kernels (dtype, layout, configuration): where the
    model has seen enough kernels to rank. Outside it a prediction is an
    extrapolation (a parameter value seen in a handful of kernels), and the
    search's argmax over ~10^6 configurations finds exactly such spurious
    optima (docs/model-eval.md)."""
    kernels = np.unique(np.stack(d.layout_cols + [d.cfg[f] for f in
                                                  d.fields], axis=1),
                        axis=0)
    need = max(1, math.ceil(min_frac * len(kernels)))
    support = []
    nl = len(d.layout_cols)
    for i, f in enumerate(d.fields):
        vals, counts = np.unique(kernels[:, nl + i], return_counts=True)
        keep = [int(v) for v, c in zip(vals, counts) if c >= need]
        if not keep:  # never empty: the most used value stays
            keep = [int(vals[np.argmax(counts)])]
        support.append((f, keep))
    # simt's extra feature, stages: a record only where the data has other
    # depths than 2 (a file of two-stage kernels stays as it was). The
    # search ranks the other depths as variants of two-stage
    # configurations, so 2 is always in it.
    stages = getattr(d, "stages", None)
    if stages is not None and (stages != 2).any():
        kst = np.unique(np.stack(d.layout_cols + [d.cfg[f] for f in d.fields] +
                                 [stages], axis=1), axis=0)
        vals, counts = np.unique(kst[:, -1], return_counts=True)
        keep = sorted(set([2] + [int(v) for v, c in zip(vals, counts)
                                 if c >= need]))
        support.append(("stages", keep))
    return support, len(kernels), need


def default_model_name(op, dtype, family):
    """The file isaac-select-config reads a model of (op, dtype, family)
    from (modelFileName in lib/Model/MLP.cpp): <op>-<dtype>.mlp, with the
    family named for the tensor-core models of f32 (TF32) and f64, which
    also have simt kernels."""
    suffix = f"-{family}" if dtype in ("f32", "f64") and family != "simt" \
        else ""
    return f"{op}-{dtype}{suffix}.mlp"


def model_text(nets, mean, std, ymean, ystd, args, data_line, notes,
               support, names=FEATURE_NAMES, family="simt"):
    out = [f"isaac-mlp {FORMAT_VERSION}"]
    out += ["# " + s for s in notes]
    out.append(f"dtype {args.dtype}")
    out.append(f"chip {args.chip}")
    out.append(f"num-sms {args.num_sms}")
    out.append("target log2-tflops")
    out.append(f"data {data_line}")
    if family != "simt":
        # mma and wgmma share their feature names: the record says which.
        out.append(f"family {family}")
    for f, vals in support:
        out.append(f"support {f} " + " ".join(str(v) for v in vals))
    out.append(f"features {len(names)} " + " ".join(names))
    out.append("layers " + " ".join(str(s) for s in nets[0].sizes))
    out.append("input-mean " + " ".join(hexf(v) for v in mean))
    out.append("input-std " + " ".join(hexf(v) for v in std))
    out.append("output-mean " + hexf(ymean))
    out.append("output-std " + hexf(ystd))
    out += members_lines(member_layers(nets))
    return sealed(out)


def members_lines(members):
    """The `members` record and every member's layers, each layer one line
    per neuron (its weights, then its bias); `members` holds per member its
    layers' (W [inputs, neurons], b [neurons])."""
    out = [f"members {len(members)}"]
    for mi, layers in enumerate(members):
        out.append(f"member {mi}")
        for i, (w, b) in enumerate(layers):
            out.append(f"layer {i}")
            for o in range(w.shape[1]):
                out.append(" ".join(hexf(v) for v in w[:, o]) + " " +
                           hexf(b[o]))
    return out


def sealed(lines):
    """A model file's bytes: its lines and the `end` record with their
    CRC-32, by which the reader tells a damaged or truncated file."""
    body = ("\n".join(lines) + "\n").encode()
    return body + b"end %08x\n" % (zlib.crc32(body) & 0xFFFFFFFF)


def member_layers(nets):
    """Per network its layers' (W [inputs, neurons], b [neurons]): the form
    members_lines writes and reference_predict evaluates."""
    return [list(zip(net.W, net.b)) for net in nets]


def reference_predict(members, mean, std, ymean, ystd, x):
    """float64 prediction from the weights exactly as written (float32):
    the mean over the ensemble's members (member_layers form)."""
    z = (x.astype(np.float64) - np.float32(mean).astype(np.float64)) / \
        np.float32(std).astype(np.float64)
    total = 0.0
    for layers in members:
        h = z
        last = len(layers) - 1
        for i, (w, b) in enumerate(layers):
            h = h @ w.astype(np.float64) + b.astype(np.float64)
            if i != last:
                h = np.maximum(h, 0)
        total = total + (h[:, 0] * float(np.float32(ystd)) +
                         float(np.float32(ymean)))
    return total / len(members)


def write_vectors(path, nets, mean, std, ymean, ystd, d, rows, args):
    """Test vectors for `isaac-model-test mlp-check`: shape, configuration,
    the features computed here and the float64 prediction."""
    m, n, k = d.m[rows], d.n[rows], d.k[rows]
    ta, tb, batch = d.ta[rows], d.tb[rows], d.batch[rows].copy()
    cfg = {f: d.cfg[f][rows] for f in d.fields}
    # Variants the dataset lacks: batched inputs and other layouts.
    half = len(rows) // 2
    batch[half::3] = 3
    ta = ta.copy()
    ta[half + 1::3] = 1 - ta[half + 1::3]
    # simt data of several depths: version 2, stages after the nine.
    stages = d.stages[rows] if getattr(d, "stages", None) is not None and \
        (d.stages != 2).any() else None
    x = features(m, n, k, ta, tb, cfg, args.num_sms, batch, d.fields, stages)
    y = reference_predict(member_layers(nets), mean, std, ymean, ystd, x)
    lines = ["isaac-mlp-vectors %d" % (1 if stages is None else 2),
             "# layout m n k batch " + " ".join(d.fields) +
             ("" if stages is None else " stages") +
             " features[%d] log2-tflops" % len(FEATURE_NAMES)]
    for i in range(len(rows)):
        lay = ("t" if ta[i] else "n") + ("t" if tb[i] else "n")
        ints = [m[i], n[i], k[i], batch[i]] + [cfg[f][i] for f in d.fields] + \
            ([] if stages is None else [stages[i]])
        lines.append("v " + lay + " " + " ".join(str(int(v)) for v in ints) +
                     " " + " ".join(repr(float(v)) for v in x[i]) +
                     " " + repr(float(y[i])))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_conv_vectors(path, nets, mean, std, ymean, ystd, d, rows, args):
    """Test vectors of a conv model for `isaac-model-test mlp-check`: the
    convolution, the configuration (the family's feature parameters), the
    features computed here and the float64 prediction. Half of the rows
    get the other filter layout (variants the dataset may lack)."""
    cv = {c: d.conv[c][rows].copy() for c in d.conv}
    half = len(rows) // 2
    cv["fhwc"][half::2] = 1 - cv["fhwc"][half::2]
    cfg = {f: d.cfg[f][rows] for f in d.fields}
    x = conv_features(cv, cfg, d.family, args.num_sms)
    y = reference_predict(member_layers(nets), mean, std, ymean, ystd, x)
    lines = ["isaac-mlp-conv-vectors 1",
             "# layout " + " ".join(CONV_SHAPE_COLUMNS) + " " +
             " ".join(d.fields) + " features[%d] log2-tflops" % len(d.names)]
    for i in range(len(rows)):
        lay = "nhwc_fhwc" if cv["fhwc"][i] else "nhwc_hwcf"
        ints = [cv[c][i] for c in CONV_SHAPE_COLUMNS] + \
            [cfg[f][i] for f in d.fields]
        lines.append("v " + lay + " " + " ".join(str(int(v)) for v in ints) +
                     " " + " ".join(repr(float(v)) for v in x[i]) +
                     " " + repr(float(y[i])))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def parse_arch(s):
    try:
        a = tuple(int(v) for v in s.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad architecture '{s}'")
    if not a or min(a) < 1:
        raise argparse.ArgumentTypeError(f"bad architecture '{s}'")
    return a


def main(argv=None):
    p = argparse.ArgumentParser(
        description="Train the MLP performance model (docs/model-format.md).")
    p.add_argument("data", nargs="+", help="dataset CSV, optionally .xz "
                   "(docs/tuning.md); several files are concatenated")
    p.add_argument("--chip", help="target chip (default: from the path "
                   "data/<chip>/..., else sm_90)")
    p.add_argument("--dtype", help="f32, f64, f16, bf16 or tf32 (default: "
                   "from the file name <op>-<dtype>...csv[.xz], else f32); "
                   "a tf32 model is an f32 model of the mma family")
    p.add_argument("--family", help="the kernel family a GEMM model ranks "
                   "(simt, mma or wgmma; default simt for f32 and f64, mma "
                   "for f16, bf16 and tf32); rows of other families are "
                   "skipped")
    p.add_argument("--num-sms", type=int,
                   help="multiprocessors (default: the chip's)")
    p.add_argument("--arch", type=parse_arch, action="append",
                   help="hidden layer sizes, e.g. 64,128,64; repeatable. "
                   "Default: the paper's Table 2 architectures")
    p.add_argument("--epochs", type=int, help="default 100 (--quick: 3)")
    p.add_argument("--batch", type=int, default=256, help="minibatch size")
    p.add_argument("--lr", type=float, default=3e-3, help="Adam step size")
    p.add_argument("--weight-decay", type=float, default=0.0,
                   help="decoupled weight decay (AdamW) of the weights")
    p.add_argument("--val-frac", type=float, default=0.15,
                   help="fraction of input shapes held out for validation")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--quick", action="store_true",
                   help="few epochs and tiny architectures (tests)")
    p.add_argument("--out", help="model file (default: "
                   "models/<chip>/<op>-<dtype>.mlp in the source tree, op "
                   "gemm or conv as the dataset's header says)")
    p.add_argument("--allow-synthetic", action="store_true",
                   help="allow writing a model trained on synthetic data "
                   "into the source tree's models/")
    p.add_argument("--ensemble", type=int, default=1,
                   help="members of the shipped model: the selected "
                   "architecture trained N times (seeds S, S+1, ...) on the "
                   "same split; the prediction is their mean")
    p.add_argument("--support-min-frac", type=float, default=0.01,
                   help="a parameter value is in the model's support when "
                   "at least this fraction of the distinct training kernels "
                   "use it (docs/model-format.md); 0 keeps every value seen")
    p.add_argument("--drop", type=parse_drop, default=[],
                   help="rows to leave out, e.g. 'kg=2..8,kc=0': those "
                   "meeting every term (a column a file lacks holds the "
                   "parameter's default). For datasets timed before the "
                   "compiler changed how it emits some configurations "
                   "(the KG 2..8 splits it now sums inside a cluster)")
    p.add_argument("--vectors", help="also write test vectors for "
                   "isaac-model-test mlp-check")
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args(argv)

    parts = os.path.normpath(os.path.abspath(args.data[0])).split(os.sep)
    if args.chip is None:
        args.chip = parts[-2] if len(parts) >= 2 and \
            parts[-2].startswith("sm_") else "sm_90"
    base = os.path.basename(args.data[0])
    op = dataset_op(args.data[0])
    dtypes = ("f32", "f64", "f16", "bf16", "tf32")
    if args.dtype is None:
        args.dtype = next((t for t in dtypes
                           if base.startswith(f"{op}-{t}-") or
                           base.startswith(f"{op}-{t}.")), "f32")
    if args.dtype not in dtypes or (op == "conv" and args.dtype == "tf32"):
        p.error("--dtype must be " + " or ".join(dtypes) +
                " (tf32 for GEMMs only)")
    if op == "conv" and args.family:
        p.error("--family is for GEMM datasets (a conv dataset's rows name "
                "their family)")
    family = args.family or ("simt" if args.dtype in ("f32", "f64")
                             else "mma")
    # The rows' types token (tf32: f32 operands multiplied in TF32); the
    # model's dtype record is the operands' type.
    row_dtype = args.dtype
    if args.dtype == "tf32":
        if family != "mma":
            p.error("tf32 kernels are of the mma family")
        args.dtype = "f32"
    if family not in SCHEMA.feature_vectors:
        p.error("--family must be one of " +
                ", ".join(SCHEMA.feature_vectors))
    if args.num_sms is None:
        if args.chip not in NUM_SMS:
            p.error(f"unknown chip {args.chip}: give --num-sms")
        args.num_sms = NUM_SMS[args.chip]
    if not 1 <= args.ensemble <= 64:
        p.error("--ensemble must be 1 to 64")
    if args.epochs is None:
        args.epochs = 3 if args.quick else 100
    archs = args.arch or (QUICK_ARCHS if args.quick else PAPER_ARCHS)

    for path in args.data[1:]:
        if dataset_op(path) != op:
            sys.exit(f"train.py: {path} is a {dataset_op(path)} dataset, "
                     f"{args.data[0]} a {op} dataset; a model ranks one op")
    parts_data = [read_conv_dataset(path, row_dtype, args.drop)
                  if op == "conv" else
                  read_dataset(path, row_dtype, family, args.drop)
                  for path in args.data]
    d = concat_datasets(parts_data)
    default_out = os.path.join(REPO, "models", args.chip,
                               default_model_name(op, args.dtype, d.family))
    out = args.out or default_out
    models_dir = os.path.realpath(os.path.join(REPO, "models"))
    into_tree = os.path.realpath(out).startswith(models_dir + os.sep)
    if d.synthetic and into_tree and not args.allow_synthetic:
        sys.exit(f"train.py: {' '.join(args.data)} is synthetic (a '# synthetic' "
                 f"comment line): refusing to write {out}, where isaac-opt "
                 "would use it for real; give --out elsewhere")

    if op == "conv":
        x = conv_features(d.conv, d.cfg, d.family, args.num_sms)
    else:
        x = features(d.m, d.n, d.k, d.ta, d.tb, d.cfg, args.num_sms, d.batch,
                     d.fields, d.stages)
    y = np.log2(d.tflops)

    # Split by input shape: held-out shapes are never seen in training.
    keys = np.zeros(len(y), dtype=np.int64)
    shape_ids = {}
    key_list = list(zip(*[c.tolist() for c in d.shape_cols]))
    for i, kk in enumerate(key_list):
        keys[i] = shape_ids.setdefault(kk, len(shape_ids))
    nshapes = len(shape_ids)
    if nshapes < 2:
        sys.exit("train.py: need at least two distinct input shapes")
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(nshapes)
    nval = min(nshapes - 1, max(1, int(round(args.val_frac * nshapes))))
    is_val_shape = np.zeros(nshapes, dtype=bool)
    is_val_shape[order[:nval]] = True
    va = is_val_shape[keys]
    tr = ~va

    mean = x[tr].mean(axis=0).astype(np.float32)
    std = x[tr].std(axis=0).astype(np.float32)
    dead = np.where(std < 1e-6)[0]
    std[dead] = 1.0
    ymean = np.float32(y[tr].mean())
    ystd = np.float32(max(float(y[tr].std()), 1e-6))
    xs = ((x - mean) / std).astype(np.float32)
    ys = ((y - ymean) / ystd).astype(np.float32)
    xtr, ytr, xva, yva = xs[tr], ys[tr], xs[va], ys[va]

    kind = "synthetic" if d.synthetic else "measured"
    what = f"conv ({d.family} family) " if op == "conv" else \
        ("" if d.family == "simt" else f"{d.family} family ")
    log(f"train.py: {' '.join(args.data)}: {len(y)} {args.dtype} {what}rows "
        f"({kind}; "
        f"dropped {d.failed} failed, {d.other_dtype} other dtype, "
        f"{d.bad} malformed" +
        (f", {d.dropped} by --drop" if d.dropped else "") +
        f"), {nshapes} shapes, {nval} held out "
        f"({int(va.sum())} rows); chip {args.chip} ({args.num_sms} SMs)")
    if len(dead):
        log("train.py: constant features (weights kept at 0): " +
            ", ".join(d.names[i] for i in dead))

    # Groups of validation rows sharing (shape, layout): how much of the
    # best sampled throughput does the predicted best reach?
    gkey = keys * d.layout_count + d.layout_code
    groups = {}
    for i in np.where(va)[0]:
        groups.setdefault(int(gkey[i]), []).append(i)
    groups = [np.array(g) for g in groups.values() if len(g) >= 2]

    results = []
    for arch in archs:
        net, epochs, secs = train_one(arch, xtr, ytr, xva, yva, args, dead)
        ptr = net.forward(xtr) * ystd + ymean
        pva = net.forward(xva) * ystd + ymean
        mse_tr = float(np.mean((ptr - y[tr]) ** 2))
        mse_va = float(np.mean((pva - y[va]) ** 2))
        top1 = None
        if groups:
            pred_all = np.zeros(len(y))
            pred_all[va] = pva
            top1 = float(np.mean([d.tflops[g[np.argmax(pred_all[g])]] /
                                  d.tflops[g].max() for g in groups]))
        results.append((arch, net, mse_tr, mse_va, top1, epochs, secs))
        log(f"train.py: {arch_name(arch)}: val mse {mse_va:.4f} "
            f"({secs:.1f} s)")

    table = ["hidden layers          weights  train-mse  val-mse  "
             "val-top1  best-epoch  seconds"]
    for arch, net, mtr, mva, top1, ep, secs in results:
        t1 = f"{top1:8.3f}" if top1 is not None else "     n/a"
        table.append(f"{arch_name(arch):<21} {num_weights(arch, x.shape[1]):>8,}"
                     f"  {mtr:9.4f}  {mva:7.4f}  {t1}  {ep:10d}  {secs:7.1f}")
    print(f"MSE of log2(TFLOPS) on {nval} held-out input shapes "
          f"({int(va.sum())} rows; trained on {int(tr.sum())} rows of "
          f"{nshapes - nval} shapes), {args.epochs} epochs, seed {args.seed}:")
    print("\n".join(table))
    if groups:
        print(f"val-top1: mean over {len(groups)} held-out (shape, layout) "
              "groups of measured TFLOPS of the predicted best / best "
              "measured")

    best = min(results, key=lambda r: r[3])
    arch, net = best[0], best[1]
    print(f"selected: {arch_name(arch)} (val mse {best[3]:.4f})")
    nets, val_mse = [net], best[3]
    if args.ensemble > 1:
        # More members of the selected architecture, other initializations
        # and minibatch orders, the same held-out shapes. Averaging damps
        # what one network invents where the data is thin: the search's
        # argmax lands on such spurious optima (docs/model-eval.md).
        for i in range(1, args.ensemble):
            member, _, secs = train_one(arch, xtr, ytr, xva, yva, args, dead,
                                        seed=args.seed + i)
            nets.append(member)
            log(f"train.py: member {i}: val mse "
                f"{float(np.mean((member.forward(xva) * ystd + ymean - y[va]) ** 2)):.4f} "
                f"({secs:.1f} s)")
        pva = np.mean([n.forward(xva) for n in nets], axis=0) * ystd + ymean
        val_mse = float(np.mean((pva - y[va]) ** 2))
        print(f"ensemble: {args.ensemble} x {arch_name(arch)}, val mse "
              f"{val_mse:.4f}")

    # The data record names every file; measured ones with their checksum.
    files = []
    for path, part in zip(args.data, parts_data):
        entry = f"{os.path.basename(path)}"
        if not d.synthetic:
            with open(path, "rb") as f:
                entry += f" crc32={zlib.crc32(f.read()) & 0xFFFFFFFF:08x}"
        files.append(f"{entry} rows={len(part.tflops)}")
    total = f" total-rows={len(y)}" if len(files) > 1 else ""
    data_line = (f"{'synthetic' if d.synthetic else 'measured'} "
                 f"{' '.join(files)}{total} shapes={nshapes}")
    support, nkernels, need = training_support(d, args.support_min_frac)
    notes = [f"trained by tools/isaac-tune/train.py --seed {args.seed} "
             f"--epochs {args.epochs} --batch {args.batch} --lr {args.lr} "
             f"--weight-decay {args.weight_decay} "
             f"--val-frac {args.val_frac} "
             f"--ensemble {args.ensemble} "
             f"--support-min-frac {args.support_min_frac}" +
             ("" if not args.drop else " --drop " + ",".join(
                 f"{n}={lo}" + (f"..{hi}" if hi != lo else "")
                 for n, lo, hi in args.drop) + f" ({d.dropped} rows)"),
             f"validation mse of log2(TFLOPS) {val_mse:.6f} on {nval} "
             "held-out input shapes",
             f"support: parameter values of at least {need} of the "
             f"{nkernels} distinct training kernels"]
    notes += ["dataset: " + c.lstrip("# ").rstrip() for c in d.comments[:40]
              if c.strip("# ")]
    def used(f):  # the values the data has of a support record's parameter
        return d.cfg[f] if f in d.cfg else d.stages
    dropped = [f"{f}={v}" for f, vals in support
               for v in sorted(set(int(x) for x in used(f)))
               if v not in vals]
    log("train.py: support excludes " + (", ".join(dropped) or "nothing"))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "wb") as f:
        f.write(model_text(nets, mean, std, ymean, ystd, args, data_line,
                           notes, support, d.names, d.family))
    print(f"wrote {out}")

    if args.vectors:
        vrows = list(np.where(va)[0][:48]) + list(np.where(tr)[0][:16])
        (write_conv_vectors if op == "conv" else write_vectors)(
            args.vectors, nets, mean, std, ymean, ystd, d,
            np.array(vrows, dtype=np.int64), args)
        print(f"wrote {args.vectors}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
