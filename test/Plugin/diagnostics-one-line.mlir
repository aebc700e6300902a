// Through stock mlir-opt, loading the isaac plugin makes diagnostics one
// line too (--mlir-print-op-on-diagnostic defaults to false); the flag,
// given before or after the plugin options, still brings the operation back.
// RUN: mlir-opt %s --load-dialect-plugin=%isaac_libs/libIsaacPlugin%shlibext --load-pass-plugin=%isaac_libs/libIsaacPlugin%shlibext --pass-pipeline="builtin.module(isaac-select-config{model-dir=none})" -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="see current operation"
// RUN: mlir-opt %s --mlir-print-op-on-diagnostic --load-dialect-plugin=%isaac_libs/libIsaacPlugin%shlibext --load-pass-plugin=%isaac_libs/libIsaacPlugin%shlibext --pass-pipeline="builtin.module(isaac-select-config{model-dir=none})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: mlir-opt %s --load-dialect-plugin=%isaac_libs/libIsaacPlugin%shlibext --load-pass-plugin=%isaac_libs/libIsaacPlugin%shlibext --mlir-print-op-on-diagnostic --pass-pipeline="builtin.module(isaac-select-config{model-dir=none})" -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// RUN: mlir-opt %s --load-pass-plugin=%isaac_libs/libIsaacPlugin%shlibext --mlir-print-op-on-diagnostic=false --pass-pipeline="builtin.module(isaac-select-config{model-dir=none})" -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="see current operation"

// CHECK: diagnostics-one-line.mlir:[[# @LINE + 5]]:3: remark: isaac: no trained model for sm_90; configuration chosen by the analytic heuristic
// DUMP: diagnostics-one-line.mlir:[[# @LINE + 4]]:3: remark: isaac: no trained model for sm_90
// DUMP-NEXT: linalg.matmul
// DUMP: note: see current operation: linalg.matmul
func.func @gemm(%A: memref<256x128xf32>, %B: memref<128x64xf32>, %C: memref<256x64xf32>) {
  linalg.matmul ins(%A, %B : memref<256x128xf32>, memref<128x64xf32>) outs(%C : memref<256x64xf32>)
  return
}
