"""Checks isaac-tune sample --op conv's output independently of the C++:
every samples.txt line is `KERNEL N,H,W,C,K,R,S,sh,sw,pt,pl,dh,dw,P,Q`
naming a kernel of kernels.mlir, with P and Q those of the padding (top
and left, the rest after), FLOPs within [1e6, MAX_GFLOP * 1e9], the
sampler's ranges, no 1x1 stride-1 convolution (a GEMM in the compiler), the
conv rules on vec (docs: ConvLegality.h, conv-vector-channels) and on an
mma kernel's input copies (conv-input-copies: ml * u / vec / threads at
most 16 a thread) and none of the shapes of the exclude files. Prints counts, and the share of inputs
whose C is a multiple of 64 (the sampler's deep layers, which the wgmma
kernels load by im2col TMA); usage:
check-conv-samples.py DIR MAX_GFLOP [EXCLUDED_TEXT_FILE]"""
import re
import sys

d, max_gflop = sys.argv[1], float(sys.argv[2])
excluded = set()
if len(sys.argv) > 3:
    excluded = set(l.split()[0] for l in open(sys.argv[3]) if l.strip())
names = [l.split()[1] for l in open(d + "/kernels.mlir")
         if l.startswith("// isaac_conv_")]
kernels = set(names)
bad, odd_c, c64, layouts, vecs = [], 0, 0, set(), set()
max_copies = 0


def input_copies(name):
    """An mma kernel's input copies per thread and K tile."""
    m = re.search(r"_mma_ml(\d+)_nl(\d+)_wm(\d+)_wn(\d+)_u(\d+)_kl(\d+)_"
                  r"kg\d+_v(\d+)", name)
    if not m:
        return 0
    ml, nl, wm, wn, u, kl, vec = map(int, m.groups())
    threads = 32 * (ml // wm) * (nl // wn) * kl
    return -(-ml * u // vec // threads)


rows = [l.split() for l in open(d + "/samples.txt") if not l.startswith("#")]
for r in rows:
    if len(r) != 2 or r[0] not in kernels:
        bad.append(r)
        continue
    f = [int(x) for x in r[1].split(",")]
    n, h, w, c, k, R, S, sh, sw, pt, pl, dh, dw, p, q = f
    vec = int(re.search(r"_v(\d+)", r[0]).group(1))
    mma = "_mma_" in r[0] or "_wgmma_" in r[0]  # tensor cores: 4-byte copies
    layouts.add(r[0].split("_")[3] + "_" + r[0].split("_")[4])
    ok = (len(f) == 15 and 1 <= n <= 64 and 7 <= h <= 224 and 7 <= w <= 224
          and 1 <= c <= 1024 and 1 <= k <= 1024 and sh == sw and sh in (1, 2)
          and dh in (1, 2) and dw in (1, 2) and p >= 1 and q >= 1)
    # The padding after the input follows from P (Q): none, or "same"'s
    # (the larger half after); a stride that does not divide leaves up to
    # stride - 1 rows unread.
    after_h = (p - 1) * sh + (R - 1) * dh + 1 - h - pt
    after_w = (q - 1) * sw + (S - 1) * dw + 1 - w - pl
    ok = ok and pt >= 0 and pl >= 0 and -sh < after_h <= pt + 1 and \
        -sw < after_w <= pl + 1
    ok = ok and 1e6 <= 2.0 * n * p * q * k * c * R * S <= max_gflop * 1e9
    ok = ok and not (R == 1 and S == 1 and sh == 1)
    odd_c += c % 2
    c64 += c % 64 == 0
    narrowest = 2 if mma else 1
    if c % narrowest:
        ok = ok and vec == narrowest
    else:
        ok = ok and c % vec == 0
    copies = input_copies(r[0])
    max_copies = max(max_copies, copies)
    ok = ok and copies <= 16
    ok = ok and r[1] not in excluded
    vecs.add(vec)
    if not ok:
        bad.append(r)
print("kernels", len(names), "rows", len(rows), "bad", len(bad),
      "layouts", " ".join(sorted(layouts)), "odd-c", odd_c > 0,
      "c64 %.2f" % (c64 / max(len(rows), 1)), "mma-copies-max", max_copies)
for b in bad[:5]:
    print("BAD", " ".join(b))
