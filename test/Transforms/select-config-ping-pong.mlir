// isaac-select-config puts the ping-pong form (pt = 2: two warpgroups of a
// 128x128 tile each on alternate tiles of a persistent block, 5 stages)
// before the ranking's first where the measured rule says (pingPongForm,
// docs/perf.md "Persistent tiles and ping-pong"): on at least 3/4 of the
// SMs' worth of 128x128 tiles, K at most 3072, TMA operands, whatever the
// first's tile where it is at most 128x128 (3072^2 x 384) or the operands'
// rows start on 128 bytes; not over a larger tile on rows off 128 bytes
// (B's 1272 f16 rows strided on 1296; on 1280 they take it, not at an
// offset of 16 elements). Rows off 32-byte sectors take the cluster form
// instead (select-config-cluster-form.mlir). The model's first stays second. Not for K = 4096 (the wgmmas
// outweigh the epilogue), a small problem (1024^2: 64 tiles), or B of
// rows that TMA cannot address (2052 f16). A shallow reduction (K <= 64)
// takes it with one K tile a tile whatever the first's tile (U = K rounded
// up to 16, 32 or 64; 4 stages) on at least 3/2 of the SMs' worth of tiles:
// K = 32 and 48 below, not 1536^2 x 32 (144 tiles); a reduction of two to
// four K tiles of 64 (K = 96) takes the 5-stage form on as many tiles.
//
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a topk=2" -mlir-print-local-scope 2>/dev/null | FileCheck %s

module attributes {isaac.target = "sm_90a"} {
// CHECK-LABEL: func.func @square2048
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 5, ws = 1, pt = 2>, #isaac.gemm<family = wgmma, ml = {{[0-9]+}}, nl = {{[0-9]+}}
// CHECK-SAME: isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 5, ws = 1, pt = 2>
// CHECK-LABEL: func.func @square4096
// CHECK-NOT: pt = 2
// CHECK-LABEL: func.func @square1024
// CHECK-NOT: pt = 2
// CHECK-LABEL: func.func @odd_b
// CHECK-NOT: pt = 2
// CHECK-LABEL: func.func @deep_small_tile
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 5, ws = 1, pt = 2>, #isaac.gemm<family = wgmma, ml = 128, nl = 128,
// CHECK-LABEL: func.func @rows_off_lines
// CHECK-NOT: pt = 2
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 256, nl = 128,
// CHECK-NOT: pt = 2
// CHECK-LABEL: func.func @rows_on_lines
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 5, ws = 1, pt = 2>, #isaac.gemm<family = wgmma, ml = 256, nl = 128,
// CHECK-LABEL: func.func @rows_on_lines_offset
// CHECK-NOT: pt = 2
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 256, nl = 128,
// CHECK-NOT: pt = 2
// CHECK-LABEL: func.func @shallow32
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 128, wn = 128, u = 32, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 4, ws = 1, pt = 2>, #isaac.gemm<family = wgmma
// CHECK-LABEL: func.func @shallow48
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 4, ws = 1, pt = 2>, #isaac.gemm<family = wgmma
// CHECK-LABEL: func.func @k96
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 5, ws = 1, pt = 2>, #isaac.gemm<family = wgmma
// CHECK-LABEL: func.func @shallow_small
// CHECK-NOT: pt = 2
// CHECK: return
func.func @square2048(%A: memref<2048x2048xf16>, %B: memref<2048x2048xf16>, %C: memref<2048x2048xf16>) {
  linalg.matmul ins(%A, %B : memref<2048x2048xf16>, memref<2048x2048xf16>) outs(%C : memref<2048x2048xf16>)
  return
}
func.func @square4096(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  linalg.matmul ins(%A, %B : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%C : memref<4096x4096xf16>)
  return
}
func.func @square1024(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<1024x1024xf16>) {
  linalg.matmul ins(%A, %B : memref<1024x1024xf16>, memref<1024x1024xf16>) outs(%C : memref<1024x1024xf16>)
  return
}
func.func @odd_b(%A: memref<2048x2048xf16>, %B: memref<2048x2052xf16>, %C: memref<2048x2052xf16>) {
  linalg.matmul ins(%A, %B : memref<2048x2048xf16>, memref<2048x2052xf16>) outs(%C : memref<2048x2052xf16>)
  return
}
func.func @deep_small_tile(%A: memref<3072x384xf16>, %B: memref<384x3072xf16>, %C: memref<3072x3072xf16>) {
  linalg.matmul ins(%A, %B : memref<3072x384xf16>, memref<384x3072xf16>) outs(%C : memref<3072x3072xf16>)
  return
}
func.func @rows_off_lines(%A: memref<1008x2432xf16>, %B: memref<1008x1272xf16, strided<[1296, 1]>>, %C: memref<2432x1272xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1008x2432xf16>, memref<1008x1272xf16, strided<[1296, 1]>>) outs(%C : memref<2432x1272xf16>)
  return
}
func.func @rows_on_lines(%A: memref<1008x2432xf16>, %B: memref<1008x1272xf16, strided<[1280, 1]>>, %C: memref<2432x1272xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1008x2432xf16>, memref<1008x1272xf16, strided<[1280, 1]>>) outs(%C : memref<2432x1272xf16>)
  return
}
func.func @rows_on_lines_offset(%A: memref<1008x2432xf16>, %B: memref<1008x1272xf16, strided<[1280, 1], offset: 16>>, %C: memref<2432x1272xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1008x2432xf16>, memref<1008x1272xf16, strided<[1280, 1], offset: 16>>) outs(%C : memref<2432x1272xf16>)
  return
}
func.func @shallow32(%A: memref<4096x32xf16>, %B: memref<32x4096xf16>, %C: memref<4096x4096xf16>) {
  linalg.matmul ins(%A, %B : memref<4096x32xf16>, memref<32x4096xf16>) outs(%C : memref<4096x4096xf16>)
  return
}
func.func @shallow48(%A: memref<2048x48xbf16>, %B: memref<48x8192xbf16>, %C: memref<2048x8192xbf16>) {
  linalg.matmul ins(%A, %B : memref<2048x48xbf16>, memref<48x8192xbf16>) outs(%C : memref<2048x8192xbf16>)
  return
}
func.func @k96(%A: memref<3000x96xf16>, %B: memref<96x5000xf16>, %C: memref<3000x5000xf16>) {
  linalg.matmul ins(%A, %B : memref<3000x96xf16>, memref<96x5000xf16>) outs(%C : memref<3000x5000xf16>)
  return
}
func.func @shallow_small(%A: memref<1536x32xf16>, %B: memref<32x1536xf16>, %C: memref<1536x1536xf16>) {
  linalg.matmul ins(%A, %B : memref<1536x32xf16>, memref<32x1536xf16>) outs(%C : memref<1536x1536xf16>)
  return
}
}
