// RUN: isaac-opt %s --isaac-conv-to-gemm -split-input-file | FileCheck %s
// RUN: isaac-opt %s --isaac-conv-to-gemm --isaac-fuse-epilogues -split-input-file 2>/dev/null | FileCheck %s --check-prefix=FUSED

// A 1x1 stride-1 convolution on tensors is the GEMM (N*H*W x C)(C x K) on
// collapsed views; the fill of its empty init is made again on the 2-D view
// so that isaac-fuse-epilogues sees it, and the result is expanded back.
// CHECK-LABEL: func.func @hwcf_tensors
// CHECK-DAG: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2], [3]] : tensor<2x7x7x64xf32> into tensor<98x64xf32>
// CHECK-DAG: %[[B:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1, 2], [3]] : tensor<1x1x64x256xf32> into tensor<64x256xf32>
// CHECK-DAG: %[[E:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<2x7x7x256xf32> into tensor<98x256xf32>
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

// -----

// The elementwise ops after a rewritten 1x1 convolution (a per-channel bias
// through linalg.add of a broadcast, then relu with a residual in a generic)
// move onto the 2-D view with it, their 4-D operands collapsed, so that
// isaac-fuse-epilogues fuses them into the GEMM; the result is expanded
// once, at the end; a broadcast bias is read from the vector. A per-image
// operand stops the sinking.
// CHECK-LABEL: func.func @epilogue_follows
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: %[[ADD:.*]] = linalg.generic {{.*}} ins(%[[M]], %arg2 : tensor<98x256xf32>, tensor<256xf32>)
// CHECK: %[[RES:.*]] = tensor.collapse_shape %arg3 {{\[\[}}0, 1, 2], [3]]
// CHECK: %[[RELU:.*]] = linalg.generic {indexing_maps = [#[[ID:.*]], #[[COL:.*]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[ADD]], %arg2, %[[RES]] : tensor<98x256xf32>, tensor<256xf32>, tensor<98x256xf32>)
// CHECK: %[[X:.*]] = tensor.expand_shape %[[RELU]] {{\[\[}}0, 1, 2], [3]] output_shape [2, 7, 7, 256]
// CHECK: linalg.generic {{.*}} ins(%[[X]], %arg4 : tensor<2x7x7x256xf32>, tensor<2x256xf32>)
func.func @epilogue_follows(%x: tensor<2x7x7x64xf32>, %w: tensor<1x1x64x256xf32>, %b: tensor<256xf32>,
                            %res: tensor<2x7x7x256xf32>, %s: tensor<2x256xf32>) -> tensor<2x7x7x256xf32> {
  %e = tensor.empty() : tensor<2x7x7x256xf32>
  %z = arith.constant 0.0 : f32
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<2x7x7x256xf32>) -> tensor<2x7x7x256xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<2x7x7x64xf32>, tensor<1x1x64x256xf32>) outs(%i : tensor<2x7x7x256xf32>) -> tensor<2x7x7x256xf32>
  %bb = linalg.broadcast ins(%b : tensor<256xf32>) outs(%e : tensor<2x7x7x256xf32>) dimensions = [0, 1, 2]
  %a = linalg.add ins(%c, %bb : tensor<2x7x7x256xf32>, tensor<2x7x7x256xf32>) outs(%e : tensor<2x7x7x256xf32>) -> tensor<2x7x7x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, h, w, k) -> (n, h, w, k)>, affine_map<(n, h, w, k) -> (k)>, affine_map<(n, h, w, k) -> (n, h, w, k)>, affine_map<(n, h, w, k) -> (n, h, w, k)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a, %b, %res : tensor<2x7x7x256xf32>, tensor<256xf32>, tensor<2x7x7x256xf32>) outs(%e : tensor<2x7x7x256xf32>) {
  ^bb0(%v: f32, %bias: f32, %rr: f32, %o: f32):
    %t = arith.addf %v, %rr : f32
    %m = arith.maximumf %t, %z : f32
    linalg.yield %m : f32
  } -> tensor<2x7x7x256xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, h, w, k) -> (n, h, w, k)>, affine_map<(n, h, w, k) -> (n, k)>, affine_map<(n, h, w, k) -> (n, h, w, k)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r, %s : tensor<2x7x7x256xf32>, tensor<2x256xf32>) outs(%e : tensor<2x7x7x256xf32>) {
  ^bb0(%v: f32, %sc: f32, %o: f32):
    %m = arith.mulf %v, %sc : f32
    linalg.yield %m : f32
  } -> tensor<2x7x7x256xf32>
  return %y : tensor<2x7x7x256xf32>
}

// -----

// A 1-D convolution is the 2-D one of height 1 on 4-D views of the same
// bytes (stride and dilation along the width); the fill of its empty init
// is made again in 4-D, the result collapsed back.
// CHECK-LABEL: func.func @conv1d_tensors
// CHECK-DAG: %[[X:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2], [3]] output_shape [4, 1, 40, 16] : tensor<4x40x16xf32> into tensor<4x1x40x16xf32>
// CHECK-DAG: %[[W:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3]] output_shape [1, 5, 16, 32] : tensor<5x16x32xf32> into tensor<1x5x16x32xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<4x1x16x32xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%[[X]], %[[W]] : tensor<4x1x40x16xf32>, tensor<1x5x16x32xf32>) outs(%[[F]] : tensor<4x1x16x32xf32>)
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0, 1], [2], [3]] : tensor<4x1x16x32xf32> into tensor<4x16x32xf32>
// CHECK: return %[[R]]
// CHECK-NOT: linalg.conv_1d
func.func @conv1d_tensors(%x: tensor<4x40x16xf32>, %w: tensor<5x16x32xf32>) -> tensor<4x16x32xf32> {
  %e = tensor.empty() : tensor<4x16x32xf32>
  %z = arith.constant 0.0 : f32
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<4x16x32xf32>) -> tensor<4x16x32xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
    ins(%x, %w : tensor<4x40x16xf32>, tensor<5x16x32xf32>) outs(%i : tensor<4x16x32xf32>) -> tensor<4x16x32xf32>
  return %c : tensor<4x16x32xf32>
}

// -----

// The elementwise ops after a 1-D convolution (a per-channel bias, a
// residual of the output's shape, relu) move onto the 4-D view before the
// collapse, so that isaac-fuse-epilogues fuses them into the conv kernel.
// CHECK-LABEL: func.func @conv1d_bias_residual
// CHECK: %[[C:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK: %[[RES:.*]] = tensor.expand_shape %arg3 {{\[\[}}0, 1], [2], [3]] output_shape [4, 1, 36, 32] : tensor<4x36x32xf32> into tensor<4x1x36x32xf32>
// CHECK: %[[B:.*]] = linalg.generic {indexing_maps = [#[[ID:.*]], #[[CH:.*]], #[[ID]], #[[ID]]], {{.*}} ins(%[[C]], %arg2, %[[RES]] : tensor<4x1x36x32xf32>, tensor<32xf32>, tensor<4x1x36x32xf32>)
// CHECK: %[[A:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<4x1x36x32xf32>)
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2], [3]] : tensor<4x1x36x32xf32> into tensor<4x36x32xf32>
// CHECK: return %[[R]]
// FUSED-LABEL: func.func @conv1d_bias_residual
// FUSED: isaac.conv ins(
// FUSED: arith.maximumf
// FUSED-NOT: linalg.generic
#id3 = affine_map<(n, q, k) -> (n, q, k)>
#ch3 = affine_map<(n, q, k) -> (k)>
func.func @conv1d_bias_residual(%x: tensor<4x40x16xf32>, %w: tensor<5x16x32xf32>, %b: tensor<32xf32>, %r: tensor<4x36x32xf32>) -> tensor<4x36x32xf32> {
  %e = tensor.empty() : tensor<4x36x32xf32>
  %z = arith.constant 0.0 : f32
  %i = linalg.fill ins(%z : f32) outs(%e : tensor<4x36x32xf32>) -> tensor<4x36x32xf32>
  %c = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
    ins(%x, %w : tensor<4x40x16xf32>, tensor<5x16x32xf32>) outs(%i : tensor<4x36x32xf32>) -> tensor<4x36x32xf32>
  %y = linalg.generic {indexing_maps = [#id3, #ch3, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %b, %r : tensor<4x36x32xf32>, tensor<32xf32>, tensor<4x36x32xf32>) outs(%e : tensor<4x36x32xf32>) {
  ^bb0(%acc: f32, %bias: f32, %res: f32, %o: f32):
    %s = arith.addf %acc, %bias : f32
    %t = arith.addf %s, %res : f32
    linalg.yield %t : f32
  } -> tensor<4x36x32xf32>
  %a = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y : tensor<4x36x32xf32>) outs(%e : tensor<4x36x32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = arith.maximumf %v, %z : f32
    linalg.yield %m : f32
  } -> tensor<4x36x32xf32>
  return %a : tensor<4x36x32xf32>
}

// -----

// On memrefs: views of the operands, the same op in place.
// CHECK-LABEL: func.func @conv1d_memrefs
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : memref<2x1x9x8xf32>, memref<1x3x8x4xf32>) outs(%{{.*}} : memref<2x1x7x4xf32>)
func.func @conv1d_memrefs(%x: memref<2x9x8xf32>, %w: memref<3x8x4xf32>, %o: memref<2x7x4xf32>) {
  linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
    ins(%x, %w : memref<2x9x8xf32>, memref<3x8x4xf32>) outs(%o : memref<2x7x4xf32>)
  return
}
