#!/usr/bin/env python3
"""Writes .mlir files whose compilation yields a chosen set of kernels.

  gen_kernels.py sweep > sweep.mlir
      the correctness-sweep kernels: a curated list of configurations that
      covers KS, KL, KG > 1, vec 1/2/4 and f32/f64, each in the four layouts.
  gen_kernels.py candidates CONFIGURED.mlir [LIST] > cands.mlir
      one GEMM per configuration listed in isaac.candidates (the output of
      isaac-select-config="topk=N" -mlir-print-local-scope), keeping each
      op's dtype and layout, so that isaac-bench can re-benchmark the top-k;
      LIST, if given, receives 'M N K KERNEL' lines for isaac-bench
      --candidates (each op's own top-k).

The shapes in the emitted functions are irrelevant to the kernels (M, N, K
are runtime arguments); only (config, dtype, layout) names a kernel.
"""
import re
import sys

SWEEP = [
    ("f32", "ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4"),
    ("f32", "ml = 32, nl = 32, ms = 4, ns = 4, u = 16, ks = 2, kl = 2, kg = 4, vec = 4"),
    ("f32", "ml = 16, nl = 16, ms = 2, ns = 2, u = 8, ks = 1, kl = 4, kg = 1, vec = 2"),
    ("f32", "ml = 32, nl = 16, ms = 1, ns = 4, u = 4, ks = 1, kl = 1, kg = 2, vec = 1"),
    ("f32", "ml = 128, nl = 64, ms = 8, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4"),
    ("f32", "ml = 16, nl = 64, ms = 4, ns = 2, u = 32, ks = 2, kl = 8, kg = 8, vec = 4"),
    # ML or NL narrower than 16 bytes, tiny U: shared tiles must stay aligned.
    ("f32", "ml = 1, nl = 128, ms = 1, ns = 4, u = 2, ks = 1, kl = 1, kg = 1, vec = 1"),
    ("f32", "ml = 128, nl = 1, ms = 4, ns = 1, u = 1, ks = 1, kl = 1, kg = 2, vec = 1"),
    ("f64", "ml = 1, nl = 64, ms = 1, ns = 2, u = 1, ks = 1, kl = 1, kg = 1, vec = 1"),
    ("f64", "ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2"),
    ("f64", "ml = 16, nl = 16, ms = 2, ns = 2, u = 16, ks = 2, kl = 4, kg = 8, vec = 1"),
    ("f64", "ml = 64, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 2, kg = 2, vec = 2"),
]

MAPS = {"n": ("(m, k)", "(k, n)"), "t": ("(k, m)", "(n, k)")}


def func(name, dtype, m, n, k, layout, config=None):
    """A func.func holding one M x N x K linalg.matmul of `layout` (A and B
    transposed through the indexing maps), with isaac.config if given."""
    am, bm = MAPS[layout[0]][0], MAPS[layout[1]][1]
    a = (m, k) if layout[0] == "n" else (k, m)
    b = (k, n) if layout[1] == "n" else (n, k)
    t = lambda s: "memref<%dx%dx%s>" % (s[0], s[1], dtype)
    attr = "\n    {isaac.config = #isaac.gemm<%s>}" % config if config else ""
    return ("func.func @%s(%%A: %s, %%B: %s, %%C: %s) {\n"
            "  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> %s>, "
            "affine_map<(m, n, k) -> %s>, affine_map<(m, n, k) -> (m, n)>]\n"
            "    ins(%%A, %%B : %s, %s) outs(%%C : %s)%s\n  return\n}\n"
            % (name, t(a), t(b), t((m, n)), am, bm, t(a), t(b), t((m, n)), attr))


def kernel_name(dtype, layout, config):
    """The kernel entry name (docs/abi.md) of a configuration string."""
    v = dict(kv.split(" = ") for kv in config.split(", "))
    return "isaac_gemm_%s_%s_ml%s_nl%s_ms%s_ns%s_u%s_ks%s_kl%s_kg%s_v%s" % (
        (dtype, layout) + tuple(v[x] for x in
                                ("ml", "nl", "ms", "ns", "u", "ks", "kl", "kg", "vec")))


def gemm(i, dtype, layout, config):
    # Kernels do not depend on the shape (runtime arguments): any will do.
    return func("k%d" % i, dtype, 64, 64, 64, layout, config)


def sweep():
    i = 0
    for dtype, config in SWEEP:
        for layout in ("nn", "nt", "tn", "tt"):
            sys.stdout.write(gemm(i, dtype, layout, config))
            i += 1


def candidates(path, listing=None):
    seen, i = set(), 0
    lst = open(listing, "w") if listing else None
    for line in open(path):
        m = re.search(r"linalg\.(?:batch_)?matmul", line)
        c = re.search(r"isaac\.candidates = \[(.*?)\]", line)
        if not (m and c):
            continue
        maps = re.findall(r"affine_map<\([^)]*\) -> \(([^)]*)\)>", line)
        trans_a = bool(maps) and maps[0].replace(" ", "").split(",")[-1] == "d0"
        trans_b = bool(maps) and maps[1].replace(" ", "").split(",")[-1] == "d2"
        out_type = re.search(r"outs\([^:]*: memref<([^>]*)x(f32|f64)", line)
        dtype = out_type.group(2)
        m, n = out_type.group(1).split("x")[-2:]
        a_type = re.search(r"ins\([^:]*: memref<([^>]*)x(?:f32|f64)", line)
        a_dims = a_type.group(1).split("x")[-2:]
        k = a_dims[0] if trans_a else a_dims[1]
        layout = ("t" if trans_a else "n") + ("t" if trans_b else "n")
        for config in re.findall(r"#isaac\.gemm<([^>]*)>", c.group(1)):
            if lst:
                lst.write("%s %s %s %s\n" % (m, n, k,
                                             kernel_name(dtype, layout, config)))
            key = (dtype, layout, config)
            if key not in seen:
                seen.add(key)
                sys.stdout.write(gemm(i, dtype, layout, config))
                i += 1


if __name__ == "__main__":
    if sys.argv[1:] == ["sweep"]:
        sweep()
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "candidates":
        candidates(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None)
    else:
        sys.exit(__doc__)
