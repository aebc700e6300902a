// Stock mlir-opt loads the isaac dialect and passes from the plugin. Pass
// plugins are loaded after the command line is parsed, so their passes are
// reached through --pass-pipeline.
// RUN: mlir-opt %s --load-dialect-plugin=%isaac_libs/libIsaacPlugin%shlibext --load-pass-plugin=%isaac_libs/libIsaacPlugin%shlibext --pass-pipeline="builtin.module(isaac-select-config,isaac-lower-to-gpu)" 2>/dev/null | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%isaac_libs/libIsaacPlugin%shlibext --load-pass-plugin=%isaac_libs/libIsaacPlugin%shlibext --pass-pipeline="builtin.module(isaac-pipeline{chip=sm_90})" 2>/dev/null | FileCheck %s --check-prefix=PIPE

// CHECK-LABEL: func.func @gemm
// CHECK: isaac.launch_gemm @[[K:isaac_gemm_f32_nn_[a-z0-9_]+]]::@[[K]]
// CHECK: gpu.module @[[K]]
// CHECK: gpu.func @[[K]]
// PIPE: llvm.mlir.global internal constant @__isaac_ptx_isaac_gemm_f32_nn_{{.*}}.visible .entry isaac_gemm_f32_nn_
// PIPE-LABEL: llvm.func @gemm
// PIPE: llvm.call @isaacGemmLaunch
func.func @gemm(%A: memref<256x128xf32>, %B: memref<128x64xf32>, %C: memref<256x64xf32>) {
  linalg.matmul ins(%A, %B : memref<256x128xf32>, memref<128x64xf32>) outs(%C : memref<256x64xf32>)
  return
}
