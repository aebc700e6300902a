// RUN: isaac-opt %s --isaac-stage-host-constants -verify-diagnostics

// A mutable global would not see the kernels' writes through a copy.
memref.global "private" @state : memref<4xf32> = dense<0.0>
func.func @mutable(%x: memref<4xf32>) {
  // expected-error @below {{isaac: kernels cannot use the host global @state: only constant globals are copied to the device}}
  %g = memref.get_global @state : memref<4xf32>
  linalg.add ins(%x, %g : memref<4xf32>, memref<4xf32>) outs(%g : memref<4xf32>)
  return
}
