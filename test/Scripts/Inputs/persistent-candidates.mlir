// Selection output (isaac-select-config="topk=3" -mlir-print-local-scope)
// written by hand for test/Scripts/gen-kernels-persistent.test.
module attributes {isaac.target = "sm_90a"} {
  func.func @f(%arg0: memref<4096x4096xf16>, %arg1: memref<4096x4096xf16>, %arg2: memref<4096x4096xf16>, %arg3: memref<2560x16xf16>, %arg4: memref<2560x2560xf16>, %arg5: memref<2560x16xf16>) {
    linalg.matmul {isaac.candidates = [#isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 64, wn = 128, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, ws = 1>, #isaac.gemm<family = wgmma, ml = 64, nl = 64, wm = 64, wn = 64, u = 64, kl = 1, kg = 1, vec = 8, stages = 4>, #isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 64, wn = 128, u = 64, kl = 1, kg = 1, vec = 8, stages = 7, ws = 1>], isaac.config = #isaac.gemm<family = wgmma, ml = 128, nl = 128, wm = 64, wn = 128, u = 64, kl = 1, kg = 1, vec = 8, stages = 4, ws = 1>} ins(%arg0, %arg1 : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%arg2 : memref<4096x4096xf16>)
    linalg.matmul {isaac.candidates = [#isaac.gemm<family = wgmma, ml = 64, nl = 16, wm = 64, wn = 16, u = 64, kl = 1, kg = 8, vec = 8, stages = 5, ws = 1>, #isaac.gemm<family = wgmma, ml = 64, nl = 16, wm = 64, wn = 16, u = 64, kl = 1, kg = 1, vec = 8, stages = 5, ws = 1, pt = 1>], isaac.config = #isaac.gemm<family = wgmma, ml = 64, nl = 16, wm = 64, wn = 16, u = 64, kl = 1, kg = 8, vec = 8, stages = 5, ws = 1>} ins(%arg4, %arg3 : memref<2560x2560xf16>, memref<2560x16xf16>) outs(%arg5 : memref<2560x16xf16>)
    return
  }
}
