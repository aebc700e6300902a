// The end-to-end example's GEMMs (examples/e2e/README.md): compiled by
// build.sh into an object file that main.c calls on device memory.
//
// Every function is public and carries `llvm.emit_c_interface`, so the LLVM
// lowering also emits `_mlir_ciface_<name>(Desc *A, Desc *B, Desc *C)`, which
// takes one pointer per memref descriptor; main.c calls those. The memrefs'
// pointers are CUDA device pointers: the host code never dereferences them, it
// only passes them to isaacGemmLaunch.
//
// linalg.matmul on memrefs accumulates into its output: C += op(A)·op(B)
// (the runtime call uses alpha = 1, beta = 1). Shapes are deliberately not
// multiples of any tile size, so edge tiles take the predicated path.

#a  = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c  = affine_map<(m, n, k) -> (m, n)>

// f32, layout nt (B stored transposed, N×K): C[m][n] += Σ_k A[m][k]·B[n][k].
// M = N = 1000, K = 777.
func.func @gemm(%A: memref<1000x777xf32>, %B: memref<1000x777xf32>,
                %C: memref<1000x1000xf32>) attributes {llvm.emit_c_interface} {
  linalg.matmul indexing_maps = [#a, #bt, #c]
                ins(%A, %B : memref<1000x777xf32>, memref<1000x777xf32>)
                outs(%C : memref<1000x1000xf32>)
  return
}

// f64, batched, layout nn: C[b][m][n] += Σ_k A[b][m][k]·B[b][k][n].
// batch = 3, M = 130, N = 99, K = 70.
func.func @batched(%A: memref<3x130x70xf64>, %B: memref<3x70x99xf64>,
                   %C: memref<3x130x99xf64>) attributes {llvm.emit_c_interface} {
  linalg.batch_matmul ins(%A, %B : memref<3x130x70xf64>, memref<3x70x99xf64>)
                      outs(%C : memref<3x130x99xf64>)
  return
}

// f32, layout nn, small output and a deep reduction, with a hand-written
// configuration (isaac-select-config keeps it) that splits K into kg = 16
// slices across the grid: the runtime first launches isaac_scale_f32 (C =
// beta·C), then the GEMM kernel, whose slices add into C atomically.
// M = 50, N = 40, K = 20000.
func.func @deepk(%A: memref<50x20000xf32>, %B: memref<20000x40xf32>,
                 %C: memref<50x40xf32>) attributes {llvm.emit_c_interface} {
  linalg.matmul ins(%A, %B : memref<50x20000xf32>, memref<20000x40xf32>)
                outs(%C : memref<50x40xf32>)
                {isaac.config = #isaac.gemm<ml = 64, nl = 16, ms = 8, ns = 8,
                   u = 32, ks = 1, kl = 4, kg = 16, vec = 4>}
  return
}
