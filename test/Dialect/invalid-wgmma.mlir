// RUN: isaac-opt %s -split-input-file -verify-diagnostics

// The wgmma family's legality rules (lib/Model/WgmmaLegality.cpp), reported
// by the verifier of isaac.config against the operation's operand type on
// the chip the enclosing module names (isaac.target).

// wgmma-type: only sm_90a has wgmma; sm_90 (the default) does not.
func.func @no_wgmma(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90 (rule wgmma-type): sm_90 has no wgmma (sm_90a only; use chip=sm_90a)}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 4>}
  return
}

// -----

// wgmma-type: f32 operands (TF32 wgmma is not generated).
module attributes {isaac.target = "sm_90a"} {
func.func @f32(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  // expected-error @below {{illegal isaac.config for f32 on sm_90a (rule wgmma-type): the wgmma family computes on f16 and bf16 operands, not f32}}
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>) {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 32, kl = 1, kg = 1, vec = 4, stages = 4>}
  return
}
}

// -----

// warp-tile: a warpgroup computes whole 64-row wgmma tiles.
module attributes {isaac.target = "sm_90a"} {
func.func @wm32(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule warp-tile): wm = 32 is not a multiple of wgmma's m = 64}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 32, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 4>}
  return
}
}

// -----

// warp-tile: 8 columns of 16-bit elements are 16 bytes, below the narrowest
// swizzle atom.
module attributes {isaac.target = "sm_90a"} {
func.func @wn8(%A: memref<64x64xbf16>, %B: memref<64x64xbf16>, %C: memref<64x64xbf16>) {
  // expected-error @below {{illegal isaac.config for bf16 on sm_90a (rule warp-tile): wn = 8 is below 16 (a warpgroup's columns fill a 32-byte swizzle atom)}}
  linalg.matmul ins(%A, %B : memref<64x64xbf16>, memref<64x64xbf16>) outs(%C : memref<64x64xbf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 8, u = 64, kl = 1, kg = 1, vec = 8, stages = 4>}
  return
}
}

// -----

// k-depth: each of the KL groups takes whole 16-deep k-steps.
module attributes {isaac.target = "sm_90a"} {
func.func @kdepth(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule k-depth): u = 32 is not a multiple of wgmma's k times kl = 16 * 4}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 32, kl = 4, kg = 1, vec = 8, stages = 4>}
  return
}
}

// -----

// accumulators: a 128 x 256 warpgroup tile is 256 f32 a thread.
module attributes {isaac.target = "sm_90a"} {
func.func @acc(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule accumulators): wm * wn / 128 = 256 f32 accumulators a thread; at most 128}}
  // expected-note @below {{also breaks rule registers: needs about 344 registers per thread; sm_90a allows 255}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 256, wm = 128, wn = 256, u = 64, kl = 1, kg = 1, vec = 8, stages = 3>}
  return
}
}

// -----

// stages: the wgmmas of one tile stay in flight while the next is copied.
module attributes {isaac.target = "sm_90a"} {
func.func @stages(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule stages): stages = 2: wgmma kernels keep one tile's wgmmas in flight while copying, at least 3 stages}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 2>}
  return
}
}

// -----

// shared-memory: 8 stages of 256 x 256 x 64 f16 tiles.
module attributes {isaac.target = "sm_90a"} {
func.func @smem(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-note @below {{also breaks rule registers: needs about 112 x 1024 = 114688 registers per block; sm_90a has 65536}}
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule shared-memory): needs 524416 bytes of shared memory (8 stages of 65536 bytes and 128 bytes of mbarriers); sm_90a allows 232448 bytes of dynamic shared memory per block}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 256, nl = 256, wm = 64, wn = 128, u = 64, kl = 1, kg = 1, vec = 8, stages = 8>}
  return
}
}

// -----

// threads-per-block: 8 warpgroups (1024 threads) times kl = 2.
module attributes {isaac.target = "sm_90a"} {
func.func @threads(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-note @below {{also breaks rule registers: needs about 52 x 2048 = 106496 registers per block; sm_90a has 65536}}
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule threads-per-block): 128 * (ml/wm) * (nl/wn) * kl = 128 * 4 * 2 * 2 = 2048 threads per block; at most 1024}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 256, nl = 32, wm = 64, wn = 16, u = 32, kl = 2, kg = 1, vec = 8, stages = 3>}
  return
}
}

// -----

// cluster: each of the cm = 4 blocks copies 1/4 of B's rows, whole 8-row
// swizzle patterns: nl = 16 rows (K-major B) is not 4 of them.
module attributes {isaac.target = "sm_90a"} {
func.func @cluster(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule cluster): cm = 4 needs nl = 16 and u = 64 multiples of 8 * cm = 32 (each block of the cluster copies 1/cm of B's rows, whole 8-row swizzle patterns)}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 16, wm = 64, wn = 16, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, cm = 4>}
  return
}
}

// -----

// cluster-k: kc = 1 runs a tile's kg slices as one thread-block cluster,
// at most 8 blocks (a portable cluster).
module attributes {isaac.target = "sm_90a"} {
func.func @cluster_k(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule cluster-k): kc = 1 needs kg from 2 to 8 (the blocks of a portable cluster) and cm = 1, not kg = 16, cm = 1}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 16, wm = 64, wn = 16, u = 64, kl = 1, kg = 16, vec = 8, stages = 4, kc = 1>}
  return
}
}

// -----

// warp-specialized: a cluster along M only without persistent tiles (the
// cluster's blocks share B's stages, one output tile's K loop each).
module attributes {isaac.target = "sm_90a"} {
func.func @ws_cluster(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule warp-specialized): ws = 1 with cm = 2 needs pt = 0, not pt = 1 (a cluster's blocks share each stage's B tile, so they must walk the same output tiles' K loops in step)}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, cm = 2, ws = 1, pt = 1>}
  return
}
}

// -----

// registers with ws = 1: four computing warpgroups and the producer (640
// threads) leave 96 registers a thread; the producer's given back
// (setmaxnreg) make 104 for the computing ones, below the estimate.
module attributes {isaac.target = "sm_90a"} {
func.func @ws_registers(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule registers): ws = 1: the computing threads need about 116 registers; with the producer's given back (setmaxnreg) they get 104}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 256, nl = 128, wm = 64, wn = 128, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, ws = 1>}
  return
}
}

// -----

// ws is the wgmma family's only.
module attributes {isaac.target = "sm_90a"} {
func.func @ws_mma(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{#isaac.gemm parameter 'ws' is not a parameter of the mma family}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = mma, ml = 64, nl = 64, wm = 32, wn = 32, u = 32, kl = 1, kg = 1, vec = 8, stages = 3, ws = 1>}
  return
}
}

// -----

// persistent: pt = 1 needs the producer warpgroup (ws = 1).
module attributes {isaac.target = "sm_90a"} {
func.func @pt_without_ws(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule persistent): pt = 1 needs ws = 1 (the producer warpgroup fetches the next tile while the others store this one)}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, pt = 1>}
  return
}
}

// -----

// persistent: a block's tiles change, so no split of K across the grid.
module attributes {isaac.target = "sm_90a"} {
func.func @pt_split_k(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule persistent): pt = 1 needs kg = 1 and kl = 1, not kg = 2, kl = 1 (the blocks' tiles change; the split-K protocol is per tile, and the KL partials would use stages the producer is refilling)}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 2, vec = 8, stages = 4, ws = 1, pt = 1>}
  return
}
}

// -----

// shared-memory with pt = 1: the epilogue's staging regions (2304 bytes a
// computing warp) after the mbarriers no longer fit beside 7 stages.
module attributes {isaac.target = "sm_90a"} {
func.func @pt_smem(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule shared-memory): needs 247936 bytes of shared memory (7 stages of 32768 bytes, 112 bytes of mbarriers and 18432 bytes of epilogue staging); sm_90a allows 232448 bytes of dynamic shared memory per block}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 64, wn = 128, u = 64, kl = 1, kg = 1, vec = 8, stages = 7, ws = 1, pt = 1>}
  return
}
}

// -----

// persistent with pt = 2 (ping-pong): one warpgroup a tile, each of the
// two computing its own.
module attributes {isaac.target = "sm_90a"} {
func.func @pp_two_groups(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>) {
  // expected-error @below {{illegal isaac.config for f16 on sm_90a (rule persistent): pt = 2 (ping-pong) needs one warpgroup a tile, wm = ml and wn = nl, not 2 (each of its two warpgroups computes a tile of its own)}}
  linalg.matmul ins(%A, %B : memref<64x64xf16>, memref<64x64xf16>) outs(%C : memref<64x64xf16>) {isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, ws = 1, pt = 2>}
  return
}
}
