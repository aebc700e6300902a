// RUN: isaac-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// isaac.launch_conv round-trips, and its verifier checks the convolution
// its operands and attributes describe (ConvShape::validate) and its
// configuration (the GEMM rules, then lib/Model/ConvLegality.cpp's).
// CHECK-LABEL: func.func @ok
// CHECK: isaac.launch_conv @k::@k(%{{.*}}, %{{.*}}, %{{.*}}) {{{.*}}layout = "nhwc_fhwc", padding = array<i64: 1, 1>{{.*}}} : memref<1x8x8x4xf32>, memref<6x3x3x4xf32>, memref<1x8x8x6xf32>
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @ok(%in: memref<1x8x8x4xf32>, %f: memref<6x3x3x4xf32>, %out: memref<1x8x8x6xf32>) {
    isaac.launch_conv @k::@k(%in, %f, %out) {alpha = 1.0 : f64, beta = 0.0 : f64,
      config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>,
      layout = "nhwc_fhwc", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1>}
      : memref<1x8x8x4xf32>, memref<6x3x3x4xf32>, memref<1x8x8x6xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
  }
  func.func @bad_layout(%in: memref<1x8x8x4xf32>, %f: memref<6x3x3x4xf32>, %out: memref<1x8x8x6xf32>) {
    // expected-error @below {{layout 'nchw' is not nhwc_hwcf or nhwc_fhwc}}
    isaac.launch_conv @k::@k(%in, %f, %out) {alpha = 1.0 : f64, beta = 0.0 : f64,
      config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>,
      layout = "nchw", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1>}
      : memref<1x8x8x4xf32>, memref<6x3x3x4xf32>, memref<1x8x8x6xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
  }
  func.func @channels(%in: memref<1x8x8x4xf32>, %f: memref<3x3x5x6xf32>, %out: memref<1x8x8x6xf32>) {
    // expected-error @below {{operand shapes disagree: the output must be N x P x Q x K and the filters hold C input and K output channels (R x S x C x K)}}
    isaac.launch_conv @k::@k(%in, %f, %out) {alpha = 1.0 : f64, beta = 0.0 : f64,
      config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>,
      layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1>}
      : memref<1x8x8x4xf32>, memref<3x3x5x6xf32>, memref<1x8x8x6xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
  }
  func.func @too_many_rows(%in: memref<1x8x8x4xf32>, %f: memref<3x3x4x6xf32>, %out: memref<1x11x8x6xf32>) {
    // expected-error @below {{output rows whose window lies entirely in the padding}}
    isaac.launch_conv @k::@k(%in, %f, %out) {alpha = 1.0 : f64, beta = 0.0 : f64,
      config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>,
      layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1>}
      : memref<1x8x8x4xf32>, memref<3x3x4x6xf32>, memref<1x11x8x6xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
  }
  func.func @vec(%in: memref<1x8x8x3xf32>, %f: memref<3x3x3x6xf32>, %out: memref<1x8x8x6xf32>) {
    // expected-error @below {{illegal isaac.config for this convolution on sm_90 (rule conv-vector-channels)}}
    isaac.launch_conv @k::@k(%in, %f, %out) {alpha = 1.0 : f64, beta = 0.0 : f64,
      config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>,
      layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1>}
      : memref<1x8x8x3xf32>, memref<3x3x3x6xf32>, memref<1x8x8x6xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @no_kernel(%in: memref<1x8x8x4xf32>, %f: memref<3x3x4x6xf32>, %out: memref<1x8x8x6xf32>) {
    // expected-error @below {{kernel module "missing" not found}}
    isaac.launch_conv @missing::@k(%in, %f, %out) {alpha = 1.0 : f64, beta = 0.0 : f64,
      config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>,
      layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1>}
      : memref<1x8x8x4xf32>, memref<3x3x4x6xf32>, memref<1x8x8x6xf32>
    return
  }
}
