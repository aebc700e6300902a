// RUN: isaac-opt %s --isaac-offload="strict=true" -split-input-file -verify-diagnostics

// With strict, every operation that would take the generic GPU path is an
// error naming it and the reason; copies that are one gpu.memcpy are not
// kernels and pass.
func.func @strict(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>,
                  %x: memref<16xf32>, %y: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @below {{isaac: 'linalg.fill' runs on the generic GPU path (untuned): isaac compiles only linalg.matmul, linalg.batch_matmul and linalg.conv_2d_nhwc_hwcf/fhwc}}
  linalg.fill ins(%zero : f32) outs(%c : memref<?x?xf32>)
  // expected-error @below {{isaac: 'linalg.matmul' runs on the generic GPU path (untuned): dynamic shapes are not supported (kernel configurations are chosen per static shape)}}
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  memref.copy %x, %y : memref<16xf32> to memref<16xf32>
  return
}

// -----

func.func @strict_parallel(%x: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  // expected-error @below {{isaac: 'scf.parallel' runs on the generic GPU path (untuned): isaac compiles only linalg.matmul, linalg.batch_matmul and linalg.conv_2d_nhwc_hwcf/fhwc}}
  scf.parallel (%i) = (%c0) to (%c16) step (%c1) {
    %v = memref.load %x[%i] : memref<16xf32>
    memref.store %v, %x[%i] : memref<16xf32>
  }
  return
}

// -----

func.func @strict_copy(%s: memref<4x4xf32, strided<[8, 1]>>, %d: memref<4x4xf32>) {
  // expected-error @below {{isaac: 'memref.copy' runs on the generic GPU path (untuned): isaac compiles only linalg.matmul, linalg.batch_matmul and linalg.conv_2d_nhwc_hwcf/fhwc}}
  memref.copy %s, %d : memref<4x4xf32, strided<[8, 1]>> to memref<4x4xf32>
  return
}
