// A model file that exists but cannot be used is an error naming the file
// and the problem, never a crash nor a silent fallback.
//
// RUN: rm -rf %t && mkdir -p %t/trunc/sm_90 %t/flip/sm_90 %t/magic/sm_90 %t/version/sm_90 %t/chip/sm_80
//
// Truncated (the checksummed 'end' line is missing).
// RUN: head -c 3000 %S/Inputs/models/sm_90/gemm-f32.mlp > %t/trunc/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/trunc" 2>&1 | FileCheck %s --check-prefix=TRUNC
// TRUNC: error: isaac: cannot use the trained model: {{.*}}trunc/sm_90/gemm-f32.mlp: truncated or corrupt: the file does not end with an 'end <checksum>' line
//
// One number changed (still a valid number): the checksum catches it.
// RUN: sed 's/^output-std 0x1\./output-std 0x1.f/' %S/Inputs/models/sm_90/gemm-f32.mlp > %t/flip/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/flip" 2>&1 | FileCheck %s --check-prefix=FLIP
// FLIP: error: isaac: cannot use the trained model: {{.*}}flip/sm_90/gemm-f32.mlp: corrupt: checksum mismatch (file says {{[0-9a-f]+}}, content hashes to {{[0-9a-f]+}})
//
// Not a model at all.
// RUN: echo "hello" > %t/magic/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/magic" 2>&1 | FileCheck %s --check-prefix=MAGIC
// MAGIC: error: isaac: cannot use the trained model: {{.*}}magic/sm_90/gemm-f32.mlp: not an isaac MLP model (the first line must be 'isaac-mlp 2')
//
// A format version this build does not read.
// RUN: sed '1s/^isaac-mlp 1$/isaac-mlp 3/' %S/Inputs/models/sm_90/gemm-f32.mlp > %t/version/sm_90/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/version" 2>&1 | FileCheck %s --check-prefix=VERSION
// VERSION: error: isaac: cannot use the trained model: {{.*}}version/sm_90/gemm-f32.mlp: unsupported model format version 3 (this build reads versions 1 to 2)
//
// A model of another chip, filed under this one.
// RUN: cp %S/Inputs/models/sm_90/gemm-f32.mlp %t/chip/sm_80/gemm-f32.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/chip chip=sm_80" 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: isaac: cannot use the trained model: {{.*}}chip/sm_80/gemm-f32.mlp: the model is for f32 on sm_90, not f32 on sm_80
//
// A simt model filed as the TF32 (mma) model of f32: TF32 is searched in
// the mma family's space, which a simt model does not rank.
// RUN: mkdir -p %t/family/sm_90 && cp %S/Inputs/models/sm_90/gemm-f32.mlp %t/family/sm_90/gemm-f32-mma.mlp
// RUN: not isaac-opt %s --isaac-select-config="model-dir=%t/family tf32=true" 2>&1 | FileCheck %s --check-prefix=FAMILY
// FAMILY: error: isaac: cannot use the trained model: {{.*}}family/sm_90/gemm-f32-mma.mlp: the model ranks simt configurations, which are not the mma family's
//
// The error is reported once, on the first GEMM of that element type.
// TRUNC-NOT: error:

func.func @two(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}
