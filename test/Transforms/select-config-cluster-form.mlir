// isaac-select-config puts the cluster form (128x256 tiles, two computing
// warpgroups and a producer, 4 stages of 64, clusters of two blocks along M
// sharing B's tiles: cm = 2, ws = 1) before the ranking's first where the
// measured rule says (clusterForm, docs/perf.md "Rows off sectors"): A or
// B with rows that TMA addresses (16 bytes) but that do not all start on
// 32-byte sectors, 320 <= K <= 8192, at least 3/4 of the SMs' worth of
// 128x128 tiles. The model's first stays second. Not on rows of 32 bytes
// (B strided on 1264), nor of 2 bytes (TMA cannot address them: the
// cp.async loop), nor for K < 320 (the ping-pong rules' range), K > 8192 or
// a small problem; a batch counts its tiles. The form is legal whatever
// the layout and the first's vector width.
//
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a topk=2" -mlir-print-local-scope 2>/dev/null | FileCheck %s

module attributes {isaac.target = "sm_90a"} {
// CHECK-LABEL: func.func @b_off_sectors
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 256, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 4, cm = 2, ws = 1>, #isaac.gemm<family = wgmma,
// CHECK-SAME: isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 256, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 4, cm = 2, ws = 1>
// CHECK-LABEL: func.func @a_off_sectors_nt
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 256, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 4, cm = 2, ws = 1>
// CHECK-LABEL: func.func @offset_off_sectors
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 256, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 4, cm = 2, ws = 1>
// CHECK-LABEL: func.func @batched_off_sectors
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 256, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 4, cm = 2, ws = 1>
// CHECK-LABEL: func.func @deep_off_sectors
// CHECK: isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 256, wm = 128, wn = 128, u = 64, kl = 1, kg = 1, vec = {{[0-9]+}}, stages = 4, cm = 2, ws = 1>
// CHECK-LABEL: func.func @rows_on_sectors
// CHECK-NOT: cm = 2
// CHECK-LABEL: func.func @rows_not_tma
// CHECK-NOT: cm = 2
// CHECK-LABEL: func.func @shallow_off_sectors
// CHECK-NOT: cm = 2
// CHECK-LABEL: func.func @deeper_off_sectors
// CHECK-NOT: cm = 2
// CHECK-LABEL: func.func @small_off_sectors
// CHECK-NOT: cm = 2
// CHECK: return
func.func @b_off_sectors(%A: memref<1008x2432xf16>, %B: memref<1008x1272xf16>, %C: memref<2432x1272xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1008x2432xf16>, memref<1008x1272xf16>) outs(%C : memref<2432x1272xf16>)
  return
}
func.func @a_off_sectors_nt(%A: memref<3464x1592xbf16>, %B: memref<5264x1592xbf16>, %C: memref<3464x5264xbf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<3464x1592xbf16>, memref<5264x1592xbf16>) outs(%C : memref<3464x5264xbf16>)
  return
}
func.func @offset_off_sectors(%A: memref<2048x1024xf16>, %B: memref<1024x2048xf16, strided<[2048, 1], offset: 8>>, %C: memref<2048x2048xf16>) {
  linalg.matmul ins(%A, %B : memref<2048x1024xf16>, memref<1024x2048xf16, strided<[2048, 1], offset: 8>>) outs(%C : memref<2048x2048xf16>)
  return
}
func.func @batched_off_sectors(%A: memref<4x1000x1032xf16>, %B: memref<4x1032x1000xf16>, %C: memref<4x1000x1000xf16>) {
  linalg.batch_matmul ins(%A, %B : memref<4x1000x1032xf16>, memref<4x1032x1000xf16>) outs(%C : memref<4x1000x1000xf16>)
  return
}
func.func @deep_off_sectors(%A: memref<4096x4104xf16>, %B: memref<4104x4096xf16>, %C: memref<4096x4096xf16>) {
  linalg.matmul ins(%A, %B : memref<4096x4104xf16>, memref<4104x4096xf16>) outs(%C : memref<4096x4096xf16>)
  return
}
func.func @rows_on_sectors(%A: memref<1008x2432xf16>, %B: memref<1008x1272xf16, strided<[1264, 1]>>, %C: memref<2432x1272xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<1008x2432xf16>, memref<1008x1272xf16, strided<[1264, 1]>>) outs(%C : memref<2432x1272xf16>)
  return
}
func.func @rows_not_tma(%A: memref<2048x1001xf16>, %B: memref<1001x2048xf16>, %C: memref<2048x2048xf16>) {
  linalg.matmul ins(%A, %B : memref<2048x1001xf16>, memref<1001x2048xf16>) outs(%C : memref<2048x2048xf16>)
  return
}
func.func @shallow_off_sectors(%A: memref<4096x200xf16>, %B: memref<200x4096xf16>, %C: memref<4096x4096xf16>) {
  linalg.matmul ins(%A, %B : memref<4096x200xf16>, memref<200x4096xf16>) outs(%C : memref<4096x4096xf16>)
  return
}
func.func @deeper_off_sectors(%A: memref<2048x8200xf16>, %B: memref<8200x2048xf16>, %C: memref<2048x2048xf16>) {
  linalg.matmul ins(%A, %B : memref<2048x8200xf16>, memref<8200x2048xf16>) outs(%C : memref<2048x2048xf16>)
  return
}
func.func @small_off_sectors(%A: memref<520x1032xf16>, %B: memref<1032x520xf16>, %C: memref<520x520xf16>) {
  linalg.matmul ins(%A, %B : memref<520x1032xf16>, memref<1032x520xf16>) outs(%C : memref<520x520xf16>)
  return
}
}
