// RUN: isaac-opt %s --isaac-fuse-epilogues -split-input-file 2>/dev/null | FileCheck %s
// RUN: isaac-opt %s --isaac-fuse-epilogues -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A convolution on tensors becomes an isaac.conv whose epilogue absorbs the
// zero fill of its init (beta = 0: nothing read) and the elementwise ops on
// its result: a per-channel bias, a residual of the output's shape, relu.
// CHECK-LABEL: func.func @bias_residual_relu
// CHECK-NOT: linalg.fill
// CHECK: %[[R:.*]] = isaac.conv ins(%arg0, %arg1 : tensor<2x10x10x8xf32>, tensor<3x3x8x16xf32>) inputs(%arg2, %arg3 : tensor<16xf32>, tensor<2x8x8x16xf32>) outs(%{{.*}} : tensor<2x8x8x16xf32>)
// CHECK-SAME: dilations = array<i64: 1, 1>, input_maps = [#[[BIAS:map[0-9]*]], #[[ID:map[0-9]*]]], layout = "nhwc_hwcf", strides = array<i64: 1, 1>}
// CHECK-NOT: linalg.memoized
// CHECK: ^bb0(%[[X:.*]]: f32, %[[B:.*]]: f32, %[[RES:.*]]: f32):
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[B]] : f32
// CHECK: %[[T:.*]] = arith.addf %[[S]], %[[RES]] : f32
// CHECK: arith.maximumf %[[T]]
// CHECK: isaac.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
func.func @bias_residual_relu(%x: tensor<2x10x10x8xf32>, %w: tensor<3x3x8x16xf32>, %b: tensor<16xf32>, %res: tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<2x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, p, q, k) -> (n, p, q, k)>, affine_map<(n, p, q, k) -> (k)>, affine_map<(n, p, q, k) -> (n, p, q, k)>, affine_map<(n, p, q, k) -> (n, p, q, k)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b, %res : tensor<2x8x8x16xf32>, tensor<16xf32>, tensor<2x8x8x16xf32>) outs(%e : tensor<2x8x8x16xf32>) {
  ^bb0(%acc: f32, %bias: f32, %r: f32, %o: f32):
    %s = arith.addf %acc, %bias : f32
    %t = arith.addf %s, %r : f32
    %relu = arith.maximumf %t, %zero : f32
    linalg.yield %relu : f32
  } -> tensor<2x8x8x16xf32>
  return %y : tensor<2x8x8x16xf32>
}

// -----

// f16 operands accumulate in f32; a bias broadcast to the output by
// linalg.broadcast is read from the vector itself, and the conversion to
// the f16 output is part of the epilogue (fhwc filters, stride 2).
// CHECK-LABEL: func.func @f16_broadcast_bias
// CHECK: isaac.conv ins(%arg0, %arg1 : tensor<1x9x9x8xf16>, tensor<16x3x3x8xf16>) inputs(%arg2 : tensor<16xf16>) outs(%{{.*}} : tensor<1x4x4x16xf16>)
// CHECK-SAME: layout = "nhwc_fhwc", strides = array<i64: 2, 2>
// CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f16):
// CHECK: arith.truncf
// CHECK: arith.addf {{.*}} : f16
// CHECK-NOT: linalg.broadcast
func.func @f16_broadcast_bias(%x: tensor<1x9x9x8xf16>, %w: tensor<16x3x3x8xf16>, %b: tensor<16xf16>) -> tensor<1x4x4x16xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x4x4x16xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
  %c = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : tensor<1x9x9x8xf16>, tensor<16x3x3x8xf16>) outs(%f : tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
  %bb = linalg.broadcast ins(%b : tensor<16xf16>) outs(%e : tensor<1x4x4x16xf16>) dimensions = [0, 1, 2]
  %y = linalg.add ins(%c, %bb : tensor<1x4x4x16xf16>, tensor<1x4x4x16xf16>) outs(%e : tensor<1x4x4x16xf16>) -> tensor<1x4x4x16xf16>
  return %y : tensor<1x4x4x16xf16>
}

// -----

// A per-image, per-channel input (squeeze-and-excitation scales) is not
// addressable by (output pixel, channel): the consumer stays, with a remark.
// REMARK-COUNT-1: remark: isaac: not fused into the epilogue of the convolution at {{.*}}: it reads an operand through a map other than the identity, (n, p, q, k) -> (k) and (n, p, q, k) -> (), which a convolution's epilogue cannot address
// CHECK-LABEL: func.func @per_image_scale
// CHECK: isaac.conv
// CHECK: linalg.generic
func.func @per_image_scale(%x: tensor<2x10x10x8xf32>, %w: tensor<3x3x8x16xf32>, %s: tensor<2x16xf32>) -> tensor<2x8x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<2x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%f : tensor<2x8x8x16xf32>) -> tensor<2x8x8x16xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, p, q, k) -> (n, p, q, k)>, affine_map<(n, p, q, k) -> (n, k)>, affine_map<(n, p, q, k) -> (n, p, q, k)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %s : tensor<2x8x8x16xf32>, tensor<2x16xf32>) outs(%e : tensor<2x8x8x16xf32>) {
  ^bb0(%acc: f32, %sc: f32, %o: f32):
    %m = arith.mulf %acc, %sc : f32
    linalg.yield %m : f32
  } -> tensor<2x8x8x16xf32>
  return %y : tensor<2x8x8x16xf32>
}

// -----

// Accumulating into an existing output: the old value is an input read in
// place through the identity map.
// CHECK-LABEL: func.func @accumulate
// CHECK: isaac.conv ins(%arg0, %arg1 : {{.*}}) inputs(%arg2 : tensor<1x8x8x16xf32>) outs(%arg2 : tensor<1x8x8x16xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[C:.*]]: f32):
// CHECK: arith.addf %[[C]], %[[X]]
func.func @accumulate(%x: tensor<1x10x10x8xf32>, %w: tensor<3x3x8x16xf32>, %o: tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32> {
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<1x10x10x8xf32>, tensor<3x3x8x16xf32>) outs(%o : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  return %c : tensor<1x8x8x16xf32>
}

// -----

// "Same" padding as frontends write it, a zero tensor.pad of the input, is
// folded into the isaac.conv's padding (the kernel predicates the halo; no
// padded copy). A pad of another value is a plain input.
// CHECK-LABEL: func.func @same_padding
// CHECK-NOT: tensor.pad
// CHECK: isaac.conv ins(%arg0, %arg1 : tensor<2x8x8x16xf32>, tensor<3x3x16x32xf32>) outs(%{{.*}} : tensor<2x8x8x32xf32>)
// CHECK-SAME: padding = array<i64: 1, 1>
// CHECK-LABEL: func.func @one_padding
// CHECK: %[[P:.*]] = tensor.pad
// CHECK: isaac.conv ins(%[[P]], %arg1
// CHECK-NOT: padding
func.func @same_padding(%x: tensor<2x8x8x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<2x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<2x8x8x16xf32> to tensor<2x10x10x16xf32>
  %e = tensor.empty() : tensor<2x8x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%p, %w : tensor<2x10x10x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
  return %c : tensor<2x8x8x32xf32>
}
func.func @one_padding(%x: tensor<2x8x8x16xf32>, %w: tensor<3x3x16x32xf32>) -> tensor<2x8x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<2x8x8x16xf32> to tensor<2x10x10x16xf32>
  %e = tensor.empty() : tensor<2x8x8x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%p, %w : tensor<2x10x10x16xf32>, tensor<3x3x16x32xf32>) outs(%f : tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
  return %c : tensor<2x8x8x32xf32>
}
