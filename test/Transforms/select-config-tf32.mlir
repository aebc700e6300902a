// f32 GEMMs are exact IEEE f32 (the simt family) unless they opt in to
// TF32 tensor cores: isaac-select-config's tf32 option for every f32 GEMM,
// or the isaac.tf32 attribute for one. Opted-in GEMMs are ranked in the mma
// family's space -- by the shipped TF32 model (models/sm_90/
// gemm-f32-mma.mlp), else by the analytic model -- and keep isaac.tf32 for
// the lowering; f64 GEMMs are not affected (on sm_90 they run on DMMA
// either way).
// RUN: isaac-opt %s --isaac-select-config="model-dir=none" -verify-diagnostics -split-input-file | FileCheck %s --check-prefix=DEFAULT
// RUN: isaac-opt %s --isaac-select-config="model-dir=none tf32=true" -split-input-file 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: isaac-opt %s --isaac-select-config="tf32=true" -split-input-file 2>&1 | FileCheck %s --check-prefix=MODEL
// MODEL: remark: isaac: configuration chosen by the trained model {{.*}}/models/sm_90/gemm-f32-mma.mlp (trained on measurements)
// MODEL-LABEL: func.func @f32
// MODEL: linalg.matmul {isaac.config = #isaac.gemm<family = mma, {{.*}}>, isaac.tf32}
// RUN: rm -rf %t && isaac-opt %s --isaac-pipeline="chip=sm_90 tf32=true ptx-dir=%t" -split-input-file -o /dev/null 2>/dev/null
// RUN: ls %t | FileCheck %s --check-prefix=PTX

// DEFAULT-LABEL: func.func @f32
// DEFAULT: linalg.matmul {isaac.config = #isaac.gemm<ml = {{[0-9]+}}, {{[^}]*}}>} ins
// OPTION: remark: isaac: mma configuration (f32 multiplied in TF32, opted in) chosen by the analytic model (297 TFLOP/s tensor-core rate for sm_90)
// OPTION-LABEL: func.func @f32
// OPTION: linalg.matmul {isaac.config = #isaac.gemm<family = mma, {{.*}}>, isaac.tf32}
// PTX-DAG: isaac_gemm_tf32_nn_mma_{{.*}}.ptx
// PTX-DAG: isaac_gemm_f64_nn_mma_{{.*}}.ptx
func.func @f32(%A: memref<512x512xf32>, %B: memref<512x512xf32>, %C: memref<512x512xf32>) {
  // expected-remark @below {{isaac: no trained model for sm_90}}
  linalg.matmul ins(%A, %B : memref<512x512xf32>, memref<512x512xf32>) outs(%C : memref<512x512xf32>)
  return
}

// -----

// DEFAULT-LABEL: func.func @f64
// DEFAULT: linalg.matmul {isaac.config = #isaac.gemm<family = mma, {{[^}]*}}>} ins
// OPTION-LABEL: func.func @f64
// OPTION: linalg.matmul {isaac.config = #isaac.gemm<family = mma, {{[^}]*}}>} ins
func.func @f64(%A: memref<64x64xf64>, %B: memref<64x64xf64>, %C: memref<64x64xf64>) {
  // expected-remark @below {{isaac: mma configuration (f64 on DMMA tensor cores)}}
  linalg.matmul ins(%A, %B : memref<64x64xf64>, memref<64x64xf64>) outs(%C : memref<64x64xf64>)
  return
}

// -----

// One GEMM opts in by its attribute, without the option.
// DEFAULT-LABEL: func.func @per_op
// DEFAULT: linalg.matmul {isaac.config = #isaac.gemm<family = mma, {{.*}}>, isaac.tf32}
func.func @per_op(%A: memref<256x128xf32>, %B: memref<128x64xf32>, %C: memref<256x64xf32>) {
  // expected-remark @below {{isaac: mma configuration (f32 multiplied in TF32, opted in) chosen by the analytic model}}
  linalg.matmul {isaac.tf32} ins(%A, %B : memref<256x128xf32>, memref<128x64xf32>) outs(%C : memref<256x64xf32>)
  return
}
