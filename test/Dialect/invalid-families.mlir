// RUN: isaac-opt %s -split-input-file -verify-diagnostics
//
// Malformed #isaac.gemm attributes of the kernel families
// (include/isaac/Model/GemmParams.def): keys a family does not use, the
// family key out of place or unknown, the table's ranges per family, and
// the rules that need an operation.

// expected-error @below {{#isaac.gemm parameter 'ms' is not a parameter of the mma family; expected one of ml, nl, wm, wn, u, kl, kg, vec, stages, kc}}
#bad = #isaac.gemm<family = mma, ml = 128, nl = 128, ms = 8, wn = 32, u = 32, kl = 1, kg = 1, vec = 8>

// -----

// expected-error @below {{#isaac.gemm parameter 'wm' is not a parameter of the simt family; expected one of ml, nl, ms, ns, u, ks, kl, kg, vec, stages}}
#bad = #isaac.gemm<ml = 64, nl = 64, wm = 32, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// expected-error @below {{#isaac.gemm parameter 'family' must come first}}
#bad = #isaac.gemm<ml = 128, family = mma, nl = 128, wm = 64, wn = 32, u = 32, kl = 1, kg = 1, vec = 8>

// -----

// expected-error @below {{unknown #isaac.gemm family 'tcgen05'; expected one of simt, mma, wgmma}}
#bad = #isaac.gemm<family = tcgen05, ml = 128>

// -----

// expected-error @below {{#isaac.gemm is missing parameter 'wn'}}
#bad = #isaac.gemm<family = mma, ml = 128, nl = 128, wm = 64, u = 32, kl = 1, kg = 1, vec = 8>

// -----

// expected-error @below {{#isaac.gemm parameter 'stages' given twice}}
#bad = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4, stages = 3, stages = 4>

// -----

// The ranges of GemmParams.def, as written.
// expected-error @below {{illegal #isaac.gemm (rule range): wm = 256 is outside [8, 128]}}
// expected-note @below {{also breaks rule range: stages = 9 is outside [2, 8]}}
#bad = #isaac.gemm<family = mma, ml = 128, nl = 128, wm = 256, wn = 32, u = 32, kl = 1, kg = 1, vec = 8, stages = 9>

// -----

// stages is not a power-of-two parameter: 1 is out of range, 3 is fine.
// expected-error @below {{illegal #isaac.gemm (rule range): stages = 1 is outside [2, 8]}}
#bad = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4, stages = 1>

// -----

// expected-error @below {{illegal #isaac.gemm (rule power-of-two): wn = 24 must be a positive power of two}}
#bad = #isaac.gemm<family = mma, ml = 128, nl = 128, wm = 64, wn = 24, u = 32, kl = 1, kg = 1, vec = 8>

// -----

// Clusters are the wgmma family's: at most 8 blocks (the portable cluster
// size), a power of two.
// expected-error @below {{#isaac.gemm parameter 'cm' is not a parameter of the mma family; expected one of ml, nl, wm, wn, u, kl, kg, vec, stages, kc}}
#bad = #isaac.gemm<family = mma, ml = 128, nl = 128, wm = 64, wn = 32, u = 32, kl = 1, kg = 1, vec = 8, stages = 3, cm = 2>

// -----

// expected-error @below {{illegal #isaac.gemm (rule range): cm = 16 is outside [1, 8]}}
#bad = #isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 64, wn = 128, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, cm = 16>

// -----

// expected-error @below {{illegal #isaac.gemm (rule power-of-two): cm = 3 must be a positive power of two}}
#bad = #isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 64, wn = 128, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, cm = 3>

// -----

// A simt cp.async pipeline keeps every stage in static shared memory:
// eight stages of 128x128 tiles with U = 16 are 8 * 16 * (132 + 132) * 4
// bytes.
func.func @simt_stages(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @below {{illegal isaac.config for f32 on sm_90 (rule shared-memory): needs 135168 bytes of shared memory; sm_90 allows 49152 bytes of static shared memory per block}}
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<ml = 128, nl = 128, ms = 8, ns = 16, u = 16, ks = 1, kl = 1, kg = 1, vec = 4, stages = 8>}
  return
}

// -----

// vec = 8 is in the table's range (16-bit operands), but 8 f32 elements
// are 32 bytes.
func.func @simt_vec8(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @below {{illegal isaac.config for f32 on sm_90 (rule vector-width): vec = 8 f32 elements is 32 bytes; global loads are at most 16 bytes}}
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 8>}
  return
}

// -----

// The mma family multiplies every operand type (f16 and bf16, f32 as TF32,
// f64 on DMMA): an f64 configuration of it meets the mma family's rules
// (lib/Model/MmaLegality.cpp; test/Dialect/invalid-mma.mlir has each of
// them), here its shared memory: 4 stages of (128 + 128) x 32 f64.
func.func @mma(%A: memref<128x64xf64>, %B: memref<64x128xf64>, %C: memref<128x128xf64>) {
  // expected-error @below {{illegal isaac.config for f64 on sm_90 (rule shared-memory): needs 262144 bytes of shared memory (4 stages of 65536 bytes); sm_90 allows 232448 bytes of dynamic shared memory per block}}
  // expected-note @below {{also breaks rule registers: needs about 324 registers per thread; sm_90 allows 255}}
  linalg.matmul ins(%A, %B : memref<128x64xf64>, memref<64x128xf64>) outs(%C : memref<128x128xf64>)
    {isaac.config = #isaac.gemm<family = mma, ml = 128, nl = 128, wm = 64, wn = 32, u = 32, kl = 1, kg = 1, vec = 2, stages = 4>}
  return
}
