// The README's main job: the bundled examples compile to PTX end to end.
// RUN: rm -rf %t && isaac-opt %isaac_src/examples/gemms.mlir --isaac-pipeline="chip=sm_90 ptx-dir=%t" -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: isaac-opt %isaac_src/examples/gemms.mlir --isaac-pipeline="chip=sm_90 model-dir=none" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HEURISTIC
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=HOST < %t.mlir

// The shipped sm_90 model chooses f32 configurations; f64 runs on DMMA (an
// mma configuration ranked by the analytic model); the hand-written one is
// kept.
// REMARK: remark: isaac: configuration chosen by the trained model {{.*}}models/sm_90/gemm-f32.mlp (trained on measurements)
// HEURISTIC: remark: isaac: no trained model for sm_90; configuration chosen by the analytic heuristic
// FILES-DAG: isaac_gemm_f32_nn_{{.*}}.ptx
// FILES-DAG: isaac_gemm_f32_tn_{{.*}}.ptx
// FILES-DAG: isaac_gemm_f32_nt_ml64_nl64_ms8_ns4_u8_ks1_kl1_kg1_v4.ptx
// FILES-DAG: isaac_gemm_f64_nt_mma_{{.*}}.ptx
// HOST-LABEL: llvm.func @deepbench_fwd_2560x16x2560
// HOST: llvm.call @isaacGemmLaunch
// HOST-LABEL: llvm.func @lapack_896x896x32
// HOST: llvm.call @isaacGemmLaunch
// HOST-LABEL: llvm.func @batched_8x128x128x256
// HOST: llvm.call @isaacGemmLaunch
// HOST-NOT: linalg.
// HOST-NOT: arith.
// HOST-NOT: gpu.binary
