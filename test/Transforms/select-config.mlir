// RUN: isaac-opt %s --isaac-select-config="model-dir=none" -split-input-file -verify-diagnostics | FileCheck %s
// RUN: isaac-opt %s --isaac-select-config="topk=3 model-dir=none" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=TOPK

// A static f32 GEMM gets a configuration; without a model (model-dir=none)
// the analytic heuristic chooses and a remark says so.
// CHECK-LABEL: func.func @plain
// CHECK: linalg.matmul {isaac.config = #isaac.gemm<ml = {{[0-9]+}}, nl = {{[0-9]+}}, ms = {{[0-9]+}}, ns = {{[0-9]+}}, u = {{[0-9]+}}, ks = {{[0-9]+}}, kl = {{[0-9]+}}, kg = {{[0-9]+}}, vec = {{[0-9]+}}>}
// TOPK-LABEL: func.func @plain
// TOPK: isaac.candidates = [#isaac.gemm<{{[^>]*}}>, #isaac.gemm<{{[^>]*}}>, #isaac.gemm<{{[^>]*}}>]
func.func @plain(%A: memref<512x512xf32>, %B: memref<512x512xf32>, %C: memref<512x512xf32>) {
  // expected-remark @below {{isaac: no trained model for sm_90; configuration chosen by the analytic heuristic}}
  linalg.matmul ins(%A, %B : memref<512x512xf32>, memref<512x512xf32>) outs(%C : memref<512x512xf32>)
  return
}

// -----

// Deep reductions with tiny outputs split K across the grid.
// CHECK-LABEL: func.func @ica
// CHECK: isaac.config = #isaac.gemm<{{.*}}kg = {{[1-9][0-9]+|[2-9]}}, vec = {{[0-9]+}}>
func.func @ica(%A: memref<32x60000xf32>, %B: memref<32x60000xf32>, %C: memref<32x32xf32>) {
  // expected-remark @below {{analytic heuristic}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<32x60000xf32>, memref<32x60000xf32>) outs(%C : memref<32x32xf32>)
  return
}

// -----

// A user-written configuration wins.
// CHECK-LABEL: func.func @user
// CHECK: isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 2, kg = 1, vec = 2>
func.func @user(%A: memref<8x100x200xf64>, %B: memref<8x200x300xf64>, %C: memref<8x100x300xf64>) {
  // expected-remark @below {{isaac: configuration given in the input (isaac.config); kept as written}}
  linalg.batch_matmul ins(%A, %B : memref<8x100x200xf64>, memref<8x200x300xf64>) outs(%C : memref<8x100x300xf64>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 2, kg = 1, vec = 2>}
  return
}

// -----

// Unsupported inputs are left untouched, with a remark saying why.
// CHECK-LABEL: func.func @unsupported
// CHECK-NOT: isaac.config
func.func @unsupported(%A: memref<?x64xf32>, %B: memref<64x64xf32>, %C: memref<?x64xf32>,
                       %I: memref<64x64xi32>, %J: memref<64x64xi32>, %K: memref<64x64xi32>,
                       %H: memref<64x64xf16>, %S: memref<64x64xf32>,
                       %D: memref<64x64xf64>, %G: memref<64x64xbf16>) {
  // expected-remark @below {{isaac: left untouched: dynamic shapes are not supported}}
  linalg.matmul ins(%A, %B : memref<?x64xf32>, memref<64x64xf32>) outs(%C : memref<?x64xf32>)
  // expected-remark @below {{isaac: left untouched: element type i32 is not supported (f32, f64, f16, bf16)}}
  linalg.matmul ins(%I, %J : memref<64x64xi32>, memref<64x64xi32>) outs(%K : memref<64x64xi32>)
  // expected-remark @below {{isaac: left untouched: an output of f64 with f16 operands is not supported (C of the operands' type, or f32)}}
  linalg.matmul ins(%H, %H : memref<64x64xf16>, memref<64x64xf16>) outs(%D : memref<64x64xf64>)
  // expected-remark @below {{isaac: left untouched: A and B of different element types are not supported}}
  linalg.matmul ins(%H, %G : memref<64x64xf16>, memref<64x64xbf16>) outs(%S : memref<64x64xf32>)
  // expected-remark @below {{isaac: left untouched: an output of f16 with f32 operands is not supported (C of the operands' type)}}
  linalg.matmul ins(%S, %S : memref<64x64xf32>, memref<64x64xf32>) outs(%H : memref<64x64xf16>)
  return
}

// -----

// GEMMs on tensors are configured too (bufferization comes later), like
// the isaac.gemm ops isaac-fuse-epilogues forms.
// CHECK-LABEL: func.func @tensors
// CHECK: linalg.matmul {isaac.config = #isaac.gemm<
// CHECK: isaac.gemm {{.*}}isaac.config = #isaac.gemm<
func.func @tensors(%TA: tensor<64x64xf32>, %TC: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  // expected-remark @below {{isaac: no trained model for sm_90; configuration chosen by the analytic heuristic}}
  %r = linalg.matmul ins(%TA, %TA : tensor<64x64xf32>, tensor<64x64xf32>) outs(%TC : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @below {{isaac: no trained model for sm_90; configuration chosen by the analytic heuristic}}
  %g = isaac.gemm ins(%TA, %TA : tensor<64x64xf32>, tensor<64x64xf32>) outs(%TC : tensor<64x64xf32>) attributes {input_maps = []} {
  ^bb0(%x: f32):
    isaac.yield %x : f32
  } -> tensor<64x64xf32>
  return %r, %g : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// Broadcast operands are not GEMMs the generator handles.
func.func @broadcast(%A: memref<64xf32>, %B: memref<64x32xf32>, %C: memref<16x32xf32>) {
  // expected-remark @below {{isaac: left untouched: operands with broadcast (lower-rank) indexing maps are not supported}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64xf32>, memref<64x32xf32>) outs(%C : memref<16x32xf32>)
  return
}
