// RUN: isaac-opt %s --isaac-check-host -split-input-file -verify-diagnostics | FileCheck %s

// Clean host code passes untouched: scalar control flow and arithmetic,
// device buffers managed and given to kernels, isaac's launches and the
// operations isaac-lower-launch emits, host-only buffers (the
// deallocation helper's arrays) loaded and stored by the CPU.
// CHECK-LABEL: func.func @clean(
// CHECK: gpu.launch_func
// CHECK: isaac.launch_gemm
// CHECK: llvm.inttoptr
// CHECK: call @dealloc_helper
// CHECK: func.func private @dealloc_helper(
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<?xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @g {
    gpu.func @g() kernel {
      gpu.return
    }
  }
  llvm.mlir.global internal constant @ptx("ptx\00") {addr_space = 0 : i32}
  func.func @clean(%arg: memref<?xf32>, %a: memref<64x64xf32>, %n: index, %cond: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buf = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %buf, %arg : memref<?xf32>, memref<?xf32>
    %sel = arith.select %cond, %buf, %arg : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.muli %i, %n : index
      gpu.launch_func @kernels::@k blocks in (%m, %c1, %c1) threads in (%c1, %c1, %c1) args(%sel : memref<?xf32>)
    }
    isaac.launch_gemm @g::@g(%a, %a, %a) {alpha = 1.0 : f64, beta = 0.0 : f64,
      config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>,
      trans_a = false, trans_b = false} : memref<64x64xf32>, memref<64x64xf32>, memref<64x64xf32>
    %p = memref.extract_aligned_pointer_as_index %a : memref<64x64xf32> -> index
    %pi = arith.index_cast %p : index to i64
    %ptr = llvm.inttoptr %pi : i64 to !llvm.ptr
    %ptx = llvm.mlir.addressof @ptx : !llvm.ptr
    %null = llvm.mlir.zero : !llvm.ptr
    %flags = memref.alloc() : memref<1xi1>
    %ptrs = memref.alloc() : memref<1xindex>
    %bp = memref.extract_aligned_pointer_as_index %buf : memref<?xf32> -> index
    memref.store %bp, %ptrs[%c0] : memref<1xindex>
    memref.store %cond, %flags[%c0] : memref<1xi1>
    %cp = memref.cast %ptrs : memref<1xindex> to memref<?xindex>
    %cf = memref.cast %flags : memref<1xi1> to memref<?xi1>
    call @dealloc_helper(%cp, %cf) : (memref<?xindex>, memref<?xi1>) -> ()
    %f = memref.load %flags[%c0] : memref<1xi1>
    scf.if %f {
      gpu.dealloc %buf : memref<?xf32>
    }
    memref.dealloc %flags : memref<1xi1>
    memref.dealloc %ptrs : memref<1xindex>
    return
  }
  func.func private @dealloc_helper(%ptrs: memref<?xindex>, %flags: memref<?xi1>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %ptrs, %c0 : memref<?xindex>
    scf.for %i = %c0 to %n step %c1 {
      %p = memref.load %ptrs[%i] : memref<?xindex>
      %z = arith.cmpi eq, %p, %c0 : index
      memref.store %z, %flags[%i] : memref<?xi1>
    }
    return
  }
}

// -----

// A CPU load of a device buffer (a function argument).
func.func @load(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{isaac: host function @load would touch device memory from the CPU: 'memref.load'}}
  %v = memref.load %x[%c0] : memref<4xf32>
  return %v : f32
}

// -----

// A CPU store into gpu.alloc'ed memory, through a view.
func.func @store(%f: f32) {
  %c0 = arith.constant 0 : index
  %d = gpu.alloc () : memref<4x4xf32>
  %row = memref.subview %d[1, 0] [1, 4] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  // expected-error @below {{isaac: host function @store would touch device memory from the CPU: 'memref.store'}}
  memref.store %f, %row[%c0] : memref<4xf32, strided<[1], offset: 4>>
  gpu.dealloc %d : memref<4x4xf32>
  return
}

// -----

// Reached through a private function's argument: the caller passes device
// memory.
func.func private @reads(%x: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @below {{isaac: host function @reads would touch device memory from the CPU: 'memref.load'}}
  %v = memref.load %x[%c0] : memref<4xf32>
  return %v : f32
}
func.func @caller(%x: memref<4xf32>) -> f32 {
  %v = call @reads(%x) : (memref<4xf32>) -> f32
  return %v : f32
}

// -----

// Leftovers that compute on operand data on the CPU.
func.func @leftovers(%x: memref<4xf32>, %v: vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  // expected-error @below {{isaac: host function @leftovers would touch device memory from the CPU: 'linalg.fill'}}
  linalg.fill ins(%z : f32) outs(%x : memref<4xf32>)
  // expected-error @below {{isaac: host function @leftovers would touch device memory from the CPU: 'vector.store'}}
  vector.store %v, %x[%c0] : memref<4xf32>, vector<4xf32>
  // expected-error @below {{isaac: host function @leftovers would touch device memory from the CPU: 'arith.addf'}}
  %w = arith.addf %v, %v : vector<4xf32>
  // expected-error @below {{isaac: host function @leftovers would touch device memory from the CPU: 'affine.for'}}
  affine.for %i = 0 to 4 {
    %e = affine.load %x[%i] : memref<4xf32>
  }
  // expected-error @below {{isaac: host function @leftovers would touch device memory from the CPU: 'scf.parallel'}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %z, %x[%i] : memref<4xf32>
  }
  return
}

// -----

// A kernel must never be given host memory: an un-staged host constant,
// a host allocation.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  memref.global "private" constant @c : memref<4xf32> = dense<1.0>
  func.func @host_to_kernel() {
    %c1 = arith.constant 1 : index
    %g = memref.get_global @c : memref<4xf32>
    // expected-error @below {{isaac: host function @host_to_kernel gives host memory to 'gpu.launch_func' (operand #6); kernels read and write device memory only}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%g : memref<4xf32>)
    // expected-error @below {{isaac: host function @host_to_kernel would touch device memory from the CPU: 'memref.alloc'}}
    %h = memref.alloc() : memref<4xf32>
    // expected-error @below {{isaac: host function @host_to_kernel gives host memory to 'gpu.launch_func' (operand #6)}}
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : memref<4xf32>)
    return
  }
}

// -----

func.func @not_outlined(%x: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @below {{isaac: host function @not_outlined still holds a 'gpu.launch' (run gpu-kernel-outlining before the host check)}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
