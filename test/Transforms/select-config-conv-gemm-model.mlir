// A convolution whose family has no conv model is ranked by that family's
// GEMM model on its implicit GEMM where there is one (f64 on DMMA: the
// shipped models/sm_90 has gemm-f64-mma.mlp and no conv-f64-mma.mlp), so
// it gets the configuration the GEMM of the same shape gets (the conv
// rules admitting it); without either model, the analytic heuristic.
// RUN: rm -rf %t && mkdir -p %t/gemm/sm_90 %t/empty/sm_90
// RUN: cp %isaac_src/models/sm_90/gemm-f64-mma.mlp %t/gemm/sm_90/
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90 model-dir=%t/gemm" -verify-diagnostics | FileCheck %s
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90 model-dir=%t/empty" 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: mma family, by the analytic heuristic (no conv model: no file {{.*}}conv-f64-mma.mlp)

// CHECK-LABEL: func.func @conv
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}isaac.config = [[CFG:#isaac.gemm<[^>]*>]]
func.func @conv(%I: memref<2x18x18x32xf64>, %F: memref<3x3x32x64xf64>, %O: memref<2x16x16x64xf64>) {
  // expected-remark-re @below {{isaac: convolution configured as its implicit GEMM 512x64x288 (N*P*Q x K x C*R*S), mma family, by the trained GEMM model {{.*}}gemm-f64-mma.mlp on the implicit GEMM (no conv model: no file {{.*}}conv-f64-mma.mlp)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %F : memref<2x18x18x32xf64>, memref<3x3x32x64xf64>) outs(%O : memref<2x16x16x64xf64>)
  return
}

// CHECK-LABEL: func.func @gemm
// CHECK: linalg.matmul {isaac.config = [[CFG]]}
func.func @gemm(%A: memref<512x288xf64>, %B: memref<288x64xf64>, %C: memref<512x64xf64>) {
  // expected-remark-re @below {{isaac: configuration chosen by the trained model {{.*}}gemm-f64-mma.mlp (trained on measurements)}}
  linalg.matmul ins(%A, %B : memref<512x288xf64>, memref<288x64xf64>) outs(%C : memref<512x64xf64>)
  return
}
