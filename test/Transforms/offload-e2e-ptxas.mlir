// REQUIRES: ptxas
// The device side of offload-e2e.mlir: every kernel of the program (the
// generic ones, embedded in the LLVM IR, and isaac's GEMM, written to
// ptx-dir) assembles with ptxas.
// RUN: rm -rf %t && mkdir -p %t
// RUN: isaac-opt %S/Inputs/offload-program.mlir -o %t/host.mlir --pass-pipeline="builtin.module( \
// RUN:   one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, \
// RUN:   buffer-results-to-out-params{hoist-static-allocs modify-public-functions}, \
// RUN:   isaac-stage-host-constants, buffer-deallocation-pipeline, \
// RUN:   isaac-select-config{model-dir=none}, isaac-lower-to-gpu, isaac-offload, \
// RUN:   gpu-kernel-outlining, isaac-device-memory, \
// RUN:   nvvm-attach-target{module=_kernel chip=sm_90 features=+ptx80 O=3}, \
// RUN:   gpu.module(convert-scf-to-cf, convert-gpu-to-nvvm, convert-nvvm-to-llvm, reconcile-unrealized-casts, canonicalize, cse), \
// RUN:   gpu-module-to-binary{format=isa}, isaac-lower-launch{ptx-dir=%t/isaac}, isaac-check-host, \
// RUN:   func.func(gpu-async-region), convert-scf-to-cf, gpu-to-llvm, convert-to-llvm, reconcile-unrealized-casts, canonicalize)" 2>/dev/null
// RUN: mlir-translate --mlir-to-llvmir %t/host.mlir -o %t/host.ll
// RUN: %python %S/Inputs/offload-extract-ptx.py %t/host.ll %t/generic | FileCheck %s
// RUN: for f in %t/generic/*.ptx %t/isaac/*.ptx; do %ptxas -arch=sm_90 $f -o %t/out.cubin || exit 1; done
// RUN: ls %t/isaac | count 1
// RUN: ls %t/generic | count 12

// CHECK-DAG: dense_kernel
// CHECK-DAG: dense_kernel_0
// CHECK-DAG: dynamic_kernel
// CHECK-DAG: dynamic_kernel_1
// CHECK-DAG: dynamic_kernel_2
// CHECK-DAG: dynamic_kernel_3
// CHECK-DAG: dynamic_kernel_4
// CHECK-DAG: dynamic_kernel_5
// CHECK-DAG: conv_kernel
// CHECK-DAG: conv_kernel_6
// CHECK-DAG: conv_kernel_7
// CHECK-DAG: swap_kernel
