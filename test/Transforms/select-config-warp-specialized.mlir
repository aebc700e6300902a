// isaac-select-config makes a wgmma configuration warp-specialized (ws = 1,
// a producer warpgroup issues the TMA copies) where the measured rule says
// (withWarpSpecialization, docs/perf.md "Warp specialization"): its blocks
// have at least `stages` K tiles, so the runtime runs them on the TMA loop
// (the ICA-like GEMM: 60000 deep, each of KG slices many tiles), and never
// where they have fewer (K = 32: one tile, the cp.async loop, where the
// producer would only cost occupancy), nor with a cluster split (kc = 1:
// DeepBench's first choices).
//
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a topk=3" -mlir-print-local-scope 2>/dev/null | FileCheck %s --check-prefix=SELECT
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_90a" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE

module attributes {isaac.target = "sm_90a"} {
// SELECT-LABEL: func.func @ica
// SELECT: isaac.config = #isaac.gemm<family = wgmma, {{.*}}, ws = 1>
// SELECT-LABEL: func.func @lapack
// SELECT-NOT: ws = 1
// SELECT-LABEL: func.func @deepbench
// SELECT-NOT: ws = 1
// SELECT: }
// PIPE-NOT: error
func.func @ica(%A: memref<32x60000xf16>, %B: memref<60000x32xf16>, %C: memref<32x32xf16>) {
  linalg.matmul ins(%A, %B : memref<32x60000xf16>, memref<60000x32xf16>) outs(%C : memref<32x32xf16>)
  return
}
func.func @lapack(%A: memref<4096x32xf16>, %B: memref<32x4096xf16>, %C: memref<4096x4096xf16>) {
  linalg.matmul ins(%A, %B : memref<4096x32xf16>, memref<32x4096xf16>) outs(%C : memref<4096x4096xf16>)
  return
}
func.func @deepbench(%A: memref<2560x2560xf16>, %B: memref<2560x16xf16>, %C: memref<2560x16xf16>) {
  linalg.matmul ins(%A, %B : memref<2560x2560xf16>, memref<2560x16xf16>) outs(%C : memref<2560x16xf16>)
  return
}
}
