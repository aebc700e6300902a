// A convolution block on tensors as a frontend emits it (tensor.empty + zero
// fill, conv_2d_nhwc_hwcf, per-channel bias + relu in a generic) through the
// whole pipeline: the convolution is isaac's conv kernel launched through
// isaacConvLaunch with beta = 0 (the fill is gone), the bias + relu runs on
// the generic GPU path (convolution epilogues are not fused yet), nothing
// else is left on the host, and the output translates to LLVM IR.
// RUN: rm -rf %t && mkdir -p %t
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_90 ptx-dir=%t/ptx" -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t/out.mlir --implicit-check-not=tensor --implicit-check-not=linalg.
// RUN: mlir-translate --mlir-to-llvmir %t/out.mlir | FileCheck %s --check-prefix=LLVM
// RUN: ls %t/ptx | FileCheck %s --check-prefix=PTX

// REMARK: pipeline-conv.mlir:[[@LINE+15]]:8: remark: isaac: convolution configured as its implicit GEMM 392x64x288 (N*P*Q x K x C*R*S)
// REMARK: remark: isaac: 'linalg.generic' runs on the generic GPU path (untuned)

// CHECK-LABEL: llvm.func @block(
// beta = 0: the zero fill of the output was dropped.
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
// CHECK: llvm.call @isaacConvLaunch({{([^,]+, )+}}%[[ZERO]],
// CHECK: gpu.launch_func
// CHECK: llvm.return
// LLVM: call i32 @isaacConvLaunch(
// PTX: isaac_conv_f32_nhwc_hwcf_simt_{{.*}}.ptx
func.func @block(%x: tensor<2x16x16x32xf32>, %w: tensor<3x3x32x64xf32>, %b: tensor<64xf32>) -> tensor<2x14x14x64xf32> {
  %e = tensor.empty() : tensor<2x14x14x64xf32>
  %z = arith.constant 0.0 : f32
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<2x14x14x64xf32>) -> tensor<2x14x14x64xf32>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : tensor<2x16x16x32xf32>, tensor<3x3x32x64xf32>) outs(%init : tensor<2x14x14x64xf32>) -> tensor<2x14x14x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, p, q, k) -> (n, p, q, k)>, affine_map<(n, p, q, k) -> (k)>, affine_map<(n, p, q, k) -> (n, p, q, k)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%c, %b : tensor<2x14x14x64xf32>, tensor<64xf32>) outs(%e : tensor<2x14x14x64xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %m = arith.maximumf %s, %z : f32
    linalg.yield %m : f32
  } -> tensor<2x14x14x64xf32>
  return %r : tensor<2x14x14x64xf32>
}
