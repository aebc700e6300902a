// RUN: isaac-opt %s -split-input-file -verify-diagnostics

// The mma family's legality rules (lib/Model/MmaLegality.cpp), reported by
// the verifier of isaac.config against the operation's operand type on
// the default chip (sm_90).

// f64 (DMMA: m16n8k8 on sm_90, m8n8k4 on sm_80) follows the same rules
// with its own instruction and 8-byte elements.
// vector-width: 4 f64 are 32 bytes, wider than any cp.async
func.func @f64_vec(%A: memref<64x64xf64>, %B: memref<64x64xf64>, %C: memref<64x64xf64>) {
  // expected-error @below {{illegal isaac.config for f64 on sm_90 (rule vector-width): vec = 4 f64 elements is 32 bytes; cp.async copies 4, 8 or 16 bytes}}
  linalg.matmul ins(%A, %B : memref<64x64xf64>, memref<64x64xf64>) outs(%C : memref<64x64xf64>) {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 32, kl = 1, kg = 1, vec = 4, stages = 3>}
  return
}

// -----

// k-depth: u must be a multiple of k * kl = 8 * 2 (m16n8k8)
func.func @f64_kdepth(%A: memref<64x64xf64>, %B: memref<64x64xf64>, %C: memref<64x64xf64>) {
  // expected-error @below {{illegal isaac.config for f64 on sm_90 (rule k-depth): u = 8 is not a multiple of the instruction's k times kl = 8 * 2}}
  linalg.matmul ins(%A, %B : memref<64x64xf64>, memref<64x64xf64>) outs(%C : memref<64x64xf64>) {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 8, kl = 2, kg = 1, vec = 2, stages = 3>}
  return
}

// -----

// warp-tile: an m8 warp tile, legal for sm_80's m8n8k4, is not one of
// sm_90's m16n8k8
func.func @f64_m8(%A: memref<64x64xf64>, %B: memref<64x64xf64>, %C: memref<64x64xf64>) {
  // expected-error @below {{illegal isaac.config for f64 on sm_90 (rule warp-tile): wm = 8 is not a multiple of the instruction's m = 16}}
  linalg.matmul ins(%A, %B : memref<64x64xf64>, memref<64x64xf64>) outs(%C : memref<64x64xf64>) {isaac.config = #isaac.gemm<family = mma, ml = 16, nl = 8, wm = 8, wn = 8, u = 8, kl = 1, kg = 1, vec = 1, stages = 2>}
  return
}

// -----

// registers: a 64 x 64 warp tile holds 128 f64 accumulators per lane (256
// registers)
func.func @f64_registers(%A: memref<64x64xf64>, %B: memref<64x64xf64>, %C: memref<64x64xf64>) {
  // expected-error @below {{illegal isaac.config for f64 on sm_90 (rule registers): needs about 444 registers per thread; sm_90 allows 255}}
  linalg.matmul ins(%A, %B : memref<64x64xf64>, memref<64x64xf64>) outs(%C : memref<64x64xf64>) {isaac.config = #isaac.gemm<family = mma, ml = 128, nl = 128, wm = 64, wn = 64, u = 16, kl = 1, kg = 1, vec = 2, stages = 3>}
  return
}

// -----

// shared-memory: 4 stages of (256 + 128) x 32 f64
func.func @f64_smem(%A: memref<64x64xf64>, %B: memref<64x64xf64>, %C: memref<64x64xf64>) {
  // expected-error @below {{illegal isaac.config for f64 on sm_90 (rule shared-memory): needs 393216 bytes of shared memory (4 stages of 98304 bytes); sm_90 allows 232448 bytes of dynamic shared memory per block}}
  // expected-note @below {{also breaks rule registers: needs about 304 registers per thread; sm_90 allows 255}}
  linalg.matmul ins(%A, %B : memref<64x64xf64>, memref<64x64xf64>) outs(%C : memref<64x64xf64>) {isaac.config = #isaac.gemm<family = mma, ml = 256, nl = 128, wm = 64, wn = 32, u = 32, kl = 1, kg = 1, vec = 2, stages = 4>}
  return
}

// -----

// warp-tile: wm must be a multiple of the instruction's m (16)
func.func @r1(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90 (rule warp-tile): wm = 8 is not a multiple of the instruction's m = 16}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf32>) {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 8, wn = 32, u = 32, kl = 1, kg = 1, vec = 8, stages = 3>}
  return
}

// -----

// warp-tile: ml must be a multiple of wm
func.func @r2(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90 (rule warp-tile): ml = 32 is not a multiple of wm = 64}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf32>) {isaac.config = #isaac.gemm<family = mma, ml = 32, nl = 64, wm = 64, wn = 32, u = 32, kl = 1, kg = 1, vec = 8, stages = 3>}
  return
}

// -----

// warp-tile: nl must be a multiple of wn
func.func @r3(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %C: memref<64x64xbf16>) {
  // expected-error @below {{illegal isaac.config for bf16 on sm_90 (rule warp-tile): nl = 16 is not a multiple of wn = 32}}
  linalg.matmul ins(%A, %B : memref<64x64xbf16>, memref<64x64xbf16>) outs(%C : memref<64x64xbf16>) {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 16, wm = 32, wn = 32, u = 32, kl = 1, kg = 1, vec = 8, stages = 3>}
  return
}

// -----

// k-depth: u must be a multiple of k * kl = 16 * 2
func.func @r4(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90 (rule k-depth): u = 16 is not a multiple of the instruction's k times kl = 16 * 2}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 16, kl = 2, kg = 1, vec = 8, stages = 3>}
  return
}

// -----

// threads-per-block
func.func @r5(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90 (rule threads-per-block): 32 * (ml/wm) * (nl/wn) * kl = 32 * 16 * 16 * 1 = 8192 threads per block; at most 1024}}
  // expected-note @below {{also breaks rule registers: needs about 60 x 8192 = 491520 registers per block}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf32>) {isaac.config = #isaac.gemm<family = mma, ml = 256, nl = 256, wm = 16, wn = 16, u = 32, kl = 1, kg = 1, vec = 8, stages = 2>}
  return
}

// -----

// vector-width: one f16 is 2 bytes, not a cp.async size
func.func @r6(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90 (rule vector-width): vec = 1 f16 elements is 2 bytes; cp.async copies 4, 8 or 16 bytes}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf32>) {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 32, kl = 1, kg = 1, vec = 1, stages = 3>}
  return
}

// -----

// shared-memory: 5 stages of 48 KiB
func.func @r7(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90 (rule shared-memory): needs 245760 bytes of shared memory (5 stages of 49152 bytes); sm_90 allows 232448 bytes of dynamic shared memory per block}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf32>) {isaac.config = #isaac.gemm<family = mma, ml = 256, nl = 128, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 5>}
  return
}

// -----

// registers: 512 f32 accumulators per thread
func.func @r8(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90 (rule registers): needs about 680 registers per thread; sm_90 allows 255}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf32>) {isaac.config = #isaac.gemm<family = mma, ml = 128, nl = 128, wm = 128, wn = 128, u = 32, kl = 1, kg = 1, vec = 8, stages = 3>}
  return
}

// -----

// simt-type: the simt family takes f32 and f64 operands
func.func @r9(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf32>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90 (rule simt-type): the simt family computes on f32 and f64 operands, not f16 (use family = mma)}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf32>) {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 8, u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}

// -----

// isaac.tf32 is a unit attribute of GEMMs.
func.func @bad_attr(%A: memref<64x64xf32>) {
  %cst = arith.constant 0.0 : f32
  // expected-error @below {{'isaac.tf32' is only valid on linalg.matmul, linalg.batch_matmul and isaac.gemm}}
  linalg.fill {isaac.tf32} ins(%cst : f32) outs(%A : memref<64x64xf32>)
  return
}

// -----

// cluster-chip: kc = 1 runs the KG slices as a thread-block cluster, which
// sm_80 cannot launch.
module attributes {isaac.target = "sm_80"} {
func.func @cluster_chip(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_80 (rule cluster-chip): sm_80 launches no thread-block clusters (cm > 1 or kc = 1 need sm_90 or later)}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 16, wm = 32, wn = 16, u = 64, kl = 1, kg = 4, vec = 8, stages = 4, kc = 1>}
  return
}
}
