// 16-bit GEMMs on tensors through the whole pipeline: the mma family,
// configurations ranked by the trained models of models/sm_90 (the remark
// says so; with model-dir=none the analytic model), a plain
// f16 kernel (C += A·B in f16, accumulated in f32), a fused bf16 kernel
// (bias + relu into f32), a batched one; runtime calls on the host, dynamic
// shared memory in each kernel's header; the output translates to LLVM IR.
// RUN: rm -rf %t && mkdir -p %t
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_90 ptx-dir=%t/ptx" -o %t/out.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t/out.mlir --implicit-check-not=tensor --implicit-check-not=linalg. --implicit-check-not="isaac.gemm ins"
// RUN: mlir-translate --mlir-to-llvmir %t/out.mlir | FileCheck %s --check-prefix=LLVM
// RUN: ls %t/ptx | FileCheck %s --check-prefix=PTX
// Without a model (model-dir=none) the analytic model ranks the same space.
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_90 model-dir=none ptx-dir=%t/ptx-analytic" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYTIC
// RUN: ls %t/ptx-analytic | FileCheck %s --check-prefix=PTX
// RUN: cat %t/ptx/*.ptx | FileCheck %s --check-prefix=HEADER
// Types isaac does not compile: a remark (the generic GPU path runs them),
// an error under strict=true.
// RUN: not isaac-opt %S/Inputs/unsupported-types.mlir --isaac-pipeline="chip=sm_90 strict=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT
// RUN: isaac-opt %S/Inputs/unsupported-types.mlir --isaac-pipeline="chip=sm_90" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LENIENT

// REMARK-COUNT-3: pipeline-mma.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: isaac: configuration chosen by the trained model {{.*}}sm_90{{/|\\}}gemm-{{b?f16}}.mlp (trained on measurements)
// REMARK-NOT: generic GPU path
// ANALYTIC-COUNT-3: pipeline-mma.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: isaac: mma configuration chosen by the analytic model (593 TFLOP/s tensor-core rate for sm_90); no trained model (model-dir=none)

// CHECK-LABEL: llvm.func @plain(
// CHECK: llvm.call @isaacGemmLaunch(
// CHECK-LABEL: llvm.func @fused(
// CHECK: llvm.call @isaacGemmLaunchEpilogue(
// CHECK-LABEL: llvm.func @batched(
// CHECK: llvm.call @isaacGemmLaunch(
// LLVM: define void @plain(
// LLVM: call i32 @isaacGemmLaunch(
// PTX-DAG: isaac_gemm_f16_nn_mma_{{.*}}.ptx
// PTX-DAG: isaac_gemm_bf16_nt_mma_{{.*}}_ep{{[0-9a-f]+}}.ptx
// PTX-DAG: isaac_gemm_bf16f32_tn_mma_{{.*}}.ptx
// HEADER-COUNT-3: // isaac.kernel name=isaac_gemm_{{.*}}_mma_{{.*}} wm={{[0-9]+}} wn={{[0-9]+}} {{.*}} stages={{[0-9]+}} {{(kc=1 )?}}threads={{[0-9]+}} smem={{[0-9]+}} dynsmem=1 chip=sm_90
// STRICT: unsupported-types.mlir:{{[0-9]+}}:{{[0-9]+}}: error: isaac: 'linalg.matmul' runs on the generic GPU path (untuned): an output of f64 with f16 operands is not supported (C of the operands' type, or f32)
// LENIENT: unsupported-types.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: isaac: 'linalg.matmul' runs on the generic GPU path (untuned): an output of f64 with f16 operands is not supported
func.func @plain(%x: tensor<512x768xf16>, %w: tensor<768x1024xf16>, %c: tensor<512x1024xf16>) -> tensor<512x1024xf16> {
  %r = linalg.matmul ins(%x, %w : tensor<512x768xf16>, tensor<768x1024xf16>) outs(%c : tensor<512x1024xf16>) -> tensor<512x1024xf16>
  return %r : tensor<512x1024xf16>
}

func.func @fused(%x: tensor<64x1024xbf16>, %w: tensor<256x1024xbf16>, %b: tensor<256xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x256xf32>) -> tensor<64x256xf32>
  %mm = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<64x1024xbf16>, tensor<256x1024xbf16>) outs(%f : tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<64x256xf32>, tensor<256xf32>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %relu = arith.maximumf %s, %z : f32
    linalg.yield %relu : f32
  } -> tensor<64x256xf32>
  return %r : tensor<64x256xf32>
}

func.func @batched(%a: tensor<8x96x128xbf16>, %b: tensor<8x96x80xbf16>) -> tensor<8x128x80xf32> {
  %e = tensor.empty() : tensor<8x128x80xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x128x80xf32>) -> tensor<8x128x80xf32>
  %r = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
      ins(%a, %b : tensor<8x96x128xbf16>, tensor<8x96x80xbf16>) outs(%f : tensor<8x128x80xf32>) -> tensor<8x128x80xf32>
  return %r : tensor<8x128x80xf32>
}
