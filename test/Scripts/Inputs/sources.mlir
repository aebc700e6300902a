// One GEMM per source of a configuration, for test/Scripts/example-sources.test.
func.func @from_cache(%A: memref<512x256xf32>, %B: memref<256x1024xf32>, %C: memref<512x1024xf32>) {
  linalg.matmul ins(%A, %B : memref<512x256xf32>, memref<256x1024xf32>) outs(%C : memref<512x1024xf32>)
  return
}

// Two GEMMs in one function: a hand-written configuration, then the model.
func.func @two(%A: memref<64x64xf32>, %B: memref<64x64xf32>, %C: memref<64x64xf32>) {
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2>}
  linalg.matmul ins(%A, %B : memref<64x64xf32>, memref<64x64xf32>) outs(%C : memref<64x64xf32>)
  return
}

func.func @f64_dmma(%A: memref<96x80xf64>, %B: memref<80x48xf64>, %C: memref<96x48xf64>) {
  linalg.matmul ins(%A, %B : memref<96x80xf64>, memref<80x48xf64>) outs(%C : memref<96x48xf64>)
  return
}
