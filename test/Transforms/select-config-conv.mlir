// RUN: isaac-opt %s --isaac-select-config="model-dir=none" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: isaac-opt %s --isaac-select-config="topk=3 model-dir=none" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=TOPK

// Convolutions get the #isaac.gemm of their implicit GEMM (M = N*P*Q,
// N = K, K = C*R*S), simt, ranked by the analytic heuristic where no conv
// model exists (select-config-conv-model.mlir has one); the remark gives
// the GEMM's dimensions.
// CHECK-LABEL: func.func @hwcf
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, isaac.config = #isaac.gemm<ml = {{[0-9]+}}, nl = {{[0-9]+}}, ms = {{[0-9]+}}, ns = {{[0-9]+}}, u = {{[0-9]+}}, ks = {{[0-9]+}}, kl = {{[0-9]+}}, kg = {{[0-9]+}}, vec = {{[0-9]+}}>, strides = dense<1> : tensor<2xi64>}
// TOPK-LABEL: func.func @hwcf
// TOPK: isaac.candidates = [#isaac.gemm<{{[^>]*}}>, #isaac.gemm<{{[^>]*}}>, #isaac.gemm<{{[^>]*}}>]
func.func @hwcf(%in: memref<1x34x34x16xf32>, %f: memref<3x3x16x32xf32>, %out: memref<1x32x32x32xf32>) {
  // expected-remark @below {{isaac: convolution configured as its implicit GEMM 1024x32x144 (N*P*Q x K x C*R*S), simt family, by the analytic heuristic (no conv model: }}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %f : memref<1x34x34x16xf32>, memref<3x3x16x32xf32>) outs(%out : memref<1x32x32x32xf32>)
  return
}

// -----

// Tensors, filters K-major, f64, stride 2 and dilation 2 from the
// attributes: P = Q = (33 - 2*2 - 1) / 2 + 1 = 15.
// CHECK-LABEL: func.func @fhwc_strided
// CHECK: linalg.conv_2d_nhwc_fhwc {{{.*}}isaac.config = #isaac.gemm<
func.func @fhwc_strided(%in: tensor<2x33x33x8xf64>, %f: tensor<24x3x3x8xf64>, %out: tensor<2x15x15x24xf64>) -> tensor<2x15x15x24xf64> {
  // expected-remark @below {{isaac: convolution configured as its implicit GEMM 450x24x72 (N*P*Q x K x C*R*S)}}
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %f : tensor<2x33x33x8xf64>, tensor<24x3x3x8xf64>) outs(%out : tensor<2x15x15x24xf64>) -> tensor<2x15x15x24xf64>
  return %r : tensor<2x15x15x24xf64>
}

// -----

// Three input channels: a vec-wide input load must stay within one filter
// tap (conv-vector-channels), so the chosen configuration loads scalars.
// CHECK-LABEL: func.func @rgb
// CHECK: isaac.config = #isaac.gemm<{{.*}}, vec = 1>
// TOPK-LABEL: func.func @rgb
// TOPK: isaac.candidates = [#isaac.gemm<{{[^>]*}}vec = 1>, #isaac.gemm<{{[^>]*}}vec = 1>, #isaac.gemm<{{[^>]*}}vec = 1>]
func.func @rgb(%in: memref<1x230x230x3xf32>, %f: memref<7x7x3x64xf32>, %out: memref<1x112x112x64xf32>) {
  // expected-remark @below {{implicit GEMM 12544x64x147}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %f : memref<1x230x230x3xf32>, memref<7x7x3x64xf32>) outs(%out : memref<1x112x112x64xf32>)
  return
}

// -----

// A user-written configuration is kept.
// CHECK-LABEL: func.func @given
// CHECK: isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2>
func.func @given(%in: memref<1x10x10x6xf32>, %f: memref<3x3x6x8xf32>, %out: memref<1x8x8x8xf32>) {
  // expected-remark @below {{isaac: configuration given in the input (isaac.config); kept as written}}
  linalg.conv_2d_nhwc_hwcf {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2>}
    ins(%in, %f : memref<1x10x10x6xf32>, memref<3x3x6x8xf32>) outs(%out : memref<1x8x8x8xf32>)
  return
}

// -----

// Convolutions isaac does not compile are left alone, each with the reason.
// CHECK-LABEL: func.func @unsupported
// CHECK-NOT: isaac.config
func.func @unsupported(%d: memref<?x10x10x8xf32>, %fd: memref<3x3x8x8xf32>, %od: memref<?x8x8x8xf32>,
                       %s32: memref<1x10x10x8xf32>, %oh: memref<1x8x8x8xf16>,
                       %i: memref<1x10x10x8xi32>, %fi: memref<3x3x8x8xi32>, %oi: memref<1x8x8x8xi32>,
                       %s: memref<1x10x10x8xf32, strided<[1600, 160, 16, 1]>>, %f: memref<3x3x8x8xf32>, %o: memref<1x8x8x8xf32>,
                       %nchw: memref<1x8x10x10xf32>, %fchw: memref<8x8x3x3xf32>, %onchw: memref<1x8x8x8xf32>) {
  // expected-remark @below {{isaac: left untouched: dynamic shapes are not supported (kernel configurations are chosen per static shape)}}
  linalg.conv_2d_nhwc_hwcf ins(%d, %fd : memref<?x10x10x8xf32>, memref<3x3x8x8xf32>) outs(%od : memref<?x8x8x8xf32>)
  // expected-remark @below {{isaac: left untouched: an output of f16 with f32 operands is not supported (the operands' type; f32 for f16 and bf16)}}
  linalg.conv_2d_nhwc_hwcf ins(%s32, %f : memref<1x10x10x8xf32>, memref<3x3x8x8xf32>) outs(%oh : memref<1x8x8x8xf16>)
  // expected-remark @below {{isaac: left untouched: element type i32 is not supported (f16, bf16, f32, f64)}}
  linalg.conv_2d_nhwc_hwcf ins(%i, %fi : memref<1x10x10x8xi32>, memref<3x3x8x8xi32>) outs(%oi : memref<1x8x8x8xi32>)
  // expected-remark @below {{isaac: left untouched: operand memref<1x10x10x8xf32, strided<[1600, 160, 16, 1]>> is not packed (the conv kernels read row-major operands without gaps)}}
  linalg.conv_2d_nhwc_hwcf ins(%s, %f : memref<1x10x10x8xf32, strided<[1600, 160, 16, 1]>>, memref<3x3x8x8xf32>) outs(%o : memref<1x8x8x8xf32>)
  // Another layout: not an operation isaac-select-config looks at (the
  // generic GPU path's remark says why, see offload-ops.mlir).
  linalg.conv_2d_nchw_fchw ins(%nchw, %fchw : memref<1x8x10x10xf32>, memref<8x8x3x3xf32>) outs(%onchw : memref<1x8x8x8xf32>)
  return
}

// -----

// 16-bit convolutions take the mma family (tensor cores), into an output
// of their type or f32; an odd C only the narrowest vec (2: 4-byte copies).
// CHECK-LABEL: func.func @half
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, isaac.config = #isaac.gemm<family = mma, {{.*}}vec = {{[248]}}, stages = {{[0-9]+}}>
// CHECK: linalg.conv_2d_nhwc_fhwc {{.*}}isaac.config = #isaac.gemm<family = mma, {{.*}}vec = {{[248]}}, stages = {{[0-9]+}}>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}isaac.config = #isaac.gemm<family = mma, {{.*}}vec = 2, stages = {{[0-9]+}}>
func.func @half(%h: memref<2x18x18x32xf16>, %fh: memref<3x3x32x64xf16>, %oh: memref<2x16x16x64xf16>,
                %b: memref<2x18x18x32xbf16>, %fb: memref<64x3x3x32xbf16>, %ob: memref<2x16x16x64xf32>,
                %h3: memref<1x18x18x3xf16>, %fh3: memref<3x3x3x64xf16>, %oh3: memref<1x16x16x64xf16>) {
  // expected-remark @below {{isaac: convolution configured as its implicit GEMM 512x64x288 (N*P*Q x K x C*R*S), mma family, by the analytic heuristic}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%h, %fh : memref<2x18x18x32xf16>, memref<3x3x32x64xf16>) outs(%oh : memref<2x16x16x64xf16>)
  // expected-remark @below {{isaac: convolution configured as its implicit GEMM 512x64x288 (N*P*Q x K x C*R*S), mma family}}
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%b, %fb : memref<2x18x18x32xbf16>, memref<64x3x3x32xbf16>) outs(%ob : memref<2x16x16x64xf32>)
  // expected-remark @below {{isaac: convolution configured as its implicit GEMM 256x64x27 (N*P*Q x K x C*R*S), mma family}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%h3, %fh3 : memref<1x18x18x3xf16>, memref<3x3x3x64xf16>) outs(%oh3 : memref<1x16x16x64xf16>)
  return
}
