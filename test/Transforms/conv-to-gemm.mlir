// RUN: isaac-opt %s --isaac-conv-to-gemm -split-input-file | FileCheck %s

// A 1x1 stride-1 convolution on tensors is the GEMM (N*H*W x C)(C x K) on
// collapsed views; the fill of its empty init is made again in 2-D so that
// isaac-fuse-epilogues sees it, and the result is expanded back.
// CHECK-LABEL: func.func @hwcf_tensors
// CHECK-DAG: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2], [3]] : tensor<2x7x7x64xf32> into tensor<98x64xf32>
// CHECK-DAG: %[[B:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1, 2], [3]] : tensor<1x1x64x256xf32> into tensor<64x256xf32>
// CHECK-DAG: %[[E:.*]] = tensor.empty() : tensor<98x256xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<98x256xf32>)
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<98x64xf32>, tensor<64x256xf32>) outs(%[[F]] : tensor<98x256xf32>)
// CHECK: %[[R:.*]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1, 2], [3]] output_shape [2, 7, 7, 256]
// CHECK: return %[[R]]
// CHECK-NOT: linalg.conv
func.func @hwcf_tensors(%x: tensor<2x7x7x64xf32>, %w: tensor<1x1x64x256xf32>) -> tensor<2x7x7x256xf32> {
  %e = tensor.empty() : tensor<2x7x7x256xf32>
  %z = arith.constant 0.0 : f32
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<2x7x7x256xf32>) -> tensor<2x7x7x256xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<2x7x7x64xf32>, tensor<1x1x64x256xf32>) outs(%i : tensor<2x7x7x256xf32>) -> tensor<2x7x7x256xf32>
  return %c : tensor<2x7x7x256xf32>
}

// -----

// FHWC filters are B stored N x K (transposed through the maps); on memrefs
// the output's fill moves onto the collapsed view (the GEMM's beta = 0);
// the dilation of a 1x1 filter changes nothing.
// CHECK-LABEL: func.func @fhwc_memrefs
// CHECK: memref.collapse_shape %arg1 {{\[\[}}0], [1, 2, 3]] : memref<256x1x1x64xf32> into memref<256x64xf32>
// CHECK: %[[C:.*]] = memref.collapse_shape %arg2 {{\[\[}}0, 1, 2], [3]] : memref<2x7x7x256xf32> into memref<98x256xf32>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[C]] : memref<98x256xf32>)
// CHECK-NEXT: linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%{{.*}}, %{{.*}} : memref<98x64xf32>, memref<256x64xf32>) outs(%[[C]] : memref<98x256xf32>)
// CHECK-NOT: linalg.conv
func.func @fhwc_memrefs(%x: memref<2x7x7x64xf32>, %w: memref<256x1x1x64xf32>, %o: memref<2x7x7x256xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%o : memref<2x7x7x256xf32>)
  linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<2x7x7x64xf32>, memref<256x1x1x64xf32>) outs(%o : memref<2x7x7x256xf32>)
  return
}

// -----

// Not pointwise GEMMs: a 3x3 filter, a stride of 2, a strided memref.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: linalg.conv_2d_nhwc_hwcf
// CHECK-NOT: linalg.matmul
func.func @left_alone(%x: memref<1x8x8x4xf32>, %w3: memref<3x3x4x8xf32>, %o3: memref<1x6x6x8xf32>,
                      %w1: memref<1x1x4x8xf32>, %o2: memref<1x4x4x8xf32>,
                      %xs: memref<1x8x8x4xf32, strided<[512, 64, 8, 1]>>, %o1: memref<1x8x8x8xf32>) {
  linalg.conv_2d_nhwc_hwcf ins(%x, %w3 : memref<1x8x8x4xf32>, memref<3x3x4x8xf32>) outs(%o3 : memref<1x6x6x8xf32>)
  linalg.conv_2d_nhwc_hwcf {strides = dense<2> : tensor<2xi64>}
    ins(%x, %w1 : memref<1x8x8x4xf32>, memref<1x1x4x8xf32>) outs(%o2 : memref<1x4x4x8xf32>)
  linalg.conv_2d_nhwc_hwcf ins(%xs, %w1 : memref<1x8x8x4xf32, strided<[512, 64, 8, 1]>>, memref<1x1x4x8xf32>) outs(%o1 : memref<1x8x8x8xf32>)
  return
}
