// The host side of the generic GPU path, end to end: a program on tensors
// (Inputs/offload-program.mlir) through bufferization, the deallocation
// pipeline, isaac's GEMMs, the offload, kernel outlining, device memory, the
// device lowering, isaac's launches, the host check and the LLVM dialect,
// in the order of docs/architecture.md; then LLVM IR.
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
// RUN:   func.func(gpu-async-region), convert-scf-to-cf, gpu-to-llvm, convert-to-llvm, reconcile-unrealized-casts, canonicalize)" \
// RUN:   2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=HOST --implicit-check-not=linalg. --implicit-check-not=memref. --implicit-check-not=scf. --implicit-check-not=affine. --implicit-check-not="gpu.launch " < %t/host.mlir
// RUN: mlir-translate --mlir-to-llvmir %t/host.mlir -o %t/host.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t/host.ll

// One remark per offloaded operation; the GEMM isaac takes gets none.
// REMARK-NOT: 'linalg.matmul' runs on the generic GPU path
// REMARK: offload-program.mlir:15:8: remark: isaac: 'linalg.fill' runs on the generic GPU path (untuned)
// REMARK: offload-program.mlir:21:10: remark: isaac: 'linalg.generic' runs on the generic GPU path (untuned)
// REMARK: offload-program.mlir:41:8: remark: isaac: 'linalg.fill' runs on the generic GPU path
// REMARK: offload-program.mlir:42:8: remark: isaac: 'linalg.matmul' runs on the generic GPU path (untuned): dynamic shapes are not supported
// REMARK: offload-program.mlir:44:9: remark: isaac: 'linalg.fill' runs on the generic GPU path
// REMARK: offload-program.mlir:45:11: remark: isaac: 'linalg.reduce' runs on the generic GPU path
// REMARK: offload-program.mlir:51:9: remark: isaac: 'linalg.fill' runs on the generic GPU path
// REMARK: offload-program.mlir:52:10: remark: isaac: 'linalg.reduce' runs on the generic GPU path
// REMARK: offload-program.mlir:64:8: remark: isaac: 'linalg.fill' runs on the generic GPU path
// REMARK: offload-program.mlir:65:8: remark: isaac: 'linalg.conv_2d_nhwc_hwcf' runs on the generic GPU path
// REMARK: offload-program.mlir:68:8: remark: isaac: 'linalg.transpose' runs on the generic GPU path
// REMARK: offload-program.mlir:79:10: remark: isaac: 'linalg.generic' runs on the generic GPU path
// REMARK-NOT: error

// Host functions in the LLVM dialect: kernel launches, the isaac runtime
// call, nothing that computes on operand data; one gpu.binary per kernel.
// HOST-LABEL: llvm.func @dense(
// HOST: gpu.launch_func <%{{.*}}> @dense_kernel::@dense_kernel
// HOST: llvm.call @isaacGemmLaunch(
// HOST: gpu.launch_func <%{{.*}}> @dense_kernel_0::@dense_kernel
// HOST: gpu.binary @dense_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// HOST: gpu.binary @dense_kernel_0
// HOST-LABEL: llvm.func @dynamic(
// HOST-COUNT-6: gpu.launch_func
// HOST-COUNT-6: gpu.binary
// HOST-LABEL: llvm.func @conv(
// HOST-COUNT-3: gpu.launch_func
// HOST-COUNT-3: gpu.binary
// HOST-LABEL: llvm.func @swap(
// HOST: gpu.launch_func <%{{.*}}> @swap_kernel::@swap_kernel
// HOST: llvm.call @dealloc_helper(
// HOST: gpu.binary @swap_kernel
// HOST-LABEL: llvm.func @dealloc_helper(

// LLVM IR: device buffers from mgpuMemAlloc, the constant bias copied to
// the device, kernels launched through mgpuLaunchKernel (8 blocks of 256
// threads for 64x32 elements; a grid computed at run time for dynamic
// shapes), the dealloc helper's arrays from malloc.
// LLVM-LABEL: define void @dense(
// LLVM: %[[BIAS:.*]] = call ptr @mgpuMemAlloc(i64 128,
// LLVM: call void @mgpuMemcpy(ptr %[[BIAS]], ptr @__constant_32xf32, i64 128,
// LLVM: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 8, i64 1, i64 1, i64 256, i64 1, i64 1,
// LLVM: call i32 @isaacGemmLaunch(
// LLVM: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 8, i64 1, i64 1, i64 256, i64 1, i64 1,
// LLVM: call void @mgpuMemFree(ptr %[[BIAS]],
// LLVM-LABEL: define void @dynamic(
// LLVM: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 %{{.*}}, i64 1, i64 1, i64 256, i64 1, i64 1,
// LLVM-LABEL: define void @conv(
// LLVM: call void @mgpuLaunchKernel(
// LLVM-LABEL: define void @swap(
// LLVM: call ptr @mgpuMemAlloc(i64 64,
// LLVM: call ptr @malloc(
// LLVM: call void @dealloc_helper(
// LLVM: call void @free(
// LLVM: @mgpuModuleLoadJIT(ptr @dense_kernel_binary
