// REQUIRES: ptxas
// f64 on the mma family (DMMA: mma.sync.m16n8k8.f64 on sm_90 and sm_90a,
// m8n8k4 on sm_80, which has no other f64 shape): every layout, KL and
// KG > 1, vec 1 and 2, stages 2 to 8, a batch, a fused epilogue with KG > 1
// and GEMMs on tensors whose configurations the shipped f64 DMMA model
// (models/sm_90/gemm-f64-mma.mlp, also on sm_90a; sm_80: the analytic model)
// chooses,
// through the whole pipeline for sm_80, sm_90 and sm_90a, assembled by
// ptxas for each.
// RUN: rm -rf %t && isaac-opt %s --isaac-pipeline="chip=sm_90 ptx-dir=%t/sm_90" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_80 ptx-dir=%t/sm_80" -o /dev/null 2>/dev/null
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_90a ptx-dir=%t/sm_90a" -o /dev/null 2>/dev/null
// RUN: %python %isaac_src/test/PTX/Inputs/ptxas_all.py %ptxas sm_80 %t/sm_80 9 | FileCheck %s --check-prefix=ASM80
// RUN: %python %isaac_src/test/PTX/Inputs/ptxas_all.py %ptxas sm_90 %t/sm_90 9 | FileCheck %s --check-prefix=ASM90
// RUN: %python %isaac_src/test/PTX/Inputs/ptxas_all.py %ptxas sm_90a %t/sm_90a 9 | FileCheck %s --check-prefix=ASM90A
// ASM80: ptxas sm_80: 9 kernels, 0 failed
// ASM90: ptxas sm_90: 9 kernels, 0 failed
// ASM90A: ptxas sm_90a: 9 kernels, 0 failed
//
// The GEMMs on tensors without a configuration: mma on sm_90 (fast DMMA).
// REMARK-COUNT-2: remark: isaac: configuration chosen by the trained model {{.*}}/models/sm_90/gemm-f64-mma.mlp (trained on measurements)
// RUN: ls %t/sm_90 | FileCheck %s --check-prefix=FILES
// FILES-DAG: isaac_gemm_f64_nn_mma_{{.*}}.ptx
// FILES-DAG: isaac_gemm_f64_nt_mma_{{.*}}.ptx
// FILES-DAG: isaac_gemm_f64_tn_mma_{{.*}}.ptx
// FILES-DAG: isaac_gemm_f64_tt_mma_{{.*}}.ptx
//
// The largest warp tile (64 x 32: 64 f64 accumulators per lane) stays in
// registers.
// RUN: %ptxas -arch=sm_90 -v %t/sm_90/isaac_gemm_f64_nn_mma_ml128_nl64_wm64_wn32_u8_kl1_kg1_v2_st4.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS
// REGS: 0 bytes spill stores, 0 bytes spill loads
//
// RUN: FileCheck %s --input-file=%t/sm_90/isaac_gemm_f64_nn_mma_ml128_nl64_wm64_wn32_u8_kl1_kg1_v2_st4.ptx
// CHECK: // isaac.kernel name=isaac_gemm_f64_nn_mma_ml128_nl64_wm64_wn32_u8_kl1_kg1_v2_st4 dtype=f64 layout=nn ml=128 nl=64 wm=64 wn=32 u=8 kl=1 kg=1 vec=2 stages=4 threads=128 smem=49152 dynsmem=1 chip=sm_90
// CHECK: .extern .shared .align 128 .b8 isaac_gemm_f64_nn_mma_ml128_nl64_wm64_wn32_u8_kl1_kg1_v2_st4_smem[];
// CHECK: .param .f64 {{.*}}_param_13,
// CHECK-DAG: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK-DAG: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// CHECK-DAG: cp.async.commit_group;
// CHECK-DAG: cp.async.wait_group 2;
// CHECK-DAG: ld.shared.b64
// CHECK-DAG: mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64
// CHECK-DAG: st.global.v2.b64
// No ldmatrix: it has no 64-bit form; and no m8n8k4 on sm_90.
// RUN: not grep -q "ldmatrix\|m8n8k4" %t/sm_90/isaac_gemm_f64_nn_mma_ml128_nl64_wm64_wn32_u8_kl1_kg1_v2_st4.ptx
// 4 x 4 m16n8 tiles x 1 k-step per stage; the same kernel for sm_80: 8 x 4
// m8n8 tiles x 2 k-steps.
// RUN: grep -c "mma.sync.aligned.m16n8k8" %t/sm_90/isaac_gemm_f64_nn_mma_ml128_nl64_wm64_wn32_u8_kl1_kg1_v2_st4.ptx | FileCheck %s --check-prefix=COUNT
// COUNT: 16
// RUN: grep -c "mma.sync.aligned.m8n8k4" %t/sm_80/isaac_gemm_f64_nn_mma_ml128_nl64_wm64_wn32_u8_kl1_kg1_v2_st4.ptx | FileCheck %s --check-prefix=COUNT80
// COUNT80: 64
//
// KG = 4 into f64: red.global.add.f64 (atomic mode) or the f64 workspace;
// the module's helper kernels are f64.
// RUN: FileCheck %s --check-prefix=SPLITK --input-file=%t/sm_80/isaac_gemm_f64_tn_mma_ml32_nl32_wm16_wn16_u16_kl2_kg4_v1_st5.ptx
// SPLITK: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 8;
// SPLITK: mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64
// SPLITK-DAG: red.global.add.f64
// SPLITK-DAG: .entry isaac_scale_f64(
// SPLITK-DAG: .entry isaac_splitk_reduce_f64(

#nn_a = affine_map<(m, n, k) -> (m, k)>
#nn_b = affine_map<(m, n, k) -> (k, n)>
#t_a = affine_map<(m, n, k) -> (k, m)>
#t_b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

func.func @layouts(%A: memref<257x130xf64>, %At: memref<130x257xf64>,
                   %B: memref<130x129xf64>, %Bt: memref<129x130xf64>,
                   %C: memref<257x129xf64>) {
  linalg.matmul indexing_maps = [#nn_a, #nn_b, #c] ins(%A, %B : memref<257x130xf64>, memref<130x129xf64>) outs(%C : memref<257x129xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 128, nl = 64, wm = 64, wn = 32, u = 8, kl = 1, kg = 1, vec = 2, stages = 4>}
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c] ins(%A, %Bt : memref<257x130xf64>, memref<129x130xf64>) outs(%C : memref<257x129xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 32, kl = 1, kg = 2, vec = 2, stages = 3>}
  linalg.matmul indexing_maps = [#t_a, #nn_b, #c] ins(%At, %B : memref<130x257xf64>, memref<130x129xf64>) outs(%C : memref<257x129xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 32, nl = 32, wm = 16, wn = 16, u = 16, kl = 2, kg = 4, vec = 1, stages = 5>}
  linalg.matmul indexing_maps = [#t_a, #t_b, #c] ins(%At, %Bt : memref<130x257xf64>, memref<129x130xf64>) outs(%C : memref<257x129xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 32, wm = 32, wn = 16, u = 8, kl = 1, kg = 1, vec = 2, stages = 8>}
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c] ins(%A, %Bt : memref<257x130xf64>, memref<129x130xf64>) outs(%C : memref<257x129xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 16, nl = 8, wm = 16, wn = 8, u = 8, kl = 1, kg = 1, vec = 1, stages = 2>}
  return
}

// A batch, layout tn.
func.func @batched(%A: memref<3x33x65xf64>, %B: memref<3x33x17xf64>, %C: memref<3x65x17xf64>) {
  linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, k, m)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>]
    ins(%A, %B : memref<3x33x65xf64>, memref<3x33x17xf64>) outs(%C : memref<3x65x17xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 32, wm = 32, wn = 16, u = 32, kl = 1, kg = 1, vec = 2, stages = 6>}
  return
}

// A fused bias epilogue with KG = 8 (atomic fixup or workspace + reducer).
func.func @fused(%x: tensor<100x264xf64>, %w: tensor<264x72xf64>, %b: tensor<72xf64>) -> tensor<100x72xf64> {
  %e = tensor.empty() : tensor<100x72xf64>
  %z = arith.constant 0.0 : f64
  %f = linalg.fill ins(%z : f64) outs(%e : tensor<100x72xf64>) -> tensor<100x72xf64>
  %mm = linalg.matmul {isaac.config = #isaac.gemm<family = mma, ml = 32, nl = 64, wm = 16, wn = 32, u = 16, kl = 2, kg = 8, vec = 2, stages = 4>} ins(%x, %w : tensor<100x264xf64>, tensor<264x72xf64>) outs(%f : tensor<100x72xf64>) -> tensor<100x72xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<100x72xf64>, tensor<72xf64>) outs(%e : tensor<100x72xf64>) {
  ^bb0(%v: f64, %bias: f64, %o: f64):
    %s = arith.addf %v, %bias : f64
    %m = arith.maximumf %s, %z : f64
    linalg.yield %m : f64
  } -> tensor<100x72xf64>
  return %r : tensor<100x72xf64>
}

// f64 GEMMs on tensors, configured by isaac-select-config (mma on sm_80,
// sm_90, sm_90a).
func.func @selected(%a: tensor<896x32xf64>, %b: tensor<32x896xf64>, %c: tensor<896x896xf64>,
                    %x: tensor<4x96x80xf64>, %y: tensor<4x80x48xf64>, %z: tensor<4x96x48xf64>) -> (tensor<896x896xf64>, tensor<4x96x48xf64>) {
  %r = linalg.matmul ins(%a, %b : tensor<896x32xf64>, tensor<32x896xf64>) outs(%c : tensor<896x896xf64>) -> tensor<896x896xf64>
  %r2 = linalg.batch_matmul ins(%x, %y : tensor<4x96x80xf64>, tensor<4x80x48xf64>) outs(%z : tensor<4x96x48xf64>) -> tensor<4x96x48xf64>
  return %r, %r2 : tensor<896x896xf64>, tensor<4x96x48xf64>
}
