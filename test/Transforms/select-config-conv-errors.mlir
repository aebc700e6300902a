// RUN: isaac-opt %s --isaac-select-config="strict=true" -split-input-file -verify-diagnostics

// Under strict, a convolution isaac cannot compile is an error with the
// reason.
func.func @mixed(%in: memref<1x10x10x8xf32>, %f: memref<3x3x8x8xf64>, %out: memref<1x8x8x8xf32>) {
  // expected-error @below {{isaac cannot configure this operation: input and filters of different element types (f32, f64) are not supported}}
  linalg.conv_2d_nhwc_hwcf ins(%in, %f : memref<1x10x10x8xf32>, memref<3x3x8x8xf64>) outs(%out : memref<1x8x8x8xf32>)
  return
}

// -----

func.func @output_type(%in: tensor<1x10x10x8xf32>, %f: tensor<3x3x8x8xf32>, %out: tensor<1x8x8x8xf64>) -> tensor<1x8x8x8xf64> {
  // expected-error @below {{isaac cannot configure this operation: an output of f64 with f32 operands is not supported (the operands' type; f32 for f16 and bf16)}}
  %r = linalg.conv_2d_nhwc_hwcf ins(%in, %f : tensor<1x10x10x8xf32>, tensor<3x3x8x8xf32>) outs(%out : tensor<1x8x8x8xf64>) -> tensor<1x8x8x8xf64>
  return %r : tensor<1x8x8x8xf64>
}

// -----

// A user-written configuration must meet the conv-only rules too: vec = 4
// loads would straddle filter taps of a 6-channel input.
func.func @illegal_given(%in: memref<1x10x10x6xf32>, %f: memref<3x3x6x8xf32>, %out: memref<1x8x8x8xf32>) {
  // expected-error @below {{isaac: the isaac.config of this convolution is illegal for it on sm_90: vec = 4 must divide C = 6 (a vec-wide load of the input reads vec channels of one filter tap) [conv-vector-channels]}}
  linalg.conv_2d_nhwc_hwcf {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
    ins(%in, %f : memref<1x10x10x6xf32>, memref<3x3x6x8xf32>) outs(%out : memref<1x8x8x8xf32>)
  return
}

// -----

// The simt cp.async pipeline (stages > 2) is the GEMM kernels' only: a
// convolution's simt kernel prefetches through registers.
func.func @simt_stages(%in: memref<1x10x10x8xf32>, %f: memref<3x3x8x8xf32>, %out: memref<1x8x8x8xf32>) {
  // expected-error @below {{isaac: the isaac.config of this convolution is illegal for it on sm_90: stages = 3: simt convolutions pipeline 2 stages (register prefetch); deeper cp.async pipelines are GEMM kernels only [conv-stages]}}
  linalg.conv_2d_nhwc_hwcf {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4, stages = 3>}
    ins(%in, %f : memref<1x10x10x8xf32>, memref<3x3x8x8xf32>) outs(%out : memref<1x8x8x8xf32>)
  return
}

// -----

// The dialect checks the GEMM rules of a convolution's configuration
// against its element type (f64: 8-byte elements, at most 2 per load).
func.func @gemm_rule(%in: memref<1x10x10x8xf64>, %f: memref<3x3x8x8xf64>, %out: memref<1x8x8x8xf64>) {
  // expected-error @below {{vector-width}}
  linalg.conv_2d_nhwc_hwcf {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
    ins(%in, %f : memref<1x10x10x8xf64>, memref<3x3x8x8xf64>) outs(%out : memref<1x8x8x8xf64>)
  return
}

// -----

// An mma conv kernel keeps each input copy's pixel live across its main
// loop: 256 * 64 / 2 / 256 = 32 copies a thread are past the limit (ptxas
// spills kilobytes on such kernels and, at -O3, miscompiles some).
func.func @input_copies(%in: memref<1x9x9x64xf16>, %f: memref<168x3x3x64xf16>, %out: memref<1x4x4x168xf16>) {
  // expected-error @below {{isaac: the isaac.config of this convolution is illegal for it on sm_90: ml * u / vec / threads = 256 * 64 / 2 / 256 = 32 input copies per thread each K tile; a conv kernel keeps each one's pixel live, at most 16 [conv-input-copies]}}
  linalg.conv_2d_nhwc_fhwc {strides = dense<2> : tensor<2xi64>,
    isaac.config = #isaac.gemm<family = mma, ml = 256, nl = 32, wm = 64, wn = 16, u = 64, kl = 1, kg = 16, vec = 2, stages = 2>}
    ins(%in, %f : memref<1x9x9x64xf16>, memref<168x3x3x64xf16>) outs(%out : memref<1x4x4x168xf16>)
  return
}
