// isaac-select-config makes a wgmma configuration warp-specialized (ws = 1,
// a producer warpgroup issues the TMA copies) where the measured rule says
// (withWarpSpecialization, docs/perf.md "Warp specialization"): its blocks
// have at least `stages` K tiles, so the runtime runs them on the TMA loop
// (the ICA-like GEMM: 60000 deep, each of KG slices many tiles), and never
// where TMA cannot address an operand (B's rows of 36 f16, 72 bytes, not a
// multiple of 16: the cp.async loop) or where the blocks have fewer tiles
// (K = 32: one, the cp.async loop), where the producer would only cost
// occupancy (there the ranking stays plain; the shallow ping-pong form,
// a persistent kernel that the runtime runs on TMA whatever the depth,
// goes before it: pingPongForm). DeepBench's first choice sums its K slices inside a cluster
// (kc = 1), whose barriers the producer joins. Convolutions take the rule
// on their implicit GEMM where TMA's im2col mode maps the input (C a
// multiple of U) and the producer costs no wave: ResNet-50's 3x3
// 256-channel layer (its first choice, a 128x128 tile of two warpgroups,
// one block an SM either way), not Table 5's single-channel Conv1 (C = 1:
// the cp.async loop).
//
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a topk=3" -mlir-print-local-scope 2>/dev/null | FileCheck %s --check-prefix=SELECT
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_90a" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPE

module attributes {isaac.target = "sm_90a"} {
// SELECT-LABEL: func.func @ica
// SELECT: isaac.config = #isaac.gemm<family = wgmma, {{.*}}, ws = 1>
// SELECT-LABEL: func.func @ica_odd
// SELECT-NOT: ws = 1
// SELECT-LABEL: func.func @lapack
// SELECT: isaac.candidates = [#isaac.gemm<family = wgmma, {{[^>]*}}, ws = 1, pt = 2>, #isaac.gemm<family = wgmma, {{[^>]*}}, stages = {{[0-9]}}>, #isaac.gemm<family = wgmma, {{[^>]*}}, stages = {{[0-9]}}>]
// SELECT-LABEL: func.func @deepbench
// SELECT: isaac.config = #isaac.gemm<family = wgmma, {{.*}}, kc = 1, ws = 1>
// SELECT-LABEL: func.func @rn50_3x3
// SELECT: isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 128, {{.*}}, ws = 1>
// SELECT-LABEL: func.func @table5_conv1
// SELECT-NOT: ws = 1
// SELECT: }
// PIPE-NOT: error
func.func @ica(%A: memref<32x60000xf16>, %B: memref<60000x32xf16>, %C: memref<32x32xf16>) {
  linalg.matmul ins(%A, %B : memref<32x60000xf16>, memref<60000x32xf16>) outs(%C : memref<32x32xf16>)
  return
}
func.func @ica_odd(%A: memref<32x60000xf16>, %B: memref<60000x36xf16>, %C: memref<32x36xf16>) {
  linalg.matmul ins(%A, %B : memref<32x60000xf16>, memref<60000x36xf16>) outs(%C : memref<32x36xf16>)
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
func.func @rn50_3x3(%I: memref<32x16x16x256xf16>, %F: memref<3x3x256x256xf16>, %O: memref<32x14x14x256xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<32x16x16x256xf16>, memref<3x3x256x256xf16>) outs(%O : memref<32x14x14x256xf16>)
  return
}
func.func @table5_conv1(%I: memref<16x83x360x1xf16>, %F: memref<5x20x1x32xf16>, %O: memref<16x79x341x32xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<16x83x360x1xf16>, memref<5x20x1x32xf16>) outs(%O : memref<16x79x341x32xf16>)
  return
}
}
