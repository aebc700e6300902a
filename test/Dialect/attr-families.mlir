// RUN: isaac-opt %s | FileCheck %s
// RUN: isaac-opt %s | isaac-opt | FileCheck %s
// RUN: isaac-opt %s -mlir-print-op-generic | isaac-opt | FileCheck %s
//
// #isaac.gemm follows the table of include/isaac/Model/GemmParams.def: the
// family (simt unless `family = F` comes first), the keys of the family's
// parameters, the optional ones (stages) printed only when they differ
// from their defaults. The attribute alone checks the rules that need
// neither element type nor chip (invalid-families.mlir has the errors).

// CHECK-LABEL: module attributes
// simt at stages = 2 prints as before, with stages written or not.
// CHECK-SAME: test.a = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>
// CHECK-SAME: test.b = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>
// A simt attribute with stages = 3 keeps it (a cp.async pipeline).
// CHECK-SAME: test.c = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4, stages = 3>
// The mma family: its token first, every one of its parameters.
// CHECK-SAME: test.d = #isaac.gemm<family = mma, ml = 128, nl = 128, wm = 64, wn = 32, u = 32, kl = 1, kg = 1, vec = 8, stages = 4>
// mma with stages left out: 2.
// CHECK-SAME: test.e = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 16, kl = 2, kg = 4, vec = 8, stages = 2>
module attributes {
  test.a = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>,
  test.b = #isaac.gemm<family = simt, stages = 2, vec = 4, kg = 1, kl = 1, ks = 1, u = 8, ns = 8, ms = 8, nl = 64, ml = 64>,
  test.c = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4, stages = 3>,
  test.d = #isaac.gemm<family = mma, ml = 128, nl = 128, wm = 64, wn = 32, u = 32, kl = 1, kg = 1, vec = 8, stages = 4>,
  test.e = #isaac.gemm<family = mma, vec = 8, kg = 4, kl = 2, u = 16, wn = 32, wm = 32, nl = 64, ml = 64>
} {
}
