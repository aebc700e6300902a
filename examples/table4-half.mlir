// The ISAAC paper's Table 4 GEMMs (its f32 rows) with f16 and with bf16
// operands and C, plus LINPACK 4096^3: the half-precision benchmark of
// docs/perf.md (accumulation in f32 on tensor cores, as cuBLAS's default).
#n_a = affine_map<(m, n, k) -> (m, k)>
#t_a = affine_map<(m, n, k) -> (k, m)>
#n_b = affine_map<(m, n, k) -> (k, n)>
#t_b = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>

func.func @linpack_512x512x512_f16(%A: memref<512x512xf16>, %B: memref<512x512xf16>, %C: memref<512x512xf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<512x512xf16>, memref<512x512xf16>) outs(%C : memref<512x512xf16>)
  return
}

func.func @linpack_1024x1024x1024_f16(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<1024x1024xf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<1024x1024xf16>, memref<1024x1024xf16>) outs(%C : memref<1024x1024xf16>)
  return
}

func.func @linpack_2048x2048x2048_f16(%A: memref<2048x2048xf16>, %B: memref<2048x2048xf16>, %C: memref<2048x2048xf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<2048x2048xf16>, memref<2048x2048xf16>) outs(%C : memref<2048x2048xf16>)
  return
}

func.func @deepbench_fwd_2560x16x2560_f16(%A: memref<2560x2560xf16>, %B: memref<2560x16xf16>, %C: memref<2560x16xf16>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf16>, memref<2560x16xf16>) outs(%C : memref<2560x16xf16>)
  return
}

func.func @deepbench_bwd_2560x16x2560_f16(%A: memref<2560x2560xf16>, %B: memref<2560x16xf16>, %C: memref<2560x16xf16>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf16>, memref<2560x16xf16>) outs(%C : memref<2560x16xf16>)
  return
}

func.func @deepbench_fwd_2560x32x2560_f16(%A: memref<2560x2560xf16>, %B: memref<2560x32xf16>, %C: memref<2560x32xf16>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf16>, memref<2560x32xf16>) outs(%C : memref<2560x32xf16>)
  return
}

func.func @deepbench_bwd_2560x32x2560_f16(%A: memref<2560x2560xf16>, %B: memref<2560x32xf16>, %C: memref<2560x32xf16>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf16>, memref<2560x32xf16>) outs(%C : memref<2560x32xf16>)
  return
}

func.func @deepbench_fwd_2560x64x2560_f16(%A: memref<2560x2560xf16>, %B: memref<2560x64xf16>, %C: memref<2560x64xf16>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf16>, memref<2560x64xf16>) outs(%C : memref<2560x64xf16>)
  return
}

func.func @deepbench_bwd_2560x64x2560_f16(%A: memref<2560x2560xf16>, %B: memref<2560x64xf16>, %C: memref<2560x64xf16>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf16>, memref<2560x64xf16>) outs(%C : memref<2560x64xf16>)
  return
}

func.func @deepbench_fwd_2560x128x2560_f16(%A: memref<2560x2560xf16>, %B: memref<2560x128xf16>, %C: memref<2560x128xf16>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf16>, memref<2560x128xf16>) outs(%C : memref<2560x128xf16>)
  return
}

func.func @deepbench_bwd_2560x128x2560_f16(%A: memref<2560x2560xf16>, %B: memref<2560x128xf16>, %C: memref<2560x128xf16>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xf16>, memref<2560x128xf16>) outs(%C : memref<2560x128xf16>)
  return
}

func.func @ica_32x32x60000_f16(%A: memref<32x60000xf16>, %B: memref<32x60000xf16>, %C: memref<32x32xf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<32x60000xf16>, memref<32x60000xf16>) outs(%C : memref<32x32xf16>)
  return
}

func.func @ica_64x64x60000_f16(%A: memref<64x60000xf16>, %B: memref<64x60000xf16>, %C: memref<64x64xf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<64x60000xf16>, memref<64x60000xf16>) outs(%C : memref<64x64xf16>)
  return
}

func.func @ica_256x256x60000_f16(%A: memref<256x60000xf16>, %B: memref<256x60000xf16>, %C: memref<256x256xf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<256x60000xf16>, memref<256x60000xf16>) outs(%C : memref<256x256xf16>)
  return
}

func.func @lapack_4096x4096x32_f16(%A: memref<4096x32xf16>, %B: memref<4096x32xf16>, %C: memref<4096x4096xf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<4096x32xf16>, memref<4096x32xf16>) outs(%C : memref<4096x4096xf16>)
  return
}

func.func @lapack_3456x3456x32_f16(%A: memref<3456x32xf16>, %B: memref<3456x32xf16>, %C: memref<3456x3456xf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<3456x32xf16>, memref<3456x32xf16>) outs(%C : memref<3456x3456xf16>)
  return
}

func.func @lapack_896x896x32_f16(%A: memref<896x32xf16>, %B: memref<896x32xf16>, %C: memref<896x896xf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<896x32xf16>, memref<896x32xf16>) outs(%C : memref<896x896xf16>)
  return
}

func.func @linpack_4096x4096x4096_f16(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%C : memref<4096x4096xf16>)
  return
}
func.func @linpack_512x512x512_bf16(%A: memref<512x512xbf16>, %B: memref<512x512xbf16>, %C: memref<512x512xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<512x512xbf16>, memref<512x512xbf16>) outs(%C : memref<512x512xbf16>)
  return
}

func.func @linpack_1024x1024x1024_bf16(%A: memref<1024x1024xbf16>, %B: memref<1024x1024xbf16>, %C: memref<1024x1024xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<1024x1024xbf16>, memref<1024x1024xbf16>) outs(%C : memref<1024x1024xbf16>)
  return
}

func.func @linpack_2048x2048x2048_bf16(%A: memref<2048x2048xbf16>, %B: memref<2048x2048xbf16>, %C: memref<2048x2048xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<2048x2048xbf16>, memref<2048x2048xbf16>) outs(%C : memref<2048x2048xbf16>)
  return
}

func.func @deepbench_fwd_2560x16x2560_bf16(%A: memref<2560x2560xbf16>, %B: memref<2560x16xbf16>, %C: memref<2560x16xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xbf16>, memref<2560x16xbf16>) outs(%C : memref<2560x16xbf16>)
  return
}

func.func @deepbench_bwd_2560x16x2560_bf16(%A: memref<2560x2560xbf16>, %B: memref<2560x16xbf16>, %C: memref<2560x16xbf16>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xbf16>, memref<2560x16xbf16>) outs(%C : memref<2560x16xbf16>)
  return
}

func.func @deepbench_fwd_2560x32x2560_bf16(%A: memref<2560x2560xbf16>, %B: memref<2560x32xbf16>, %C: memref<2560x32xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xbf16>, memref<2560x32xbf16>) outs(%C : memref<2560x32xbf16>)
  return
}

func.func @deepbench_bwd_2560x32x2560_bf16(%A: memref<2560x2560xbf16>, %B: memref<2560x32xbf16>, %C: memref<2560x32xbf16>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xbf16>, memref<2560x32xbf16>) outs(%C : memref<2560x32xbf16>)
  return
}

func.func @deepbench_fwd_2560x64x2560_bf16(%A: memref<2560x2560xbf16>, %B: memref<2560x64xbf16>, %C: memref<2560x64xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xbf16>, memref<2560x64xbf16>) outs(%C : memref<2560x64xbf16>)
  return
}

func.func @deepbench_bwd_2560x64x2560_bf16(%A: memref<2560x2560xbf16>, %B: memref<2560x64xbf16>, %C: memref<2560x64xbf16>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xbf16>, memref<2560x64xbf16>) outs(%C : memref<2560x64xbf16>)
  return
}

func.func @deepbench_fwd_2560x128x2560_bf16(%A: memref<2560x2560xbf16>, %B: memref<2560x128xbf16>, %C: memref<2560x128xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xbf16>, memref<2560x128xbf16>) outs(%C : memref<2560x128xbf16>)
  return
}

func.func @deepbench_bwd_2560x128x2560_bf16(%A: memref<2560x2560xbf16>, %B: memref<2560x128xbf16>, %C: memref<2560x128xbf16>) {
  linalg.matmul indexing_maps = [#t_a, #n_b, #c]
    ins(%A, %B : memref<2560x2560xbf16>, memref<2560x128xbf16>) outs(%C : memref<2560x128xbf16>)
  return
}

func.func @ica_32x32x60000_bf16(%A: memref<32x60000xbf16>, %B: memref<32x60000xbf16>, %C: memref<32x32xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<32x60000xbf16>, memref<32x60000xbf16>) outs(%C : memref<32x32xbf16>)
  return
}

func.func @ica_64x64x60000_bf16(%A: memref<64x60000xbf16>, %B: memref<64x60000xbf16>, %C: memref<64x64xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<64x60000xbf16>, memref<64x60000xbf16>) outs(%C : memref<64x64xbf16>)
  return
}

func.func @ica_256x256x60000_bf16(%A: memref<256x60000xbf16>, %B: memref<256x60000xbf16>, %C: memref<256x256xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<256x60000xbf16>, memref<256x60000xbf16>) outs(%C : memref<256x256xbf16>)
  return
}

func.func @lapack_4096x4096x32_bf16(%A: memref<4096x32xbf16>, %B: memref<4096x32xbf16>, %C: memref<4096x4096xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<4096x32xbf16>, memref<4096x32xbf16>) outs(%C : memref<4096x4096xbf16>)
  return
}

func.func @lapack_3456x3456x32_bf16(%A: memref<3456x32xbf16>, %B: memref<3456x32xbf16>, %C: memref<3456x3456xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<3456x32xbf16>, memref<3456x32xbf16>) outs(%C : memref<3456x3456xbf16>)
  return
}

func.func @lapack_896x896x32_bf16(%A: memref<896x32xbf16>, %B: memref<896x32xbf16>, %C: memref<896x896xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<896x32xbf16>, memref<896x32xbf16>) outs(%C : memref<896x896xbf16>)
  return
}

func.func @linpack_4096x4096x4096_bf16(%A: memref<4096x4096xbf16>, %B: memref<4096x4096xbf16>, %C: memref<4096x4096xbf16>) {
  linalg.matmul indexing_maps = [#n_a, #t_b, #c]
    ins(%A, %B : memref<4096x4096xbf16>, memref<4096x4096xbf16>) outs(%C : memref<4096x4096xbf16>)
  return
}
