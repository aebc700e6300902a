// Convolutions are ranked by the conv model <model-dir>/<chip>/conv-<dtype>.mlp
// where that file exists (ConvMLPSearch), by the analytic heuristic
// otherwise; the remark says which. Inputs/conv-models holds tiny test
// models trained on SYNTHETIC data (27-16-16-1; f16 an ensemble of two),
// regenerated with:
//   isaac-model-test conv-synthetic 5 20000 10 f32 sm_90 > syn-f32.csv
//   isaac-model-test conv-synthetic 6 20000 10 f16 sm_90 > syn-f16.csv
//   python3 tools/isaac-tune/train.py syn-f32.csv --chip sm_90 --dtype f32 \
//     --arch 16,16 --epochs 20 --seed 1 \
//     --out test/Transforms/Inputs/conv-models/sm_90/conv-f32.mlp
//   python3 tools/isaac-tune/train.py syn-f16.csv --chip sm_90 --dtype f16 \
//     --arch 16,16 --epochs 20 --seed 1 --ensemble 2 \
//     --out test/Transforms/Inputs/conv-models/sm_90/conv-f16.mlp
//
// RUN: isaac-opt %s --isaac-select-config="model-dir=%S/Inputs/conv-models" -verify-diagnostics | FileCheck %s
// The best of the top 4 is the configuration chosen with topk=1, and one
// thread chooses what all do.
// RUN: isaac-opt %s --isaac-select-config="model-dir=%S/Inputs/conv-models" 2>/dev/null | grep -o 'isaac.config = #isaac.gemm<[^>]*>' > %t.top1
// RUN: isaac-opt %s --isaac-select-config="model-dir=%S/Inputs/conv-models topk=4" 2>/dev/null | grep -o 'isaac.config = #isaac.gemm<[^>]*>' > %t.top4
// RUN: diff %t.top1 %t.top4
// RUN: isaac-opt %s --isaac-select-config="model-dir=%S/Inputs/conv-models" -mlir-disable-threading 2>/dev/null | grep -o 'isaac.config = #isaac.gemm<[^>]*>' > %t.one
// RUN: diff %t.top1 %t.one
// The model's choice is not the heuristic's (the synthetic models are
// trained on the analytic model plus noise, but the search would have to
// be broken for all four to agree exactly).
// RUN: isaac-opt %s --isaac-select-config="model-dir=none" 2>/dev/null | grep -o 'isaac.config = #isaac.gemm<[^>]*>' > %t.heuristic
// RUN: not diff %t.top1 %t.heuristic > /dev/null

// CHECK-LABEL: func.func @f32
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, isaac.config = #isaac.gemm<ml = {{[0-9]+}}, nl = {{[0-9]+}}, ms = {{[0-9]+}}, ns = {{[0-9]+}}, u = {{[0-9]+}}, ks = {{[0-9]+}}, kl = {{[0-9]+}}, kg = {{[0-9]+}}, vec = {{[0-9]+}}>
// Three input channels: no vec but 1 divides C, and the model's choice
// follows the conv rules.
// CHECK: linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, isaac.config = #isaac.gemm<{{[^>]*}}vec = 1>
func.func @f32(%in: memref<2x34x34x64xf32>, %f: memref<3x3x64x128xf32>, %out: memref<2x32x32x128xf32>,
               %rgb: memref<4x66x66x3xf32>, %f3: memref<32x3x3x3xf32>, %o3: memref<4x64x64x32xf32>) {
  // expected-remark-re @below {{isaac: convolution configured as its implicit GEMM 2048x128x576 (N*P*Q x K x C*R*S), simt family, by the trained model {{.*}}/Inputs/conv-models/sm_90/conv-f32.mlp (trained on SYNTHETIC data, not measurements)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %f : memref<2x34x34x64xf32>, memref<3x3x64x128xf32>) outs(%out : memref<2x32x32x128xf32>)
  // expected-remark-re @below {{isaac: convolution configured as its implicit GEMM 16384x32x27 (N*P*Q x K x C*R*S), simt family, by the trained model {{.*}}conv-f32.mlp}}
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%rgb, %f3 : memref<4x66x66x3xf32>, memref<32x3x3x3xf32>) outs(%o3 : memref<4x64x64x32xf32>)
  return
}

// f16 on the mma family, by its model (an ensemble); f64 has no model
// here: the heuristic, and the remark names the file it looked for; bf16,
// without a conv-bf16.mlp, is ranked by the f16 model, and the remark says
// so; a GEMM is ranked by gemm-<dtype>.mlp, which this directory lacks.
// CHECK-LABEL: func.func @others
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}isaac.config = #isaac.gemm<family = mma,
func.func @others(%h: memref<8x30x30x32xf16>, %fh: memref<3x3x32x64xf16>, %oh: memref<8x28x28x64xf16>,
                  %d: memref<1x18x18x8xf64>, %fd: memref<3x3x8x16xf64>, %od: memref<1x16x16x16xf64>,
                  %b: memref<1x18x18x8xbf16>, %fb: memref<16x3x3x8xbf16>, %ob: memref<1x16x16x16xbf16>,
                  %A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-remark-re @below {{isaac: convolution configured as its implicit GEMM 6272x64x288 (N*P*Q x K x C*R*S), mma family, by the trained model {{.*}}conv-f16.mlp (trained on SYNTHETIC data, not measurements)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%h, %fh : memref<8x30x30x32xf16>, memref<3x3x32x64xf16>) outs(%oh : memref<8x28x28x64xf16>)
  // expected-remark-re @below {{isaac: convolution configured as its implicit GEMM 256x16x72 (N*P*Q x K x C*R*S), mma family, by the analytic heuristic (no conv model: no file {{.*}}conv-models{{/|\\}}sm_90{{/|\\}}conv-f64-mma.mlp)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%d, %fd : memref<1x18x18x8xf64>, memref<3x3x8x16xf64>) outs(%od : memref<1x16x16x16xf64>)
  // expected-remark-re @below {{isaac: convolution configured as its implicit GEMM 256x16x72 (N*P*Q x K x C*R*S), mma family, by the trained model {{.*}}conv-models{{/|\\}}sm_90{{/|\\}}conv-f16.mlp (trained on SYNTHETIC data, not measurements; f16 timings rank bf16: no bf16 conv model, and the kernels differ only in the element type)}}
  linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%b, %fb : memref<1x18x18x8xbf16>, memref<16x3x3x8xbf16>) outs(%ob : memref<1x16x16x16xbf16>)
  // expected-remark-re @below {{isaac: no trained model for sm_90; configuration chosen by the analytic heuristic (no file {{.*}}gemm-f32.mlp)}}
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// The f16 model's stand-in ranking of a bf16 convolution is its ranking of
// the same convolution in f16.
// CHECK-LABEL: func.func @bf16_as_f16
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}isaac.config = [[CFG:#isaac.gemm<[^>]*>]]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}}isaac.config = [[CFG]]
func.func @bf16_as_f16(%b: memref<4x30x30x64xbf16>, %fb: memref<3x3x64x96xbf16>, %ob: memref<4x28x28x96xbf16>,
                       %h: memref<4x30x30x64xf16>, %fh: memref<3x3x64x96xf16>, %oh: memref<4x28x28x96xf16>) {
  // expected-remark-re @below {{{{.*}}conv-f16.mlp (trained on SYNTHETIC data, not measurements; f16 timings rank bf16{{.*}}}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%b, %fb : memref<4x30x30x64xbf16>, memref<3x3x64x96xbf16>) outs(%ob : memref<4x28x28x96xbf16>)
  // expected-remark-re @below {{{{.*}}conv-f16.mlp (trained on SYNTHETIC data, not measurements)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%h, %fh : memref<4x30x30x64xf16>, memref<3x3x64x96xf16>) outs(%oh : memref<4x28x28x96xf16>)
  return
}
