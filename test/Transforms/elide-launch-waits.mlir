// RUN: isaac-opt %s --pass-pipeline="builtin.module(func.func(gpu-async-region,isaac-elide-launch-waits))" | FileCheck %s

// gpu-async-region puts a blocking wait for the allocation before the
// launch call; isaac's launches and the allocation share the legacy stream,
// so that wait goes. The launch's argument struct on the host stack does
// not stop it. The wait at the end, and the one before a call that is not
// an isaac launch, stay.
// CHECK-LABEL: func.func @layers
// CHECK: gpu.alloc async
// CHECK-NOT: gpu.wait [
// CHECK: call @isaacGemmLaunch(
// CHECK: gpu.alloc async
// CHECK-NEXT: gpu.wait [
// CHECK-NEXT: call @other(
// CHECK: gpu.dealloc async
// CHECK: gpu.dealloc async
// CHECK-NEXT: gpu.wait [
// CHECK-NEXT: return
func.func private @isaacGemmLaunch(!llvm.ptr, i64) -> i32
func.func private @other(memref<16xf32>)
func.func @layers(%n: i64) {
  %a = gpu.alloc () : memref<16xf32>
  %one = llvm.mlir.constant(1 : i64) : i64
  %args = llvm.alloca %one x !llvm.array<2 x i64> : (i64) -> !llvm.ptr
  %slot = llvm.getelementptr %args[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x i64>
  llvm.store %n, %slot : i64, !llvm.ptr
  %r = call @isaacGemmLaunch(%args, %n) : (!llvm.ptr, i64) -> i32
  %b = gpu.alloc () : memref<16xf32>
  call @other(%b) : (memref<16xf32>) -> ()
  gpu.dealloc %a : memref<16xf32>
  gpu.dealloc %b : memref<16xf32>
  return
}
