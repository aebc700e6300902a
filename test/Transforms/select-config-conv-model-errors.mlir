// A conv model file that cannot rank the convolution is an error naming
// it, not a fallback: a GEMM model under a conv model's name, a conv model
// under a GEMM model's, another dtype's model. A support that holds no
// legal configuration of the convolution leaves it to the heuristic, with
// a remark that says why.
//
// RUN: rm -rf %t && mkdir -p %t/gemm/sm_90 %t/conv/sm_90 %t/dtype/sm_90 %t/support/sm_90
// RUN: cp %S/Inputs/models/sm_90/gemm-f32.mlp %t/gemm/sm_90/conv-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/gemm" 2>&1 | FileCheck %s --check-prefix=GEMM
// GEMM: error: isaac: cannot use the trained conv model: {{.*}}conv-f32.mlp: the model ranks GEMMs (its features are a GEMM model's), not convolutions
// RUN: cp %S/Inputs/conv-models/sm_90/conv-f32.mlp %t/conv/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/conv" 2>&1 | FileCheck %s --check-prefix=CONV
// CONV: error: isaac: cannot use the trained model: {{.*}}gemm-f32.mlp: the model ranks convolutions (its features are a conv model's), not GEMMs
// RUN: cp %S/Inputs/conv-models/sm_90/conv-f16.mlp %t/dtype/sm_90/conv-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/dtype" 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: error: isaac: cannot use the trained conv model: {{.*}}conv-f32.mlp: the model is for f16 on sm_90, not f32 on sm_90
// RUN: %python %S/Inputs/edit-model.py %S/Inputs/conv-models/sm_90/conv-f32.mlp '^support vec .*$' 'support vec 8' > %t/support/sm_90/conv-f32.mlp
// RUN: isaac-opt %s --isaac-select-config="model-dir=%t/support" 2>&1 >/dev/null | FileCheck %s --check-prefix=SUPPORT
// SUPPORT: remark: isaac: convolution configured as its implicit GEMM 1024x32x144 (N*P*Q x K x C*R*S), simt family, by the analytic heuristic: every legal configuration lies outside the training support of {{.*}}conv-f32.mlp (ml {{.*}}; vec 8)
// RUN: isaac-opt %s --isaac-select-config="model-dir=%t/support" 2>/dev/null | grep -o 'isaac.config = #isaac.gemm<[^>]*>' | head -1 > %t/support.cfg
// RUN: isaac-opt %s --isaac-select-config="model-dir=none" 2>/dev/null | grep -o 'isaac.config = #isaac.gemm<[^>]*>' | head -1 > %t/heuristic.cfg
// RUN: diff %t/support.cfg %t/heuristic.cfg

func.func @conv(%in: memref<1x34x34x16xf32>, %f: memref<3x3x16x32xf32>, %out: memref<1x32x32x32xf32>,
                %A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %f : memref<1x34x34x16xf32>, memref<3x3x16x32xf32>) outs(%out : memref<1x32x32x32xf32>)
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
