// Without a model file for the chip (a directory without one, or
// model-dir=none), the analytic heuristic ranks and a remark says so. The
// model directory holds an sm_90 model only: sm_80 has none. (A model-dir
// that does not exist is an error: select-config-model-paths.mlir.)
//
// RUN: isaac-opt %s --isaac-select-config="model-dir=%S/Inputs/models chip=sm_80" -verify-diagnostics | FileCheck %s
// RUN: isaac-opt %s --isaac-select-config="model-dir=none chip=sm_80" -verify-diagnostics | FileCheck %s
// RUN: sed 's/sm_80/sm_90/g' %s | isaac-opt --isaac-select-config="model-dir=none" -verify-diagnostics | FileCheck %s

// CHECK: isaac.config = #isaac.gemm<
func.func @plain(%A: memref<512x512xf32>, %B: memref<512x512xf32>, %C: memref<512x512xf32>) {
  // expected-remark @below {{isaac: no trained model for sm_80; configuration chosen by the analytic heuristic}}
  linalg.matmul ins(%A, %B : memref<512x512xf32>, memref<512x512xf32>) outs(%C : memref<512x512xf32>)
  return
}
