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
  gen_kernels.py top1 PTX_DIR OUT_DIR
      the compiler's top-1 set of a compiled candidate list: copies each
      problem's first line of PTX_DIR/candidates.txt (a problem is M, N, K,
      the types token and the layout) and that kernel's PTX into OUT_DIR,
      with OUT_DIR/candidates.txt listing them, for the GPU check, sweep and
      sanitizers of scripts/gpu/mma.sh (DIR=OUT_DIR).
  gen_kernels.py fused > fused.mlir
      the fused-epilogue sweep kernels: isaac.gemm ops with bias, scaling,
      residual, gelu (tanh and erf forms), sigmoid, silu, clamp, f16 and
      bf16 outputs, and f64, with KG = 1 and KG > 1 in all four layouts,
      some of them batched.
  gen_kernels.py overhead CONFIGURED.mlir [LIST] > overhead.mlir
      for each op's isaac.config (the compiler's top-1), the plain GEMM and
      the same configuration with a fused per-column bias + relu, for
      isaac-bench --epilogue-overhead; LIST receives 'M N K KERNEL' lines
      naming each op's plain kernel (the fused one is its name + _ep<ID>).
  gen_kernels.py mma > mma.mlir
      the mma family's GPU check: a curated list of configurations over
      the four layouts, stages 2..5, KL and KG > 1, vec 2/4/8, f16 and bf16
      operands with C of their type or f32, f32 opted in to TF32 (MMA), f64
      on DMMA (MMA_F64: vec 1/2, warp tiles 8x8 to 64x32), a few fused
      epilogues (MMA_FUSED), and the large tiles expected to be fastest on
      2048^3-class problems (MMA_LARGE).
  gen_kernels.py simt-stages > stages.mlir
      the simt family's cp.async pipeline (stages > 2): the sweep
      configurations (SWEEP) with stages 3 and 4, a few with 5 to 8, and
      SIMT_STAGES (128x128 and 64x64 tiles of 8x16 and 4x8 threads, U = 8
      or 16, stages 3 and 4: the shapes of cuBLAS's three-stage SIMT
      kernels), each in the four layouts, those isaac-opt accepts (the
      shared-memory and register rules).
  gen_kernels.py conv > conv.mlir
      the convolution kernels' GPU check: the correctness-sweep
      configurations (SWEEP) as conv kernels, each with NHWC input and
      filters hwcf and fhwc.
  gen_kernels.py conv-candidates CONFIGURED.mlir [LIST] > cands.mlir
      for convolutions configured with isaac-select-config="topk=N"
      -mlir-print-local-scope, one convolution per candidate configuration;
      LIST, if given, receives 'M N K KERNEL R,S,SH,SW' lines (the
      implicit GEMM's N*P*Q, K, C*R*S; each convolution's candidates in
      rank order; the filter's size and strides tell apart layers of one
      implicit GEMM) for isaac-bench --conv --candidates LIST --topk N.
  gen_kernels.py clusters CONFIGURED.mlir LIST > cands.mlir
  gen_kernels.py conv-clusters CONFIGURED.mlir LIST > cands.mlir
      as candidates / conv-candidates, but for each op its first candidate
      (the compiler's top-1) and, if it is a wgmma configuration, the same
      with cm = 2, 4 and 8 where the cluster rule allows it (nl and u
      multiples of 8 * cm: lib/Model/WgmmaLegality.cpp); variants are
      kept where isaac-opt (ISAAC_OPT, else on PATH, else
      build/bin/isaac-opt) accepts them: the thread-block-cluster exploration of docs/perf.md.
  gen_kernels.py kc CONFIGURED.mlir LIST > cands.mlir
  gen_kernels.py conv-kc CONFIGURED.mlir LIST > cands.mlir
      as clusters, with the first candidate split over K into kg = 2, 4
      and 8 slices that sum inside the launch (kc = 1) as variants (and,
      where the first has kc = 1, its form without): the in-cluster
      split-K exploration of docs/perf.md.
  gen_kernels.py ws CONFIGURED.mlir LIST > cands.mlir
  gen_kernels.py conv-ws CONFIGURED.mlir LIST > cands.mlir
      as candidates, with each op's first three candidates, each followed
      (wgmma family) by its other form: warp-specialized (ws = 1, where
      legal) or plain: the producer-warpgroup exploration of docs/perf.md.
  gen_kernels.py pt CONFIGURED.mlir LIST > cands.mlir
      as candidates, with each op's first three candidates, each followed,
      where it is warp-specialized with kg = 1 and kl = 1, by its
      persistent form (pt = 1; or, where the selection made it so, its
      form without): the persistent-tile exploration of docs/perf.md.
  gen_kernels.py pt-forms CONFIGURED.mlir LIST > cands.mlir
      as pt, each wgmma candidate with kg = 1, kl = 1 and cm = 1 followed
      by those of its plain, warp-specialized and persistent forms that
      it is not.
  gen_kernels.py pp-forms CONFIGURED.mlir LIST > cands.mlir
      as candidates, with each op's first two candidates and, where neither
      is, the ping-pong form (pt = 2, 128x128, u = 64, 5 stages, ws = 1, the
      candidate's vec) of its first wgmma candidate without pt: with
      isaac-select-config="topk=2", the selection's first, the model's
      first (second where the first is the rule's) and the form the deep
      ping-pong rule would put before it: the ping-pong explorations of
      docs/perf.md.
  gen_kernels.py fill-forms CONFIGURED.mlir LIST > cands.mlir
      as candidates, with each op's first two candidates and, for a GEMM of
      few output tiles, the warp-specialized wgmma forms that split its
      reduction to fill the SMs (fill_variants): tiles of 128x128, 64x128,
      128x64 and 128x256 (u = 64), with kg = 2, 4, 8 summed inside a
      cluster (kc = 1) and with kg = 4 .. 64 over the grid (128x256 also
      with cm = 2): the few-tile explorations of docs/perf.md.
  gen_kernels.py shapes SHAPES DTYPE [CHIP] > problems.mlir
      one linalg.matmul function of A, B and C of DTYPE per line of SHAPES
      ('M,N,K,LAYOUT', isaac-bench --shapes-file's lines; '#' comments and
      blank lines skipped), under module attributes {isaac.target = CHIP}
      (default sm_90a).
  gen_kernels.py problems LIST [CHIP] > problems.mlir
      one function per problem of LIST ('M N K KERNEL' lines, as isaac-bench
      --candidates reads: M, N, K, the kernel's types and layout), under
      module attributes {isaac.target = CHIP} (default sm_90a): the inputs
      of a recorded candidate list, to select again (docs/results keeps the
      lists of random draws).
  gen_kernels.py kernels LIST [CHIP] > kernels.mlir
      one GEMM per distinct kernel named in LIST ('M N K KERNEL' lines),
      under module attributes {isaac.target = CHIP} (default sm_90a): the
      kernels of a recorded candidate list, compiled again.
  gen_kernels.py wgmma-pt > pt.mlir
      the persistent wgmma kernels' GPU check (sm_90a): WGMMA_PT and the
      fused WGMMA_PT_FUSED.
  gen_kernels.py wgmma-pairs > pairs.mlir
      the warp-specialized pairs' GPU check (sm_90a; ws = 1, cm = 2, the
      cluster form of lib/Model/Search.cpp among them): WGMMA_PAIRS and the
      fused WGMMA_PAIRS_FUSED.
  gen_kernels.py wgmma-ws > ws.mlir
      the warp-specialized wgmma kernels' GPU check (sm_90a): WGMMA_WS and
      the fused WGMMA_WS_FUSED.
  gen_kernels.py epilogue-cpu PTX_DIR [ROWS] > values.mlir
      a CPU program (for mlir-runner) that evaluates the epilogue program
      of every fused kernel in PTX_DIR on ROWS (default 2048) deterministic
      inputs and prints, per kernel, 'kernel NAME' and the raw bits of x,
      the inputs and the result per row: what isaac-bench --check-epilogue
      reads. Run through isaac-legalize-math as the kernels are, it computes
      the epilogue as the GPU does except for FMA contraction.

The shapes in the emitted functions are irrelevant to the kernels (M, N, K
are runtime arguments); only (config, dtype, layout) and the epilogue name
a kernel.
"""
import glob
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import isaac_schema  # noqa: E402  (include/isaac/Model/GemmParams.def)

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

# The simt cp.async pipeline's performance candidates (gen_kernels.py
# simt-stages): cuBLAS's f32 kernels on Table 4's large problems are
# 128x128x8 tiles of 128 threads and 64x64x8 tiles, three stages
# (docs/perf.md, "What limits the exact f32 kernels").
SIMT_STAGES = [
    ("f32", "ml = 128, nl = 128, ms = 8, ns = 16, u = 8, ks = 1, kl = 1, kg = 1, vec = 4"),
    ("f32", "ml = 128, nl = 128, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4"),
    ("f32", "ml = 128, nl = 128, ms = 4, ns = 16, u = 8, ks = 1, kl = 1, kg = 1, vec = 4"),
    ("f32", "ml = 128, nl = 64, ms = 8, ns = 8, u = 16, ks = 1, kl = 1, kg = 1, vec = 4"),
    ("f32", "ml = 64, nl = 64, ms = 4, ns = 8, u = 16, ks = 1, kl = 1, kg = 1, vec = 4"),
    ("f32", "ml = 64, nl = 64, ms = 4, ns = 8, u = 8, ks = 1, kl = 1, kg = 4, vec = 4"),
    ("f32", "ml = 64, nl = 64, ms = 4, ns = 16, u = 16, ks = 1, kl = 2, kg = 32, vec = 2"),
    ("f64", "ml = 64, nl = 64, ms = 4, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 2"),
]

MAPS = {"n": ("(m, k)", "(k, n)"), "t": ("(k, m)", "(n, k)")}


def _tensor_core(family, ml, nl, wm, wn, u, kl, kg, vec, stages):
    """The attribute text of a configuration of a tensor-core family (mma,
    wgmma: the same parameters)."""
    return ("family = %s, ml = %d, nl = %d, wm = %d, wn = %d, u = %d, "
            "kl = %d, kg = %d, vec = %d, stages = %d"
            % (family, ml, nl, wm, wn, u, kl, kg, vec, stages))


def _mma(*values):
    return _tensor_core("mma", *values)


def _wgmma(*values):
    return _tensor_core("wgmma", *values)


# The mma family's correctness set: (A/B type, C type, layout, config).
# Every layout with both operand types; C of the operands' type (KG > 1:
# always the f32 workspace + isaac_splitk_reduce_<C>) and f32 (KG > 1: both
# modes); stages 2..5; KL 1/2/4; vec 8/4/2 (16-, 8- and 4-byte cp.async);
# warp tiles from 16x8 (ldmatrix .x2) to 64x64; 1 to 16 warps.
MMA = [
    ("f16", "f32", "nn", _mma(128, 128, 64, 64, 32, 1, 1, 8, 4)),
    ("f16", "f16", "nt", _mma(64, 64, 32, 32, 32, 1, 1, 8, 3)),
    ("f16", "f16", "tn", _mma(64, 128, 32, 64, 64, 1, 1, 8, 2)),
    ("f16", "f32", "tt", _mma(32, 32, 16, 16, 32, 2, 1, 8, 5)),
    ("bf16", "bf16", "nn", _mma(64, 64, 32, 32, 32, 1, 4, 8, 3)),
    ("bf16", "f32", "nt", _mma(64, 32, 32, 16, 32, 1, 8, 8, 4)),
    ("bf16", "bf16", "tn", _mma(128, 64, 64, 32, 32, 1, 1, 8, 4)),
    ("bf16", "f32", "tt", _mma(16, 8, 16, 8, 16, 1, 1, 2, 2)),
    ("f16", "f32", "nn", _mma(32, 64, 32, 32, 64, 2, 2, 4, 3)),
    ("f16", "f16", "nt", _mma(16, 16, 16, 16, 64, 4, 16, 8, 5)),
    ("f16", "f16", "tt", _mma(128, 32, 32, 32, 16, 1, 1, 8, 5)),
    ("bf16", "bf16", "nt", _mma(32, 128, 32, 64, 32, 1, 2, 8, 2)),
    ("f16", "f32", "tn", _mma(256, 64, 64, 32, 32, 1, 1, 8, 3)),
    ("bf16", "f32", "nn", _mma(64, 256, 32, 64, 32, 1, 1, 8, 3)),
    ("f16", "f16", "nn", _mma(16, 32, 16, 8, 32, 2, 32, 2, 4)),
    ("bf16", "bf16", "tt", _mma(64, 64, 64, 64, 32, 1, 1, 8, 5)),
    ("f16", "f32", "nt", _mma(64, 128, 32, 64, 32, 2, 1, 8, 3)),
    ("bf16", "f32", "tn", _mma(32, 32, 32, 32, 32, 1, 64, 4, 2)),
    # TF32 (f32 operands opted in): ldmatrix (nt), element loads (tn), both
    # (tt, nn); KG > 1 into an f32 C.
    ("tf32", "f32", "nt", _mma(128, 128, 64, 64, 32, 1, 1, 4, 3)),
    ("tf32", "f32", "tn", _mma(64, 64, 32, 32, 32, 1, 1, 4, 4)),
    ("tf32", "f32", "tt", _mma(32, 64, 16, 32, 16, 2, 4, 2, 3)),
    ("tf32", "f32", "nn", _mma(64, 32, 32, 16, 64, 1, 1, 1, 2)),
]

# f64 on DMMA (m16n8k8 on sm_90, f64 accumulators and C): every layout with
# KG 1 and KG > 1 (C f64: both split-K modes), KL 1/2/4, stages 2..5, vec 1
# (8-byte cp.async) and 2 (16-byte), warp tiles from 16x8 (the smallest,
# U = 8: one k-step) to 64x32 (64 accumulators per lane), 1 to 8 warps; the 128x128
# tiles are what the analytic model ranks best for 2048^3 and 4096^3 f64
# on sm_90.
MMA_F64 = [
    ("f64", "f64", "nn", _mma(64, 64, 32, 32, 16, 1, 1, 2, 3)),
    ("f64", "f64", "nt", _mma(128, 64, 64, 32, 8, 1, 1, 2, 4)),
    ("f64", "f64", "tn", _mma(32, 32, 16, 16, 16, 2, 4, 1, 5)),
    ("f64", "f64", "tt", _mma(16, 8, 16, 8, 8, 1, 1, 1, 2)),
    ("f64", "f64", "nn", _mma(32, 64, 16, 32, 32, 1, 8, 2, 4)),
    ("f64", "f64", "nt", _mma(64, 32, 32, 16, 8, 1, 2, 1, 5)),
    ("f64", "f64", "tn", _mma(128, 128, 64, 32, 8, 1, 1, 2, 3)),
    ("f64", "f64", "tt", _mma(128, 128, 32, 64, 8, 1, 1, 2, 3)),
    ("f64", "f64", "nn", _mma(16, 16, 16, 8, 64, 4, 32, 2, 3)),
    ("f64", "f64", "tt", _mma(64, 64, 32, 32, 32, 2, 2, 2, 2)),
    ("f64", "f64", "nt", _mma(32, 16, 16, 8, 16, 1, 1, 1, 4)),
    ("f64", "f64", "tn", _mma(64, 128, 32, 64, 8, 1, 1, 2, 5)),
]

# Fused epilogues on mma kernels: (A/B type, epilogue, config, layout,
# batched). The epilogue's x is the accumulator (f32; f64 for f64).
MMA_FUSED = [
    ("f16", "bias_relu_f16", _mma(64, 64, 32, 32, 32, 1, 1, 8, 3), "nn", False),
    ("bf16", "residual_gelu_tanh", _mma(32, 64, 16, 32, 64, 2, 4, 8, 4), "tt", False),
    ("f16", "residual_bf16", _mma(32, 32, 16, 16, 32, 1, 32, 8, 3), "nt", True),
    ("bf16", "silu", _mma(128, 64, 64, 32, 32, 1, 1, 8, 4), "tn", True),
    ("f64", "bias_col_relu", _mma(64, 32, 32, 16, 16, 1, 1, 2, 3), "nt", False),
    ("f64", "bias_col_relu", _mma(32, 32, 16, 16, 16, 2, 4, 2, 4), "tn", True),
]

# Warp-specialized wgmma kernels (ws = 1, sm_90a): a producer warpgroup
# issues the TMA copies. One or two computing warpgroups (wm = 128: two
# 64-row tiles stacked in one; the last two take the producer's registers),
# KL = 2, K split inside a cluster (kc = 1), KG 4 and 32 (both split-K modes, tile
# counters), every layout, f16/bf16 operands with f16, bf16 and f32 C, and
# fused epilogues (WGMMA_WS_FUSED).
WGMMA_WS = [
    ("f16", "f16", "nt", _wgmma(64, 256, 64, 256, 64, 1, 1, 8, 4) + ", ws = 1"),
    ("bf16", "f32", "nn", _wgmma(128, 128, 64, 128, 64, 1, 1, 8, 4) + ", ws = 1"),
    ("f16", "f16", "tn", _wgmma(64, 64, 64, 64, 64, 2, 4, 8, 4) + ", ws = 1"),
    ("bf16", "bf16", "tt", _wgmma(256, 64, 128, 64, 64, 1, 1, 8, 3) + ", ws = 1"),
    ("f16", "f32", "nt", _wgmma(64, 32, 64, 32, 32, 1, 32, 8, 5) + ", ws = 1"),
    ("f16", "f16", "nn", _wgmma(64, 16, 64, 16, 64, 1, 1, 8, 6) + ", ws = 1"),
    ("bf16", "bf16", "nt", _wgmma(128, 64, 64, 64, 64, 1, 2, 4, 4) + ", ws = 1"),
    # Two warpgroups of 64x256 and of 128x128 (four 64-row tiles): the
    # producer gives its registers to them (setmaxnreg 40 / 232).
    ("f16", "f16", "nt", _wgmma(128, 256, 64, 256, 64, 1, 1, 8, 4) + ", ws = 1"),
    ("bf16", "f32", "tn", _wgmma(256, 128, 128, 128, 64, 1, 1, 8, 3) + ", ws = 1"),
    # K split into a cluster's slices (kc = 1), whose barriers the producer
    # takes part in.
    ("f16", "f16", "tn", _wgmma(64, 32, 64, 32, 64, 1, 4, 8, 4) + ", kc = 1, ws = 1"),
    ("bf16", "f32", "nn", _wgmma(128, 16, 128, 16, 64, 1, 8, 8, 5) + ", kc = 1, ws = 1"),
]
WGMMA_WS_FUSED = [
    ("f16", "bias_relu_f16", _wgmma(128, 128, 64, 128, 64, 1, 1, 8, 4) + ", ws = 1", "nt", False),
    ("bf16", "residual_gelu_tanh", _wgmma(64, 64, 64, 64, 64, 1, 32, 8, 4) + ", ws = 1", "tn", True),
]

# Persistent wgmma kernels (pt = 1, sm_90a): the warp-specialized ones of
# WGMMA_WS that pt allows (kg = 1, kl = 1), blocks that loop over output
# tiles: one and two computing warpgroups, the register split, every
# layout, f16, bf16 and f32 C, and fused epilogues; and ping-pong ones (pt
# = 2) in every layout.
WGMMA_PT = [(ab, c, layout, config + ", pt = 1")
            for ab, c, layout, config in WGMMA_WS
            if "kc = " not in config and ", kl = 1," in config
            and ", kg = 1," in config] + [
    ("f16", "f16", "tn", _wgmma(64, 64, 64, 64, 64, 1, 1, 8, 4) + ", ws = 1, pt = 1"),
    # Ping-pong (pt = 2): two warpgroups, one a tile, on alternate tiles.
    ("f16", "f16", "nt", _wgmma(128, 128, 128, 128, 64, 1, 1, 8, 5) + ", ws = 1, pt = 2"),
    ("bf16", "f32", "nn", _wgmma(128, 128, 128, 128, 64, 1, 1, 8, 4) + ", ws = 1, pt = 2"),
    ("f16", "f16", "tn", _wgmma(64, 256, 64, 256, 64, 1, 1, 8, 4) + ", ws = 1, pt = 2"),
    ("bf16", "bf16", "tt", _wgmma(64, 128, 64, 128, 64, 1, 1, 8, 4) + ", ws = 1, pt = 2"),
    ("f16", "f32", "nn", _wgmma(64, 64, 64, 64, 32, 1, 1, 8, 6) + ", ws = 1, pt = 2"),
    # Ping-pong on shallow reductions (pingPongForm: U = K rounded up to
    # 16, 32 or 64, 4 stages; the runtime runs persistent kernels on TMA
    # whatever the depth) ...
    ("f16", "f16", "tn", _wgmma(128, 128, 128, 128, 16, 1, 1, 8, 4) + ", ws = 1, pt = 2"),
    ("bf16", "bf16", "nt", _wgmma(128, 128, 128, 128, 32, 1, 1, 4, 4) + ", ws = 1, pt = 2"),
    ("f16", "f32", "nn", _wgmma(128, 128, 128, 128, 64, 1, 1, 8, 4) + ", ws = 1, pt = 2"),
    # ... and on two to four K tiles (5 stages of 64, as the deep form).
    ("bf16", "bf16", "tn", _wgmma(128, 128, 128, 128, 64, 1, 1, 8, 5) + ", ws = 1, pt = 2"),
]
WGMMA_PT_FUSED = [(ab, epilogue, config + ", pt = 1", layout, batched)
                  for ab, epilogue, config, layout, batched in WGMMA_WS_FUSED
                  if ", kg = 1," in config] + [
    ("bf16", "residual_gelu_tanh", _wgmma(64, 64, 64, 64, 64, 1, 1, 8, 4) + ", ws = 1, pt = 1", "tn", True),
    ("f16", "bias_relu_f16", _wgmma(128, 128, 128, 128, 64, 1, 1, 8, 4) + ", ws = 1, pt = 2", "nt", False),
]

# Warp-specialized blocks in clusters of two along M that share B's tiles
# (ws = 1, cm = 2; sm_90a): clusterForm's pair form (128x256, two computing
# warpgroups, 4 stages of 64) in every layout, f16, bf16 and f32 C, other
# tiles (one computing warpgroup, 256x128), split-K, and fused epilogues.
WGMMA_PAIRS = [
    ("f16", "f16", "nt", _wgmma(128, 256, 128, 128, 64, 1, 1, 8, 4) + ", cm = 2, ws = 1"),
    ("bf16", "bf16", "nn", _wgmma(128, 256, 128, 128, 64, 1, 1, 4, 4) + ", cm = 2, ws = 1"),
    ("f16", "f32", "tn", _wgmma(128, 256, 128, 128, 64, 1, 1, 8, 4) + ", cm = 2, ws = 1"),
    ("bf16", "bf16", "tt", _wgmma(128, 256, 128, 128, 64, 1, 1, 8, 4) + ", cm = 2, ws = 1"),
    ("f16", "f16", "tt", _wgmma(128, 128, 128, 128, 64, 1, 1, 8, 5) + ", cm = 2, ws = 1"),
    ("bf16", "f32", "nt", _wgmma(256, 128, 128, 128, 64, 1, 1, 8, 4) + ", cm = 2, ws = 1"),
    ("f16", "f16", "nn", _wgmma(128, 256, 128, 128, 64, 1, 2, 8, 4) + ", cm = 2, ws = 1"),
    ("bf16", "bf16", "tn", _wgmma(128, 128, 64, 128, 64, 1, 8, 8, 4) + ", cm = 2, ws = 1"),
]
WGMMA_PAIRS_FUSED = [
    ("f16", "bias_relu_f16", _wgmma(128, 256, 128, 128, 64, 1, 1, 8, 4) + ", cm = 2, ws = 1", "nt", False),
    ("bf16", "residual_gelu_tanh", _wgmma(128, 256, 128, 128, 64, 1, 1, 8, 4) + ", cm = 2, ws = 1", "tn", True),
    ("f16", "bias_relu_f16", _wgmma(128, 256, 128, 128, 64, 1, 4, 8, 4) + ", cm = 2, ws = 1", "nn", False),
]

# Large tiles for 2048^3-class problems (the first is what the analytic
# model ranks best for 2048^3 f16 on sm_90): 4 to 8 warps of 64x64 (or
# 64x32), U = 32 or 64, 3 or 4 stages.
MMA_LARGE = [
    ("f16", "f16", "nn", _mma(128, 256, 64, 64, 64, 1, 1, 8, 4)),
    ("f16", "f16", "nn", _mma(128, 128, 64, 64, 32, 1, 1, 8, 4)),
    ("f16", "f16", "nn", _mma(128, 256, 64, 64, 32, 1, 1, 8, 3)),
    ("f16", "f16", "nn", _mma(256, 128, 64, 64, 32, 1, 1, 8, 3)),
    ("f16", "f16", "nt", _mma(128, 128, 64, 64, 64, 1, 1, 8, 3)),
    ("bf16", "bf16", "tn", _mma(128, 256, 64, 64, 64, 1, 1, 8, 3)),
    ("f16", "f32", "nn", _mma(128, 128, 64, 32, 32, 1, 1, 8, 4)),
]

# Fused epilogues: name -> (output type, inputs as (type, map), body). The
# body computes %out from %x (the GEMM's alpha*acc + beta*C, of the kernel's
# dtype {T}) and %in0, %in1, ...; maps: "col" (a value per column, like a
# bias), "row", "full" (M x N, like a residual) or "scalar".
EPILOGUES = {
    "bias_col_relu": ("{T}", [("{T}", "col")], """
    %s = arith.addf %x, %in0 : {T}
    %zero = arith.constant 0.0 : {T}
    %out = arith.maximumf %s, %zero : {T}"""),
    "bias_row_scale": ("f32", [("f32", "row"), ("f32", "scalar")], """
    %s = arith.addf %x, %in0 : f32
    %out = arith.mulf %s, %in1 : f32"""),
    # gelu, tanh form: 0.5 r (1 + tanh(sqrt(2/pi) (r + 0.044715 r^3))).
    "residual_gelu_tanh": ("f32", [("f32", "full")], """
    %r = arith.addf %x, %in0 : f32
    %three = arith.constant 3.0 : f32
    %r3 = math.powf %r, %three : f32
    %c = arith.constant 0.044715 : f32
    %t0 = arith.mulf %r3, %c : f32
    %t1 = arith.addf %r, %t0 : f32
    %k = arith.constant 0.7978845608028654 : f32
    %t2 = arith.mulf %t1, %k : f32
    %t3 = math.tanh %t2 : f32
    %one = arith.constant 1.0 : f32
    %t4 = arith.addf %t3, %one : f32
    %half = arith.constant 0.5 : f32
    %t5 = arith.mulf %r, %half : f32
    %out = arith.mulf %t5, %t4 : f32"""),
    # gelu, erf form: 0.5 x (1 + erf(x / sqrt(2))).
    "gelu_erf": ("f32", [], """
    %k = arith.constant 0.7071067811865476 : f32
    %t0 = arith.mulf %x, %k : f32
    %t1 = math.erf %t0 : f32
    %one = arith.constant 1.0 : f32
    %t2 = arith.addf %t1, %one : f32
    %half = arith.constant 0.5 : f32
    %t3 = arith.mulf %x, %half : f32
    %out = arith.mulf %t3, %t2 : f32"""),
    "sigmoid": ("f32", [], """
    %n = arith.negf %x : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %e, %one : f32
    %out = arith.divf %one, %d : f32"""),
    "silu": ("f32", [], """
    %n = arith.negf %x : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %e, %one : f32
    %out = arith.divf %x, %d : f32"""),
    "clamp": ("f32", [], """
    %lo = arith.constant -0.5 : f32
    %hi = arith.constant 0.5 : f32
    %below = arith.cmpf olt, %x, %lo : f32
    %a = arith.select %below, %lo, %x : f32
    %above = arith.cmpf ogt, %a, %hi : f32
    %out = arith.select %above, %hi, %a : f32"""),
    "bias_relu_f16": ("f16", [("f16", "col")], """
    %ext = arith.extf %in0 : f16 to f32
    %s = arith.addf %x, %ext : f32
    %zero = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %zero : f32
    %out = arith.truncf %r : f32 to f16"""),
    "residual_bf16": ("bf16", [("bf16", "full")], """
    %ext = arith.extf %in0 : bf16 to f32
    %s = arith.addf %x, %ext : f32
    %out = arith.truncf %s : f32 to bf16"""),
}

# Configurations of the fused sweep: KG = 1 and KG > 1, vec 1/2/4, KS/KL.
_F32_KG1 = "ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4"
_F32_KG4 = "ml = 32, nl = 32, ms = 4, ns = 4, u = 16, ks = 2, kl = 2, kg = 4, vec = 4"
_F32_KG2 = "ml = 32, nl = 16, ms = 1, ns = 4, u = 4, ks = 1, kl = 1, kg = 2, vec = 1"
_F32_KL4 = "ml = 16, nl = 16, ms = 2, ns = 2, u = 8, ks = 1, kl = 4, kg = 1, vec = 2"
_F64_KG1 = "ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2"
_F64_KG8 = "ml = 16, nl = 16, ms = 2, ns = 2, u = 16, ks = 2, kl = 4, kg = 8, vec = 1"
# KG above the runtime's kMaxWorkspaceKG (16): in atomic mode the last block
# of each tile applies the epilogue (tile counters).
_F32_KG32 = "ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 2, kg = 32, vec = 2"
_F64_KG32 = "ml = 16, nl = 16, ms = 2, ns = 2, u = 8, ks = 1, kl = 2, kg = 32, vec = 1"

# (dtype, epilogue, configuration, layout, batched): every epilogue with a
# KG = 1 and a KG > 1 configuration, the four layouts spread over them (all
# four for bias + relu), a batched op for some.
FUSED = [
    ("f32", "bias_col_relu", _F32_KG1, "nn", False),
    ("f32", "bias_col_relu", _F32_KG4, "nt", False),
    ("f32", "bias_col_relu", _F32_KG2, "tn", True),
    ("f32", "bias_col_relu", _F32_KL4, "tt", False),
    ("f32", "bias_row_scale", _F32_KG1, "tt", True),
    ("f32", "bias_row_scale", _F32_KG4, "tn", False),
    ("f32", "residual_gelu_tanh", _F32_KG1, "nt", False),
    ("f32", "residual_gelu_tanh", _F32_KG4, "nn", True),
    ("f32", "gelu_erf", _F32_KL4, "tn", False),
    ("f32", "gelu_erf", _F32_KG2, "nt", False),
    ("f32", "sigmoid", _F32_KG1, "tn", False),
    ("f32", "sigmoid", _F32_KG2, "tt", False),
    ("f32", "silu", _F32_KL4, "nn", True),
    ("f32", "silu", _F32_KG4, "tt", False),
    ("f32", "clamp", _F32_KG1, "tt", False),
    ("f32", "clamp", _F32_KG4, "nt", False),
    ("f32", "bias_relu_f16", _F32_KG1, "nn", False),
    ("f32", "bias_relu_f16", _F32_KG4, "tt", True),
    ("f32", "residual_bf16", _F32_KL4, "nt", False),
    ("f32", "residual_bf16", _F32_KG2, "tn", False),
    ("f64", "bias_col_relu", _F64_KG1, "nn", False),
    ("f64", "bias_col_relu", _F64_KG8, "tt", True),
    ("f64", "bias_col_relu", _F64_KG8, "nt", False),
    ("f32", "bias_col_relu", _F32_KG32, "tn", True),
    ("f32", "residual_gelu_tanh", _F32_KG32, "tt", False),
    ("f32", "bias_relu_f16", _F32_KG32, "nt", False),
    ("f32", "residual_bf16", _F32_KG32, "nn", True),
    ("f64", "bias_col_relu", _F64_KG32, "nn", True),
]


def func(name, dtype, m, n, k, layout, config=None, ctype=None):
    """A func.func holding one M x N x K linalg.matmul of `layout` (A and B
    transposed through the indexing maps), with isaac.config if given; A
    and B of `dtype`, C of `ctype` (default: `dtype`). dtype "tf32" is an
    f32 GEMM that opts in to TF32 tensor cores (isaac.tf32)."""
    am, bm = MAPS[layout[0]][0], MAPS[layout[1]][1]
    a = (m, k) if layout[0] == "n" else (k, m)
    b = (k, n) if layout[1] == "n" else (n, k)
    elem = lambda e: "f32" if e == "tf32" else e
    t = lambda s, e=dtype: "memref<%dx%dx%s>" % (s[0], s[1], elem(e))
    c = t((m, n), ctype or dtype)
    attrs = (["isaac.tf32"] if dtype == "tf32" else []) + (
        ["isaac.config = #isaac.gemm<%s>" % config] if config else [])
    attr = "\n    {%s}" % ", ".join(attrs) if attrs else ""
    return ("func.func @%s(%%A: %s, %%B: %s, %%C: %s) {\n"
            "  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> %s>, "
            "affine_map<(m, n, k) -> %s>, affine_map<(m, n, k) -> (m, n)>]\n"
            "    ins(%%A, %%B : %s, %s) outs(%%C : %s)%s\n  return\n}\n"
            % (name, t(a), t(b), c, am, bm, t(a), t(b), c, attr))


def types_token(ab, c):
    """The element-type token of a kernel name (docs/abi.md)."""
    return ab if ab == c else ab + c


def token_types(token):
    """(A/B type, C type, accumulator type) of an element-type token."""
    ab, c = (token[:-3], "f32") if token in ("f16f32", "bf16f32") else (token, token)
    if token == "tf32":
        c = "f32"
    return ab, c, "f64" if ab == "f64" else "f32"


def kernel_name(dtype, layout, config):
    """The kernel entry name (docs/abi.md) of a configuration string."""
    schema = isaac_schema.schema()
    return schema.kernel_name(dtype, layout, schema.parse_attr_text(config))


def gemm(i, dtype, layout, config, ctype=None):
    # Kernels do not depend on the shape (runtime arguments): any will do.
    return func("k%d" % i, dtype, 64, 64, 64, layout, config, ctype)


def memref(shape, elem):
    return "memref<%s%s>" % ("".join("%dx" % d for d in shape), elem)


def fused_func(name, dtype, layout, config, epilogue, batched=False, ab=None):
    """A func.func holding one isaac.gemm of `layout` with the fused
    `epilogue` (a key of EPILOGUES) and isaac.config; `dtype` is the
    accumulator's type (the epilogue's x), A and B are of `ab` (default:
    `dtype`; f16 or bf16 for the mma family, whose accumulator is f32)."""
    out_type, inputs, body = EPILOGUES[epilogue]
    sub = lambda text: text.replace("{T}", dtype)
    ab = ab or dtype
    m, n, k, b = 64, 32, 16, 2
    pre = (b,) if batched else ()
    space = "(b, m, n)" if batched else "(m, n)"
    a = pre + ((k, m) if layout[0] == "t" else (m, k))
    bb = pre + ((n, k) if layout[1] == "t" else (k, n))
    c = memref(pre + (m, n), sub(out_type))
    kinds = {"col": ((n,), "(n)"), "row": ((m,), "(m)"),
             "full": (pre + (m, n), space), "scalar": ((), "()")}
    # Capitals: the region's names (%x, %in0, ...) must not shadow them.
    args = ["%%A: %s" % memref(a, ab), "%%B: %s" % memref(bb, ab)]
    in_types, maps, block = [], [], ["%%x: %s" % dtype]
    for i, (t, kind) in enumerate(inputs):
        shape, result = kinds[kind]
        in_types.append(memref(shape, sub(t)))
        maps.append("affine_map<%s -> %s>" % (space, result))
        args.append("%%I%d: %s" % (i, in_types[-1]))
        block.append("%%in%d: %s" % (i, sub(t)))
    args.append("%%C: %s" % c)
    attrs = ["input_maps = [%s]" % ", ".join(maps)]
    attrs += [t for t, on in (("transpose_a", layout[0] == "t"),
                              ("transpose_b", layout[1] == "t")) if on]
    attrs.append("isaac.config = #isaac.gemm<%s>" % config)
    ins = (" inputs(%s : %s)" % (", ".join("%%I%d" % i for i in range(len(inputs))),
                                  ", ".join(in_types))) if inputs else ""
    return ("func.func @%s(%s) {\n"
            "  isaac.gemm ins(%%A, %%B : %s, %s)%s outs(%%C : %s)\n"
            "    attributes {%s} {\n"
            "  ^bb0(%s):%s\n"
            "    isaac.yield %%out : %s\n"
            "  }\n  return\n}\n"
            % (name, ", ".join(args), memref(a, ab), memref(bb, ab), ins,
               c, ", ".join(attrs), ", ".join(block), sub(body),
               sub(out_type)))


def mma():
    for i, (ab, c, layout, config) in enumerate(MMA + MMA_LARGE + MMA_F64):
        sys.stdout.write(gemm(i, ab, layout, config, c))
    for i, (ab, epilogue, config, layout, batched) in enumerate(MMA_FUSED):
        acc = "f64" if ab == "f64" else "f32"
        sys.stdout.write(fused_func("mf%d_%s" % (i, epilogue), acc, layout,
                                    config, epilogue, batched, ab))


def wgmma_ws(kernels=None, fused=None):
    """The warp-specialized wgmma check set (sm_90a), or the persistent
    one (`kernels`, `fused`)."""
    sys.stdout.write('module attributes {isaac.target = "sm_90a"} {\n')
    for i, (ab, c, layout, config) in enumerate(kernels or WGMMA_WS):
        sys.stdout.write(gemm(i, ab, layout, config, c))
    for i, (ab, epilogue, config, layout, batched) in enumerate(
            fused or WGMMA_WS_FUSED):
        sys.stdout.write(fused_func("wf%d_%s" % (i, epilogue), "f32", layout,
                                    config, epilogue, batched, ab))
    sys.stdout.write("}\n")


def fused():
    for i, (dtype, epilogue, config, layout, batched) in enumerate(FUSED):
        sys.stdout.write(fused_func("f%d_%s" % (i, epilogue), dtype, layout,
                                    config, epilogue, batched))


def overhead(path, listing=None):
    seen, i = set(), 0
    lst = open(listing, "w") if listing else None
    for line in open(path):
        c = re.search(r"isaac\.config = #isaac\.gemm<([^>]*)>", line)
        if not (re.search(r"linalg\.(?:batch_)?matmul", line) and c):
            continue
        dtype, layout, m, n, k = parse_op(line)
        config = c.group(1)
        if lst:
            lst.write("%s %s %s %s\n" % (m, n, k,
                                         kernel_name(dtype, layout, config)))
        if (dtype, layout, config) in seen:
            continue
        seen.add((dtype, layout, config))
        ab, c, acc = token_types(dtype)
        sys.stdout.write(gemm(i, ab, layout, config, c))
        sys.stdout.write(fused_func("k%d_bias_relu" % i, acc, layout, config,
                                    "bias_col_relu", ab=ab))
        i += 1


def epilogue_ops():
    """mnemonic -> (MLIR op, arity), from the one list of epilogue operations
    (include/isaac/Model/EpilogueOps.def)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    text = open(os.path.join(root, "include/isaac/Model/EpilogueOps.def")).read()
    return {m: (op, int(n)) for m, n, op in re.findall(
        r'^EPILOGUE_OP\(\w+, "(\w+)", (\d+), "([\w.]+)"\)', text, re.M)}


def float_literal(value, t):
    """An MLIR literal of `value` (exact in type t): decimal, or the bit
    pattern in hex for infinities and NaN."""
    import math
    import struct
    if math.isfinite(value):
        return repr(float(value))
    if t == "f64":
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
    if t == "f16":
        return "0x%04X" % struct.unpack("<H", struct.pack("<e", value))[0]
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    return "0x%04X" % (bits >> 16) if t == "bf16" else "0x%08X" % bits


def epilogue_cpu_block(ops, name, text, rows, contract):
    """MLIR (inside @main) that prints 'kernel NAME' and then, per row, the
    bits of x, the inputs and the program's result."""
    decls = [d.strip() for d in text.split(";")]
    sig = [p.strip() for p in decls[0].split(",")]
    # An input's type may carry the indices it varies with (f32[n]): the
    # values do not depend on them.
    types = {n: t.split("[")[0] for n, t in (p.split(":") for p in sig)}
    params = [n for n, _ in (p.split(":") for p in sig)]
    acc = types["x"]
    lines = ['  vector.print str "kernel %s\\n"' % name,
             "  scf.for %%i = %%c0 to %%c%d step %%c1 {" % rows,
             # t = (i + 1/2) / rows in (0, 1); x = 100 (2t - 1)^5 spans
             # +-100, densest near 0 where the activations bend.
             "    %it = arith.index_cast %i : index to i64",
             "    %fi = arith.sitofp %it : i64 to f64",
             "    %t0 = arith.addf %fi, %dhalf : f64",
             "    %t = arith.divf %t0, %rows : f64",
             "    %t2 = arith.addf %t, %t : f64",
             "    %u = arith.subf %t2, %done : f64",
             "    %u2 = arith.mulf %u, %u : f64",
             "    %u4 = arith.mulf %u2, %u2 : f64",
             "    %u5 = arith.mulf %u4, %u : f64",
             "    %x64 = arith.mulf %u5, %dhundred : f64"]
    value = {}
    if acc == "f64":
        value["x"] = "%x64"
    else:
        lines.append("    %%x = arith.truncf %%x64 : f64 to %s" % acc)
        value["x"] = "%x"
    for k, p in enumerate(params[1:]):
        # in_k = 2 frac((i + 1) * c_k) - 1 with an irrational-ish c_k.
        lines += ["    %%m%d = arith.mulf %%fi, %%phi%d : f64" % (k, k),
                  "    %%g%d = arith.addf %%m%d, %%phi%d : f64" % (k, k, k),
                  "    %%fl%d = math.floor %%g%d : f64" % (k, k),
                  "    %%fr%d = arith.subf %%g%d, %%fl%d : f64" % (k, k, k),
                  "    %%tw%d = arith.addf %%fr%d, %%fr%d : f64" % (k, k, k),
                  "    %%in%d64 = arith.subf %%tw%d, %%done : f64" % (k, k)]
        if types[p] == "f64":
            value[p] = "%%in%d64" % k
        else:
            lines.append("    %%%s = arith.truncf %%in%d64 : f64 to %s"
                         % (p, k, types[p]))
            value[p] = "%" + p
    insts = []
    result = None
    for d in decls[1:]:
        if d.startswith("yield"):
            result = d.split()[1]
            continue
        lhs, rhs = [x.strip() for x in d.split("=", 1)]
        body, t = [x.strip() for x in rhs.rsplit(":", 1)]
        words = body.replace(",", " ").split()
        insts.append((lhs, words[0], words[1:], t))
        types[lhs] = t
    uses = {}
    for _, _, args, _ in insts:
        for a in args:
            uses[a] = uses.get(a, 0) + 1
    muls = {lhs: args for lhs, mnem, args, _ in insts if mnem == "mulf"}
    for lhs, mnem, args, t in insts:
        op, arity = ops[mnem]
        v = lambda a: value[a]
        out = "%" + lhs
        if mnem == "const":
            lines.append("    %s = arith.constant %s : %s"
                         % (out, float_literal(float(args[0]), t), t))
        elif mnem == "cmpf":
            lines.append("    %s = arith.cmpf %s, %s, %s : %s"
                         % (out, args[0], v(args[1]), v(args[2]), types[args[1]]))
        elif mnem == "select":
            lines.append("    %s = arith.select %s, %s, %s : %s"
                         % (out, v(args[0]), v(args[1]), v(args[2]), t))
        elif mnem in ("truncf", "extf"):
            lines.append("    %s = %s %s : %s to %s"
                         % (out, op, v(args[0]), types[args[0]], t))
        elif (contract and mnem in ("addf", "subf") and
              any(a in muls and uses[a] == 1 for a in args)):
            # What NVPTX does with a product used once by a sum: one fma.
            m = next(a for a in args if a in muls and uses[a] == 1)
            other = args[1] if args[0] == m else args[0]
            a, b = muls[m]
            c = v(other)
            if mnem == "subf" and args[0] == m:  # a*b - c
                lines.append("    %s_n = arith.negf %s : %s" % (out, c, t))
                c = out + "_n"
            elif mnem == "subf":  # c - a*b = fma(-a, b, c)
                lines.append("    %s_n = arith.negf %s : %s" % (out, v(a), t))
                lines.append("    %s = math.fma %s_n, %s, %s : %s"
                             % (out, out, v(b), c, t))
                value[lhs] = out
                continue
            lines.append("    %s = math.fma %s, %s, %s : %s"
                         % (out, v(a), v(b), c, t))
        else:
            lines.append("    %s = %s %s : %s"
                         % (out, op, ", ".join(v(a) for a in args), t))
        value[lhs] = out
    printed = params + [result]
    for j, p in enumerate(printed):
        t = types[p]
        width = {"f64": 64, "f32": 32}.get(t, 16)
        lines.append("    %%b%d = arith.bitcast %s : %s to i%d"
                     % (j, value[p], t, width))
        lines.append("    vector.print %%b%d : i%d punctuation <no_punctuation>"
                     % (j, width))
        lines.append('    vector.print str "%s"'
                     % (" " if j + 1 < len(printed) else "\\n"))
    lines.append("  }")
    return lines


def epilogue_cpu(ptx_dir, rows, contract=False):
    ops = epilogue_ops()
    blocks = []
    for path in sorted(glob.glob(os.path.join(ptx_dir, "*.ptx"))):
        name = text = None
        for line in open(path):
            if not line.startswith("//"):
                break
            m = re.match(r"// isaac\.kernel name=(\S+)", line)
            if m:
                name = m.group(1)
            m = re.match(r"// isaac\.epilogue .* program=(.*)$", line)
            if m:
                text = m.group(1).strip()
        if name and text:
            # Names that do not clash between blocks: one scope per block.
            blocks.append("  scf.execute_region {\n" +
                          "\n".join("  " + l for l in epilogue_cpu_block(
                              ops, name, text, rows, contract)) +
                          "\n    scf.yield\n  }")
    consts = ["%c0 = arith.constant 0 : index", "%c1 = arith.constant 1 : index",
              "%%c%d = arith.constant %d : index" % (rows, rows),
              "%%rows = arith.constant %d.0 : f64" % rows,
              "%dhalf = arith.constant 0.5 : f64",
              "%done = arith.constant 1.0 : f64",
              "%dhundred = arith.constant 100.0 : f64"]
    # Per input k: the fractional parts of multiples of sqrt(p_k) (p_k the
    # k-th prime) are well spread over (0, 1).
    primes = [2, 3, 5, 7, 11, 13, 17, 19]
    consts += ["%%phi%d = arith.constant %r : f64" % (k, p ** 0.5)
               for k, p in enumerate(primes)]
    sys.stdout.write("func.func @main() {\n" +
                     "".join("  %s\n" % c for c in consts) +
                     "\n".join(blocks) + "\n  return\n}\n")


def simt_stages():
    """The simt cp.async kernels isaac-opt accepts (see the usage text)."""
    configs = []
    for i, (dtype, config) in enumerate(SWEEP):
        deep = [5, 6, 8][i % 3] if i % 4 == 0 else None
        for st in [3, 4] + ([deep] if deep else []):
            configs.append((dtype, with_params(config, stages=st)))
    for dtype, config in SIMT_STAGES:
        for st in (3, 4):
            configs.append((dtype, with_params(config, stages=st)))
    i = 0
    for dtype, config in configs:
        for layout in ("nn", "nt", "tn", "tt"):
            text = gemm(i, dtype, layout, config)
            if legal(text, "sm_90"):
                sys.stdout.write(text)
                i += 1


def sweep():
    i = 0
    for dtype, config in SWEEP:
        for layout in ("nn", "nt", "tn", "tt"):
            sys.stdout.write(gemm(i, dtype, layout, config))
            i += 1


def conv_func(name, dtype, layout, shape, config, stride=(1, 1),
              dilation=(1, 1), ctype=None):
    """A func.func holding one linalg.conv_2d_nhwc_<layout> of packed
    memrefs with isaac.config: shape (N, H, W, C, K, R, S), no padding;
    input and filters of `dtype`, the output of `ctype` (default: `dtype`)."""
    n, h, w, c, k, r, s = shape
    p = (h - (r - 1) * dilation[0] - 1) // stride[0] + 1
    q = (w - (s - 1) * dilation[1] - 1) // stride[1] + 1
    filt = (r, s, c, k) if layout == "hwcf" else (k, r, s, c)
    i, f, o = (memref((n, h, w, c), dtype), memref(filt, dtype),
               memref((n, p, q, k), ctype or dtype))
    return ("func.func @%s(%%I: %s, %%F: %s, %%O: %s) {\n"
            "  linalg.conv_2d_nhwc_%s {dilations = dense<[%d, %d]> : "
            "tensor<2xi64>, strides = dense<[%d, %d]> : tensor<2xi64>,\n"
            "    isaac.config = #isaac.gemm<%s>}\n"
            "    ins(%%I, %%F : %s, %s) outs(%%O : %s)\n  return\n}\n"
            % (name, i, f, o, layout, dilation[0], dilation[1], stride[0],
               stride[1], config, i, f, o))


# The mma family's convolution kernels: (input/filter type, output type,
# filter layout, config): 16-bit operands into their own type (KG > 1: the
# f32 workspace, or above 16 tile counters) and into f32 (KG > 1: both
# modes); vec 8, 4 and 2 (16-, 8- and 4-byte cp.async of the input); stages
# 2..5; KL 1/2/4; f64 on DMMA.
CONV_MMA = [
    ("f16", "f16", "hwcf", _mma(128, 128, 64, 64, 32, 1, 1, 8, 4)),
    ("f16", "f32", "fhwc", _mma(64, 64, 32, 32, 32, 1, 4, 8, 3)),
    ("bf16", "bf16", "fhwc", _mma(64, 128, 32, 64, 64, 1, 1, 8, 2)),
    ("bf16", "f32", "hwcf", _mma(32, 32, 16, 16, 32, 2, 1, 8, 5)),
    ("f16", "f16", "fhwc", _mma(32, 64, 32, 32, 64, 2, 2, 4, 3)),
    ("bf16", "bf16", "hwcf", _mma(16, 16, 16, 16, 64, 4, 16, 8, 5)),
    ("f16", "f32", "hwcf", _mma(16, 8, 16, 8, 16, 1, 8, 2, 2)),
    ("bf16", "f32", "fhwc", _mma(256, 64, 64, 32, 32, 1, 1, 8, 3)),
    ("f16", "f16", "hwcf", _mma(64, 256, 32, 64, 32, 1, 1, 8, 3)),
    ("f16", "f32", "fhwc", _mma(128, 64, 64, 32, 32, 1, 2, 4, 4)),
    ("f64", "f64", "hwcf", _mma(64, 64, 32, 32, 16, 1, 1, 2, 3)),
    ("f64", "f64", "fhwc", _mma(32, 32, 16, 16, 16, 2, 4, 1, 5)),
    ("f64", "f64", "fhwc", _mma(128, 64, 64, 32, 8, 1, 1, 2, 4)),
    ("f64", "f64", "hwcf", _mma(16, 8, 16, 8, 8, 1, 2, 1, 2)),
    ("f16", "f16", "fhwc", _mma(32, 32, 16, 16, 32, 1, 32, 8, 3)),
]


# The wgmma family's convolution kernels (sm_90a): both filter layouts and
# operand types, C of the operands' type (KG > 1: tile counters or the
# workspace) and f32 (KG > 1: both modes); vec 8, 4 and 2; stages 3..6;
# KL 1/2; one to four warpgroups, 64- and 128-row warpgroup tiles, N tiles
# from 16 to 256; warp-specialized ones (ws = 1).
CONV_WGMMA = [
    ("f16", "f16", "hwcf", _wgmma(128, 128, 64, 128, 64, 1, 1, 8, 4)),
    ("f16", "f32", "fhwc", _wgmma(64, 64, 64, 64, 64, 1, 4, 8, 4)),
    ("bf16", "bf16", "fhwc", _wgmma(128, 64, 64, 64, 64, 2, 1, 8, 3)),
    ("bf16", "f32", "hwcf", _wgmma(64, 32, 64, 32, 32, 1, 2, 4, 5)),
    ("f16", "f16", "fhwc", _wgmma(64, 16, 64, 16, 64, 2, 8, 2, 6)),
    ("bf16", "bf16", "hwcf", _wgmma(256, 128, 128, 128, 64, 1, 1, 8, 3)),
    ("f16", "f32", "hwcf", _wgmma(128, 256, 64, 256, 64, 1, 1, 8, 3)),
    ("bf16", "f32", "fhwc", _wgmma(128, 32, 128, 32, 64, 1, 16, 8, 4)),
    ("f16", "f16", "hwcf", _wgmma(64, 32, 64, 32, 64, 1, 32, 8, 4)),
    # Warp-specialized (a producer warpgroup issues the im2col TMA copies):
    # one and two computing warpgroups (the latter with setmaxnreg), KG 32.
    ("f16", "f16", "hwcf", _wgmma(128, 128, 64, 128, 64, 1, 1, 8, 4) + ", ws = 1"),
    ("bf16", "f32", "fhwc", _wgmma(64, 64, 64, 64, 64, 1, 32, 8, 4) + ", ws = 1"),
    ("f16", "f16", "fhwc", _wgmma(128, 256, 64, 256, 64, 1, 1, 8, 3) + ", ws = 1"),
]


def conv_wgmma():
    sys.stdout.write('module attributes {isaac.target = "sm_90a"} {\n')
    for i, (dtype, ctype, layout, config) in enumerate(CONV_WGMMA):
        sys.stdout.write(conv_func("w%d" % i, dtype, layout,
                                   (1, 6, 6, 8, 8, 3, 3), config,
                                   ctype=ctype))
    sys.stdout.write("}\n")


def conv():
    # Kernels do not depend on the shape: C = 8 admits every vec.
    i = 0
    for dtype, config in SWEEP:
        for layout in ("hwcf", "fhwc"):
            sys.stdout.write(conv_func("c%d" % i, dtype, layout,
                                       (1, 6, 6, 8, 8, 3, 3), config))
            i += 1
    for dtype, ctype, layout, config in CONV_MMA:
        sys.stdout.write(conv_func("c%d" % i, dtype, layout,
                                   (1, 6, 6, 8, 8, 3, 3), config,
                                   ctype=ctype))
        i += 1


CONV_OP = re.compile(
    r"linalg\.conv_2d_nhwc_(hwcf|fhwc) \{dilations = dense<(\[[^]]*\]|\d+)> "
    r": tensor<2xi64>, (?:isaac\.candidates = \[(.*?)\], )?isaac\.config = "
    r"#isaac\.gemm<([^>]*)>, strides = dense<(\[[^]]*\]|\d+)> : "
    r"tensor<2xi64>\} ins\(%\w+, %\w+ : memref<(\d+)x(\d+)x(\d+)x(\d+)x"
    r"(f32|f64|f16|bf16)>, memref<(\d+)x(\d+)x(\d+)x(\d+)x\w+>\) outs\(%\w+ "
    r": memref<(\d+)x(\d+)x(\d+)x(\d+)x(\w+)>")


def _pair(text):
    v = [int(x) for x in text.strip("[]").split(",")]
    return (v[0], v[-1])


def legal(text, target):
    """Whether isaac-opt (ISAAC_OPT, else the one on PATH, else
    build/bin/isaac-opt) accepts `text`, functions for chip `target`: the
    verifier applies the legality rules of lib/Model (their one home) to
    every isaac.config it parses."""
    import subprocess
    opt = (os.environ.get("ISAAC_OPT") or shutil.which("isaac-opt") or
           "build/bin/isaac-opt")
    module = 'module attributes {isaac.target = "%s"} {\n%s}\n' % (target,
                                                                   text)
    run = subprocess.run([opt, "-", "-o", os.devnull], input=module,
                         capture_output=True, text=True)
    return run.returncode == 0


def config_params(config):
    """The parameters of `config` (attribute text), name -> value text, in
    the text's order."""
    return dict(kv.split(" = ") for kv in config.split(", "))


def with_params(config, **values):
    """`config` (attribute text) with `values` set, added where absent;
    a value of None removes the parameter (its default)."""
    v = config_params(config)
    for k, x in values.items():
        if x is None:
            v.pop(k, None)
        else:
            v[k] = str(x)
    return ", ".join("%s = %s" % kv for kv in v.items())


def cluster_variants(configs):
    """The first configuration and, for wgmma, the same with cm = 2, 4, 8
    (candidates the caller keeps where legal)."""
    first = configs[0]
    if "family = wgmma" not in first:
        return [first]
    return [first] + [with_params(first, cm=cm) for cm in (2, 4, 8)]


def kc_variants(configs):
    """The first configuration and, for mma and wgmma, the same split over
    K into kg = 2, 4 and 8 slices that sum inside the launch (kc = 1)."""
    first = configs[0]
    if "family = simt" in first or "family" not in first or "cm = " in first:
        return [first]
    out = [first]
    if "kc = 1" in first:  # the selection's rule applied: its plain form too
        out.append(with_params(first, kc=None))
    for kg in (2, 4, 8):
        v = with_params(first, kg=kg, kc=1)
        if v not in out:
            out.append(v)
    return out


def ws_variants(configs, n=3):
    """The first `n` configurations, each followed, for wgmma, by its other
    form: warp-specialized (ws = 1; kept where legal: not with cm > 1 or
    kc) or, where the selection made it so, plain."""
    out = []
    for c in configs[:n]:
        out.append(c)
        if "family = wgmma" in c:
            out.append(with_params(c, ws=None) if "ws = 1" in c
                       else with_params(c, ws=1))
    return out


def pt_variants(configs, n=3, every_form=False):
    """The first `n` configurations, each followed, where it is
    warp-specialized with kg = 1 and kl = 1, by its persistent form (pt =
    1) or, where the selection made it so, its form without. With
    `every_form`, each wgmma one with kg = 1, kl = 1 and cm = 1 is followed
    by those of its plain, warp-specialized and persistent forms that it
    is not."""
    out = []
    for c in configs[:n]:
        out.append(c)
        v = config_params(c)
        if v.get("family") != "wgmma" or v.get("kg", "1") != "1" or \
                v.get("kl", "1") != "1" or v.get("cm", "1") != "1":
            continue
        if every_form:
            plain = with_params(c, ws=None, pt=None)
            for x in (plain, with_params(plain, ws=1),
                      with_params(plain, ws=1, pt=1)):
                if x not in out:
                    out.append(x)
        elif v.get("ws") == "1":
            out.append(with_params(c, pt=None) if v.get("pt") == "1"
                       else with_params(c, pt=1))
    return out


def conv_candidates(path, listing=None, expand=None):
    text = open(path).read().replace("\n", " ")
    text = re.sub(r"\s+", " ", text)
    out = open(listing, "w") if listing else None
    # The chip the selection ran for, as in candidates(): wgmma
    # configurations verify only on a chip that has wgmma.
    target = re.search(r'isaac\.target = "(\w+)"', text)
    chip = target.group(1) if target else "sm_90"
    if target:
        sys.stdout.write('module attributes {isaac.target = "%s"} {\n'
                         % target.group(1))
    i = 0
    for m in CONV_OP.finditer(text):
        layout, dil, cands, config, strd = m.group(1, 2, 3, 4, 5)
        n, h, w, c = (int(x) for x in m.group(6, 7, 8, 9))
        dtype = m.group(10)
        f = [int(x) for x in m.group(11, 12, 13, 14)]
        r, s, k = (f[0], f[1], f[3]) if layout == "hwcf" else (f[1], f[2], f[0])
        p, q = int(m.group(16)), int(m.group(17))
        configs = (re.findall(r"#isaac\.gemm<([^>]*)>", cands) if cands
                   else [config])
        if expand:
            configs = expand(configs)
        sh, sw = _pair(strd)
        dh, dw = _pair(dil)
        # A 1x1 stride-1 convolution would become a GEMM in the pipeline
        # (isaac-conv-to-gemm) and yield no conv kernel: written at stride 2
        # instead (same P, Q; the kernel takes strides at run time).
        eh, ew, esh, esw = h, w, sh, sw
        if r == 1 and s == 1 and sh == 1 and sw == 1:
            eh, ew, esh, esw = 2 * p - 1, 2 * q - 1, 2, 2
        ctype = m.group(19)
        types = types_token(dtype, ctype)
        for j, cfg in enumerate(configs):
            op = conv_func("c%d" % i, dtype, layout, (n, eh, ew, c, k, r, s),
                           cfg, (esh, esw), (dh, dw), ctype)
            # An expansion's variants are kept where legal (the first is
            # the selection's).
            if expand and j > 0 and not legal(op, chip):
                continue
            sys.stdout.write(op)
            i += 1
            if out:
                schema = isaac_schema.schema()
                # A fifth field tells apart layers of one implicit GEMM
                # (isaac-bench --candidates reads the first four).
                out.write("%d %d %d %s %d,%d,%d,%d\n" % (
                    n * p * q, k, c * r * s,
                    schema.conv_kernel_name(types, layout,
                                            schema.parse_attr_text(cfg)),
                    r, s, sh, sw))
    if out:
        out.close()
    if target:
        sys.stdout.write("}\n")


def pp_variants(configs):
    """The first two configurations and, where neither is a ping-pong one
    (pt = 2), the ping-pong form of the first wgmma configuration: 128 x
    128 tiles of one warpgroup each, u = 64, 5 stages, kl = 1, no cluster
    (cm = 1, kc = 0; pingPongForm's deep form, lib/Model/Search.cpp)."""
    out = configs[:2]
    if any("pt = 2" in c for c in out):
        return out
    for c in out:
        v = config_params(c)
        if v.get("family") == "wgmma":
            out.append(with_params(c, ml=128, nl=128, wm=128, wn=128, u=64,
                                   kl=1, stages=5, cm=None, kc=None, ws=1,
                                   pt=2))
            break
    return out


# fill_variants' tiles: (ml, nl, wm, wn).
FILL_TILES = ((128, 128, 64, 128), (64, 128, 64, 128), (128, 64, 128, 64),
              (128, 256, 128, 128))


def fill_variants(configs, shape, chip):
    """The first two configurations and split-K forms of a warp-specialized
    wgmma kernel for a problem of `shape` (M, N, K) on `chip` (its SMs from
    the chip table): for each tile of
    FILL_TILES, kg = 2, 4, 8 slices summed inside a cluster (kc = 1) where
    at most two waves of blocks result and each slice keeps two K tiles of
    64, and kg = 4 .. 64 over the grid where that makes from half a wave
    to two waves with three K tiles a slice (128x256 tiles also in
    clusters of two along M sharing B, cm = 2). The first's vec is kept."""
    out = configs[:2]
    if "family = wgmma" not in configs[0]:
        return out
    m, n, k = shape
    sms = isaac_schema.chip_sms(chip)
    v = config_params(configs[0])
    ktiles = -(-k // 64)
    for ml, nl, wm, wn in FILL_TILES:
        tiles = -(-m // ml) * (-(-n // nl))
        base = ("family = wgmma, ml = %d, nl = %d, wm = %d, wn = %d, u = 64, "
                "kl = 1, kg = 1, vec = %s, stages = %d, ws = 1"
                % (ml, nl, wm, wn, v.get("vec", "8"), 4 if nl == 256 else 6))
        for kg in (2, 4, 8):
            if tiles * kg <= 2 * sms and ktiles >= 2 * kg:
                out.append(with_params(base, kg=kg, kc=1))
        for kg in (4, 8, 16, 32, 64):
            if sms // 2 <= tiles * kg <= 2 * sms and \
                    ktiles >= 3 * kg:
                out.append(with_params(base, kg=kg))
                if nl == 256:
                    out.append(with_params(base, kg=kg, cm=2))
    return out


# candidates() passes fill_variants each problem's (M, N, K) and the chip.
fill_variants.wants_problem = True


def list_entries(path):
    """(M, N, K, kernel name) of each line of a candidate list ('M N K
    KERNEL' lines, as isaac-bench --candidates reads them; blank lines and
    '#' comments skipped)."""
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            yield line.split()[:4]


def problems(path, chip="sm_90a"):
    """One linalg.matmul function per distinct problem of a candidate list
    ('M N K KERNEL' lines): M, N, K and the kernel's types and layout."""
    schema = isaac_schema.schema()
    seen = []
    for m, n, k, name in list_entries(path):
        types, layout, _, _ = schema.parse_kernel_name(name)
        problem = (int(m), int(n), int(k), types, layout)
        if problem not in seen:
            seen.append(problem)
    sys.stdout.write('module attributes {isaac.target = "%s"} {\n' % chip)
    for i, (m, n, k, types, layout) in enumerate(seen):
        ab, ct, _ = token_types(types)  # ab "tf32": isaac.tf32 (func)
        sys.stdout.write(func("p%d" % i, ab, m, n, k, layout, ctype=ct))
    sys.stdout.write("}\n")


def shapes(path, dtype, chip="sm_90a"):
    """One linalg.matmul function per 'M,N,K,LAYOUT' line of `path`."""
    sys.stdout.write('module attributes {isaac.target = "%s"} {\n' % chip)
    i = 0
    for line in open(path):
        line = line.split("#")[0].strip()
        if not line:
            continue
        fields = line.split(",")
        # The functions take the minimal leading dimensions: a line that
        # names others would be compiled as another problem.
        if len(fields) != 4:
            sys.exit("gen_kernels.py shapes: '%s': want M,N,K,LAYOUT "
                     "(no leading dimensions)" % line)
        m, n, k, layout = fields
        sys.stdout.write(func("p%d" % i, dtype, int(m), int(n), int(k),
                              layout))
        i += 1
    sys.stdout.write("}\n")


def list_kernels(path, chip="sm_90a"):
    """One GEMM per distinct kernel named in a candidate list."""
    schema = isaac_schema.schema()
    seen = []
    for _, _, _, name in list_entries(path):
        if name not in seen:
            seen.append(name)
    sys.stdout.write('module attributes {isaac.target = "%s"} {\n' % chip)
    for i, name in enumerate(seen):
        types, layout, cfg, epilogue = schema.parse_kernel_name(name)
        if epilogue:
            sys.exit("gen_kernels.py kernels: %s has a fused epilogue" % name)
        ab, ct, _ = token_types(types)
        sys.stdout.write(gemm(i, ab, layout, schema.attr_text(cfg), ct))
    sys.stdout.write("}\n")


def parse_op(line):
    """(types token, layout, M, N, K) of a configured linalg.(batch_)matmul
    line."""
    maps = re.findall(r"affine_map<\([^)]*\) -> \(([^)]*)\)>", line)
    trans_a = bool(maps) and maps[0].replace(" ", "").split(",")[-1] == "d0"
    trans_b = bool(maps) and maps[1].replace(" ", "").split(",")[-1] == "d2"
    out_type = re.search(r"outs\([^:]*: memref<([^>]*)x(f32|f64|f16|bf16)",
                         line)
    m, n = out_type.group(1).split("x")[-2:]
    a_type = re.search(r"ins\([^:]*: memref<([^>]*)x(f32|f64|f16|bf16)", line)
    a_dims = a_type.group(1).split("x")[-2:]
    # The kernel's element-type token: f32, f64, f16, bf16, f16f32, bf16f32.
    dtype = types_token(a_type.group(2), out_type.group(2))
    if "isaac.tf32" in line:
        dtype = "tf32"
    k = a_dims[0] if trans_a else a_dims[1]
    layout = ("t" if trans_a else "n") + ("t" if trans_b else "n")
    return dtype, layout, m, n, k


def candidates(path, listing=None, expand=None):
    seen, i = set(), 0
    lst = open(listing, "w") if listing else None
    # The chip the selection ran for (a module's isaac.target): wgmma
    # configurations verify only on a chip that has wgmma.
    target = re.search(r'isaac\.target = "(\w+)"', open(path).read())
    chip = target.group(1) if target else "sm_90"
    if target:
        sys.stdout.write('module attributes {isaac.target = "%s"} {\n'
                         % target.group(1))
    for line in open(path):
        m = re.search(r"linalg\.(?:batch_)?matmul", line)
        c = re.search(r"isaac\.candidates = \[(.*?)\]", line)
        if not (m and c):
            continue
        token, layout, m, n, k = parse_op(line)
        configs = re.findall(r"#isaac\.gemm<([^>]*)>", c.group(1))
        if expand and getattr(expand, "wants_problem", False):
            expanded = expand(configs, (int(m), int(n), int(k)), chip)
        else:
            expanded = expand(configs) if expand else configs
        for j, config in enumerate(expanded):
            # An mma configuration of an f32 GEMM multiplies in TF32 (the
            # selection's tf32 option or the op's isaac.tf32).
            tf32 = token == "f32" and "family = mma" in config
            dtype = "tf32" if tf32 else token
            ab, ct, _ = token_types(dtype)
            # An expansion's variants are kept where legal (the first is
            # the selection's).
            if expand and j > 0 and not legal(gemm(0, ab, layout, config, ct),
                                              chip):
                continue
            name = kernel_name(dtype, layout, config)
            if lst:
                lst.write("%s %s %s %s\n" % (m, n, k, name))
            # By name: one configuration may be written with its keys in
            # another order (a variant sets a key the first did not have).
            if name not in seen:
                seen.add(name)
                sys.stdout.write(gemm(i, ab, layout, config, ct))
                i += 1
    if target:
        sys.stdout.write("}\n")


def top1(ptx_dir, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    schema = isaac_schema.schema()
    seen, first = set(), []
    for line in open(os.path.join(ptx_dir, "candidates.txt")):
        m, n, k, name = line.split()[:4]
        types, layout, _, _ = schema.parse_kernel_name(name)
        problem = (m, n, k, types, layout)
        if problem in seen:
            continue
        seen.add(problem)
        first.append(line)
        shutil.copy(os.path.join(ptx_dir, name + ".ptx"), out_dir)
    with open(os.path.join(out_dir, "candidates.txt"), "w") as f:
        f.writelines(first)
    sys.stderr.write("gen_kernels.py top1: %d problems, %d kernels -> %s\n"
                     % (len(first), len({l.split()[3] for l in first}), out_dir))


if __name__ == "__main__":
    if sys.argv[1:] == ["sweep"]:
        sweep()
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "candidates":
        candidates(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None)
    elif len(sys.argv) == 4 and sys.argv[1] == "clusters":
        candidates(sys.argv[2], sys.argv[3], cluster_variants)
    elif len(sys.argv) == 4 and sys.argv[1] == "conv-clusters":
        conv_candidates(sys.argv[2], sys.argv[3], cluster_variants)
    elif len(sys.argv) == 4 and sys.argv[1] == "kc":
        candidates(sys.argv[2], sys.argv[3], kc_variants)
    elif len(sys.argv) == 4 and sys.argv[1] == "conv-kc":
        conv_candidates(sys.argv[2], sys.argv[3], kc_variants)
    elif len(sys.argv) == 4 and sys.argv[1] == "ws":
        candidates(sys.argv[2], sys.argv[3], ws_variants)
    elif len(sys.argv) == 4 and sys.argv[1] == "conv-ws":
        conv_candidates(sys.argv[2], sys.argv[3], ws_variants)
    elif sys.argv[1:] == ["wgmma-ws"]:
        wgmma_ws()
    elif len(sys.argv) == 4 and sys.argv[1] == "pt":
        candidates(sys.argv[2], sys.argv[3], pt_variants)
    elif len(sys.argv) == 4 and sys.argv[1] == "pt-forms":
        candidates(sys.argv[2], sys.argv[3],
                   lambda c: pt_variants(c, every_form=True))
    elif len(sys.argv) == 4 and sys.argv[1] == "pp-forms":
        candidates(sys.argv[2], sys.argv[3], pp_variants)
    elif len(sys.argv) == 4 and sys.argv[1] == "fill-forms":
        candidates(sys.argv[2], sys.argv[3], fill_variants)
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "kernels":
        list_kernels(sys.argv[2], *sys.argv[3:])
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "shapes":
        shapes(*sys.argv[2:])
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "problems":
        problems(sys.argv[2], *sys.argv[3:])
    elif sys.argv[1:] == ["wgmma-pt"]:
        wgmma_ws(WGMMA_PT, WGMMA_PT_FUSED)
    elif sys.argv[1:] == ["wgmma-pairs"]:
        wgmma_ws(WGMMA_PAIRS, WGMMA_PAIRS_FUSED)
    elif len(sys.argv) == 4 and sys.argv[1] == "top1":
        top1(sys.argv[2], sys.argv[3])
    elif sys.argv[1:] == ["fused"]:
        fused()
    elif sys.argv[1:] == ["mma"]:
        mma()
    elif sys.argv[1:] == ["simt-stages"]:
        simt_stages()
    elif sys.argv[1:] == ["conv"]:
        conv()
    elif sys.argv[1:] == ["conv-wgmma"]:
        conv_wgmma()
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "conv-candidates":
        conv_candidates(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None)
    elif len(sys.argv) in (3, 4) and sys.argv[1] == "overhead":
        overhead(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None)
    elif len(sys.argv) in (3, 4, 5) and sys.argv[1] == "epilogue-cpu":
        epilogue_cpu(sys.argv[2], int(sys.argv[3]) if len(sys.argv) >= 4
                     else 2048, sys.argv[4:] == ["contract"])
    else:
        sys.exit(__doc__)
