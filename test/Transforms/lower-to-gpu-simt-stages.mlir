// RUN: isaac-opt %s --isaac-lower-to-gpu | FileCheck %s

// The simt cp.async pipeline (stages > 2) copies an operand contiguous
// along K one element a copy, transposed into the k-major shared tile. A
// warp's copies take runs of 8 consecutive k (32 bytes of f32, one
// sector) of consecutive rows: element i = tid + round * threads of A's
// 32 x 16 tile is k = (i / 8 / 32) * 8 + i % 8 of row (i / 8) % 32, so
// each copy instruction reads whole sectors (four rows of one sector).
// 32 x 32 tiles, 4 x 4 a thread, KL = 2: 128 threads; A's 512 elements are
// four rounds, B's the same.
// CHECK-LABEL: gpu.func @isaac_gemm_f32_nt_ml32_nl32_ms4_ns4_u16_ks2_kl2_kg4_v4_st3
// CHECK: %[[TID:.*]] = arith.index_castui %thread_id_x
// Round 0 of A's copies (element i = tid):
// CHECK: %[[I:.*]] = arith.addi %[[TID]], %c0_i32{{.*}} : i32
// CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[G:.*]] = arith.divui %[[I]], %[[C8]] : i32
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[ROW:.*]] = arith.remui %[[G]], %[[C32]] : i32
// CHECK-NEXT: %[[C8B:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[KLO:.*]] = arith.remui %[[I]], %[[C8B]] : i32
// CHECK-NEXT: %[[C8C:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[C32B:.*]] = arith.constant 32 : i32
// CHECK-NEXT: %[[KHI:.*]] = arith.divui %[[G]], %[[C32B]] : i32
// CHECK-NEXT: %[[KOFF:.*]] = arith.muli %[[KHI]], %[[C8C]] : i32
// CHECK-NEXT: %{{.*}} = arith.addi %[[KOFF]], %[[KLO]] : i32
// Round 1: i = tid + 128.
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %{{.*}} = arith.addi %[[TID]], %[[C128]] : i32
// The fast path: one 4-byte copy an element, into row ROW, column k of
// the k-major tile (k * stride + row).
// CHECK: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca
// CHECK-NOT: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16
// CHECK: nvvm.cp.async.commit.group

#n_a = affine_map<(m, n, k) -> (m, k)>
#t_b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

func.func @nt(%A: memref<129x127xf32>, %Bt: memref<31x127xf32>,
              %C: memref<129x31xf32>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c] ins(%A, %Bt : memref<129x127xf32>, memref<31x127xf32>) outs(%C : memref<129x31xf32>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 16, ks = 2, kl = 2, kg = 4, vec = 4, stages = 3>}
  return
}
