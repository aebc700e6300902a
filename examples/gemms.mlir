// GEMMs from the ISAAC paper's Table 4 (row-major memrefs; "transposed"
// operands are expressed through linalg.matmul's indexing maps).
// Compile with:
//   isaac-opt examples/gemms.mlir --isaac-pipeline="chip=sm_90 ptx-dir=out"

#nn_a = affine_map<(m, n, k) -> (m, k)>
#nn_b = affine_map<(m, n, k) -> (k, n)>
#t_a = affine_map<(m, n, k) -> (k, m)>
#t_b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

// DeepBench forward propagation: M=2560, N=16, K=2560.
func.func @deepbench_fwd_2560x16x2560(%A: memref<2560x2560xf32>,
    %B: memref<2560x16xf32>, %C: memref<2560x16xf32>) {
  linalg.matmul ins(%A, %B : memref<2560x2560xf32>, memref<2560x16xf32>)
                outs(%C : memref<2560x16xf32>)
  return
}

// DeepBench backward propagation: A transposed.
func.func @deepbench_bwd_2560x32x2560(%A: memref<2560x2560xf32>,
    %B: memref<2560x32xf32>, %C: memref<2560x32xf32>) {
  linalg.matmul indexing_maps = [#t_a, #nn_b, #c]
                ins(%A, %B : memref<2560x2560xf32>, memref<2560x32xf32>)
                outs(%C : memref<2560x32xf32>)
  return
}

// LINPACK: square, B transposed.
func.func @linpack_2048(%A: memref<2048x2048xf32>, %B: memref<2048x2048xf32>,
    %C: memref<2048x2048xf32>) {
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c]
                ins(%A, %B : memref<2048x2048xf32>, memref<2048x2048xf32>)
                outs(%C : memref<2048x2048xf32>)
  return
}

// ICA: deep reduction, 32 channels, double precision.
func.func @ica_32x32x60000(%A: memref<32x60000xf64>, %B: memref<32x60000xf64>,
    %C: memref<32x32xf64>) {
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c]
                ins(%A, %B : memref<32x60000xf64>, memref<32x60000xf64>)
                outs(%C : memref<32x32xf64>)
  return
}

// Blocked SVD update (LAPACK): K = 32, with a hand-written configuration,
// which isaac-select-config keeps.
func.func @lapack_896x896x32(%A: memref<896x32xf32>, %B: memref<896x32xf32>,
    %C: memref<896x896xf32>) {
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c]
                ins(%A, %B : memref<896x32xf32>, memref<896x32xf32>)
                outs(%C : memref<896x896xf32>)
                {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 4,
                   u = 8, ks = 1, kl = 1, kg = 1, vec = 4>}
  return
}

// A batched GEMM: 8 independent 128x128x256 products.
func.func @batched_8x128x128x256(%A: memref<8x128x256xf32>,
    %B: memref<8x256x128xf32>, %C: memref<8x128x128xf32>) {
  linalg.batch_matmul ins(%A, %B : memref<8x128x256xf32>, memref<8x256x128xf32>)
                      outs(%C : memref<8x128x128xf32>)
  return
}
