// RUN: isaac-opt %s --isaac-lower-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// A 100x50x70 GEMM (no dimension a multiple of its tile) with ML = NL = 32,
// MS = NS = 4, U = 8: 64 threads, double-buffered shared memory.
// CHECK-LABEL: func.func @nn
// CHECK: isaac.launch_gemm @[[K:isaac_gemm_f32_nn_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4]]::@[[K]](%arg0, %arg1, %arg2)
// CHECK-SAME: alpha = 1.0{{.*}}beta = 1.0{{.*}}trans_a = false, trans_b = false
// CHECK-NOT: linalg.matmul
// CHECK: gpu.module @[[K]] [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx81">]
// 2 stages x 8 x ((32 + 4) + (32 + 4)) f32.
// CHECK: llvm.mlir.global internal @[[K]]_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<1152 x f32>
// CHECK: gpu.func @[[K]](%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f32, %{{.*}}: f32) kernel attributes {known_block_size = array<i32: 64, 1, 1>}
//
// Prologue fetch: the fast path loads unpredicated 16-byte vectors...
// CHECK: scf.if %{{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NOT: llvm.inline_asm
// CHECK: } else {
// ...the tail is predicated, element by element, out-of-range lanes read 0.
// CHECK: llvm.inline_asm "@$2 ld.global.f32 $0, [$1];", "=f,l,b,0"
// CHECK: gpu.barrier
// Main loop: the next tile is fetched (fast path first, then the tail)...
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: scf.if %{{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32) {
// CHECK-NOT: llvm.inline_asm
// CHECK: } else {
// CHECK: llvm.inline_asm "@$2 ld.global.f32
// ...then the current one is multiplied from shared memory...
// CHECK: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<4xf32>
// CHECK: llvm.intr.fma
// ...and the prefetched tile is stored to the other stage; one barrier.
// CHECK: llvm.store %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: scf.yield
// KG = 1: no atomics; the epilogue's edge path uses predicated stores.
// CHECK-NOT: red.global
// CHECK: llvm.inline_asm has_side_effects "@$2 st.global.f32 [$0], $1;"
// CHECK-NOT: red.global
// CHECK: gpu.return
func.func @nn(%A: memref<100x70xf32>, %B: memref<70x50xf32>, %C: memref<100x50xf32>) {
  linalg.matmul ins(%A, %B : memref<100x70xf32>, memref<70x50xf32>) outs(%C : memref<100x50xf32>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}

// -----

// KG > 1 accumulates with red.global.add, and the module carries the
// pre-scale and deterministic-reduction helpers. Transposed A and B come
// from the indexing maps; f64 rows are padded by 2 elements.
// CHECK-LABEL: func.func @tt_splitk
// CHECK: isaac.launch_gemm @[[K:isaac_gemm_f64_tt_ml32_nl16_ms4_ns2_u16_ks2_kl2_kg8_v2]]::@[[K]]
// CHECK-SAME: trans_a = true, trans_b = true
// CHECK: gpu.module @[[K]]
// CHECK: gpu.func @[[K]]({{.*}}) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: "@$2 ld.global.f64 $0, [$1];", "=d,l,b,0"
// CHECK: "@$2 red.global.add.f64 [$0], $1;", "l,d,b"
// CHECK: gpu.func @isaac_scale_f64(
// CHECK-SAME: known_block_size = array<i32: 32, 8, 1>
// CHECK: gpu.func @isaac_splitk_reduce_f64(
func.func @tt_splitk(%A: memref<3x1000x31xf64>, %B: memref<3x7x1000xf64>, %C: memref<3x31x7xf64>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<3x1000x31xf64>, memref<3x7x1000xf64>) outs(%C : memref<3x31x7xf64>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 16, ms = 4, ns = 2, u = 16, ks = 2, kl = 2, kg = 8, vec = 2>}
  return
}

// -----

// Two GEMMs with one configuration, dtype and layout share one kernel.
// CHECK-LABEL: func.func @shared_kernel
// CHECK: isaac.launch_gemm @[[K:isaac_gemm_f32_nt_[a-z0-9_]+]]::@[[K]]
// CHECK: isaac.launch_gemm @[[K]]::@[[K]]
// CHECK-COUNT-1: gpu.module
// CHECK-NOT: gpu.module
func.func @shared_kernel(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}

// -----

// Without a configuration the op is left alone, with a remark.
func.func @unconfigured(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-remark @below {{isaac: left untouched: no isaac.config (isaac-select-config chooses one)}}
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

// Strided operands are fine as long as rows are contiguous: the leading
// dimension is read at run time.
// CHECK-LABEL: func.func @strided
// CHECK: isaac.launch_gemm
func.func @strided(%A: memref<64x64xf32, strided<[67, 1], offset: 3>>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x64xf32, strided<[67, 1], offset: 3>>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}

// -----

func.func @column_major(%A: memref<64x64xf32, strided<[1, 64]>>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-remark @below {{isaac: left untouched: operands must be contiguous along their innermost dimension}}
  linalg.matmul ins(%A, %B : memref<64x64xf32, strided<[1, 64]>>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}
