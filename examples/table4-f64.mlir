// The ISAAC paper's Table 4 GEMMs in f64, plus LINPACK 4096^3: the f64
// benchmark of docs/perf.md. On sm_80 and sm_90 isaac-select-config ranks
// them in the mma family's space (DMMA tensor cores, mma.sync.m8n8k4.f64),
// as cuBLAS's DGEMM runs there. examples/table4.mlir holds the same f64
// GEMMs after its f32 ones; this file has them alone, with LINPACK 4096^3
// as examples/table4-half.mlir has it.
#n_a = affine_map<(m, n, k) -> (m, k)>
#t_a = affine_map<(m, n, k) -> (k, m)>
#n_b = affine_map<(m, n, k) -> (k, n)>
#t_b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

func.func @linpack_512x512x512_f64(%A: memref<512x512xf64>, %B: memref<512x512xf64>, %C: memref<512x512xf64>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<512x512xf64>, memref<512x512xf64>) outs(%C : memref<512x512xf64>)
  return
}

func.func @linpack_1024x1024x1024_f64(%A: memref<1024x1024xf64>, %B: memref<1024x1024xf64>, %C: memref<1024x1024xf64>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<1024x1024xf64>, memref<1024x1024xf64>) outs(%C : memref<1024x1024xf64>)
  return
}

func.func @linpack_2048x2048x2048_f64(%A: memref<2048x2048xf64>, %B: memref<2048x2048xf64>, %C: memref<2048x2048xf64>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<2048x2048xf64>, memref<2048x2048xf64>) outs(%C : memref<2048x2048xf64>)
  return
}

func.func @linpack_4096x4096x4096_f64(%A: memref<4096x4096xf64>, %B: memref<4096x4096xf64>, %C: memref<4096x4096xf64>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<4096x4096xf64>, memref<4096x4096xf64>) outs(%C : memref<4096x4096xf64>)
  return
}

func.func @deepbench_fwd_2560x16x2560_f64(%A: memref<2560x2560xf64>, %B: memref<2560x16xf64>, %C: memref<2560x16xf64>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf64>, memref<2560x16xf64>) outs(%C : memref<2560x16xf64>)
  return
}

func.func @deepbench_bwd_2560x16x2560_f64(%A: memref<2560x2560xf64>, %B: memref<2560x16xf64>, %C: memref<2560x16xf64>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf64>, memref<2560x16xf64>) outs(%C : memref<2560x16xf64>)
  return
}

func.func @deepbench_fwd_2560x32x2560_f64(%A: memref<2560x2560xf64>, %B: memref<2560x32xf64>, %C: memref<2560x32xf64>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf64>, memref<2560x32xf64>) outs(%C : memref<2560x32xf64>)
  return
}

func.func @deepbench_bwd_2560x32x2560_f64(%A: memref<2560x2560xf64>, %B: memref<2560x32xf64>, %C: memref<2560x32xf64>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf64>, memref<2560x32xf64>) outs(%C : memref<2560x32xf64>)
  return
}

func.func @deepbench_fwd_2560x64x2560_f64(%A: memref<2560x2560xf64>, %B: memref<2560x64xf64>, %C: memref<2560x64xf64>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf64>, memref<2560x64xf64>) outs(%C : memref<2560x64xf64>)
  return
}

func.func @deepbench_bwd_2560x64x2560_f64(%A: memref<2560x2560xf64>, %B: memref<2560x64xf64>, %C: memref<2560x64xf64>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf64>, memref<2560x64xf64>) outs(%C : memref<2560x64xf64>)
  return
}

func.func @deepbench_fwd_2560x128x2560_f64(%A: memref<2560x2560xf64>, %B: memref<2560x128xf64>, %C: memref<2560x128xf64>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf64>, memref<2560x128xf64>) outs(%C : memref<2560x128xf64>)
  return
}

func.func @deepbench_bwd_2560x128x2560_f64(%A: memref<2560x2560xf64>, %B: memref<2560x128xf64>, %C: memref<2560x128xf64>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf64>, memref<2560x128xf64>) outs(%C : memref<2560x128xf64>)
  return
}

func.func @ica_32x32x60000_f64(%A: memref<32x60000xf64>, %B: memref<32x60000xf64>, %C: memref<32x32xf64>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<32x60000xf64>, memref<32x60000xf64>) outs(%C : memref<32x32xf64>)
  return
}

func.func @ica_64x64x60000_f64(%A: memref<64x60000xf64>, %B: memref<64x60000xf64>, %C: memref<64x64xf64>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<64x60000xf64>, memref<64x60000xf64>) outs(%C : memref<64x64xf64>)
  return
}

func.func @ica_256x256x60000_f64(%A: memref<256x60000xf64>, %B: memref<256x60000xf64>, %C: memref<256x256xf64>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<256x60000xf64>, memref<256x60000xf64>) outs(%C : memref<256x256xf64>)
  return
}

func.func @lapack_4096x4096x32_f64(%A: memref<4096x32xf64>, %B: memref<4096x32xf64>, %C: memref<4096x4096xf64>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<4096x32xf64>, memref<4096x32xf64>) outs(%C : memref<4096x4096xf64>)
  return
}

func.func @lapack_3456x3456x32_f64(%A: memref<3456x32xf64>, %B: memref<3456x32xf64>, %C: memref<3456x3456xf64>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<3456x32xf64>, memref<3456x32xf64>) outs(%C : memref<3456x3456xf64>)
  return
}

func.func @lapack_896x896x32_f64(%A: memref<896x32xf64>, %B: memref<896x32xf64>, %C: memref<896x896xf64>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<896x32xf64>, memref<896x32xf64>) outs(%C : memref<896x896xf64>)
  return
}
