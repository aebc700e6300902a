// RUN: isaac-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// isaac.conv round-trips on tensors and memrefs; its verifier checks the
// convolution (the shapes ConvShape::validate accepts), that every epilogue
// input is addressable by output pixel and channel, and the region.
// CHECK-LABEL: func.func @ok
// CHECK: isaac.conv ins(%{{.*}}, %{{.*}} : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) inputs(%{{.*}}, %{{.*}} : tensor<16xf32>, tensor<f32>) outs(%{{.*}} : tensor<1x8x8x16xf32>) attributes {dilations = array<i64: 1, 1>, input_maps = [#{{.*}}, #{{.*}}], layout = "nhwc_hwcf", strides = array<i64: 1, 1>}
func.func @ok(%x: tensor<1x10x10x8xf32>, %w: tensor<3x3x8x16xf32>, %b: tensor<16xf32>, %s: tensor<f32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %r = isaac.conv ins(%x, %w : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) inputs(%b, %s : tensor<16xf32>, tensor<f32>) outs(%o : tensor<1x8x8x16xf32>)
      attributes {layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
                  input_maps = [affine_map<(n, p, q, k) -> (k)>, affine_map<(n, p, q, k) -> ()>]} {
  ^bb0(%acc: f32, %bias: f32, %scale: f32):
    %t = arith.addf %acc, %bias : f32
    %u = arith.mulf %t, %scale : f32
    isaac.yield %u : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

func.func @bad_map(%x: tensor<2x10x10x8xf32>, %w: tensor<3x3x8x16xf32>, %s: tensor<2x16xf32>, %o: tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32> {
  // expected-error @below {{input_maps[0] must be the identity, (n, p, q, k) -> (k) or (n, p, q, k) -> (): the kernel addresses epilogue inputs by output pixel and channel}}
  %r = isaac.conv ins(%x, %w : tensor<2x10x10x8xf32>, tensor<3x3x8x16xf32>) inputs(%s : tensor<2x16xf32>) outs(%o : tensor<2x8x8x16xf32>)
      attributes {layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
                  input_maps = [affine_map<(n, p, q, k) -> (n, k)>]} {
  ^bb0(%acc: f32, %sc: f32):
    %u = arith.mulf %acc, %sc : f32
    isaac.yield %u : f32
  } -> tensor<2x8x8x16xf32>
  return %r : tensor<2x8x8x16xf32>
}

// -----

func.func @bad_shape(%x: tensor<1x10x10x8xf32>, %w: tensor<3x3x4x16xf32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @below {{operand shapes disagree: the output must be N x P x Q x K and the filters hold C input and K output channels (R x S x C x K)}}
  %r = isaac.conv ins(%x, %w : tensor<1x10x10x8xf32>, tensor<3x3x4x16xf32>) outs(%o : tensor<1x8x8x16xf32>)
      attributes {layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, input_maps = []} {
  ^bb0(%acc: f32):
    isaac.yield %acc : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

func.func @bad_layout(%x: tensor<1x10x10x8xf32>, %w: tensor<3x3x8x16xf32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  // expected-error @below {{layout 'nchw_fchw' is not nhwc_hwcf or nhwc_fhwc}}
  %r = isaac.conv ins(%x, %w : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>)
      attributes {layout = "nchw_fchw", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, input_maps = []} {
  ^bb0(%acc: f32):
    isaac.yield %acc : f32
  } -> tensor<1x8x8x16xf32>
  return %r : tensor<1x8x8x16xf32>
}

// -----

func.func @bad_yield(%x: tensor<1x10x10x8xf16>, %w: tensor<3x3x8x16xf16>, %o: tensor<1x8x8x16xf16>) -> tensor<1x8x8x16xf16> {
  // expected-error @below {{epilogue yields 'f32' but the output elements are 'f16'}}
  %r = isaac.conv ins(%x, %w : tensor<1x10x10x8xf16>, tensor<3x3x8x16xf16>) outs(%o : tensor<1x8x8x16xf16>)
      attributes {layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, input_maps = []} {
  ^bb0(%acc: f32):
    isaac.yield %acc : f32
  } -> tensor<1x8x8x16xf16>
  return %r : tensor<1x8x8x16xf16>
}

// -----

func.func @mixed(%x: tensor<1x10x10x8xf32>, %w: memref<3x3x8x16xf32>, %o: memref<1x8x8x16xf32>) {
  // expected-error @below {{expects all operands to be ranked tensors or all to be memrefs}}
  isaac.conv ins(%x, %w : tensor<1x10x10x8xf32>, memref<3x3x8x16xf32>) outs(%o : memref<1x8x8x16xf32>)
      attributes {layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, input_maps = []} {
  ^bb0(%acc: f32):
    isaac.yield %acc : f32
  }
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
  }
  func.func @launch_inputs_without_epilogue(%in: memref<1x8x8x4xf32>, %f: memref<3x3x4x6xf32>, %out: memref<1x6x6x6xf32>, %b: memref<6xf32>) {
    // expected-error @below {{without an epilogue takes no inputs}}
    isaac.launch_conv @k::@k(%in, %f, %out) inputs(%b : memref<6xf32>) {alpha = 1.0 : f64, beta = 0.0 : f64,
      config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2>,
      layout = "nhwc_hwcf", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0>}
      : memref<1x8x8x4xf32>, memref<3x3x4x6xf32>, memref<1x6x6x6xf32>
    return
  }
}
