// PTX of a non-divisible shape: predicated tail loads and stores next to
// the unpredicated vector main path; KG > 1 accumulates with red.global.add.
// RUN: rm -rf %t && isaac-opt %s --isaac-pipeline="chip=sm_90 ptx-dir=%t" -o %t.mlir
// RUN: FileCheck %s --check-prefix=KG1 < %t/isaac_gemm_f32_nt_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4.ptx
// RUN: FileCheck %s --check-prefix=KG4 < %t/isaac_gemm_f32_nn_ml32_nl32_ms4_ns4_u8_ks2_kl2_kg4_v4.ptx
// RUN: FileCheck %s --check-prefix=HOST < %t.mlir

// KG1: // isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>
// KG1-NEXT: // isaac.kernel name=isaac_gemm_f32_nt_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4 dtype=f32 layout=nt ml=32 nl=32 ms=4 ns=4 u=8 ks=1 kl=1 kg=1 vec=4 threads=64 smem=4608 dynsmem=0 chip=sm_90
// KG1: .target sm_90
// KG1: .visible .entry isaac_gemm_f32_nt_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4(
// KG1: .maxntid 64, 1, 1
// KG1-DAG: ld.global.nc.v4.{{[bf]}}32
// KG1-DAG: @%p{{[0-9]+}} ld.global.f32 %r{{[0-9]+}}, [%rd{{[0-9]+}}];
// KG1-DAG: ld.shared.v4.{{[bf]}}32
// KG1-DAG: bar.sync 0;
// KG1-DAG: fma.rn.f32
// KG1-DAG: @%p{{[0-9]+}} st.global.f32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// KG1-DAG: st.global.v4.{{[bf]}}32
// KG1-NOT: red.global
// KG1-NOT: atom.global

// KG4: .visible .entry isaac_gemm_f32_nn_ml32_nl32_ms4_ns4_u8_ks2_kl2_kg4_v4(
// KG4: @%p{{[0-9]+}} red.global.add.f32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// KG4: .visible .entry isaac_scale_f32(
// KG4: .visible .entry isaac_splitk_reduce_f32(

// The host side calls the runtime with the embedded PTX.
// HOST-DAG: llvm.mlir.global internal constant @__isaac_ptx_isaac_gemm_f32_nt_ml32_nl32_ms4_ns4_u8_ks1_kl1_kg1_v4("// isaac.config
// HOST-DAG: llvm.func @isaacGemmLaunch(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, i32, i32, i32, i32, i32, i64, i64, i64, i32, f64, f64, !llvm.ptr, i32) -> i32
// HOST-LABEL: llvm.func @nt(
// HOST: llvm.call @isaacGemmLaunch(
// HOST-LABEL: llvm.func @nn_splitk(
// HOST: llvm.call @isaacGemmLaunch(
// HOST-NOT: gpu.binary

func.func @nt(%A: memref<33x17xf32>, %B: memref<45x17xf32>, %C: memref<33x45xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%A, %B : memref<33x17xf32>, memref<45x17xf32>) outs(%C : memref<33x45xf32>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}

func.func @nn_splitk(%A: memref<7x1009xf32>, %B: memref<1009x129xf32>, %C: memref<7x129xf32>) {
  linalg.matmul ins(%A, %B : memref<7x1009xf32>, memref<1009x129xf32>) outs(%C : memref<7x129xf32>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 2, kl = 2, kg = 4, vec = 4>}
  return
}
