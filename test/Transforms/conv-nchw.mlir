// RUN: isaac-opt %s --isaac-conv-to-gemm -split-input-file | FileCheck %s
// RUN: isaac-opt %s --isaac-conv-to-gemm --isaac-fuse-epilogues -split-input-file 2>/dev/null | FileCheck %s --check-prefix=FUSED

// An NCHW convolution is the NHWC one (FHWC filters) between transposes;
// the zero fill of its empty init is made again in NHWC (beta = 0 after
// fusion) and the result is transposed back into the original empty
// tensor. Strides and dilations carry over.
// CHECK-LABEL: func.func @nchw
// CHECK-DAG: %[[X:.*]] = linalg.transpose ins(%arg0 : tensor<2x3x9x13xf32>) outs(%{{.*}} : tensor<2x9x13x3xf32>) permutation = [0, 2, 3, 1]
// CHECK-DAG: %[[W:.*]] = linalg.transpose ins(%arg1 : tensor<8x3x3x3xf32>) outs(%{{.*}} : tensor<8x3x3x3xf32>) permutation = [0, 2, 3, 1]
// CHECK-DAG: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x4x5x8xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_fhwc {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<2x9x13x3xf32>, tensor<8x3x3x3xf32>) outs(%[[F]] : tensor<2x4x5x8xf32>)
// CHECK: %[[R:.*]] = linalg.transpose ins(%[[C]] : tensor<2x4x5x8xf32>) outs(%{{.*}} : tensor<2x8x4x5xf32>) permutation = [0, 3, 1, 2]
// CHECK: return %[[R]]
// CHECK-NOT: conv_2d_nchw
// FUSED-LABEL: func.func @nchw
// FUSED-NOT: linalg.fill
// FUSED: isaac.conv ins(
// FUSED-SAME: layout = "nhwc_fhwc"
func.func @nchw(%x: tensor<2x3x9x13xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<2x8x4x5xf32> {
  %e = tensor.empty() : tensor<2x8x4x5xf32>
  %z = arith.constant 0.0 : f32
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<2x8x4x5xf32>) -> tensor<2x8x4x5xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : tensor<2x3x9x13xf32>, tensor<8x3x3x3xf32>) outs(%i : tensor<2x8x4x5xf32>) -> tensor<2x8x4x5xf32>
  return %c : tensor<2x8x4x5xf32>
}

// -----

// A ResNet-style block in NCHW: padded input, conv, per-channel bias
// (broadcast over N, H, W), relu, a second padded conv, residual add of
// the block's input. The elementwise ops move before the result's
// transposes (onto NHWC: the bias is read as its vector, by channel), the
// pads are rebuilt after the input transposes, and the transposes between
// the layers cancel: only the block's input (once, shared by both its
// uses), the filters and the block's result are transposed.
// CHECK-LABEL: func.func @block
// CHECK: %[[XT:.*]] = linalg.transpose ins(%arg0 : tensor<1x16x8x8xf32>) outs(%{{.*}} : tensor<1x8x8x16xf32>) permutation = [0, 2, 3, 1]
// CHECK: %[[P1:.*]] = tensor.pad %[[XT]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[C1:.*]] = linalg.conv_2d_nhwc_fhwc {{.*}} ins(%[[P1]], %{{.*}} : tensor<1x10x10x16xf32>, tensor<16x3x3x16xf32>)
// CHECK: %[[B1:.*]] = linalg.generic {indexing_maps = [#[[ID:.*]], #[[CH:.*]], #[[ID]]], {{.*}} ins(%[[C1]], %arg2 : tensor<1x8x8x16xf32>, tensor<16xf32>)
// CHECK: %[[R1:.*]] = linalg.generic {{.*}} ins(%[[B1]] : tensor<1x8x8x16xf32>)
// CHECK: %[[P2:.*]] = tensor.pad %[[R1]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[C2:.*]] = linalg.conv_2d_nhwc_fhwc {{.*}} ins(%[[P2]], %{{.*}} : tensor<1x10x10x16xf32>, tensor<16x3x3x16xf32>)
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[C2]], %[[XT]] : tensor<1x8x8x16xf32>, tensor<1x8x8x16xf32>)
// CHECK: %[[OUT:.*]] = linalg.transpose ins(%[[S]] : tensor<1x8x8x16xf32>) outs(%{{.*}} : tensor<1x16x8x8xf32>) permutation = [0, 3, 1, 2]
// CHECK: return %[[OUT]]
// CHECK-NOT: linalg.transpose
// The fused form: both convolutions with their epilogues, the pads folded.
// FUSED-LABEL: func.func @block
// FUSED-NOT: tensor.pad
// FUSED: isaac.conv ins(
// FUSED-SAME: padding = array<i64: 1, 1>
// FUSED: arith.addf
// FUSED: arith.maximumf
// FUSED: isaac.conv ins(
// FUSED-SAME: padding = array<i64: 1, 1>
// FUSED: arith.addf
// FUSED-NOT: tensor.pad
// FUSED-NOT: linalg.generic
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @block(%x: tensor<1x16x8x8xf32>, %w1: tensor<16x16x3x3xf32>, %b1: tensor<16xf32>, %w2: tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %z : f32
  } : tensor<1x16x8x8xf32> to tensor<1x16x10x10xf32>
  %e = tensor.empty() : tensor<1x16x8x8xf32>
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%p, %w1 : tensor<1x16x10x10xf32>, tensor<16x16x3x3xf32>) outs(%i : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %eb = tensor.empty() : tensor<1x16x8x8xf32>
  %bb = linalg.broadcast ins(%b1 : tensor<16xf32>) outs(%eb : tensor<1x16x8x8xf32>) dimensions = [0, 2, 3]
  %e1 = tensor.empty() : tensor<1x16x8x8xf32>
  %biased = linalg.add ins(%c1, %bb : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) outs(%e1 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%biased : tensor<1x16x8x8xf32>) outs(%e2 : tensor<1x16x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  } -> tensor<1x16x8x8xf32>
  %p2 = tensor.pad %relu low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %z : f32
  } : tensor<1x16x8x8xf32> to tensor<1x16x10x10xf32>
  %i2 = linalg.fill ins(%z : f32) outs(%e : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%p2, %w2 : tensor<1x16x10x10xf32>, tensor<16x16x3x3xf32>) outs(%i2 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  %e3 = tensor.empty() : tensor<1x16x8x8xf32>
  %sum = linalg.add ins(%c2, %x : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>) outs(%e3 : tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32>
  return %sum : tensor<1x16x8x8xf32>
}

// -----

// A 1x1 stride-1 NCHW convolution ends as a GEMM on the NHWC views.
// CHECK-LABEL: func.func @pointwise
// CHECK: linalg.matmul
// CHECK-NOT: linalg.conv
func.func @pointwise(%x: tensor<4x32x7x7xf32>, %w: tensor<64x32x1x1xf32>) -> tensor<4x64x7x7xf32> {
  %e = tensor.empty() : tensor<4x64x7x7xf32>
  %z = arith.constant 0.0 : f32
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<4x64x7x7xf32>) -> tensor<4x64x7x7xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<4x32x7x7xf32>, tensor<64x32x1x1xf32>) outs(%i : tensor<4x64x7x7xf32>) -> tensor<4x64x7x7xf32>
  return %c : tensor<4x64x7x7xf32>
}

// -----

// On memrefs: the input, filters and output are transposed into new
// buffers (device memory in the pipeline); a fill of the output just
// before the convolution fills the NHWC buffer instead, and the result is
// transposed back into the output.
// CHECK-LABEL: func.func @nchw_memrefs
// CHECK: %[[X:.*]] = memref.alloc() : memref<1x6x6x4xf32>
// CHECK: linalg.transpose ins(%arg0 : memref<1x4x6x6xf32>) outs(%[[X]] : memref<1x6x6x4xf32>) permutation = [0, 2, 3, 1]
// CHECK: %[[W:.*]] = memref.alloc() : memref<5x3x3x4xf32>
// CHECK: linalg.transpose ins(%arg1 : memref<5x4x3x3xf32>) outs(%[[W]] : memref<5x3x3x4xf32>) permutation = [0, 2, 3, 1]
// CHECK: %[[O:.*]] = memref.alloc() : memref<1x4x4x5xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[O]] : memref<1x4x4x5xf32>)
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}} ins(%[[X]], %[[W]] : memref<1x6x6x4xf32>, memref<5x3x3x4xf32>) outs(%[[O]] : memref<1x4x4x5xf32>)
// CHECK: linalg.transpose ins(%[[O]] : memref<1x4x4x5xf32>) outs(%arg2 : memref<1x5x4x4xf32>) permutation = [0, 3, 1, 2]
// CHECK-NOT: linalg.fill
func.func @nchw_memrefs(%x: memref<1x4x6x6xf32>, %w: memref<5x4x3x3xf32>, %o: memref<1x5x4x4xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%o : memref<1x5x4x4xf32>)
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x4x6x6xf32>, memref<5x4x3x3xf32>) outs(%o : memref<1x5x4x4xf32>)
  return
}

// -----

// Dynamic shapes are left alone (the generic GPU path takes them).
// CHECK-LABEL: func.func @dynamic
// CHECK: linalg.conv_2d_nchw_fchw
func.func @dynamic(%x: tensor<?x3x9x9xf32>, %w: tensor<8x3x3x3xf32>, %o: tensor<?x8x7x7xf32>) -> tensor<?x8x7x7xf32> {
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<?x3x9x9xf32>, tensor<8x3x3x3xf32>) outs(%o : tensor<?x8x7x7xf32>) -> tensor<?x8x7x7xf32>
  return %c : tensor<?x8x7x7xf32>
}
