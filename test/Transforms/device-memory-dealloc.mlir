// RUN: isaac-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, buffer-results-to-out-params{hoist-static-allocs modify-public-functions}, buffer-deallocation-pipeline, isaac-offload, gpu-kernel-outlining, isaac-device-memory)" 2>/dev/null | FileCheck %s
// RUN: isaac-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map allow-return-allocs-from-loops}, buffer-results-to-out-params{hoist-static-allocs modify-public-functions}, buffer-deallocation-pipeline, isaac-offload, gpu-kernel-outlining, isaac-device-memory, isaac-check-host)" -o /dev/null

// What buffer-deallocation-pipeline makes of buffers carried through a
// loop: ownership flags, pointer comparisons and, where several buffers may
// alias, arrays of pointers and flags handed to a dealloc_helper function
// that loads and stores them on the CPU. Those arrays are host data and
// stay memref.alloc; the tensors' buffers are device memory.

// CHECK-LABEL: func.func @swap(
// CHECK-SAME: %[[A:[a-z0-9_]+]]: memref<16xf32>, %[[B:[a-z0-9_]+]]: memref<16xf32>, %{{.*}}: index, %{{.*}}: i1, %[[OUT0:[a-z0-9_]+]]: memref<16xf32>, %[[OUT1:[a-z0-9_]+]]: memref<16xf32>
// CHECK: scf.for {{.*}} iter_args(%[[T:[a-z0-9_]+]] = %[[A]], %[[U:[a-z0-9_]+]] = %[[B]], {{.*}}) -> (memref<16xf32>, memref<16xf32>, i1, i1)
// CHECK: %[[SUM:.*]] = gpu.alloc () : memref<16xf32>
// CHECK: gpu.launch_func @swap_kernel::@swap_kernel {{.*}} args({{.*}}%[[T]] : memref<16xf32>, %[[U]] : memref<16xf32>, %[[SUM]] : memref<16xf32>
// CHECK: %[[SEL:.*]] = arith.select %{{.*}}, %[[SUM]], %[[T]] : memref<16xf32>
// CHECK: %[[COPY:.*]] = gpu.alloc () : memref<16xf32>
// CHECK: gpu.memcpy %[[COPY]], %[[SUM]]
// CHECK: gpu.dealloc %[[SUM]]
// The helper's arrays: host allocations, filled and read by the CPU.
// CHECK: %[[PTRS:.*]] = memref.alloc() : memref<2xindex>
// CHECK: %[[FLAGS:.*]] = memref.alloc() : memref<2xi1>
// CHECK: memref.store %{{.*}}, %[[PTRS]]
// CHECK: memref.store %{{.*}}, %[[FLAGS]]
// CHECK: %[[RES:.*]] = memref.alloc() : memref<2xi1>
// CHECK: call @dealloc_helper(
// CHECK: %[[F0:.*]] = memref.load %[[RES]]
// CHECK: scf.if %[[F0]] {
// CHECK-NEXT: gpu.dealloc
// CHECK: memref.dealloc %[[PTRS]] : memref<2xindex>
// CHECK: scf.yield %[[SEL]], %[[COPY]]
// CHECK: gpu.memcpy %[[OUT0]]
// CHECK: gpu.memcpy %[[OUT1]]
// CHECK: memref.alloc() : memref<2xindex>
// CHECK: call @dealloc_helper(
// CHECK: return

// The helper itself is host code on host data: untouched.
// CHECK-LABEL: func.func private @dealloc_helper(
// CHECK-NOT: gpu.
// CHECK: memref.load
// CHECK-NOT: gpu.
// CHECK: memref.store
// CHECK-NOT: gpu.
// CHECK: return

#id = affine_map<(d0) -> (d0)>
func.func @swap(%a: tensor<16xf32>, %b: tensor<16xf32>, %n: index, %c: i1) -> (tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a, %u = %b) -> (tensor<16xf32>, tensor<16xf32>) {
    %e = tensor.empty() : tensor<16xf32>
    %g = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%t, %u : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %z = arith.addf %x, %y : f32
      linalg.yield %z : f32
    } -> tensor<16xf32>
    %s = arith.select %c, %g, %t : tensor<16xf32>
    scf.yield %s, %g : tensor<16xf32>, tensor<16xf32>
  }
  return %r#0, %r#1 : tensor<16xf32>, tensor<16xf32>
}
