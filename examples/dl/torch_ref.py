#!/usr/bin/env python3
"""PyTorch (cuBLAS) timings of model.mlir's functions, for docs/perf.md.

The same computations as gen_model.py in eager PyTorch, f32 with TF32 off
(exact IEEE f32 like isaac's kernels): addmm (cuBLAS, the bias in its
epilogue) then the activation and the residual add as separate kernels.
The convolutions run through cuDNN (torch.nn.functional.conv2d on
channels-last tensors, benchmark mode: cuDNN's own algorithm search),
then the bias, residual and relu as PyTorch does them.
Timing as isaac-dl does it: CUDA events around one call, median of --reps
calls after 3 warm-ups. Prints `TIME <function> <size> <ms> ms` lines.
"""
import argparse
import statistics

import torch
import torch.nn.functional as F

D_IN, D_H, D_OUT = 512, 1024, 256
T, D, FF = 128, 512, 2048
CB_N, CB_H, CB_C = 8, 28, 64


def timed(fn, reps):
    """(median ms of one call, mean ms per call of `reps` back to back)."""
    for _ in range(3):
        fn()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    start.record()
    for _ in range(reps):
        fn()
    stop.record()
    stop.synchronize()
    return statistics.median(times), start.elapsed_time(stop) / reps


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--reps", type=int, default=20)
    a = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = "cuda"
    r = lambda *s: torch.rand(*s, device=dev) * 2 - 1
    print(f"device: {torch.cuda.get_device_name()} torch {torch.__version__}")

    w1, b1 = r(D_IN, D_H), r(D_H)
    w2, b2 = r(D_H, D_H), r(D_H)
    w3, b3 = r(D_H, D_OUT), r(D_OUT)
    for batch in (1, 16, 512):
        x = r(batch, D_IN)

        def mlp():
            h1 = torch.relu(torch.addmm(b1, x, w1))
            h2 = F.gelu(torch.addmm(b2, h1, w2), approximate="tanh")
            return torch.addmm(b3, h2, w3)

        ms, b2b = timed(mlp, a.reps)
        flops = 2.0 * batch * (D_IN * D_H + D_H * D_H + D_H * D_OUT)
        print(f"TIME mlp batch={batch} {ms:.4f} ms {flops / ms * 1e-9:.2f} TFLOPS"
              f" back-to-back {b2b:.4f} ms")

    x = r(T, D)
    wq, bq, wk, bk, wv, bv, wo, bo = (r(D, D), r(D), r(D, D), r(D), r(D, D),
                                      r(D), r(D, D), r(D))
    f1, c1, f2, c2 = r(D, FF), r(FF), r(FF, D), r(D)

    def block():
        q = torch.addmm(bq, x, wq)
        k = torch.addmm(bk, x, wk)
        v = torch.addmm(bv, x, wv)
        o = torch.addmm(bo, v, wo) + x
        h = F.gelu(torch.addmm(c1, o, f1))
        y = torch.addmm(c2, h, f2) + o
        return q, k, y

    ms, b2b = timed(block, a.reps)
    flops = 2.0 * T * (4.0 * D * D + 2.0 * D * FF)
    print(f"TIME transformer_block tokens={T} {ms:.4f} ms {flops / ms * 1e-9:.2f} TFLOPS"
          f" back-to-back {b2b:.4f} ms")

    # Convolutions (NCHW-indexed tensors in channels-last memory: NHWC).
    torch.backends.cudnn.benchmark = True
    cl = torch.channels_last

    def nhwc(n, c, h, w, dtype=torch.float32, scale=1.0):
        return (r(n, c, h, w) * scale).to(dtype).contiguous(memory_format=cl)

    x = nhwc(CB_N, CB_C, CB_H, CB_H)
    cw1, cb1 = nhwc(CB_C, CB_C, 3, 3), r(CB_C)
    cw2, cb2 = nhwc(CB_C, CB_C, 3, 3), r(CB_C)

    def conv_block():  # a ResNet basic block
        h = torch.relu(F.conv2d(x, cw1, cb1, padding=1))
        return torch.relu(F.conv2d(h, cw2, cb2, padding=1) + x)

    ms, b2b = timed(conv_block, a.reps)
    flops = 2.0 * 2 * 9 * CB_C * CB_C * CB_N * CB_H * CB_H
    print(f"TIME conv_block n={CB_N} {ms:.4f} ms {flops / ms * 1e-9:.2f} TFLOPS"
          f" back-to-back {b2b:.4f} ms")

    # The same block in PyTorch's default (NCHW) memory format.
    xc = x.contiguous()
    cw1c, cw2c = cw1.contiguous(), cw2.contiguous()

    def conv_block_nchw():
        h = torch.relu(F.conv2d(xc, cw1c, cb1, padding=1))
        return torch.relu(F.conv2d(h, cw2c, cb2, padding=1) + xc)

    ms, b2b = timed(conv_block_nchw, a.reps)
    print(f"TIME conv_block_nchw n={CB_N} {ms:.4f} ms {flops / ms * 1e-9:.2f} TFLOPS"
          f" back-to-back {b2b:.4f} ms")

    xd, wd, bd = nhwc(1, 512, 9, 9), nhwc(512, 512, 3, 3), r(512)
    ms, b2b = timed(lambda: F.conv2d(xd, wd, bd), a.reps)
    flops = 2.0 * 49 * 512 * 4608
    print(f"TIME conv_deep n=1 {ms:.4f} ms {flops / ms * 1e-9:.2f} TFLOPS"
          f" back-to-back {b2b:.4f} ms")

    xp, wp, bp = nhwc(8, 64, 14, 14), nhwc(256, 64, 1, 1), r(256)
    ms, b2b = timed(lambda: torch.relu(F.conv2d(xp, wp, bp)), a.reps)
    flops = 2.0 * 8 * 14 * 14 * 256 * 64
    print(f"TIME conv_pointwise n=8 {ms:.4f} ms {flops / ms * 1e-9:.2f} TFLOPS"
          f" back-to-back {b2b:.4f} ms")

    # 1-D: NWC in memory (channels last of an N x C x W tensor).
    x1 = r(4, 100, 32).transpose(1, 2)
    w1d, b1d = r(64, 32, 5), r(64)
    ms, b2b = timed(lambda: F.conv1d(x1, w1d, b1d), a.reps)
    flops = 2.0 * 4 * 96 * 64 * 160
    print(f"TIME conv_1d n=4 {ms:.4f} ms {flops / ms * 1e-9:.2f} TFLOPS"
          f" back-to-back {b2b:.4f} ms")

    h16 = torch.float16
    xh, wh, bh = nhwc(2, 32, 33, 33, h16), nhwc(64, 32, 3, 3, h16), r(64).to(h16)
    ms, b2b = timed(lambda: torch.relu(F.conv2d(xh, wh, bh, stride=2)), a.reps)
    flops = 2.0 * 2 * 16 * 16 * 64 * 288
    print(f"TIME conv_f16 n=2 {ms:.4f} ms {flops / ms * 1e-9:.2f} TFLOPS"
          f" back-to-back {b2b:.4f} ms")

    xw, ww, bw = nhwc(8, 64, 28, 28, h16), nhwc(128, 64, 3, 3, h16), r(128).to(h16)
    ms, b2b = timed(lambda: torch.relu(F.conv2d(xw, ww, bw, padding=1)), a.reps)
    flops = 2.0 * 8 * 28 * 28 * 128 * 576
    print(f"TIME conv_f16_wide n=8 {ms:.4f} ms {flops / ms * 1e-9:.2f} TFLOPS"
          f" back-to-back {b2b:.4f} ms")


if __name__ == "__main__":
    main()
