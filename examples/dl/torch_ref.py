#!/usr/bin/env python3
"""PyTorch (cuBLAS) timings of model.mlir's functions, for docs/perf.md.

The same computations as gen_model.py in eager PyTorch, f32 with TF32 off
(exact IEEE f32 like isaac's kernels): addmm (cuBLAS, the bias in its
epilogue) then the activation and the residual add as separate kernels.
Timing as isaac-dl does it: CUDA events around one call, median of --reps
calls after 3 warm-ups. Prints `TIME <function> <size> <ms> ms` lines.
"""
import argparse
import statistics

import torch
import torch.nn.functional as F

D_IN, D_H, D_OUT = 512, 1024, 256
T, D, FF = 128, 512, 2048


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


if __name__ == "__main__":
    main()
