// RUN: isaac-opt %s --isaac-lower-to-gpu -split-input-file -verify-diagnostics | FileCheck %s

// The mma family (MmaKernelBuilder.cpp): f16 operands, C f32, layout nt
// (A and B both contiguous along K), 64x64 block of 2x2 warps of 32x32, U =
// 32, 4 stages: dynamic shared memory of 4 x (64 + 64) x 32 f16.
// CHECK-LABEL: func.func @nt_f16
// CHECK: isaac.launch_gemm @[[K:isaac_gemm_f16f32_nt_mma_ml64_nl64_wm32_wn32_u32_kl1_kg1_v8_st4]]::@[[K]](%arg0, %arg1, %arg2)
// CHECK: gpu.module @[[K]]
// CHECK: memref.global "public" @[[K]]_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 128 : i64}
// CHECK: gpu.func @[[K]](%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f32, %{{.*}}: f32) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//
// The prologue: a loop over stages - 1 = 3 tiles, each its own commit
// group; full tiles copy 16 bytes unconditionally, the others give the
// source size (zero fill), misaligned operands load scalars.
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[C3]]
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: llvm.inline_asm "@$2 ld.global.b16 $0, [$1];"
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: }
// The main loop: wait for tile t (stages - 2 groups may stay in flight),
// one barrier, copy tile t + 3, multiply tile t.
// CHECK: scf.for
// CHECK-NEXT: nvvm.cp.async.wait.group 2
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.cp.async.commit.group
// Both operands are K-contiguous: no transposing ldmatrix.
// CHECK-NOT: mma_layout<col>
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT: mma_layout<col>
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0
// KG = 1: no helper kernels.
// CHECK-NOT: gpu.func @isaac_
func.func @nt_f16(%A: memref<100x130xf16>, %B: memref<70x130xf16>, %C: memref<100x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<100x130xf16>, memref<70x130xf16>) outs(%C : memref<100x70xf32>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 32, kl = 1, kg = 1, vec = 8, stages = 4>}
  return
}

// -----

// bf16 into bf16, layout nn: B is stored K x N, so its fragments are loaded
// transposed; bf16 multiplies through nvvm.mma.sync. KG = 2 into a 16-bit
// C: the kernel takes the tile counters S; with S = 0 the slices store
// into the f32 workspace, which the module's reducer converts once, and
// with S != 0 they add into T in f32 (never into C: no isaac_scale).
// CHECK-LABEL: func.func @nn_bf16
// CHECK: gpu.module @[[K:isaac_gemm_bf16_nn_mma_ml64_nl32_wm32_wn16_u32_kl2_kg2_v8_st3]]
// CHECK: gpu.func @[[K]](%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: !llvm.ptr<1>)
// CHECK: nvvm.cp.async.wait.group 1
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// The KL = 2 partials meet in shared memory, then the f32 workspace or T;
// the tile's last block reads T back and converts once.
// CHECK: scf.yield
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : f32, !llvm.ptr<3>
// CHECK: "@$2 st.global.f32 [$0], $1;"
// CHECK: "@$2 red.global.add.f32 [$0], $1;"
// CHECK: "atom.add.acq_rel.gpu.u32 $0, [$1], $2;"
// CHECK: "@$2 ld.global.cg.f32 $0, [$1];"
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: gpu.func @isaac_splitk_reduce_bf16(%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i32, %{{.*}}: f32)
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT: gpu.func @isaac_scale
func.func @nn_bf16(%A: memref<64x128xbf16>, %B: memref<128x96xbf16>, %C: memref<64x96xbf16>) {
  linalg.matmul ins(%A, %B : memref<64x128xbf16>, memref<128x96xbf16>) outs(%C : memref<64x96xbf16>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 32, wm = 32, wn = 16, u = 32, kl = 2, kg = 2, vec = 8, stages = 3>}
  return
}

// -----

// Layout tn (A stored K x M: transposed fragments for A), two stages, an
// unpaired n8 tile (wn = 8: ldmatrix .x2).
// CHECK-LABEL: func.func @tn_f16
// CHECK: gpu.module @[[K:isaac_gemm_f16_tn_mma_ml32_nl8_wm16_wn8_u16_kl1_kg1_v4_st2]]
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache =  ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 2 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32)>
// CHECK: nvgpu.mma.sync
// C of f16: each result rounded once.
// CHECK: arith.truncf %{{.*}} : f32 to f16
func.func @tn_f16(%A: memref<40x33xf16>, %B: memref<40x9xf16>, %C: memref<33x9xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<40x33xf16>, memref<40x9xf16>) outs(%C : memref<33x9xf16>)
    {isaac.config = #isaac.gemm<family = mma, ml = 32, nl = 8, wm = 16, wn = 8, u = 16, kl = 1, kg = 1, vec = 4, stages = 2>}
  return
}

// -----

// Layout tt, KG = 4 into an f32 C: both split-K modes (atomic red.add into
// C, pre-scaled by isaac_scale_f32, or the workspace and its reducer).
// CHECK-LABEL: func.func @tt_splitk
// CHECK: gpu.module @[[K:isaac_gemm_f16f32_tt_mma_ml64_nl64_wm32_wn32_u64_kl1_kg4_v8_st5]]
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: "@$2 st.global.f32 [$0], $1;"
// CHECK: "@$2 red.global.add.f32 [$0], $1;"
// CHECK: gpu.func @isaac_scale_f32(
// CHECK: gpu.func @isaac_splitk_reduce_f32(
func.func @tt_splitk(%A: memref<2048x64xf16>, %B: memref<64x2048xf16>, %C: memref<64x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<2048x64xf16>, memref<64x2048xf16>) outs(%C : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 64, kl = 1, kg = 4, vec = 8, stages = 5>}
  return
}

// -----

// TF32 (f32 operands on the mma family, opted in by isaac.tf32), layout
// tn: A stored K x M and B stored K x N have no 32-bit ldmatrix.trans, so
// their fragments are loaded element by element; every fragment element is
// rounded to TF32 (rna); m16n8k8, 16 k per stage in two k-steps.
// CHECK-LABEL: func.func @tf32_tn
// CHECK: gpu.module @[[K:isaac_gemm_tf32_tn_mma_ml32_nl32_wm16_wn16_u16_kl1_kg1_v4_st3]]
// CHECK-NOT: nvvm.ldmatrix
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK: nvvm.convert.float.to.tf32 %{{.*}} {rnd = #nvvm.fp_rnd_mode<rna>}
// CHECK: nvgpu.mma.sync(%{{.*}}, %{{.*}}, %{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
func.func @tf32_tn(%A: memref<40x33xf32>, %B: memref<40x9xf32>, %C: memref<33x9xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<40x33xf32>, memref<40x9xf32>) outs(%C : memref<33x9xf32>)
    {isaac.tf32, isaac.config = #isaac.gemm<family = mma, ml = 32, nl = 32, wm = 16, wn = 16, u = 16, kl = 1, kg = 1, vec = 4, stages = 3>}
  return
}

// -----

// TF32, layout nt: both operands K-contiguous, their fragments through
// ldmatrix (a 32-bit element per b16 pair).
// CHECK-LABEL: func.func @tf32_nt
// CHECK: gpu.module @isaac_gemm_tf32_nt_mma_
// CHECK: nvvm.ldmatrix %{{.*}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, num = 4 : i32, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
// CHECK: nvvm.convert.float.to.tf32
// CHECK: nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
func.func @tf32_nt(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.tf32, isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 32, kl = 1, kg = 1, vec = 4, stages = 3>}
  return
}

// -----

// f32 is exact unless the GEMM opted in to TF32: an mma configuration on
// f32 without isaac.tf32 is refused.
func.func @tf32_not_opted_in(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @below {{isaac: an mma configuration on f32 operands multiplies in TF32; opt in with the isaac.tf32 attribute (or isaac-select-config's tf32 option)}}
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 32, kl = 1, kg = 1, vec = 4, stages = 3>}
  return
}

// -----

// f64 on DMMA (mma.sync.m16n8k8 on sm_90, f64 accumulators, f64 alpha and beta),
// layout nn: A stored M x K and B stored K x N. No ldmatrix (it has no
// 64-bit form): each lane loads one f64 of A per m8 tile and one of B per
// n8 tile from the swizzled tiles (the f64 swizzle XORs pairs of 16-byte
// chunks: the shift by 1). 16-byte cp.async (vec = 2), zero-filled tails,
// scalar staging for misaligned operands; 2 x 2 m8 x n8 tiles per warp and
// 4 k-steps per stage: 16 mma.sync.
// CHECK-LABEL: func.func @nn_f64
// CHECK: isaac.launch_gemm @[[K:isaac_gemm_f64_nn_mma_ml32_nl32_wm16_wn16_u16_kl1_kg1_v2_st3]]::@[[K]](%arg0, %arg1, %arg2)
// CHECK: gpu.func @[[K]](%{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: f64, %{{.*}}: f64) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache =  cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK: llvm.inline_asm "@$2 ld.global.f64 $0, [$1];"
// CHECK: nvvm.cp.async.commit.group
// CHECK: scf.for
// CHECK-NEXT: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: arith.shli %{{.*}}, %{{.*}} : i32
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> f64
// sm_90's m16n8k8 (nvvm.mma.sync has no m16 f64 shape: the NVPTX
// intrinsic): 1 x 2 m16n8 tiles x 2 k-steps per stage.
// CHECK-COUNT-4: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k8.row.col.f64"(%{{.*}}) : (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64) -> !llvm.struct<(f64, f64, f64, f64)>
// CHECK-NOT: llvm.nvvm.mma
// CHECK: scf.yield
// The epilogue: pairs of f64 columns, one 16-byte store each on the fast
// path.
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<2xf64>, !llvm.ptr<1>
// CHECK-NOT: gpu.func @isaac_
func.func @nn_f64(%A: memref<70x50xf64>, %B: memref<50x45xf64>, %C: memref<70x45xf64>) {
  linalg.matmul ins(%A, %B : memref<70x50xf64>, memref<50x45xf64>) outs(%C : memref<70x45xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 32, nl = 32, wm = 16, wn = 16, u = 16, kl = 1, kg = 1, vec = 2, stages = 3>}
  return
}

// -----

// f64, layout tt, vec = 1 (8-byte cp.async, through L1), KL = 2 and
// KG = 4: the KL partials meet in shared memory as f64, then both split-K
// modes of an f64 C (red.global.add.f64 into C pre-scaled by
// isaac_scale_f64, or the f64 workspace and isaac_splitk_reduce_f64).
// CHECK-LABEL: func.func @tt_f64_splitk
// CHECK: gpu.module @[[K:isaac_gemm_f64_tt_mma_ml32_nl32_wm16_wn16_u16_kl2_kg4_v1_st4]]
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache =  ca : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK: nvvm.cp.async.wait.group 2
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k8.row.col.f64"
// CHECK: scf.yield
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : f64, !llvm.ptr<3>
// CHECK: gpu.barrier
// CHECK: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> f64
// CHECK: "@$2 st.global.f64 [$0], $1;"
// CHECK: "@$2 red.global.add.f64 [$0], $1;"
// CHECK: gpu.func @isaac_scale_f64(
// CHECK: gpu.func @isaac_splitk_reduce_f64(
func.func @tt_f64_splitk(%A: memref<2048x40xf64>, %B: memref<24x2048xf64>, %C: memref<40x24xf64>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<2048x40xf64>, memref<24x2048xf64>) outs(%C : memref<40x24xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 32, nl = 32, wm = 16, wn = 16, u = 16, kl = 2, kg = 4, vec = 1, stages = 4>}
  return
}

// -----

// f64 batched, layout tn (A stored K x M), far beyond 48 KiB of dynamic
// shared memory: 4 stages of (64 + 64) x 32 f64 = 4 x 32 KiB (the PTX
// header's smem=, test/PTX/mma-f64.mlir).
// CHECK-LABEL: func.func @tn_f64_batched
// CHECK: isaac.launch_gemm @[[K:isaac_gemm_f64_tn_mma_ml64_nl64_wm32_wn32_u32_kl1_kg1_v2_st4]]::@[[K]](%arg0, %arg1, %arg2) {{.*}}trans_a = true, trans_b = false} : memref<3x33x65xf64
// CHECK: gpu.module @[[K]]
// CHECK: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k8.row.col.f64"
func.func @tn_f64_batched(%A: memref<3x33x65xf64>, %B: memref<3x33x17xf64>, %C: memref<3x65x17xf64>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<3x33x65xf64>, memref<3x33x17xf64>) outs(%C : memref<3x65x17xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 32, kl = 1, kg = 1, vec = 2, stages = 4>}
  return
}
