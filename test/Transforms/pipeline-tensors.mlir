// A function on tensors as a frontend emits it (tensor.empty + zero fill,
// matmul, bias + gelu in a generic, returned as a tensor) through the whole
// pipeline: one fused isaac kernel, bufferized with identity layouts, the
// result an out-parameter, nothing left but runtime calls; the output
// translates to LLVM IR.
// RUN: rm -rf %t && mkdir -p %t
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_90 model-dir=none ptx-dir=%t/ptx" -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t/out.mlir --implicit-check-not=tensor --implicit-check-not=linalg. --implicit-check-not=memref. --implicit-check-not="isaac.gemm ins"
// RUN: mlir-translate --mlir-to-llvmir %t/out.mlir | FileCheck %s --check-prefix=LLVM
// RUN: ls %t/ptx | FileCheck %s --check-prefix=PTX
// The same with strict=true: a dynamic matmul is refused, naming the op.
// RUN: not isaac-opt %S/Inputs/dynamic-matmul.mlir --isaac-pipeline="chip=sm_90 model-dir=none strict=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: isaac-opt %S/Inputs/dynamic-matmul.mlir --isaac-pipeline="chip=sm_90 model-dir=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LENIENT

// REMARK: pipeline-tensors.mlir:[[@LINE+17]]:9: remark: isaac: no trained model for sm_90; configuration chosen by the analytic heuristic
// REMARK-NOT: generic GPU path

// The function takes its result as a fourth (out-)parameter, all memref
// descriptors: x, w, b, out.
// CHECK-LABEL: llvm.func @layer(
// CHECK: llvm.call @isaacGemmLaunchEpilogue(
// CHECK: llvm.return
// LLVM: define void @layer(
// LLVM: call i32 @isaacGemmLaunchEpilogue(
// LLVM: define void @_mlir_ciface_layer(ptr %0, ptr %1, ptr %2, ptr %3)
// PTX: isaac_gemm_f32_nn_{{.*}}_ep{{[0-9a-f]+}}.ptx
func.func @layer(%x: tensor<16x512xf32>, %w: tensor<512x256xf32>, %b: tensor<256xf32>) -> tensor<16x256xf32>
    attributes {llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<16x256xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x256xf32>) -> tensor<16x256xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<16x512xf32>, tensor<512x256xf32>) outs(%f : tensor<16x256xf32>) -> tensor<16x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<16x256xf32>, tensor<256xf32>) outs(%e : tensor<16x256xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.7071067811865476 : f32
    %t0 = arith.mulf %s, %k : f32
    %t1 = math.erf %t0 : f32
    %t2 = arith.addf %one, %t1 : f32
    %t3 = arith.mulf %half, %s : f32
    %g = arith.mulf %t3, %t2 : f32
    linalg.yield %g : f32
  } -> tensor<16x256xf32>
  return %r : tensor<16x256xf32>
}

// STRICT: dynamic-matmul.mlir:{{[0-9]+}}:{{[0-9]+}}: error: isaac: 'linalg.matmul' runs on the generic GPU path (untuned): dynamic shapes are not supported
// LENIENT: dynamic-matmul.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: isaac: 'linalg.matmul' runs on the generic GPU path (untuned): dynamic shapes are not supported
