// REQUIRES: ptxas
// The device side of offload-e2e.mlir: every kernel of the program (the
// generic ones, embedded in the LLVM IR, and isaac's GEMM, written to
// ptx-dir) assembles with ptxas.
// RUN: rm -rf %t && mkdir -p %t
// RUN: isaac-opt %S/Inputs/offload-program.mlir -o %t/host.mlir --isaac-pipeline="chip=sm_90 model-dir=none ptx-dir=%t/isaac" 2>/dev/null
// RUN: mlir-translate --mlir-to-llvmir %t/host.mlir -o %t/host.ll
// RUN: %python %S/Inputs/offload-extract-ptx.py %t/host.ll %t/generic | FileCheck %s
// RUN: for f in %t/generic/*.ptx %t/isaac/*.ptx; do %ptxas -arch=sm_90 $f -o %t/out.cubin || exit 1; done
// RUN: ls %t/isaac | count 1
// RUN: ls %t/generic | count 11

// CHECK-DAG: dense_kernel
// CHECK-DAG: dynamic_kernel
// CHECK-DAG: dynamic_kernel_0
// CHECK-DAG: dynamic_kernel_1
// CHECK-DAG: dynamic_kernel_2
// CHECK-DAG: dynamic_kernel_3
// CHECK-DAG: dynamic_kernel_4
// CHECK-DAG: conv_kernel
// CHECK-DAG: conv_kernel_5
// CHECK-DAG: conv_kernel_6
// CHECK-DAG: swap_kernel
