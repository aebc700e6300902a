// A convolution block on tensors as a frontend emits it (tensor.empty + zero
// fill, conv_2d_nhwc_hwcf, per-channel bias + relu in a generic) through the
// whole pipeline: one isaac conv kernel with the bias + relu fused into its
// epilogue (beta = 0: the fill is gone), launched through
// isaacConvLaunchEpilogue with the bias as its one input; nothing else is
// launched or left on the host, and the output translates to LLVM IR.
// RUN: rm -rf %t && mkdir -p %t
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_90 ptx-dir=%t/ptx" -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t/out.mlir --implicit-check-not=tensor --implicit-check-not=linalg. --implicit-check-not=gpu.launch_func
// RUN: mlir-translate --mlir-to-llvmir %t/out.mlir | FileCheck %s --check-prefix=LLVM
// RUN: ls %t/ptx | FileCheck %s --check-prefix=PTX
// RUN: FileCheck %s --check-prefix=HEADER --input-file=%t/ptx/$(ls %t/ptx)

// REMARK: pipeline-conv.mlir:[[@LINE+17]]:8: remark: isaac: convolution configured as its implicit GEMM 392x64x288 (N*P*Q x K x C*R*S)
// REMARK-NOT: generic GPU path

// CHECK-LABEL: llvm.func @block(
// beta = 0: the zero fill of the output was dropped; one epilogue input.
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0.000000e+00 : f64) : f64
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK: llvm.call @isaacConvLaunchEpilogue({{([^,]+, )+}}%[[ZERO]], {{[^,]+, [^,]+}}, %[[ONE]], %{{[^,]+}})
// CHECK: llvm.return
// LLVM: call i32 @isaacConvLaunchEpilogue(
// PTX: isaac_conv_f32_nhwc_hwcf_simt_{{.*}}_ep{{[0-9a-f]+}}.ptx
// HEADER: // isaac.kernel name=isaac_conv_f32_nhwc_hwcf_simt_{{.*}} op=conv dtype=f32 layout=nhwc_hwcf {{.*}} epilogue=[[ID:[0-9a-f]+]]
// HEADER-NEXT: // isaac.epilogue id=[[ID]] out=f32 inputs=1 in0=f32[n] program=x:f32, in0:f32[n]; v0 = const 0 : f32; v1 = addf x, in0 : f32; v2 = maximumf v1, v0 : f32; yield v2 : f32
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
