// RUN: isaac-opt %s --isaac-offload -split-input-file -verify-diagnostics | FileCheck %s
// RUN: not isaac-opt %s --isaac-offload="strict=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT

// Convolutions on the generic GPU path: the remark says why isaac did not
// compile each one (ConvMatch.cpp's reasons); strict makes each an error.
// STRICT: error: isaac: 'linalg.conv_2d_nhwc_hwcf' runs on the generic GPU path (untuned): it carries an isaac.config but isaac-lower-to-gpu did not run
// STRICT: error: isaac: 'linalg.conv_2d_nhwc_hwcf' runs on the generic GPU path (untuned): no isaac.config
// STRICT: error: isaac: 'linalg.conv_2d_nchw_fchw' runs on the generic GPU path (untuned): an NCHW convolution is compiled as an NHWC one by isaac-conv-to-gemm
// STRICT: error: isaac: 'linalg.depthwise_conv_2d_nhwc_hwc' runs on the generic GPU path (untuned): isaac compiles 2-D convolutions of NHWC inputs only
// CHECK-LABEL: func.func @convs(
// CHECK-COUNT-4: gpu.launch
func.func @convs(%in: memref<1x10x10x8xf32>, %f: memref<3x3x8x8xf32>, %out: memref<1x8x8x8xf32>,
                 %nchw: memref<1x8x10x10xf32>, %fchw: memref<8x8x3x3xf32>,
                 %dw: memref<3x3x8xf32>) {
  // expected-remark @below {{isaac: 'linalg.conv_2d_nhwc_hwcf' runs on the generic GPU path (untuned): it carries an isaac.config but isaac-lower-to-gpu did not run before isaac-offload}}
  linalg.conv_2d_nhwc_hwcf {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2>}
    ins(%in, %f : memref<1x10x10x8xf32>, memref<3x3x8x8xf32>) outs(%out : memref<1x8x8x8xf32>)
  // expected-remark @below {{isaac: 'linalg.conv_2d_nhwc_hwcf' runs on the generic GPU path (untuned): no isaac.config (run isaac-select-config first)}}
  linalg.conv_2d_nhwc_hwcf ins(%in, %f : memref<1x10x10x8xf32>, memref<3x3x8x8xf32>) outs(%out : memref<1x8x8x8xf32>)
  // expected-remark @below {{isaac: 'linalg.conv_2d_nchw_fchw' runs on the generic GPU path (untuned): an NCHW convolution is compiled as an NHWC one by isaac-conv-to-gemm, which takes static shapes on tensors or packed memrefs}}
  linalg.conv_2d_nchw_fchw ins(%nchw, %fchw : memref<1x8x10x10xf32>, memref<8x8x3x3xf32>) outs(%out : memref<1x8x8x8xf32>)
  // expected-remark @below {{isaac: 'linalg.depthwise_conv_2d_nhwc_hwc' runs on the generic GPU path (untuned): isaac compiles 2-D convolutions of NHWC inputs only (linalg.conv_2d_nhwc_hwcf, linalg.conv_2d_nhwc_fhwc; linalg.conv_2d_nchw_fchw through isaac-conv-to-gemm)}}
  linalg.depthwise_conv_2d_nhwc_hwc ins(%in, %dw : memref<1x10x10x8xf32>, memref<3x3x8xf32>) outs(%out : memref<1x8x8x8xf32>)
  return
}
