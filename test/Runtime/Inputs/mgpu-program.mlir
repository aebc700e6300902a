// A program of the upstream GPU path: device buffers, copies, a memset and
// an elementwise linalg.generic that becomes a gpu.launch. Compiled by
// mgpu-program.test and linked with libisaac_runtime, whose mgpu* functions
// it calls (docs/abi.md, "Upstream GPU path").

#map = affine_map<(d0) -> (d0)>

func.func @axpy(%x: memref<256xf32>, %y: memref<256xf32>)
    attributes {llvm.emit_c_interface} {
  %two = arith.constant 2.0 : f32
  %dx = gpu.alloc () : memref<256xf32>
  %dy = gpu.alloc () : memref<256xf32>
  gpu.memcpy %dx, %x : memref<256xf32>, memref<256xf32>
  gpu.memset %dy, %two : memref<256xf32>, f32
  // y = 2 * x + y, on the GPU.
  linalg.generic {indexing_maps = [#map, #map],
                  iterator_types = ["parallel"]}
      ins(%dx : memref<256xf32>) outs(%dy : memref<256xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %two : f32
    %s = arith.addf %m, %b : f32
    linalg.yield %s : f32
  }
  gpu.memcpy %y, %dy : memref<256xf32>, memref<256xf32>
  gpu.dealloc %dx : memref<256xf32>
  gpu.dealloc %dy : memref<256xf32>
  return
}
