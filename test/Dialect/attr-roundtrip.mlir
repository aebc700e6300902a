// RUN: isaac-opt %s | FileCheck %s
// RUN: isaac-opt %s | isaac-opt | FileCheck %s
// RUN: isaac-opt %s -mlir-print-op-generic | isaac-opt | FileCheck %s

// The attribute as users write it, printed back in canonical order.
// CHECK-LABEL: func.func @plain
// CHECK: linalg.matmul {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
func.func @plain(%A: memref<128x64xf32>, %B: memref<64x96xf32>, %C: memref<128x96xf32>) {
  linalg.matmul ins(%A, %B : memref<128x64xf32>, memref<64x96xf32>) outs(%C : memref<128x96xf32>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}

// Keywords may come in any order.
// CHECK-LABEL: func.func @reordered
// CHECK: #isaac.gemm<ml = 32, nl = 16, ms = 2, ns = 4, u = 16, ks = 2, kl = 4, kg = 8, vec = 2>
func.func @reordered(%A: memref<8x32x64xf64>, %B: memref<8x64x16xf64>, %C: memref<8x32x16xf64>) {
  linalg.batch_matmul ins(%A, %B : memref<8x32x64xf64>, memref<8x64x16xf64>) outs(%C : memref<8x32x16xf64>)
    {isaac.config = #isaac.gemm<vec = 2, kg = 8, kl = 4, ks = 2, u = 16, ns = 4, ms = 2, nl = 16, ml = 32>}
  return
}

// The chip attribute and the candidate list are dialect attributes too.
// CHECK-LABEL: func.func @target
// CHECK-SAME: isaac.target = "sm_80"
// CHECK: isaac.candidates = [#isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>, #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>]
func.func @target(%A: memref<128x64xf32>, %B: memref<64x96xf32>, %C: memref<128x96xf32>) attributes {isaac.target = "sm_80"} {
  linalg.matmul ins(%A, %B : memref<128x64xf32>, memref<64x96xf32>) outs(%C : memref<128x96xf32>)
    {isaac.candidates = [#isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>,
                         #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>]}
  return
}
