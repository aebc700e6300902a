#!/usr/bin/env python3
"""Writes the wgmma convolution exploration of docs/perf.md ("What limits
the wgmma convolutions"): a grid of f16 wgmma configurations (block tiles
64x128 to 256x128 and 128x256, one to four warpgroups, U = 64, 3 to 5
stages) compiled twice, as NHWC/HWCF convolution kernels and as nn GEMM
kernels, with candidate lists that time every one on the large layers of
Table 5 + ResNet-50 (conv) and on their implicit GEMMs (GEMM, M = N*P*Q,
N = K, K = C*R*S), so that the conv loop is compared with the GEMM loop on
the same configuration and the same arithmetic.

  python3 scripts/explore_conv_wgmma.py DIR
      writes DIR/conv.mlir, DIR/gemm.mlir, DIR/conv-candidates.txt,
      DIR/gemm-candidates.txt, DIR/conv-shapes.txt (isaac-bench
      --conv-shapes-file) and DIR/gemm-shapes.txt (--shapes-file)
  python3 scripts/explore_conv_wgmma.py --summary CONV_CSV GEMM_CSV
      the table of docs/perf.md from scripts/gpu/explore-conv.sh's CSVs:
      per layer the fastest conv kernel and the fastest GEMM kernel (TFLOPS,
      and over cuDNN and cuBLAS), and the geomean over the configurations
      of conv TFLOPS over GEMM TFLOPS, same configuration
"""
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_kernels  # noqa: E402
import isaac_schema  # noqa: E402

# (name, N, H, W, C, K, R, S, stride, pad): Table 5's and ResNet-50's
# layers furthest below cuDNN (docs/perf.md, the f16 conv table).
LAYERS = [
    ("Conv9", 8, 112, 112, 64, 128, 3, 3, 1, 1),
    ("Conv10", 8, 56, 56, 128, 256, 3, 3, 1, 1),
    ("Conv11", 16, 128, 39, 64, 174, 5, 5, 1, 2),
    ("rn50.l2.1.conv2", 32, 28, 28, 128, 128, 3, 3, 1, 1),
    ("rn50.l3.1.conv2", 32, 14, 14, 256, 256, 3, 3, 1, 1),
    ("rn50.l2.0.ds", 32, 56, 56, 256, 512, 1, 1, 2, 0),
]

# (ml, nl, wm, wn): warpgroups = (ml / wm) * (nl / wn).
TILES = [
    (64, 128, 64, 128), (64, 256, 64, 256), (128, 128, 64, 128),
    (128, 128, 128, 128), (128, 128, 128, 64), (128, 256, 64, 256),
    (128, 256, 128, 128), (256, 128, 128, 128), (256, 128, 64, 128),
]
STAGES = [3, 4, 5]
SMEM = 232448  # sm_90a's dynamic shared memory per block


def configs():
    out = []
    for ml, nl, wm, wn in TILES:
        for st in STAGES:
            if st * (ml + nl) * 64 * 2 + 1024 > SMEM:
                continue
            out.append(gen_kernels._wgmma(ml, nl, wm, wn, 64, 1, 1, 8, st))
    return out


def out_size(h, r, stride, pad):
    return (h + 2 * pad - r) // stride + 1


def config_of(kernel):
    return kernel.split("_wgmma_")[1]


def summary(conv_csv, gemm_csv):
    gemm = {}
    for r in csv.DictReader(open(gemm_csv)):
        if r["status"] == "PASS":
            gemm[(int(r["M"]), int(r["N"]), int(r["K"]),
                  config_of(r["kernel"]))] = r
    layers = {}
    for r in csv.DictReader(open(conv_csv)):
        if r["status"] != "PASS":
            continue
        key = (int(r["gemm_m"]), int(r["gemm_n"]), int(r["gemm_k"]))
        layers.setdefault(key, []).append(r)
    names = {}
    for name, n, h, w, c, k, r, s, st, pad in LAYERS:
        p, q = out_size(h, r, st, pad), out_size(w, s, st, pad)
        names[(n * p * q, k, c * r * s)] = (
            name, "N%d %dx%d C%d K%d %dx%d s%d" % (n, h, w, c, k, r, s, st))
    print("| layer | shape | implicit GEMM | best conv kernel | TFLOPS | "
          "/ cuDNN | best GEMM kernel | TFLOPS | / cuBLAS(Lt) | conv / GEMM, "
          "same configuration (geomean) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key, rows in layers.items():
        best = max(rows, key=lambda x: float(x["isaac_tflops"]))
        twins = [g for g in (gemm.get(key + (config_of(x["kernel"]),))
                             for x in rows) if g]
        gbest = max(twins, key=lambda x: float(x["isaac_tflops"]))
        ratios = [float(x["isaac_tflops"]) /
                  float(gemm[key + (config_of(x["kernel"]),)]["isaac_tflops"])
                  for x in rows if key + (config_of(x["kernel"]),) in gemm]
        geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
        name, shape = names.get(key, ("?", "?"))
        print("| %s | %s | %dx%dx%d | `%s` | %.0f | %.2f | `%s` | %.0f | %.2f "
              "| %.2f (%d) |" % (
                  name, shape, key[0], key[1], key[2],
                  config_of(best["kernel"]), float(best["isaac_tflops"]),
                  float(best["isaac_over_best_cudnn"]),
                  config_of(gbest["kernel"]), float(gbest["isaac_tflops"]),
                  float(gbest["isaac_over_best"]), geo, len(ratios)))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--summary":
        summary(sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    schema = isaac_schema.schema()
    cfgs = configs()
    with open(os.path.join(d, "conv.mlir"), "w") as f:
        f.write('module attributes {isaac.target = "sm_90a"} {\n')
        for i, cfg in enumerate(cfgs):
            # Kernels take the shape at run time: a 3x3 stride-1 one.
            f.write(gen_kernels.conv_func("c%d" % i, "f16", "hwcf",
                                          (1, 6, 6, 64, 64, 3, 3), cfg))
        f.write("}\n")
    with open(os.path.join(d, "gemm.mlir"), "w") as f:
        f.write('module attributes {isaac.target = "sm_90a"} {\n')
        for i, cfg in enumerate(cfgs):
            f.write(gen_kernels.gemm(i, "f16", "nn", cfg))
        f.write("}\n")
    cc = open(os.path.join(d, "conv-candidates.txt"), "w")
    gc = open(os.path.join(d, "gemm-candidates.txt"), "w")
    cs = open(os.path.join(d, "conv-shapes.txt"), "w")
    gs = open(os.path.join(d, "gemm-shapes.txt"), "w")
    for name, n, h, w, c, k, r, s, st, pad in LAYERS:
        p, q = out_size(h, r, st, pad), out_size(w, s, st, pad)
        m, kk = n * p * q, c * r * s
        cs.write("# %s\n%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n"
                 % (name, n, h, w, c, k, r, s, st, st, pad, pad))
        gs.write("# %s\n%d,%d,%d,nn\n" % (name, m, k, kk))
        for cfg in cfgs:
            attr = schema.parse_attr_text(cfg)
            cc.write("%d %d %d %s\n" % (m, k, kk, schema.conv_kernel_name(
                "f16", "hwcf", attr)))
            gc.write("%d %d %d %s\n" % (m, k, kk, schema.kernel_name(
                "f16", "nn", attr)))
    for f in (cc, gc, cs, gs):
        f.close()
    sys.stderr.write("%d configurations, %d layers\n" % (len(cfgs),
                                                          len(LAYERS)))


if __name__ == "__main__":
    main()
