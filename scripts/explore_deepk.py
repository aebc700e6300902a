#!/usr/bin/env python3
"""Writes the deep-reduction exploration set of docs/perf.md ("Split-K adds
in pairs"): f16 wgmma GEMMs (nt, sm_90a) for Table 4's three ICA problems
(M = N = 32, 64, 256; K = 60000), one per configuration of a grid of the
parameters that matter there: ML 64 (and 128 for 256 x 256), NL up to N,
WN = NL, U = 64, KL 1/2/4, KG 16..256 (4..64 for 256 x 256), 3..8 stages,
within sm_90a's shared memory. CANDIDATES receives 'M N K KERNEL' lines for
isaac-bench --candidates (each problem's own kernels).

  python3 scripts/explore_deepk.py CANDIDATES > deepk.mlir
  isaac-opt deepk.mlir --isaac-pipeline="chip=sm_90a ptx-dir=DIR" -o /dev/null
"""
import itertools
import sys

SMEM = 232448  # sm_90a's dynamic shared memory per block
# (M, N, K): (ML, NL, KG, KL, stages) values
GRID = {
    (32, 32, 60000): ([64], [16, 32], [16, 32, 64, 128, 256], [1, 2, 4],
                      [3, 4, 6, 8]),
    (64, 64, 60000): ([64], [16, 32, 64], [16, 32, 64, 128, 256], [1, 2, 4],
                      [3, 4, 6, 8]),
    (256, 256, 60000): ([64, 128], [64, 128], [4, 8, 16, 32, 64], [1, 2],
                        [4, 6, 8]),
}


def main():
    candidates = open(sys.argv[1], "w")
    print('module attributes {isaac.target = "sm_90a"} {')
    i = 0
    for (m, n, k), axes in GRID.items():
        for ml, nl, kg, kl, st in itertools.product(*axes):
            if st * (ml + nl) * 64 * 2 > SMEM:
                continue
            a, b = f"memref<{m}x{k}xf16>", f"memref<{n}x{k}xf16>"
            c = f"memref<{m}x{n}xf16>"
            print(f"func.func @g{i}(%A: {a}, %B: {b}, %C: {c}) {{")
            print("  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> "
                  "(m, k)>, affine_map<(m, n, k) -> (n, k)>, "
                  "affine_map<(m, n, k) -> (m, n)>]")
            print(f"    ins(%A, %B : {a}, {b}) outs(%C : {c})")
            print(f"    {{isaac.config = #isaac.gemm<family = wgmma, ml = {ml}, "
                  f"nl = {nl}, wm = 64, wn = {nl}, u = 64, kl = {kl}, "
                  f"kg = {kg}, vec = 8, stages = {st}>}}")
            print("  return\n}")
            candidates.write(f"{m} {n} {k} isaac_gemm_f16_nt_wgmma_ml{ml}_nl{nl}"
                             f"_wm64_wn{nl}_u64_kl{kl}_kg{kg}_v8_st{st}\n")
            i += 1
    print("}")
    print("%d GEMMs" % i, file=sys.stderr)


if __name__ == "__main__":
    main()
