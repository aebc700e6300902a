// The model's training support (the `support` records of a version-2 model
// file, docs/model-format.md): the search ranks only configurations whose
// every parameter takes a supported value. Inputs/with-support.py adds the
// records to the synthetic test model and re-signs it.
//
// RUN: rm -rf %t && mkdir -p %t/u64/sm_90 %t/none/sm_90 %t/order/sm_90 %t/values/sm_90
//
// Only u = 64 and vec = 1 supported: the choice and all of the top 5 have them.
// RUN: %python %S/Inputs/with-support.py %S/Inputs/models/sm_90/gemm-f32.mlp 'u 64' 'vec 1' > %t/u64/sm_90/gemm-f32.mlp
// RUN: isaac-opt %s --isaac-select-config="model-dir=%t/u64 topk=5" 2>/dev/null | FileCheck %s --check-prefix=U64
// U64-LABEL: func.func @f32
// U64: isaac.candidates = [#isaac.gemm<{{[^>]*}}u = 64, {{[^>]*}}vec = 1>, #isaac.gemm<{{[^>]*}}u = 64, {{[^>]*}}vec = 1>, #isaac.gemm<{{[^>]*}}u = 64, {{[^>]*}}vec = 1>, #isaac.gemm<{{[^>]*}}u = 64, {{[^>]*}}vec = 1>, #isaac.gemm<{{[^>]*}}u = 64, {{[^>]*}}vec = 1>], isaac.config = #isaac.gemm<{{[^>]*}}u = 64, {{[^>]*}}vec = 1>
//
// A support that excludes every legal configuration: the analytic
// heuristic chooses, with a remark that says why, and chooses what it
// chooses without a model.
// RUN: %python %S/Inputs/with-support.py %S/Inputs/models/sm_90/gemm-f32.mlp 'ml 4096' > %t/none/sm_90/gemm-f32.mlp
// RUN: isaac-opt %s --isaac-select-config="model-dir=%t/none" 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE
// NONE: remark: isaac: every legal configuration lies outside the training support of {{.*}}none/sm_90/gemm-f32.mlp (ml 4096; nl 1 2 {{.*}}); configuration chosen by the analytic heuristic
// RUN: isaac-opt %s --isaac-select-config="model-dir=%t/none" 2>/dev/null | grep -o 'isaac.config = #isaac.gemm<[^>]*>' > %t/none.cfg
// RUN: isaac-opt %s --isaac-select-config="model-dir=none" 2>/dev/null | grep -o 'isaac.config = #isaac.gemm<[^>]*>' > %t/heuristic.cfg
// RUN: diff %t/none.cfg %t/heuristic.cfg
//
// Malformed records are errors naming the file and line.
// RUN: %python %S/Inputs/with-support.py %S/Inputs/models/sm_90/gemm-f32.mlp 'tile 4' > %t/order/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/order" 2>&1 | FileCheck %s --check-prefix=ORDER
// ORDER: error: isaac: cannot use the trained model: {{.*}}order/sm_90/gemm-f32.mlp:11: expected 'support ml <values>' (the parameters in the order ml nl ms ns u ks kl kg vec, each with at least one value)
// RUN: %python %S/Inputs/with-support.py %S/Inputs/models/sm_90/gemm-f32.mlp 'nl 4 2' > %t/values/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/values" 2>&1 | FileCheck %s --check-prefix=VALUES
// VALUES: error: isaac: cannot use the trained model: {{.*}}values/sm_90/gemm-f32.mlp:12: support values must be increasing positive integers, got '2'

func.func @f32(%A: memref<512x256xf32>, %B: memref<256x1024xf32>, %C: memref<512x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<512x256xf32>, memref<256x1024xf32>) outs(%C : memref<512x1024xf32>)
  return
}
