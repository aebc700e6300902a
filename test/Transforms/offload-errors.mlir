// RUN: isaac-opt %s --isaac-offload -split-input-file -verify-diagnostics
// RUN: not isaac-opt %s --isaac-offload="block-size=0" -split-input-file 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not isaac-opt %s --isaac-offload="block-size=2048" -split-input-file 2>&1 | FileCheck %s --check-prefix=BLOCK

// BLOCK: isaac-offload: block-size must be in [1, 1024]

// A parallel loop whose results the host would read.
func.func @reduction_loop(%x: memref<?xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-error @below {{isaac: scf.parallel with reductions is not supported on the generic GPU path (its results would be read on the host)}}
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return
}

// -----

// Tensors have no place on the host after bufferization.
func.func @tensors(%t: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  // expected-error @below {{isaac: 'linalg.fill' operates on tensors; bufferize before isaac-offload}}
  %r = linalg.fill ins(%z : f32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A copy kernel cannot read host memory: a strided copy out of a host-only
// buffer (the CPU writes it) is refused.
func.func @host_to_device_strided(%d: memref<4x4xf32, strided<[8, 1]>>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %h = memref.alloc() : memref<4x4xf32>
  memref.store %one, %h[%c0, %c0] : memref<4x4xf32>
  // expected-error @below {{isaac: cannot copy between host and device memory through a non-identity layout ('memref<4x4xf32>' to 'memref<4x4xf32, strided<[8, 1]>>')}}
  memref.copy %h, %d : memref<4x4xf32> to memref<4x4xf32, strided<[8, 1]>>
  memref.dealloc %h : memref<4x4xf32>
  return
}
