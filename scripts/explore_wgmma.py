#!/usr/bin/env python3
"""Writes the wgmma exploration set of docs/perf.md ("f16 and bf16 on
wgmma") as one .mlir module for sm_90a: f16 GEMMs in the three Table 4
layouts (nn, nt, tn), one per configuration of a grid of block tiles
(ML 64/128/256, NL 16..256, WN = NL or 128), split-K (KG 1, 4, 16, 32 on
tiles of at most 128 x 128), U = 64 and 4 or 6 stages, within the rules of
lib/Model/WgmmaLegality.cpp (accumulators, threads, shared memory).

  python3 scripts/explore_wgmma.py > explore.mlir
  isaac-opt explore.mlir --isaac-pipeline="chip=sm_90a ptx-dir=DIR" -o /dev/null
"""
import itertools
import sys

LAYOUTS = {"nn": ("(m, k)", "(k, n)"), "nt": ("(m, k)", "(n, k)"),
           "tn": ("(k, m)", "(k, n)")}
SMEM = 232448  # sm_90a's dynamic shared memory per block


def configs():
    out = []
    for ml, nl, kg, st in itertools.product([64, 128, 256],
                                            [16, 32, 64, 128, 256],
                                            [1, 4, 16, 32], [4, 6]):
        wm = 128 if ml == 256 and nl <= 128 else 64
        for wn in sorted({nl, min(nl, 128)}):
            if ml == 256 and nl == 256:
                continue
            if nl // wn * ml // wm * 128 > 512 or wm * wn // 128 > 128:
                continue
            if kg > 1 and ml * nl > 128 * 128:
                continue
            if st * (ml + nl) * 64 * 2 > SMEM:
                continue
            out.append((ml, nl, wm, wn, kg, st))
    return out


def main():
    print('module attributes {isaac.target = "sm_90a"} {')
    i = 0
    for (ml, nl, wm, wn, kg, st) in configs():
        for am, bm in LAYOUTS.values():
            a = "memref<256x256xf16>"
            print(f"func.func @g{i}(%A: {a}, %B: {a}, %C: {a}) {{")
            print(f"  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> "
                  f"{am}>, affine_map<(m, n, k) -> {bm}>, "
                  f"affine_map<(m, n, k) -> (m, n)>]")
            print(f"    ins(%A, %B : {a}, {a}) outs(%C : {a})")
            print(f"    {{isaac.config = #isaac.gemm<family = wgmma, ml = {ml}, "
                  f"nl = {nl}, wm = {wm}, wn = {wn}, u = 64, kl = 1, "
                  f"kg = {kg}, vec = 8, stages = {st}>}}")
            print("  return\n}")
            i += 1
    print("}")
    print("%d kernels" % i, file=sys.stderr)


if __name__ == "__main__":
    main()
