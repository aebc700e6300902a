// REQUIRES: ptxas
// The mma family's PTX: every layout, f16 and bf16, C of the operands'
// type and f32, KG > 1, a fused epilogue and TF32, through the whole pipeline for
// sm_80, sm_90 and sm_90a, assembled by ptxas for each.
// RUN: rm -rf %t && isaac-opt %s --isaac-pipeline="chip=sm_90 ptx-dir=%t/sm_90" -o /dev/null
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_80 ptx-dir=%t/sm_80" -o /dev/null
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_90a ptx-dir=%t/sm_90a" -o /dev/null
// RUN: %python %isaac_src/test/PTX/Inputs/ptxas_all.py %ptxas sm_80 %t/sm_80 11 | FileCheck %s --check-prefix=ASM80
// RUN: %python %isaac_src/test/PTX/Inputs/ptxas_all.py %ptxas sm_90 %t/sm_90 11 | FileCheck %s --check-prefix=ASM90
// RUN: %python %isaac_src/test/PTX/Inputs/ptxas_all.py %ptxas sm_90a %t/sm_90a 11 | FileCheck %s --check-prefix=ASM90A
// ASM80: ptxas sm_80: 11 kernels, 0 failed
// ASM90: ptxas sm_90: 11 kernels, 0 failed
// ASM90A: ptxas sm_90a: 11 kernels, 0 failed
//
// Split-K adds of f32 partial sums (into T or an f32 C): in adjacent-column
// pairs on sm_90 (the chip table: vector reductions, PTX 8.1), scalar on
// sm_80, which has no vector reduction.
// RUN: grep -c "red.global.add.v2.f32" %t/sm_90/isaac_gemm_tf32_nn_mma_ml32_nl64_wm32_wn32_u16_kl2_kg4_v2_st4.ptx | FileCheck %s --check-prefix=PAIRS90
// PAIRS90: 16
// RUN: not grep -q "red.global.add.v2" %t/sm_80/isaac_gemm_tf32_nn_mma_ml32_nl64_wm32_wn32_u16_kl2_kg4_v2_st4.ptx
// RUN: grep -c "red.global.add.f32" %t/sm_80/isaac_gemm_tf32_nn_mma_ml32_nl64_wm32_wn32_u16_kl2_kg4_v2_st4.ptx | FileCheck %s --check-prefix=SCALAR80
// SCALAR80: 32
//
// The large tile keeps its 128 f32 accumulators and fragments in registers.
// RUN: %ptxas -arch=sm_90 -v %t/sm_90/isaac_gemm_f16f32_nn_mma_ml128_nl128_wm64_wn64_u32_kl1_kg1_v8_st4.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGS
// REGS: 0 bytes spill stores, 0 bytes spill loads
//
// RUN: FileCheck %s --input-file=%t/sm_90/isaac_gemm_f16f32_nn_mma_ml128_nl128_wm64_wn64_u32_kl1_kg1_v8_st4.ptx
// CHECK: // isaac.kernel name=isaac_gemm_f16f32_nn_mma_ml128_nl128_wm64_wn64_u32_kl1_kg1_v8_st4 dtype=f16f32 layout=nn ml=128 nl=128 wm=64 wn=64 u=32 kl=1 kg=1 vec=8 stages=4 threads=128 smem=65536 dynsmem=1 chip=sm_90
// CHECK: .extern .shared .align 128 .b8 isaac_gemm_f16f32_nn_mma_ml128_nl128_wm64_wn64_u32_kl1_kg1_v8_st4_smem[];
// CHECK: .maxntid 128, 1, 1
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// CHECK: cp.async.commit_group;
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: cp.async.wait_group 2;
// CHECK-NEXT: bar.sync 0;
//
// bf16 into bf16: the bf16 instruction, the result rounded to bf16.
// RUN: FileCheck %s --check-prefix=BF16 --input-file=%t/sm_80/isaac_gemm_bf16_tt_mma_ml64_nl64_wm32_wn32_u64_kl1_kg1_v8_st3.ptx
// BF16: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// BF16: cvt.rn.bf16.f32
//
// The TF32 kernel uses m16n8k8 on operands rounded to TF32 (layout tt: A's fragments by
// 32-bit shared loads, B's by ldmatrix).
// RUN: FileCheck %s --check-prefix=TF32 --input-file=%t/sm_80/isaac_gemm_tf32_tt_mma_ml64_nl64_wm32_wn32_u32_kl1_kg1_v4_st3.ptx
// TF32-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// TF32-DAG: ld.shared.b32
// TF32-DAG: cvt.rna.tf32.f32
// TF32-DAG: mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
//
// Every kernel of the file: the four layouts' ldmatrix forms, 64 mma.sync
// per stage of the large tile (4 x 8 tiles x 2 k-steps).
// RUN: grep -c "mma.sync.aligned" %t/sm_90/isaac_gemm_f16f32_nn_mma_ml128_nl128_wm64_wn64_u32_kl1_kg1_v8_st4.ptx | FileCheck %s --check-prefix=COUNT
// COUNT: 64

#nn_a = affine_map<(m, n, k) -> (m, k)>
#nn_b = affine_map<(m, n, k) -> (k, n)>
#t_a = affine_map<(m, n, k) -> (k, m)>
#t_b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

func.func @layouts(%A: memref<257x130xf16>, %At: memref<130x257xf16>,
                   %B: memref<130x129xf16>, %Bt: memref<129x130xf16>,
                   %C: memref<257x129xf32>, %H: memref<257x129xf16>,
                   %Ab: memref<130x257xbf16>, %Bb: memref<129x130xbf16>,
                   %Cb: memref<257x129xbf16>, %Bn: memref<130x129xbf16>,
                   %Cbf: memref<257x129xf32>) {
  linalg.matmul indexing_maps = [#nn_a, #nn_b, #c] ins(%A, %B : memref<257x130xf16>, memref<130x129xf16>) outs(%C : memref<257x129xf32>)
    {isaac.config = #isaac.gemm<family = mma, ml = 128, nl = 128, wm = 64, wn = 64, u = 32, kl = 1, kg = 1, vec = 8, stages = 4>}
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c] ins(%A, %Bt : memref<257x130xf16>, memref<129x130xf16>) outs(%H : memref<257x129xf16>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 128, wm = 32, wn = 64, u = 32, kl = 1, kg = 2, vec = 8, stages = 3>}
  linalg.matmul indexing_maps = [#t_a, #nn_b, #c] ins(%At, %B : memref<130x257xf16>, memref<130x129xf16>) outs(%C : memref<257x129xf32>)
    {isaac.config = #isaac.gemm<family = mma, ml = 32, nl = 32, wm = 16, wn = 16, u = 32, kl = 2, kg = 4, vec = 4, stages = 5>}
  linalg.matmul indexing_maps = [#t_a, #t_b, #c] ins(%Ab, %Bb : memref<130x257xbf16>, memref<129x130xbf16>) outs(%Cb : memref<257x129xbf16>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 64, kl = 1, kg = 1, vec = 8, stages = 3>}
  linalg.matmul indexing_maps = [#t_a, #nn_b, #c] ins(%Ab, %Bn : memref<130x257xbf16>, memref<130x129xbf16>) outs(%Cbf : memref<257x129xf32>)
    {isaac.config = #isaac.gemm<family = mma, ml = 16, nl = 8, wm = 16, wn = 8, u = 16, kl = 1, kg = 1, vec = 2, stages = 2>}
  return
}

// A fused bias + gelu epilogue, f16 in and out (KG = 1), and a residual
// with KG = 8 (atomic fixup or workspace + reducer).
func.func @fused(%x: tensor<100x264xf16>, %w: tensor<264x72xf16>, %b: tensor<72xf32>,
                 %res: tensor<100x72xf32>) -> (tensor<100x72xf16>, tensor<100x72xf32>) {
  %e = tensor.empty() : tensor<100x72xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<100x72xf32>) -> tensor<100x72xf32>
  %mm = linalg.matmul {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 32, kl = 1, kg = 1, vec = 8, stages = 3>} ins(%x, %w : tensor<100x264xf16>, tensor<264x72xf16>) outs(%f : tensor<100x72xf32>) -> tensor<100x72xf32>
  %h = tensor.empty() : tensor<100x72xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} ins(%mm, %b : tensor<100x72xf32>, tensor<72xf32>) outs(%h : tensor<100x72xf16>) {
  ^bb0(%v: f32, %bias: f32, %o: f16):
    %s = arith.addf %v, %bias : f32
    %c = arith.constant 0.7978845608 : f32
    %t = math.tanh %s : f32
    %g = arith.mulf %t, %c : f32
    %y = arith.truncf %g : f32 to f16
    linalg.yield %y : f16
  } -> tensor<100x72xf16>
  %mm2 = linalg.matmul {isaac.config = #isaac.gemm<family = mma, ml = 32, nl = 64, wm = 16, wn = 32, u = 64, kl = 2, kg = 8, vec = 8, stages = 4>} ins(%x, %w : tensor<100x264xf16>, tensor<264x72xf16>) outs(%f : tensor<100x72xf32>) -> tensor<100x72xf32>
  %r2 = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>, affine_map<(m, n) -> (m, n)>], iterator_types = ["parallel", "parallel"]} ins(%mm2, %res : tensor<100x72xf32>, tensor<100x72xf32>) outs(%e : tensor<100x72xf32>) {
  ^bb0(%v: f32, %q: f32, %o: f32):
    %s = arith.addf %v, %q : f32
    linalg.yield %s : f32
  } -> tensor<100x72xf32>
  return %r, %r2 : tensor<100x72xf16>, tensor<100x72xf32>
}

// The DeepBench shape on tensors, f16 in and out, configuration chosen by
// the analytic model; and a batched bf16 GEMM.
func.func @selected(%x: tensor<2560x2560xf16>, %w: tensor<2560x16xf16>, %c: tensor<2560x16xf16>,
                    %a: tensor<4x96x80xbf16>, %bb: tensor<4x80x48xbf16>, %cb: tensor<4x96x48xf32>) -> (tensor<2560x16xf16>, tensor<4x96x48xf32>) {
  %r = linalg.matmul ins(%x, %w : tensor<2560x2560xf16>, tensor<2560x16xf16>) outs(%c : tensor<2560x16xf16>) -> tensor<2560x16xf16>
  %r2 = linalg.batch_matmul ins(%a, %bb : tensor<4x96x80xbf16>, tensor<4x80x48xbf16>) outs(%cb : tensor<4x96x48xf32>) -> tensor<4x96x48xf32>
  return %r, %r2 : tensor<2560x16xf16>, tensor<4x96x48xf32>
}

// f32 GEMMs opted in to TF32.
func.func @tf32(%A: memref<257x130xf32>, %At: memref<130x257xf32>,
                %B: memref<130x129xf32>, %Bt: memref<129x130xf32>,
                %C: memref<257x129xf32>) {
  linalg.matmul indexing_maps = [#t_a, #t_b, #c] ins(%At, %Bt : memref<130x257xf32>, memref<129x130xf32>) outs(%C : memref<257x129xf32>)
    {isaac.tf32, isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 32, kl = 1, kg = 1, vec = 4, stages = 3>}
  linalg.matmul indexing_maps = [#nn_a, #nn_b, #c] ins(%A, %B : memref<257x130xf32>, memref<130x129xf32>) outs(%C : memref<257x129xf32>)
    {isaac.tf32, isaac.config = #isaac.gemm<family = mma, ml = 32, nl = 64, wm = 32, wn = 32, u = 16, kl = 2, kg = 4, vec = 2, stages = 4>}
  return
}
