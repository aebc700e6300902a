// RUN: isaac-opt %s --split-input-file --pass-pipeline="builtin.module(gpu.module(isaac-tensor-map-params))" -verify-diagnostics | FileCheck %s
// isaac-tensor-map-params: the parameters a kernel lists in
// isaac.tensor_map_args become 128-byte, 64-byte aligned byval grid
// constants (PTX `.param .align 64 .b8 p[128]`); the list goes.

module attributes {gpu.container_module} {
gpu.module @k {
  // CHECK-LABEL: llvm.func @tma
  // CHECK-SAME: (%arg0: !llvm.ptr<1>,
  // CHECK-SAME: %arg1: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
  // CHECK-SAME: %arg2: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
  // CHECK-SAME: %arg3: i32) attributes {nvvm.kernel} {
  llvm.func @tma(%c: !llvm.ptr<1>, %ta: !llvm.ptr, %tb: !llvm.ptr, %use: i32) attributes {nvvm.kernel, isaac.tensor_map_args = array<i32: 1, 2>} {
    llvm.return
  }
  // A kernel without the attribute is left alone.
  // CHECK-LABEL: llvm.func @plain(%arg0: !llvm.ptr) attributes
  llvm.func @plain(%p: !llvm.ptr) attributes {nvvm.kernel} {
    llvm.return
  }
}
}

// -----

gpu.module @k {
  // expected-error @below {{isaac.tensor_map_args: parameter 0 is not a pointer parameter}}
  llvm.func @notptr(%x: i32) attributes {nvvm.kernel, isaac.tensor_map_args = array<i32: 0>} {
    llvm.return
  }
}

// -----

gpu.module @k {
  // expected-error @below {{isaac.tensor_map_args: parameter 3 is not a pointer parameter}}
  llvm.func @range(%x: !llvm.ptr) attributes {nvvm.kernel, isaac.tensor_map_args = array<i32: 3>} {
    llvm.return
  }
}

// -----

gpu.module @k {
  // expected-error @below {{isaac.tensor_map_args on a function that is not a kernel: a grid constant must be a kernel parameter}}
  llvm.func @device(%x: !llvm.ptr) attributes {isaac.tensor_map_args = array<i32: 0>} {
    llvm.return
  }
}
