// RUN: isaac-opt %s --isaac-device-memory -split-input-file -verify-diagnostics | FileCheck %s

// Buffers kernels use are device memory: alloc/dealloc become gpu.alloc /
// gpu.dealloc (dynamic sizes kept), copies of device data gpu.memcpy.
// CHECK-LABEL: func.func @device(
// CHECK-SAME: %[[ARG:[a-z0-9_]+]]: memref<?xf32>, %[[N:[a-z0-9_]+]]: index
// CHECK: %[[A:.*]] = gpu.alloc (%[[N]]) : memref<?xf32>
// CHECK: %[[B:.*]] = gpu.alloc () : memref<16xf32>
// CHECK: gpu.memcpy %[[A]], %[[ARG]] : memref<?xf32>, memref<?xf32>
// CHECK: gpu.launch_func @kernels::@k blocks in ({{.*}}) threads in ({{.*}}) args(%[[A]] : memref<?xf32>, %[[B]] : memref<16xf32>)
// CHECK: gpu.dealloc %[[A]] : memref<?xf32>
// CHECK: gpu.dealloc %[[B]] : memref<16xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK-NOT: memref.copy
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<?xf32>, %b: memref<16xf32>) kernel {
      gpu.return
    }
  }
  func.func @device(%arg: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
    %b = memref.alloc() : memref<16xf32>
    memref.copy %arg, %a : memref<?xf32> to memref<?xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>, %b : memref<16xf32>)
    memref.dealloc %a : memref<?xf32>
    memref.dealloc %b : memref<16xf32>
    return
  }
}

// -----

// A stack buffer of device data is allocated with gpu.alloc and freed at
// the end of its block, here each loop iteration.
// CHECK-LABEL: func.func @stack(
// CHECK: scf.for
// CHECK: %[[T:.*]] = gpu.alloc () : memref<8xf32>
// CHECK: gpu.launch_func @kernels::@k {{.*}} args(%[[T]] : memref<8xf32>)
// CHECK: gpu.dealloc %[[T]] : memref<8xf32>
// CHECK-NEXT: }
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xf32>) kernel {
      gpu.return
    }
  }
  func.func @stack(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      %t = memref.alloca() : memref<8xf32>
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<8xf32>)
    }
    return
  }
}

// -----

// Device-ness follows aliases: a buffer selected with, or passed in the
// place of, a function argument is device data; so is one passed to a
// private function that launches a kernel on it, and one that is only
// copied to and from device data. A buffer the CPU reads and writes, and
// nothing else uses, stays on the host.
// CHECK-LABEL: func.func @aliases(
// CHECK: %[[SEL:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: arith.select %{{.*}}, %[[SEL]], %{{.*}} : memref<4xf32>
// CHECK: %[[CALLED:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: call @launches(%[[CALLED]])
// CHECK: %[[STAGED:.*]] = gpu.alloc () : memref<4xf32>
// CHECK: gpu.memcpy %[[STAGED]], %{{.*}}
// CHECK: gpu.memcpy %{{.*}}, %[[STAGED]]
// CHECK: %[[HOST:.*]] = memref.alloc() : memref<4xf32>
// CHECK: memref.store %{{.*}}, %[[HOST]]
// CHECK: memref.load %[[HOST]]
// CHECK: memref.dealloc %[[HOST]]
// CHECK: gpu.dealloc %[[SEL]]
// CHECK: gpu.dealloc %[[CALLED]]
// CHECK: gpu.dealloc %[[STAGED]]
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func private @launches(%a: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<4xf32>)
    return
  }
  func.func @aliases(%arg: memref<4xf32>, %out: memref<4xf32>, %cond: i1) -> f32 {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    %sel = memref.alloc() : memref<4xf32>
    %s = arith.select %cond, %sel, %arg : memref<4xf32>
    memref.copy %s, %out : memref<4xf32> to memref<4xf32>
    %called = memref.alloc() : memref<4xf32>
    call @launches(%called) : (memref<4xf32>) -> ()
    %staged = memref.alloc() : memref<4xf32>
    memref.copy %arg, %staged : memref<4xf32> to memref<4xf32>
    memref.copy %staged, %out : memref<4xf32> to memref<4xf32>
    %host = memref.alloc() : memref<4xf32>
    memref.store %one, %host[%c0] : memref<4xf32>
    %v = memref.load %host[%c0] : memref<4xf32>
    memref.dealloc %host : memref<4xf32>
    memref.dealloc %sel : memref<4xf32>
    memref.dealloc %called : memref<4xf32>
    memref.dealloc %staged : memref<4xf32>
    return %v : f32
  }
}

// -----

// A device stack buffer that leaves its block cannot be freed there.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xf32>) kernel {
      gpu.return
    }
  }
  func.func @escapes(%cond: i1, %arg: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %r = scf.if %cond -> memref<8xf32> {
      // expected-error @below {{isaac: cannot place this stack buffer in device memory: it leaves its block through 'scf.yield'}}
      %t = memref.alloca() : memref<8xf32>
      scf.yield %t : memref<8xf32>
    } else {
      scf.yield %arg : memref<8xf32>
    }
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%r : memref<8xf32>)
    return
  }
}

// -----

func.func @strided_copy(%a: memref<4x4xf32, strided<[8, 1]>>, %b: memref<4x4xf32>) {
  // expected-error @below {{isaac: this copy of device data needs a copy kernel (layouts 'memref<4x4xf32, strided<[8, 1]>>' and 'memref<4x4xf32>'); run isaac-offload before gpu-kernel-outlining}}
  memref.copy %a, %b : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}

// -----

func.func @realloc(%a: memref<4xf32>) -> memref<8xf32> {
  // expected-error @below {{isaac: memref.realloc of device data is not supported}}
  %g = memref.realloc %a : memref<4xf32> to memref<8xf32>
  return %g : memref<8xf32>
}
