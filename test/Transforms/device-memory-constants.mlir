// RUN: isaac-opt %s --isaac-stage-host-constants -split-input-file -verify-diagnostics | FileCheck %s
// RUN: isaac-opt %s --pass-pipeline="builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-results-to-out-params{hoist-static-allocs modify-public-functions}, isaac-stage-host-constants, buffer-deallocation-pipeline, isaac-offload, gpu-kernel-outlining, isaac-device-memory)" -split-input-file 2>/dev/null | FileCheck %s --check-prefix=PIPE

// A host constant a kernel reads is copied, once per call, at the entry,
// into a buffer the kernels read instead; the CPU keeps reading the global.
// CHECK-LABEL: func.func @staged(
// CHECK-NEXT: %[[G:.*]] = memref.get_global @bias : memref<4xf32>
// CHECK-NEXT: %[[D:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT: memref.copy %[[G]], %[[D]]
// CHECK: scf.for
// CHECK: %[[HOSTG:.*]] = memref.get_global @bias
// CHECK: memref.load %[[HOSTG]]
// CHECK: linalg.add ins(%{{.*}}, %[[D]] : memref<4xf32>, memref<4xf32>)
// CHECK: linalg.add ins(%{{.*}}, %[[D]] : memref<4xf32>, memref<4xf32>)
// CHECK: scf.yield
// CHECK: %[[LAST:.*]] = memref.get_global @bias
// CHECK: memref.load %[[LAST]]
memref.global "private" constant @bias : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @staged(%x: memref<4xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c1) -> index {
    %g = memref.get_global @bias : memref<4xf32>
    %v = memref.load %g[%c0] : memref<4xf32>
    linalg.add ins(%x, %g : memref<4xf32>, memref<4xf32>) outs(%x : memref<4xf32>)
    %g2 = memref.get_global @bias : memref<4xf32>
    linalg.add ins(%x, %g2 : memref<4xf32>, memref<4xf32>) outs(%x : memref<4xf32>)
    scf.yield %acc : index
  }
  %last = memref.get_global @bias : memref<4xf32>
  %v = memref.load %last[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// A global only copied out (the bufferized `return <constant>`) needs no
// staging: the copy is a host-to-device gpu.memcpy.
// CHECK-LABEL: func.func @copied(
// CHECK-NOT: memref.alloc
// CHECK: memref.copy
// PIPE-LABEL: func.func @copied(
// PIPE-SAME: %[[OUT:[a-z0-9_]+]]: memref<4xf32>
// PIPE: %[[G:.*]] = memref.get_global
// PIPE: gpu.memcpy %[[OUT]], %[[G]]
memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @copied(%out: memref<4xf32>) {
  %g = memref.get_global @table : memref<4xf32>
  memref.copy %g, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Through bufferization and the deallocation pipeline: the staged buffer
// is device memory, freed at the end.
// PIPE-LABEL: func.func @bias_add(
// PIPE-SAME: %[[X:[a-z0-9_]+]]: memref<8x4xf32>, %[[OUT:[a-z0-9_]+]]: memref<8x4xf32>
// PIPE: %[[G:.*]] = memref.get_global @__constant_4xf32 : memref<4xf32>
// PIPE: %[[D:.*]] = gpu.alloc () : memref<4xf32>
// PIPE: gpu.memcpy %[[D]], %[[G]]
// PIPE: gpu.launch_func {{.*}} args({{.*}}%[[X]] : memref<8x4xf32>, %[[D]] : memref<4xf32>, %[[OUT]] : memref<8x4xf32>
// PIPE: gpu.dealloc %[[D]]
func.func @bias_add(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %b = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<8x4xf32>, tensor<4xf32>) outs(%e : tensor<8x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %s = arith.addf %a, %bb : f32
    linalg.yield %s : f32
  } -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
