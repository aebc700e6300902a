// RUN: isaac-opt %s --isaac-select-config="strict=true" -split-input-file -verify-diagnostics
// RUN: not isaac-opt %s --isaac-select-config="chip=sm_42" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not isaac-opt %s --isaac-select-config="topk=0" 2>&1 | FileCheck %s --check-prefix=TOPK

// CHIP: error: unknown target chip 'sm_42'; known chips:
// TOPK: error: isaac-select-config: topk must be at least 1

func.func @dynamic(%A: memref<?x64xf32>, %B: memref<64x64xf32>, %C: memref<?x64xf32>) {
  // expected-error @below {{isaac cannot configure this operation: dynamic shapes are not supported}}
  linalg.matmul ins(%A, %B : memref<?x64xf32>, memref<64x64xf32>) outs(%C : memref<?x64xf32>)
  return
}
