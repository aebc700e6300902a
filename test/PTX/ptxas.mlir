// REQUIRES: ptxas
// The PTX of every layout and dtype assembles for sm_90 and sm_80.
// RUN: rm -rf %t && isaac-opt %s --isaac-pipeline="chip=sm_90 ptx-dir=%t/sm90" -o /dev/null
// RUN: isaac-opt %s --isaac-pipeline="chip=sm_80 ptx-dir=%t/sm80" -o /dev/null
// RUN: for f in %t/sm90/*.ptx; do %ptxas -arch=sm_90 $f -o %t/out.cubin || exit 1; done
// RUN: for f in %t/sm80/*.ptx; do %ptxas -arch=sm_80 $f -o %t/out.cubin || exit 1; done
// RUN: ls %t/sm90 | count 4

#nn_a = affine_map<(m, n, k) -> (m, k)>
#nn_b = affine_map<(m, n, k) -> (k, n)>
#t_a = affine_map<(m, n, k) -> (k, m)>
#t_b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

func.func @layouts(%A: memref<129x127xf32>, %At: memref<127x129xf32>,
                   %B: memref<127x31xf32>, %Bt: memref<31x127xf32>,
                   %C: memref<129x31xf32>, %D: memref<129x31xf64>,
                   %Ad: memref<127x129xf64>, %Bd: memref<31x127xf64>) {
  linalg.matmul indexing_maps = [#nn_a, #nn_b, #c] ins(%A, %B : memref<129x127xf32>, memref<127x31xf32>) outs(%C : memref<129x31xf32>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 32, ms = 4, ns = 4, u = 8, ks = 1, kl = 2, kg = 1, vec = 4>}
  linalg.matmul indexing_maps = [#nn_a, #t_b, #c] ins(%A, %Bt : memref<129x127xf32>, memref<31x127xf32>) outs(%C : memref<129x31xf32>)
    {isaac.config = #isaac.gemm<ml = 32, nl = 32, ms = 2, ns = 4, u = 16, ks = 2, kl = 1, kg = 4, vec = 2>}
  linalg.matmul indexing_maps = [#t_a, #nn_b, #c] ins(%At, %B : memref<127x129xf32>, memref<127x31xf32>) outs(%C : memref<129x31xf32>)
    {isaac.config = #isaac.gemm<ml = 16, nl = 16, ms = 1, ns = 1, u = 4, ks = 1, kl = 4, kg = 2, vec = 1>}
  linalg.matmul indexing_maps = [#t_a, #t_b, #c] ins(%Ad, %Bd : memref<127x129xf64>, memref<31x127xf64>) outs(%D : memref<129x31xf64>)
    {isaac.config = #isaac.gemm<ml = 64, nl = 64, ms = 8, ns = 4, u = 8, ks = 1, kl = 1, kg = 1, vec = 2>}
  return
}
