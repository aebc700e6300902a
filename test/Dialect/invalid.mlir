// RUN: isaac-opt %s -split-input-file -verify-diagnostics

// expected-error @below {{illegal #isaac.gemm (rule power-of-two): ml = 48 must be a positive power of two}}
#bad = #isaac.gemm<ml = 48, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// expected-error @below {{illegal #isaac.gemm (rule range): ml = 512 is outside [1, 256]}}
#bad = #isaac.gemm<ml = 512, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// expected-error @below {{illegal #isaac.gemm (rule power-of-two): kg = 0 must be a positive power of two}}
#bad = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 0, vec = 4>

// -----

// expected-error @below {{illegal #isaac.gemm (rule tile-divisibility): ml = 8 is not a multiple of ms = 16}}
#bad = #isaac.gemm<ml = 8, nl = 64, ms = 16, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// expected-error @below {{illegal #isaac.gemm (rule tile-divisibility): u = 4 is not a multiple of kl * ks = 8}}
#bad = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 4, ks = 2, kl = 4, kg = 1, vec = 1>

// -----

// expected-error @below {{illegal #isaac.gemm (rule threads-per-block): (ml/ms) * (nl/ns) * kl = 2 * 8 * 1 = 16 threads per block; must be a multiple of 32 and at most 1024}}
#bad = #isaac.gemm<ml = 16, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// expected-error @below {{illegal #isaac.gemm (rule threads-per-block): (ml/ms) * (nl/ns) * kl = 64 * 64 * 1 = 4096 threads per block}}
#bad = #isaac.gemm<ml = 64, nl = 64, ms = 1, ns = 1, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// expected-error @below {{illegal #isaac.gemm (rule vector-divisibility): vec = 4 must divide ml, nl and u (ml = 64, nl = 64, u = 2)}}
#bad = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 2, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// Every broken rule is reported, the first as the error, the rest as notes.
// expected-error @below {{illegal #isaac.gemm (rule power-of-two): ml = 3}}
// expected-note @below {{also breaks rule power-of-two: vec = 3}}
#bad = #isaac.gemm<ml = 3, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 3>

// -----

// Out-of-range values are reported as written: not clamped into int, not
// wrapped, and not turned into the parser's "too large" past 64 bits.
// expected-error @below {{illegal #isaac.gemm (rule power-of-two): ml = -64 must be a positive power of two}}
#bad = #isaac.gemm<ml = -64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// 2^32 + 64: wraps to 64 in a 32-bit int.
// expected-error @below {{illegal #isaac.gemm (rule power-of-two): ml = 4294967360 must be a positive power of two}}
#bad = #isaac.gemm<ml = 4294967360, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// expected-error @below {{illegal #isaac.gemm (rule range): kg = 2147483648 is outside [1, 1024]}}
#bad = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 2147483648, vec = 4>

// -----

// expected-error @below {{illegal #isaac.gemm (rule power-of-two): ml = -9223372036854775808 must be a positive power of two}}
#bad = #isaac.gemm<ml = -9223372036854775808, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// Past 64 bits the parser reports it, at the value.
// expected-error @below {{illegal #isaac.gemm (rule range): u = 1180591620717411303424 is outside [1, 64]}}
#bad = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 1180591620717411303424, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// A wide value does not hide the other parameters' broken values.
// expected-error @below {{illegal #isaac.gemm (rule power-of-two): nl = 68719476737 must be a positive power of two}}
// expected-note @below {{also breaks rule range: ms = 32 is outside [1, 16]}}
// expected-note @below {{also breaks rule power-of-two: vec = 3 must be a positive power of two}}
#bad = #isaac.gemm<ml = 64, nl = 68719476737, ms = 32, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 3>

// -----

// Malformed attributes: a missing parameter, an unknown keyword, a
// non-integer value.
// expected-error @below {{#isaac.gemm is missing parameter 'vec'}}
#bad = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1>

// -----

// expected-error @below {{unknown #isaac.gemm parameter 'swizzle'; expected one of ml, nl, ms, ns, u, ks, kl, kg, vec}}
#bad = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4, swizzle = 1>

// -----

// expected-error @below {{#isaac.gemm parameter 'nl' must be an integer}}
#bad = #isaac.gemm<ml = 64, nl = "wide", ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// expected-error @below {{#isaac.gemm parameter 'u' given twice}}
#bad = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, u = 16, ks = 1, kl = 1, kg = 1, vec = 4>

// -----

// Rules that need the element type: 4 f64 elements are 32 bytes.
func.func @f64_vec4(%A: memref<64x64xf64>, %B: memref<64x64xf64>, %C: memref<64x64xf64>) {
  // expected-error @below {{illegal isaac.config for f64 on sm_90 (rule vector-width): vec = 4 f64 elements is 32 bytes; global loads are at most 16 bytes}}
  linalg.matmul ins(%A, %B : memref<64x64xf64>, memref<64x64xf64>) outs(%C : memref<64x64xf64>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}

// -----

// Rules that need the chip: shared memory.
func.func @smem(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @below {{illegal isaac.config for f32 on sm_90 (rule shared-memory): needs 135168 bytes of shared memory; sm_90 allows 49152 bytes of static shared memory per block}}
  // expected-note @below {{also breaks rule registers: needs about 576 registers per thread; sm_90 allows 255}}
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<ml = 128, nl = 128, ms = 16, ns = 16, u = 64, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}

// -----

// Registers: 16x16 accumulators times ks = 2.
func.func @regs(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @below {{(rule registers): needs about 608 registers per thread; sm_90 allows 255}}
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<ml = 128, nl = 128, ms = 16, ns = 16, u = 8, ks = 2, kl = 1, kg = 1, vec = 4>}
  return
}

// -----

// The target chip comes from the closest isaac.target.
// expected-error @below {{unknown target chip 'sm_42'; known chips: sm_80,}}
func.func @unknown_chip(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>)
    attributes {isaac.target = "sm_42"} {
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

// -----

func.func @not_a_gemm(%A: memref<64xf32>) {
  %cst = arith.constant 0.0 : f32
  // expected-error @below {{'isaac.config' is only valid on linalg.matmul, linalg.batch_matmul, isaac.gemm, linalg.conv_2d_nhwc_hwcf, linalg.conv_2d_nhwc_fhwc and isaac.conv}}
  linalg.fill {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
    ins(%cst : f32) outs(%A : memref<64xf32>)
  return
}

// -----

func.func @wrong_kind(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @below {{'isaac.config' must be an #isaac.gemm attribute}}
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.config = 64 : i64}
  return
}

// -----

func.func @unknown_attr(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @below {{unknown isaac attribute 'isaac.tile'}}
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.tile = 64 : i64}
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
  }
  func.func @bad_launch(%A: memref<64x32xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
    // expected-error @below {{operand shapes do not form a GEMM: C is 64x64, op(A) is 64x32, op(B) is 64x64}}
    isaac.launch_gemm @k::@k(%A, %B, %C) {alpha = 1.0 : f64, beta = 1.0 : f64,
      config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>,
      trans_a = false, trans_b = false} : memref<64x32xf32>, memref<64x64xf32>, memref<64x64xf32>
    return
  }
}
