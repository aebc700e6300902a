// Which family ranks f64 GEMMs (searchFamily, lib/Model/MmaLegality.cpp):
// on chips whose f64 tensor-core rate (Chips.def's PeakF64Tensor) exceeds
// their f64 FMA rate, the mma family on DMMA, ranked by the trained model
// of that space (models/sm_90/gemm-f64-mma.mlp) where one ships, else by
// the analytic model; elsewhere the simt family (the trained model where
// one ships, else the analytic heuristic). A configuration written in the
// input keeps either family.
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90" -verify-diagnostics -split-input-file | FileCheck %s --check-prefix=SM90
// RUN: isaac-opt %s --isaac-select-config="chip=sm_90 model-dir=none" -split-input-file 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: remark: isaac: mma configuration (f64 on DMMA tensor cores) chosen by the analytic model (67 TFLOP/s f64 tensor-core rate for sm_90 against 34 TFLOP/s f64 FMA); no trained model (model-dir=none); an isaac.config of family = simt keeps a GEMM on the FMA pipes
// NONE-LABEL: func.func @square
// NONE: isaac.config = #isaac.gemm<family = mma,
// RUN: isaac-opt %s --isaac-select-config="chip=sm_80 topk=3" -split-input-file 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: isaac-opt %s --isaac-select-config="chip=sm_86" -split-input-file 2>&1 | FileCheck %s --check-prefix=SM86
// RUN: isaac-opt %s --isaac-select-config="chip=sm_89" -split-input-file 2>&1 | FileCheck %s --check-prefix=SM89

// SM90-LABEL: func.func @square
// SM90: linalg.matmul {isaac.config = #isaac.gemm<family = mma, ml = {{[0-9]+}}, nl = {{[0-9]+}}, wm = {{[0-9]+}}, wn = {{[0-9]+}}, u = {{[0-9]+}}, kl = {{[0-9]+}}, kg = {{[0-9]+}}, vec = {{[12]}}, stages = {{[2-8]}}>}
// SM80: remark: isaac: mma configuration (f64 on DMMA tensor cores) chosen by the analytic model (20 TFLOP/s f64 tensor-core rate for sm_80 against 10 TFLOP/s f64 FMA); no trained model (no file {{.*}}/models/sm_80/gemm-f64-mma.mlp)
// SM80-LABEL: func.func @square
// SM80: isaac.candidates = [#isaac.gemm<family = mma, {{[^>]*}}>, #isaac.gemm<family = mma, {{[^>]*}}>, #isaac.gemm<family = mma, {{[^>]*}}>], isaac.config = #isaac.gemm<family = mma,
// SM86: remark: isaac: no trained model for sm_86; configuration chosen by the analytic heuristic
// SM86-LABEL: func.func @square
// SM86: linalg.matmul {isaac.config = #isaac.gemm<ml = {{[0-9]+}}, nl = {{[0-9]+}}, ms = {{[0-9]+}}, ns = {{[0-9]+}}, u = {{[0-9]+}}, ks = {{[0-9]+}}, kl = {{[0-9]+}}, kg = {{[0-9]+}}, vec = {{[0-9]+}}>}
// SM89: remark: isaac: no trained model for sm_89; configuration chosen by the analytic heuristic
// SM89-LABEL: func.func @square
// SM89: linalg.matmul {isaac.config = #isaac.gemm<ml =
func.func @square(%A: memref<2048x2048xf64>, %B: memref<2048x2048xf64>, %C: memref<2048x2048xf64>) {
  // expected-remark-re @below {{isaac: configuration chosen by the trained model {{.*}}/models/sm_90/gemm-f64-mma.mlp (trained on measurements)}}
  linalg.matmul ins(%A, %B : memref<2048x2048xf64>, memref<2048x2048xf64>) outs(%C : memref<2048x2048xf64>)
  return
}

// -----

// The simt family stays reachable: an isaac.config of family simt is kept
// on every chip.
// SM90-LABEL: func.func @simt
// SM90: isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2>
// SM86-LABEL: func.func @simt
// SM86: isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2>
func.func @simt(%A: memref<512x512xf64>, %B: memref<512x512xf64>, %C: memref<512x512xf64>) {
  // expected-remark @below {{isaac: configuration given in the input (isaac.config); kept as written}}
  linalg.matmul ins(%A, %B : memref<512x512xf64>, memref<512x512xf64>) outs(%C : memref<512x512xf64>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2>}
  return
}

// -----

// And so is the mma family where it is slow: an f64 mma configuration is
// legal (and kept) on sm_86, whose DMMA runs at its FP64 rate.
// SM86-LABEL: func.func @mma_on_sm86
// SM86: isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 16, kl = 1, kg = 1, vec = 2, stages = 3>
func.func @mma_on_sm86(%A: memref<512x512xf64>, %B: memref<512x512xf64>, %C: memref<512x512xf64>) {
  // expected-remark @below {{isaac: configuration given in the input (isaac.config); kept as written}}
  linalg.matmul ins(%A, %B : memref<512x512xf64>, memref<512x512xf64>) outs(%C : memref<512x512xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 16, kl = 1, kg = 1, vec = 2, stages = 3>}
  return
}
