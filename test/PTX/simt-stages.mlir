// REQUIRES: ptxas
// The simt family's cp.async pipeline (stages > 2): every layout, f32 and
// f64, KS, KL and KG > 1, through the whole pipeline for sm_90 and sm_80,
// assembled by ptxas for each.
// RUN: rm -rf %t && isaac-opt %s --isaac-pipeline="chip=sm_90 ptx-dir=%t/sm_90" -o /dev/null
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_80 ptx-dir=%t/sm_80" -o /dev/null
// RUN: %python %isaac_src/test/PTX/Inputs/ptxas_all.py %ptxas sm_90 %t/sm_90 5 | FileCheck %s --check-prefix=ASM90
// RUN: %python %isaac_src/test/PTX/Inputs/ptxas_all.py %ptxas sm_80 %t/sm_80 5 | FileCheck %s --check-prefix=ASM80
// ASM90: ptxas sm_90: 5 kernels, 0 failed
// ASM80: ptxas sm_80: 5 kernels, 0 failed
//
// tn: both operands contiguous along M or N, so the fast path copies a
// chunk of vec = 4 f32 with one 16-byte cp.async (.cg), the predicated
// path element by element with a source size (zero fill); three tiles in
// flight with stages = 4, and no barrier between a tile's copies and its
// FMAs other than the one after the wait.
// RUN: FileCheck %s --check-prefix=TN --input-file=%t/sm_90/isaac_gemm_f32_tn_ml64_nl64_ms4_ns8_u8_ks1_kl1_kg1_v4_st4.ptx
// TN: .shared .align 16 .b8 isaac_gemm_f32_tn_ml64_nl64_ms4_ns8_u8_ks1_kl1_kg1_v4_st4_smem[17408];
// TN: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// TN: cp.async.commit_group;
// TN: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4, %r{{[0-9]+}};
// TN: cp.async.wait_group 2;
// TN-NEXT: bar.sync 0;
// TN: cp.async.wait_group 0;
// Nothing reaches shared memory through registers (KL = 1: no partials).
// RUN: not grep -q "st.shared" %t/sm_90/isaac_gemm_f32_tn_ml64_nl64_ms4_ns8_u8_ks1_kl1_kg1_v4_st4.ptx
//
// nt: both operands contiguous along K, transposed into the k-major
// tiles one element a copy (4-byte .ca copies only).
// RUN: FileCheck %s --check-prefix=NT --input-file=%t/sm_90/isaac_gemm_f32_nt_ml32_nl32_ms4_ns4_u16_ks2_kl2_kg4_v4_st3.ptx
// NT: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4;
// NT: cp.async.wait_group 1;
// RUN: not grep -q "cp.async.cg" %t/sm_90/isaac_gemm_f32_nt_ml32_nl32_ms4_ns4_u16_ks2_kl2_kg4_v4_st3.ptx
//
// stages = 2 is the register-prefetch kernel of before: no cp.async, the
// tiles stored by st.shared.
// RUN: not grep -q "cp.async" %t/sm_90/isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4.ptx
// RUN: grep -q "st.shared" %t/sm_90/isaac_gemm_f32_nn_ml64_nl64_ms8_ns8_u8_ks1_kl1_kg1_v4.ptx

#n_a = affine_map<(m, n, k) -> (m, k)>
#t_a = affine_map<(m, n, k) -> (k, m)>
#n_b = affine_map<(m, n, k) -> (k, n)>
#t_b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

func.func @stages(%A: memref<129x127xf32>, %At: memref<127x129xf32>,
                  %B: memref<127x31xf32>, %Bt: memref<31x127xf32>,
                  %C: memref<129x31xf32>, %D: memref<129x31xf64>,
                  %Ad: memref<129x127xf64>, %Bd: memref<127x31xf64>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c] ins(%At, %B : memref<127x129xf32>, memref<127x31xf32>) outs(%C : memref<129x31xf32>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 4, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4, stages = 4>}
  linalg.matmul indexing_maps = [#n_a, #t_b, #c] ins(%A, %Bt : memref<129x127xf32>, memref<31x127xf32>) outs(%C : memref<129x31xf32>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 16, ks = 2, kl = 2, kg = 4, vec = 4, stages = 3>}
  linalg.matmul indexing_maps = [#t_a, #t_b, #c] ins(%At, %Bt : memref<127x129xf32>, memref<31x127xf32>) outs(%C : memref<129x31xf32>)
    {isaac.config = #isaac.gemm<ml = 128, nl = 1, ms = 4, ns = 1, u = 1, ks = 1, kl = 1, kg = 2, vec = 1, stages = 5>}
  linalg.matmul indexing_maps = [#n_a, #n_b, #c] ins(%Ad, %Bd : memref<129x127xf64>, memref<127x31xf64>) outs(%D : memref<129x31xf64>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2, stages = 6>}
  linalg.matmul indexing_maps = [#n_a, #n_b, #c] ins(%A, %B : memref<129x127xf32>, memref<127x31xf32>) outs(%C : memref<129x31xf32>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}
