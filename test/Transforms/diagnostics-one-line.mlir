// isaac's remarks and errors are one line at the operation's location; MLIR's
// "see current operation" note, which dumps the operation in generic form
// (for a module-level error, the whole module), only on request with
// --mlir-print-op-on-diagnostic.
//
// A selection remark per GEMM.
// RUN: isaac-opt %s --isaac-select-config="model-dir=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not="see current operation"
// RUN: isaac-opt %s --isaac-select-config="model-dir=none" --mlir-print-op-on-diagnostic -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK-DUMP
// REMARK: diagnostics-one-line.mlir:[[# @LINE + 15]]:3: remark: isaac: no trained model for sm_90; configuration chosen by the analytic heuristic
// REMARK: diagnostics-one-line.mlir:[[# @LINE + 15]]:3: remark: isaac: no trained model for sm_90; configuration chosen by the analytic heuristic
// REMARK-DUMP: remark: isaac: no trained model for sm_90
// REMARK-DUMP: note: see current operation: linalg.matmul
//
// A model file that cannot be loaded.
// RUN: rm -rf %t && mkdir -p %t/sm_90 && echo "not a model" > %t/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MODEL --implicit-check-not="see current operation"
// MODEL: diagnostics-one-line.mlir:[[# @LINE + 7]]:3: error: isaac: cannot use the trained model: {{.*}}gemm-f32.mlp: not an isaac MLP model
//
// A module-level error: without the note it does not print the module.
// RUN: not isaac-opt %s --isaac-pipeline="chip=sm_42" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHIP --implicit-check-not="see current operation" --implicit-check-not=linalg
// CHIP: error: unknown target chip 'sm_42'

func.func @two(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
