// The host side of the generic GPU path, end to end: a program on tensors
// (Inputs/offload-program.mlir) through --isaac-pipeline (fusion,
// bufferization, deallocation, isaac's GEMMs, the offload, kernel outlining,
// device memory, the device lowering, isaac's launches, the host check and
// the LLVM dialect; docs/architecture.md), then LLVM IR.
// RUN: rm -rf %t && mkdir -p %t
// RUN: isaac-opt %S/Inputs/offload-program.mlir -o %t/host.mlir --isaac-pipeline="chip=sm_90 model-dir=none ptx-dir=%t/isaac" \
// RUN:   2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=HOST --implicit-check-not=linalg. --implicit-check-not=memref. --implicit-check-not=scf. --implicit-check-not=affine. --implicit-check-not="gpu.launch " < %t/host.mlir
// RUN: mlir-translate --mlir-to-llvmir %t/host.mlir -o %t/host.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t/host.ll

// One remark per offloaded operation. The GEMM isaac takes gets its
// selection remark, and its zero fill is folded into it (beta = 0).
// REMARK: offload-program.mlir:16:9: remark: isaac: no trained model for sm_90; configuration chosen by the analytic heuristic
// REMARK-NOT: 'linalg.fill' runs on the generic GPU path
// REMARK: offload-program.mlir:21:10: remark: isaac: 'linalg.generic' runs on the generic GPU path (untuned)
// REMARK: offload-program.mlir:41:8: remark: isaac: 'linalg.fill' runs on the generic GPU path
// REMARK: offload-program.mlir:42:8: remark: isaac: 'linalg.matmul' runs on the generic GPU path (untuned): dynamic shapes are not supported
// REMARK: offload-program.mlir:44:9: remark: isaac: 'linalg.fill' runs on the generic GPU path
// REMARK: offload-program.mlir:45:11: remark: isaac: 'linalg.reduce' runs on the generic GPU path
// REMARK: offload-program.mlir:51:9: remark: isaac: 'linalg.fill' runs on the generic GPU path
// REMARK: offload-program.mlir:52:10: remark: isaac: 'linalg.reduce' runs on the generic GPU path
// REMARK: offload-program.mlir:64:8: remark: isaac: 'linalg.fill' runs on the generic GPU path
// REMARK: offload-program.mlir:65:8: remark: isaac: 'linalg.depthwise_conv_2d_nhwc_hwc' runs on the generic GPU path
// REMARK: offload-program.mlir:68:8: remark: isaac: 'linalg.transpose' runs on the generic GPU path
// REMARK: offload-program.mlir:79:10: remark: isaac: 'linalg.generic' runs on the generic GPU path
// REMARK-NOT: error

// Host functions in the LLVM dialect: kernel launches, the isaac runtime
// call, nothing that computes on operand data; one gpu.binary per kernel.
// HOST-LABEL: llvm.func @dense(
// HOST: llvm.call @isaacGemmLaunch(
// HOST: gpu.launch_func <%{{.*}}> @dense_kernel::@dense_kernel
// HOST: gpu.binary @dense_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx81">
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
// LLVM: call ptr @mgpuMemAlloc(i64 128,
// LLVM: call void @mgpuMemcpy(ptr %{{.*}}, ptr @__constant_32xf32, i64 128,
// LLVM: call i32 @isaacGemmLaunch(
// LLVM: call void @mgpuLaunchKernel(ptr %{{.*}}, i64 8, i64 1, i64 1, i64 256, i64 1, i64 1,
// LLVM: call void @mgpuMemFree(ptr %{{.*}},
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
