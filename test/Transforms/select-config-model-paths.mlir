// Where isaac-select-config looks for a model, and what it says. An
// explicit model-dir that does not exist (or is not a directory) is an
// error naming it, not a silent fall-back to the heuristic; without a
// model file for the element type and chip, the remark names the file it
// looked for.
//
// RUN: rm -rf %t && mkdir -p %t/empty && touch %t/file.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/nonexistent" 2>&1 | FileCheck %s --check-prefix=MISSING -DT=%t
// MISSING: select-config-model-paths.mlir:{{[0-9]+}}:3: error: isaac: model-dir '[[T]]/nonexistent' does not exist
// MISSING-NOT: remark
// The whole pipeline passes model-dir on: the same error.
// RUN: not isaac-opt %s --isaac-pipeline="chip=sm_90 model-dir=%t/nonexistent" 2>&1 | FileCheck %s --check-prefix=MISSING -DT=%t
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/file.mlp" 2>&1 | FileCheck %s --check-prefix=FILE -DT=%t
// FILE: error: isaac: model-dir '[[T]]/file.mlp' is not a directory (it names the directory holding <chip>/gemm-<dtype>.mlp)
//
// An explicit directory without the file, the default directory (the
// source tree's models/, which has no sm_80 model) and model-dir=none.
// RUN: isaac-opt %s --isaac-select-config="model-dir=%t/empty" 2>&1 >/dev/null | FileCheck %s --check-prefix=EMPTY -DT=%t
// EMPTY: remark: isaac: no trained model for sm_90; configuration chosen by the analytic heuristic (no file [[T]]/empty/sm_90/gemm-f32.mlp)
// RUN: isaac-opt %s --isaac-select-config="chip=sm_80" 2>&1 >/dev/null | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: remark: isaac: no trained model for sm_80; configuration chosen by the analytic heuristic (no file {{.*}}models{{/|\\}}sm_80{{/|\\}}gemm-f32.mlp)
// RUN: isaac-opt %s --isaac-select-config="model-dir=none" 2>&1 >/dev/null | FileCheck %s --check-prefix=NONE
// NONE: remark: isaac: no trained model for sm_90; configuration chosen by the analytic heuristic (model-dir=none)
//
// The shipped models are found by default.
// RUN: isaac-opt %s --isaac-select-config 2>&1 >/dev/null | FileCheck %s --check-prefix=SHIPPED
// SHIPPED: remark: isaac: configuration chosen by the trained model {{.*}}models{{/|\\}}sm_90{{/|\\}}gemm-f32.mlp (trained on measurements)
//
// A chip that extends another (Chips.def's Base: sm_90a runs every sm_90
// kernel) falls back to the base chip's model where it has none of its own;
// the remark names the file that ranked, or both it looked for.
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a" 2>&1 >/dev/null | FileCheck %s --check-prefix=BASE
// BASE: remark: isaac: configuration chosen by the trained model {{.*}}models{{/|\\}}sm_90{{/|\\}}gemm-f32.mlp (trained on measurements)
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90a model-dir=%t/empty" 2>&1 >/dev/null | FileCheck %s --check-prefix=NOBASE -DT=%t
// NOBASE: remark: isaac: no trained model for sm_90a; configuration chosen by the analytic heuristic (no file [[T]]/empty/sm_90a/gemm-f32.mlp nor [[T]]/empty/sm_90/gemm-f32.mlp)
// The chip's own directory comes first, and a model there must be of that
// chip: the sm_90 model copied under sm_90a is refused.
// RUN: mkdir -p %t/own/sm_90a && cp %isaac_src/models/sm_90/gemm-f32.mlp %t/own/sm_90a/
// RUN: not isaac-opt %s --isaac-select-config="chip=sm_90a model-dir=%t/own" 2>&1 | FileCheck %s --check-prefix=OWN -DT=%t
// OWN: error: isaac: cannot use the trained model: [[T]]/own/sm_90a/gemm-f32.mlp: the model is for f32 on sm_90, not f32 on sm_90a

func.func @f(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
