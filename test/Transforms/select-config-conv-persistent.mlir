// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a" -verify-diagnostics

// Persistent tiles (pt = 1) are GEMM kernels only: a conv kernel computes
// its input taps once, for the block's rows.
module attributes {isaac.target = "sm_90a"} {
func.func @conv_persistent(%in: memref<1x10x10x64xf16>, %f: memref<3x3x64x64xf16>, %out: memref<1x8x8x64xf16>) {
  // expected-error @below {{pt = 1: persistent tiles are GEMM kernels only [conv-persistent]}}
  linalg.conv_2d_nhwc_hwcf {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, ws = 1, pt = 1>}
    ins(%in, %f : memref<1x10x10x64xf16>, memref<3x3x64x64xf16>) outs(%out : memref<1x8x8x64xf16>)
  return
}
}
