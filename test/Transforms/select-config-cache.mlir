// A tuning cache entry for the operation's input wins over the trained
// model and the heuristic; a user-written isaac.config wins over the cache.
// Cache lines: CHIP DTYPE LAYOUT M N K BATCH #isaac.gemm<...> (docs/tuning.md).
//
// RUN: isaac-opt %s --isaac-select-config="model-dir=%S/Inputs/models cache=%S/Inputs/tuning-cache.txt" -verify-diagnostics | FileCheck %s
// RUN: isaac-opt %s --isaac-select-config="model-dir=%S/Inputs/models cache=%S/Inputs/tuning-cache.txt topk=3" 2>/dev/null | FileCheck %s --check-prefix=TOPK
//
// Errors in the cache file are reported, not ignored.
// RUN: not isaac-opt %s --isaac-select-config="cache=%S/Inputs/no-such-cache.txt" 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: isaac-select-config: cannot read tuning cache {{.*}}no-such-cache.txt
// RUN: echo "sm_90 f32 nn 512 256 #isaac.gemm<ml = 32>" > %t.short
// RUN: not isaac-opt %s --isaac-select-config="cache=%t.short" 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: isaac-select-config: {{.*}}.short:1: expected 'CHIP DTYPE LAYOUT M N K BATCH #isaac.gemm<...>'
// RUN: echo "sm_90 f32 nn 512 1024 256 1 #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1>" > %t.novec
// RUN: not isaac-opt %s --isaac-select-config="cache=%t.novec" 2>&1 | FileCheck %s --check-prefix=NOVEC
// NOVEC: error: isaac-select-config: {{.*}}.novec:1: missing parameter 'vec'
// RUN: echo "sm_90 f32 nn 512 1024 256 1 #isaac.gemm<ml = 32, nl = 32, ms = 1, ns = 1, u = 8, ks = 1, kl = 2, kg = 1, vec = 4>" > %t.illegal
// RUN: not isaac-opt %s --isaac-select-config="cache=%t.illegal" 2>&1 | FileCheck %s --check-prefix=ILLEGAL
// ILLEGAL: error: isaac-select-config: {{.*}}.illegal:1: #isaac.gemm<ml = 32, nl = 32, ms = 1, ns = 1, u = 8, ks = 1, kl = 2, kg = 1, vec = 4> is illegal for f32 on sm_90: {{.*}} [threads-per-block]

// CHECK-LABEL: func.func @hit
// CHECK: isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>
// CHECK: isaac.config = #isaac.gemm<ml = 64, nl = 32, ms = 8, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>
// CHECK: isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2>
// The cached entry comes first among the candidates, the search fills in.
// TOPK-LABEL: func.func @hit
// TOPK: isaac.candidates = [#isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>, #isaac.gemm<{{[^>]*}}>, #isaac.gemm<{{[^>]*}}>], isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>
func.func @hit(%A: memref<512x256xf32>, %B: memref<256x1024xf32>, %C: memref<512x1024xf32>,
               %TB: memref<1024x256xf32>, %D: memref<512x1024xf32>,
               %E: memref<8x100x200xf64>, %F: memref<8x200x300xf64>, %G: memref<8x100x300xf64>) {
  // expected-remark-re @below {{isaac: configuration from the tuning cache {{.*}}/Inputs/tuning-cache.txt}}
  linalg.matmul ins(%A, %B : memref<512x256xf32>, memref<256x1024xf32>) outs(%C : memref<512x1024xf32>)
  // expected-remark @below {{isaac: configuration from the tuning cache}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %TB : memref<512x256xf32>, memref<1024x256xf32>) outs(%D : memref<512x1024xf32>)
  // expected-remark @below {{isaac: configuration from the tuning cache}}
  linalg.batch_matmul ins(%E, %F : memref<8x100x200xf64>, memref<8x200x300xf64>) outs(%G : memref<8x100x300xf64>)
  return
}

// Misses: another batch count, another layout, a shape only cached for
// sm_80. The model (f32) or the analytic model of the mma family (f64 on
// DMMA) decides.
// CHECK-LABEL: func.func @miss
// CHECK: isaac.config = #isaac.gemm<ml =
// CHECK: isaac.config = #isaac.gemm<family = mma,
func.func @miss(%C: memref<512x1024xf32>, %B: memref<256x1024xf32>, %AT: memref<256x512xf32>,
                %E: memref<4x100x200xf64>, %F: memref<4x200x300xf64>, %G: memref<4x100x300xf64>) {
  // expected-remark @below {{isaac: configuration chosen by the trained model}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%AT, %B : memref<256x512xf32>, memref<256x1024xf32>) outs(%C : memref<512x1024xf32>)
  // expected-remark-re @below {{isaac: mma configuration (f64 on DMMA tensor cores) chosen by the analytic model (67 TFLOP/s f64 tensor-core rate for sm_90 against 34 TFLOP/s f64 FMA); no trained model (no file {{.*}}/Inputs/models/sm_90/gemm-f64-mma.mlp)}}
  linalg.batch_matmul ins(%E, %F : memref<4x100x200xf64>, memref<4x200x300xf64>) outs(%G : memref<4x100x300xf64>)
  return
}

// A user-written configuration wins over the cache.
// CHECK-LABEL: func.func @user
// CHECK: isaac.config = #isaac.gemm<ml = 16, nl = 16, ms = 2, ns = 2, u = 8, ks = 1, kl = 1, kg = 1, vec = 1>
func.func @user(%A: memref<512x256xf32>, %B: memref<256x1024xf32>, %C: memref<512x1024xf32>) {
  // expected-remark @below {{isaac: configuration given in the input (isaac.config); kept as written}}
  linalg.matmul ins(%A, %B : memref<512x256xf32>, memref<256x1024xf32>) outs(%C : memref<512x1024xf32>)
    {isaac.config = #isaac.gemm<ml = 16, nl = 16, ms = 2, ns = 2, u = 8, ks = 1, kl = 1, kg = 1, vec = 1>}
  return
}
