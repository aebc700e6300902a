// RUN: isaac-opt %s --isaac-lower-to-gpu -split-input-file -verify-diagnostics -mlir-print-local-scope | FileCheck %s

// An isaac.gemm whose epilogue is the identity is a plain GEMM with
// beta = 0 (C is not read).
// CHECK-LABEL: func.func @identity
// CHECK: isaac.launch_gemm @[[K:isaac_gemm_f32_nn_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4]]::@[[K]](%arg0, %arg1, %arg2)
// CHECK-SAME: beta = 0.0
// CHECK-NOT: epilogue =
// CHECK: gpu.module @[[K]]
func.func @identity(%a: memref<100x70xf32>, %b: memref<70x50xf32>, %c: memref<100x50xf32>) {
  isaac.gemm ins(%a, %b : memref<100x70xf32>, memref<70x50xf32>) outs(%c : memref<100x50xf32>)
    attributes {input_maps = [], isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>} {
  ^bb0(%x: f32):
    isaac.yield %x : f32
  }
  return
}

// -----

// Adding the old C in place (C += A·B) is a plain GEMM with beta = 1.
// CHECK-LABEL: func.func @accumulate
// CHECK: isaac.launch_gemm @[[K:isaac_gemm_f32_nn_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4]]::@[[K]](%arg0, %arg1, %arg2)
// CHECK-SAME: beta = 1.0
// CHECK-NOT: epilogue =
func.func @accumulate(%a: memref<100x70xf32>, %b: memref<70x50xf32>, %c: memref<100x50xf32>) {
  isaac.gemm ins(%a, %b : memref<100x70xf32>, memref<70x50xf32>) inputs(%c : memref<100x50xf32>) outs(%c : memref<100x50xf32>)
    attributes {input_maps = [affine_map<(m, n) -> (m, n)>], isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>} {
  ^bb0(%x: f32, %old: f32):
    %s = arith.addf %old, %x : f32
    isaac.yield %s : f32
  }
  return
}

// -----

// A fused epilogue: the kernel name carries the program's id, the launch
// its text (a per-column input: in0:f32[n]) and the inputs with their maps;
// the kernel takes the split-K tile counters and four more parameters per
// input (pointer, batch, row and column strides) and writes C in the output
// type. The bias is loaded once per column of the thread's tile (ns = 4
// predicated loads), before the epilogue runs on each element.
// CHECK-LABEL: func.func @bias_relu_f16
// CHECK: isaac.launch_gemm @[[K:isaac_gemm_f32_tn_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4_ep[0-9a-f]{16}]]::@[[K]](%arg0, %arg1, %arg3) inputs(%arg2 : memref<50xf32>)
// CHECK-SAME: beta = 0.0
// CHECK-SAME: epilogue = "x:f32, in0:f32[n]; v0 = addf x, in0 : f32; v1 = const 0 : f32; v2 = maximumf v0, v1 : f32; v3 = truncf v2 : f16; yield v3 : f16"
// CHECK-SAME: input_maps = [affine_map<(d0, d1) -> (d1)>]
// CHECK-SAME: trans_a = true
// CHECK: gpu.module @[[K]] {{.*}} attributes {isaac.epilogue = "x:f32, in0:f32[n];
// CHECK: gpu.func @[[K]]({{.*}}, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) kernel
// CHECK: llvm.fmul
// CHECK-COUNT-4: "@$2 ld.global.f32 $0, [$1];"
// The epilogue on each element, stored as f16 (vector stores on the fast
// path, predicated b16 stores at the edges), with no more f32 loads.
// CHECK-NOT: ld.global.f32
// CHECK: arith.maximumf
// CHECK-NOT: ld.global.f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK-NOT: ld.global.f32
// CHECK: llvm.store %{{.*}} : vector<{{[0-9]+}}xf16>, !llvm.ptr<1>
// CHECK-NOT: ld.global.f32
// CHECK: llvm.inline_asm has_side_effects "@$2 st.global.b16 [$0], $1;", "l,h,b"
// CHECK-NOT: {{ld.global.f32|red.global}}
// CHECK: gpu.return
func.func @bias_relu_f16(%a: memref<70x100xf32>, %b: memref<70x50xf32>, %bias: memref<50xf32>, %c: memref<100x50xf16>) {
  isaac.gemm ins(%a, %b : memref<70x100xf32>, memref<70x50xf32>) inputs(%bias : memref<50xf32>) outs(%c : memref<100x50xf16>)
    attributes {input_maps = [affine_map<(m, n) -> (n)>], transpose_a,
                isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>} {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %z = arith.constant 0.0 : f32
    %r = arith.maximumf %s, %z : f32
    %h = arith.truncf %r : f32 to f16
    isaac.yield %h : f16
  }
  return
}

// -----

// KG > 1 with a fused epilogue (not linear: it cannot be applied to each
// K-slice). With tile counters (atomic mode) the slices add into a zeroed
// array; the tile's last block (counted with an acq_rel atomic) reads it
// back from L2, zeroes it and applies the epilogue. Without (deterministic
// mode) the slices go to the workspace and the module's split-K reducer
// applies it. No scale/reduce helpers.
// CHECK-LABEL: func.func @splitk_residual
// CHECK: isaac.launch_gemm @[[K:isaac_gemm_f64_nn_ml32_nl16_ms4_ns2_u16_ks2_kl2_kg8_v2_ep[0-9a-f]{16}]]::@[[K]]
// CHECK: gpu.module @[[K]]
// CHECK: gpu.func @[[K]](
// CHECK: red.global.add.f64
// CHECK: gpu.barrier
// CHECK: fence.acq_rel.gpu
// CHECK: atom.add.acq_rel.gpu.u32
// CHECK: gpu.barrier
// CHECK-NOT: fence
// CHECK: ld.global.cg.f64
// CHECK: st.global.f64
// CHECK: arith.addf
// CHECK: gpu.func @isaac_splitk_reduce_f64_ep{{[0-9a-f]+}}(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i32, %{{.*}}: f64, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK: scf.for
// CHECK: arith.addf
// CHECK-NOT: gpu.func @isaac_scale_f64
func.func @splitk_residual(%a: memref<40x3000xf64>, %b: memref<3000x30xf64>, %r: memref<40x30xf64>, %c: memref<40x30xf64>) {
  isaac.gemm ins(%a, %b : memref<40x3000xf64>, memref<3000x30xf64>) inputs(%r : memref<40x30xf64>) outs(%c : memref<40x30xf64>)
    attributes {input_maps = [affine_map<(m, n) -> (m, n)>],
                isaac.config = #isaac.gemm<ml = 32, nl = 16, ms = 4, ns = 2, u = 16, ks = 2, kl = 2, kg = 8, vec = 2>} {
  ^bb0(%x: f64, %y: f64):
    %s = arith.addf %x, %y : f64
    isaac.yield %s : f64
  }
  return
}

// -----

// A zero fill right before a linalg.matmul on the same buffer is beta = 0;
// the fill goes away.
// CHECK-LABEL: func.func @fill_then_matmul
// CHECK-NOT: linalg.fill
// CHECK: isaac.launch_gemm {{.*}}beta = 0.0
func.func @fill_then_matmul(%a: memref<100x70xf32>, %b: memref<70x50xf32>, %c: memref<100x50xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%c : memref<100x50xf32>)
  linalg.matmul ins(%a, %b : memref<100x70xf32>, memref<70x50xf32>) outs(%c : memref<100x50xf32>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}

// -----

// An isaac.gemm isaac cannot compile (no configuration here) is decomposed
// into linalg: the contraction into a zero-filled temporary of the
// accumulation type, then the epilogue as an elementwise generic.
// CHECK-LABEL: func.func @decompose
// CHECK: %[[T:.*]] = memref.alloc() : memref<8x8xf32>
// CHECK: linalg.fill {{.*}} outs(%[[T]]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%arg0, %arg1 {{.*}} outs(%[[T]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%[[T]], %arg2 {{.*}} outs(%arg3
// CHECK: math.tanh
// CHECK: linalg.yield
// CHECK: memref.dealloc %[[T]]
func.func @decompose(%a: memref<8x4xf32>, %b: memref<4x8xf32>, %r: memref<8xf32>, %c: memref<8x8xf32>) {
  // expected-remark @below {{isaac: left untouched: no isaac.config}}
  isaac.gemm ins(%a, %b : memref<8x4xf32>, memref<4x8xf32>) inputs(%r : memref<8xf32>) outs(%c : memref<8x8xf32>)
    attributes {input_maps = [affine_map<(m, n) -> (m)>]} {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    %t = math.tanh %s : f32
    isaac.yield %t : f32
  }
  return
}
