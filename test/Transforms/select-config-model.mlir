// The trained model ranks the configurations when
// <model-dir>/<chip>/gemm-<dtype>.mlp exists; element types without a model
// fall back to the analytic heuristic.
//
// Inputs/models/sm_90/gemm-f32.mlp is a tiny test model (19-16-16-1)
// trained on SYNTHETIC data (the analytic model plus noise), regenerated
// with:
//   isaac-model-test synthetic 5 20000 10 f32 sm_90 > syn20k.csv
//   python3 tools/isaac-tune/train.py syn20k.csv --chip sm_90 --dtype f32 \
//     --arch 16,16 --epochs 20 --seed 1 \
//     --out test/Transforms/Inputs/models/sm_90/gemm-f32.mlp
//
// RUN: isaac-opt %s --isaac-select-config="model-dir=%S/Inputs/models" -verify-diagnostics | FileCheck %s
// RUN: isaac-opt %s --isaac-select-config="model-dir=%S/Inputs/models topk=4" -verify-diagnostics | FileCheck %s --check-prefix=TOPK
// The best of the top 4 is the configuration chosen with topk=1.
// RUN: isaac-opt %s --isaac-select-config="model-dir=%S/Inputs/models" 2>/dev/null | grep -o 'isaac.config = #isaac.gemm<[^>]*>' > %t.top1
// RUN: isaac-opt %s --isaac-select-config="model-dir=%S/Inputs/models topk=4" 2>/dev/null | grep -o 'isaac.config = #isaac.gemm<[^>]*>' > %t.top4
// RUN: diff %t.top1 %t.top4

// CHECK-LABEL: func.func @f32
// CHECK: linalg.matmul {isaac.config = #isaac.gemm<ml = {{[0-9]+}}, nl = {{[0-9]+}}, ms = {{[0-9]+}}, ns = {{[0-9]+}}, u = {{[0-9]+}}, ks = {{[0-9]+}}, kl = {{[0-9]+}}, kg = {{[0-9]+}}, vec = {{[0-9]+}}>}
// TOPK-LABEL: func.func @f32
// TOPK: isaac.candidates = [#isaac.gemm<[[FIRST:[^>]*]]>, #isaac.gemm<{{[^>]*}}>, #isaac.gemm<{{[^>]*}}>, #isaac.gemm<{{[^>]*}}>], isaac.config = #isaac.gemm<[[FIRST]]>
func.func @f32(%A: memref<512x256xf32>, %B: memref<256x1024xf32>, %C: memref<512x1024xf32>) {
  // expected-remark-re @below {{isaac: configuration chosen by the trained model {{.*}}/Inputs/models/sm_90/gemm-f32.mlp (trained on SYNTHETIC data, not measurements)}}
  linalg.matmul ins(%A, %B : memref<512x256xf32>, memref<256x1024xf32>) outs(%C : memref<512x1024xf32>)
  return
}

// A second f32 GEMM reuses the loaded model; f64 runs on DMMA on sm_90,
// in the mma family's space, which the analytic model ranks.
// CHECK-LABEL: func.func @mixed
// CHECK: isaac.config = #isaac.gemm<ml =
// CHECK: isaac.config = #isaac.gemm<family = mma,
func.func @mixed(%A: memref<8x100x200xf32>, %B: memref<8x200x300xf32>, %C: memref<8x100x300xf32>,
                 %D: memref<64x64xf64>, %E: memref<64x64xf64>, %F: memref<64x64xf64>) {
  // expected-remark @below {{isaac: configuration chosen by the trained model}}
  linalg.batch_matmul ins(%A, %B : memref<8x100x200xf32>, memref<8x200x300xf32>) outs(%C : memref<8x100x300xf32>)
  // expected-remark-re @below {{isaac: mma configuration (f64 on DMMA tensor cores) chosen by the analytic model (67 TFLOP/s f64 tensor-core rate for sm_90 against 34 TFLOP/s f64 FMA); no trained model (no file {{.*}}/Inputs/models/sm_90/gemm-f64-mma.mlp)}}
  linalg.matmul ins(%D, %E : memref<64x64xf64>, memref<64x64xf64>) outs(%F : memref<64x64xf64>)
  return
}

// A user-written configuration still wins, and a remark says so.
// CHECK-LABEL: func.func @user
// CHECK: isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 2, kg = 1, vec = 2>
func.func @user(%A: memref<100x200xf32>, %B: memref<200x300xf32>, %C: memref<100x300xf32>) {
  // expected-remark @below {{isaac: configuration given in the input (isaac.config); kept as written}}
  linalg.matmul ins(%A, %B : memref<100x200xf32>, memref<200x300xf32>) outs(%C : memref<100x300xf32>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 2, kg = 1, vec = 2>}
  return
}
