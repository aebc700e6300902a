// REQUIRES: ptxas
// Split-K inside a thread-block cluster (kc = 1) in the mma family on
// sm_90: f16 with an f16 C (KG = 4) and f64 on DMMA (KG = 8, 16-byte slots
// of two f64), through the whole pipeline and ptxas. Each kernel declares
// its slices as a cluster along z, parks its sums, reads every slice's
// through distributed shared memory and needs no split-K helper kernel.
// RUN: rm -rf %t && isaac-opt %s --isaac-pipeline="chip=sm_90 ptx-dir=%t" -o /dev/null
// RUN: %python %isaac_src/test/PTX/Inputs/ptxas_all.py %ptxas sm_90 %t 2 | FileCheck %s --check-prefix=ASM
// ASM: ptxas sm_90: 2 kernels, 0 failed
// RUN: FileCheck %s --check-prefix=F16 --input-file=%t/isaac_gemm_f16_nn_mma_ml64_nl16_wm32_wn16_u64_kl1_kg4_v8_st4_kc1.ptx
// F16: // isaac.kernel name=isaac_gemm_f16_nn_mma_ml64_nl16_wm32_wn16_u64_kl1_kg4_v8_st4_kc1 {{.*}} kc=1 threads=64
// F16: .reqnctapercluster 1, 1, 4
// F16: st.shared.v4.b32
// F16: barrier.cluster.arrive;
// F16-NEXT: barrier.cluster.wait;
// F16-COUNT-4: mapa.shared::cluster.u64
// F16: ld.shared::cluster.v4.b32
// F16: barrier.cluster.wait;
// F16-NEXT: ret;
// RUN: FileCheck %s --check-prefix=F64 --input-file=%t/isaac_gemm_f64_tn_mma_ml32_nl16_wm16_wn16_u32_kl2_kg8_v2_st4_kc1.ptx
// F64: .reqnctapercluster 1, 1, 8
// F64: st.shared.v2.b64
// F64: barrier.cluster.arrive;
// F64-NEXT: barrier.cluster.wait;
// F64: ld.shared::cluster.v2.b64
// RUN: not grep -lq "isaac_splitk_reduce\|isaac_scale" %t/isaac_gemm_f16_nn_mma_ml64_nl16_wm32_wn16_u64_kl1_kg4_v8_st4_kc1.ptx %t/isaac_gemm_f64_tn_mma_ml32_nl16_wm16_wn16_u32_kl2_kg8_v2_st4_kc1.ptx

#nn_a = affine_map<(m, n, k) -> (m, k)>
#nn_b = affine_map<(m, n, k) -> (k, n)>
#t_a = affine_map<(m, n, k) -> (k, m)>
#c = affine_map<(m, n, k) -> (m, n)>

module attributes {isaac.target = "sm_90"} {
func.func @mma(%A: memref<257x130xf16>, %B: memref<130x129xf16>, %C: memref<257x129xf16>,
               %Ad: memref<130x257xf64>, %Bd: memref<130x129xf64>, %Cd: memref<257x129xf64>) {
  linalg.matmul indexing_maps = [#nn_a, #nn_b, #c] ins(%A, %B : memref<257x130xf16>, memref<130x129xf16>) outs(%C : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 16, wm = 32, wn = 16, u = 64, kl = 1, kg = 4, vec = 8, stages = 4, kc = 1>}
  linalg.matmul indexing_maps = [#t_a, #nn_b, #c] ins(%Ad, %Bd : memref<130x257xf64>, memref<130x129xf64>) outs(%Cd : memref<257x129xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 32, nl = 16, wm = 16, wn = 16, u = 32, kl = 2, kg = 8, vec = 2, stages = 4, kc = 1>}
  return
}
}
