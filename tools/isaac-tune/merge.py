#!/usr/bin/env python3
"""Merges model files (docs/model-format.md) trained on the same data into
one ensemble: every member of every file, predicting their mean.

    merge.py A.mlp B.mlp [...] --out OUT.mlp [--vectors IN.vec OUT.vec]

Why: one `train.py --ensemble 3` run is a noisy draw. Its seed fixes both
the members' initializations and the input shapes held out for validation,
and two seeds of one recipe have ranked held-out inputs up to 0.10 apart
in e1 (docs/model-eval.md, "f64: the training seed weighs more than the
data"). The members of several seeds, averaged, damp that noise, and the
search costs little more: the first member alone scores every
configuration, the ensemble only re-ranks its best 4,096.

Each file standardizes features and the output with the statistics of its
own training split, while a model file holds one standardization for all
its members. The first file's statistics become the merged file's, and
every other member is rewritten to take them exactly: for a member trained
with input mean m_i, std s_i and output mean o_i, std t_i (first file: m,
s, o, t), the first layer's weights of feature j are scaled by s_j / s_i,j
and its bias gets ((m - m_i) / s_i) . W, and the last layer is scaled by
t_i / t with (o_i - o) / t added to its bias. The first file's members stay
bit for bit. The support (the parameter values the search ranks) is the
intersection of the files': a value one file saw too rarely stays out.

The first file's screen network (docs/model-format.md, "The screen") is
kept: its member 0 stays member 0. The other files' are left out.

The files must agree on everything but their members, standardization,
support, comments and screen (dtype, chip, SMs, target, data, family, features and
widths); anything else is refused, and so is a record this tool does
not know (it would be lost). GEMM and conv models merge alike. --vectors
rewrites a test-vector file (train.py --vectors; GEMM or conv) with the
merged prediction computed in float64 from the source files as written,
so that `isaac-model-test mlp-check OUT.mlp OUT.vec` checks the rewrite
(test/Model/mlp.test).
"""

import argparse
import os
import sys
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The trainer's own writer (exact float32 hex, members, checksum) and
# float64 reference prediction.
from train import members_lines, reference_predict, sealed  # noqa: E402

# Records every file must hold identically, in the order they are written.
SAME = ("dtype", "chip", "num-sms", "target", "data", "family", "features",
        "layers")
KNOWN = SAME + ("input-mean", "input-std", "output-mean", "output-std")


class Model:
    """One model file: records, standardization and members' layers."""

    def __init__(self, path):
        self.path = path
        with open(path) as f:
            lines = f.read().splitlines()
        if not lines or not lines[0].startswith("isaac-mlp "):
            sys.exit(f"merge.py: {path}: not a model file (no 'isaac-mlp' "
                     "line)")
        self.version = lines[0].split()[1]
        if self.version != "2":
            sys.exit(f"merge.py: {path}: format version {self.version}; "
                     "merging needs version 2 (retrain with train.py)")
        body = "\n".join(lines[:-1]) + "\n"
        end = lines[-1].split()
        if len(end) != 2 or end[0] != "end" or \
                int(end[1], 16) != zlib.crc32(body.encode()) & 0xFFFFFFFF:
            sys.exit(f"merge.py: {path}: checksum mismatch or truncated "
                     "file")
        self.notes = [ln[2:] for ln in lines[1:] if ln.startswith("# ") and
                      not ln.startswith("# screen distilled")]
        self.rec = {}
        self.support = []
        count = None
        i = 1
        while i < len(lines) - 1:
            ln = lines[i]
            i += 1
            if ln.startswith("#"):
                continue
            key, _, rest = ln.partition(" ")
            if key == "support":
                name, *vals = rest.split()
                self.support.append((name, [int(v) for v in vals]))
            elif key == "members":
                count = int(rest)
                break
            elif key in KNOWN:
                self.rec[key] = rest
            else:
                # A record this tool does not know would be lost in the
                # merged file: refuse rather than drop it.
                sys.exit(f"merge.py: {path}: unknown record '{key}'; this "
                         "merge.py predates it")
        if count is None or not 1 <= count <= 64:
            sys.exit(f"merge.py: {path}: 'members' must be 1 to 64, got "
                     f"{count}")
        missing = [k for k in KNOWN if k not in self.rec and k != "family"]
        if missing:
            sys.exit(f"merge.py: {path}: no '{missing[0]}' record")
        self.sizes = [int(v) for v in self.rec["layers"].split()]
        self.mean = np.array([float.fromhex(v)
                              for v in self.rec["input-mean"].split()])
        self.std = np.array([float.fromhex(v)
                             for v in self.rec["input-std"].split()])
        self.ymean = float.fromhex(self.rec["output-mean"])
        self.ystd = float.fromhex(self.rec["output-std"])
        # members: per member, per layer (W [in, out], b [out]) in float64
        # (exact: every value was written from a float32).
        self.members = []
        for mi in range(count):
            if lines[i] != f"member {mi}":
                sys.exit(f"merge.py: {path}: expected 'member {mi}', got "
                         f"'{lines[i]}'")
            i += 1
            layers = []
            for li in range(len(self.sizes) - 1):
                if lines[i] != f"layer {li}":
                    sys.exit(f"merge.py: {path}: expected 'layer {li}' in "
                             f"member {mi}")
                i += 1
                nin, nout = self.sizes[li], self.sizes[li + 1]
                rows = np.array([[float.fromhex(v) for v in lines[i + o].split()]
                                 for o in range(nout)])
                i += nout
                if rows.shape != (nout, nin + 1):
                    sys.exit(f"merge.py: {path}: member {mi} layer {li} is "
                             f"not {nout} x {nin + 1}")
                layers.append((rows[:, :nin].T.copy(), rows[:, nin].copy()))
            self.members.append(layers)
        # After the members: a screen network (docs/model-format.md, "The
        # screen"), distilled from this file's member 0, with its comment.
        self.screen = lines[i:-1]
        if self.screen and not any(ln.startswith("screen ")
                                   for ln in self.screen):
            sys.exit(f"merge.py: {path}: unexpected '{self.screen[0]}' "
                     "after the members")

    def predict(self, x):
        """float64 mean over the members, as train.py checks its own."""
        return reference_predict(self.members, self.mean, self.std,
                                 self.ymean, self.ystd, x)


def rebase(model, first):
    """model's members rewritten for first's standardization (module
    docstring): the same predictions from first's z and output scale."""
    out = []
    scale_in = first.std / model.std
    shift_in = (first.mean - model.mean) / model.std
    scale_out = model.ystd / first.ystd
    shift_out = (model.ymean - first.ymean) / first.ystd
    for layers in model.members:
        (w0, b0), last = layers[0], len(layers) - 1
        new = [(w0 * scale_in[:, None], b0 + shift_in @ w0)] + list(layers[1:])
        w, b = new[last]
        new[last] = (w * scale_out, b * scale_out + shift_out)
        out.append(new)
    return out


def model_text(first, members, support, notes, screen=()):
    out = [f"isaac-mlp {first.version}"] + ["# " + s for s in notes]
    for key in SAME[:5]:
        out.append(f"{key} {first.rec[key]}")
    if "family" in first.rec:
        out.append(f"family {first.rec['family']}")
    for name, vals in support:
        out.append(f"support {name} " + " ".join(str(v) for v in vals))
    for key in ("features", "layers", "input-mean", "input-std",
                "output-mean", "output-std"):
        out.append(f"{key} {first.rec[key]}")
    return sealed(out + members_lines(members) + list(screen))


def rewrite_vectors(src, dst, models, nfeat):
    """src's vectors with the prediction of all members of `models`
    (float64, from the files as written) in place of the last field."""
    with open(src) as f:
        lines = f.read().splitlines()
    rows = [i for i, ln in enumerate(lines) if ln.startswith("v ")]
    x = np.array([[float(v) for v in lines[i].split()[-1 - nfeat:-1]]
                  for i in rows])
    total = sum(len(m.members) for m in models)
    y = sum(m.predict(x) * len(m.members) for m in models) / total
    for i, yi in zip(rows, y):
        lines[i] = " ".join(lines[i].split()[:-1] + [repr(float(yi))])
    with open(dst, "w") as f:
        f.write("\n".join(lines) + "\n")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("models", nargs="+", help="model files to merge")
    p.add_argument("--out", required=True)
    p.add_argument("--vectors", nargs=2, metavar=("IN", "OUT"))
    a = p.parse_args(argv)
    if len(a.models) < 2:
        sys.exit("merge.py: give two or more model files")
    models = [Model(path) for path in a.models]
    first = models[0]
    for m in models[1:]:
        for key in SAME:
            if m.rec.get(key) != first.rec.get(key):
                sys.exit(f"merge.py: {m.path}: '{key}' differs from "
                         f"{first.path} ({m.rec.get(key)!r} against "
                         f"{first.rec.get(key)!r}); only models of the same "
                         "data, type, chip, family and widths merge")
        if [n for n, _ in m.support] != [n for n, _ in first.support]:
            sys.exit(f"merge.py: {m.path}: support records differ in order")
    total = sum(len(m.members) for m in models)
    if total > 64:
        sys.exit(f"merge.py: {total} members; a model file holds at most 64")
    support = []
    for i, (name, vals) in enumerate(first.support):
        keep = [v for v in vals if all(v in m.support[i][1] for m in models)]
        if not keep:
            sys.exit(f"merge.py: the supports of '{name}' do not overlap")
        support.append((name, keep))
    members = list(first.members)
    for m in models[1:]:
        members += rebase(m, first)
    notes = [f"merged by tools/isaac-tune/merge.py: {total} members of "
             f"{len(models)} files, each weighing the same in the mean; "
             "standardization of the first; support the intersection"]
    for m in models:
        notes.append(f"from {os.path.basename(m.path)} "
                     f"({len(m.members)} members):")
        # Its training notes (of every file a merged input came from).
        notes += ["  " + n for n in m.notes if not n.startswith("dataset: ")]
    notes += [n for n in first.notes if n.startswith("dataset: ")]
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    # The first file's screen stays valid: its member 0 stays member 0, bit
    # for bit. The other files' screens were distilled from members that
    # are not first any more.
    for m in models[1:]:
        if m.screen:
            print(f"merge.py: {m.path}: its screen network is left out "
                  "(distilled from its member 0, not the merged file's)")
    with open(a.out, "wb") as f:
        f.write(model_text(first, members, support, notes, first.screen))
    print(f"wrote {a.out}: {total} members from {len(models)} files"
          + (", the first file's screen network" if first.screen else ""))
    if a.vectors:
        rewrite_vectors(a.vectors[0], a.vectors[1], models,
                        int(first.rec["features"].split()[0]))
        print(f"wrote {a.vectors[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
